"""Attacks on a real `kg serve` on 127.0.0.1: federation, request framing, load, memory, headers, Ctrl-C.

One server over the samples serves the whole module (started in its own process group, so the last
test can press Ctrl-C the way a terminal does); a loopback listener counts every request any query
makes it receive. Every test reads the server's stderr for tracebacks.
"""

from __future__ import annotations

import codecs
import csv
import html
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import KG_BIN, run_kg

from kg.stores.server import MAX_CONNECTIONS

pytestmark = pytest.mark.server

ATTACKS = Path(__file__).parent.parent / "data" / "serve_framing_attacks.tsv"
HEAVY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
RUNAWAY = "SELECT ?a ?b ?c ?d ?e ?f WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?f ?c"
NO_ROWS = b'{"head": {"vars": []}, "results": {"bindings": []}}'
TIMEOUT, QUERY_MEMORY, QUEUE_WAIT, IDLE = 5, 256, 4, 2


@dataclass
class Served:
    process: subprocess.Popen
    port: int
    stderr: Path
    site: Path

    @property
    def sparql(self) -> str:
        return f"http://127.0.0.1:{self.port}/sparql"

    def log(self) -> str:
        return self.stderr.read_text(errors="replace")


class Listener:
    """An HTTP server on loopback that only counts the requests it gets."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        paths = self.paths

        class Count(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                paths.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "application/sparql-results+json")
                self.send_header("Content-Length", str(len(NO_ROWS)))
                self.end_headers()
                self.wfile.write(NO_ROWS)

            do_POST = do_GET

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Count)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/internal-admin"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture(scope="module")
def listener():
    server = Listener()
    yield server
    server.server.shutdown()
    server.server.server_close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serve-security")
    run_kg("build", "--store", str(folder / "store"), cwd=folder)
    stderr = folder / "serve.err"
    with stderr.open("wb") as sink:
        process = subprocess.Popen(
            [
                str(KG_BIN),
                "serve",
                "--port",
                "0",
                "--store",
                str(folder / "store"),
                "--site",
                str(folder / "site"),
                "--timeout",
                str(TIMEOUT),
                "--query-memory",
                str(QUERY_MEMORY),
                "--queue-wait",
                str(QUEUE_WAIT),
                "--idle-timeout",
                str(IDLE),
            ],
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=sink,
            start_new_session=True,
        )
    deadline = time.monotonic() + 120
    while not (match := re.search(r"http://127\.0\.0\.1:(\d+)/sparql", stderr.read_text())):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"kg serve did not start: {stderr.read_text()}")
        time.sleep(0.1)
    yield Served(process, int(match.group(1)), stderr, folder / "site")
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def request(
    url: str,
    query: str | None = None,
    method: str = "GET",
    body: bytes | None = None,
    headers: dict | None = None,
    timeout: float = 60,
) -> tuple[int, dict, bytes]:
    if query is not None:
        url += "?" + urllib.parse.urlencode({"query": query})
    call = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(call, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def raw(port: int, data: bytes, timeout: float = 10) -> bytes:
    """Send bytes, close the sending side, read the answer until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        try:
            connection.sendall(data)
            connection.shutdown(socket.SHUT_WR)
        except OSError:  # a server that answers at once (503 at the connection cap) may close first
            pass
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def federated_queries(target: str) -> list[str]:
    return [
        f"SELECT * WHERE {{ SERVICE <{target}> {{ ?s ?p ?o }} }}",
        f"SELECT * WHERE {{ SERVICE SILENT <{target}> {{ ?s ?p ?o }} }}",
        f"select * where {{ VALUES ?endpoint {{ <{target}> }} service ?endpoint {{ ?s ?p ?o }} }}",
        f"ASK {{ ?x ?y ?z FILTER EXISTS {{ SERVICE <{target}> {{ ?s ?p ?o }} }} }}",
        f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ OPTIONAL {{ SERVICE <{target}> {{ ?s ?p ?o }} }} }}",
        f"SELECT * WHERE {{ \\u0053ERVICE <{target}> {{ ?s ?p ?o }} }}",
    ]


def test_service_is_refused_and_no_query_makes_the_server_call_a_host(served, listener, tmp_path):
    listener.paths.clear()
    control = ox.Store()
    # The same engine without the refusal: the listener is reached.
    assert list(control.query(federated_queries(listener.url)[0])) == [] and len(listener.paths) == 1
    listener.paths.clear()
    for query in federated_queries(listener.url):
        for method, body, headers in (
            ("GET", None, {}),
            (
                "POST",
                urllib.parse.urlencode({"query": query}).encode(),
                {"Content-Type": "application/x-www-form-urlencoded"},
            ),
            ("POST", query.encode(), {"Content-Type": "application/sparql-query"}),
        ):
            status, _, answer = request(served.sparql, query if method == "GET" else None, method, body, headers)
            assert status == 400 and answer.startswith(b"SPARQL query refused:"), (query, method, answer)
    for query in (
        f"SELECT * FROM <{listener.url}> WHERE {{ ?s ?p ?o }}",
        f"SELECT * FROM NAMED <{listener.url}> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}",
        f'SELECT * WHERE {{ ?s ?p "SERVICE <{listener.url}> {{}}" }}',
    ):
        status, _, answer = request(served.sparql, query)
        assert status == 200, answer  # a dataset of the store's own graphs, nothing fetched
    rq = tmp_path / "service.rq"
    rq.write_text(federated_queries(listener.url)[0])
    cli = run_kg("query", "--file", str(rq), "--store", served.sparql, cwd=tmp_path, check=False)
    assert cli.returncode == 2 and b"SERVICE" in cli.stderr and b"Traceback" not in cli.stderr
    time.sleep(0.3)
    assert listener.paths == []
    assert "Traceback" not in served.log()


def _attacks() -> list:
    rows = csv.DictReader((line for line in ATTACKS.open(encoding="utf-8") if not line.startswith("#")), delimiter="\t")
    return [pytest.param(row["request"], int(row["status"]), id=row["case"]) for row in rows]


@pytest.mark.parametrize(("sent", "status"), _attacks())
def test_framing_attacks_get_their_4xx_and_leave_no_traceback(served, sent, status):
    data = codecs.decode(sent, "unicode_escape").replace("{long}", "a" * 70_000).encode("latin-1")
    answer = raw(served.port, data)
    assert answer.startswith(b"HTTP/1."), answer[:200]
    assert int(answer.split()[1]) == status, answer[:300]
    assert answer.count(b"\r\nServer: kg\r\n") == 1  # one answer: nothing after it read as a request
    assert b"Server: kg\r\n" in answer and b"X-Content-Type-Options: nosniff" in answer
    assert "Traceback" not in served.log()
    status_now, _, body = request(served.sparql, "ASK { ?s ?p ?o }")
    assert status_now == 200 and b"true" in body


def test_a_body_over_the_cap_is_not_read(served):
    """Content-Length -1 once made the server read 200 MB; now no byte beyond the cap is taken."""
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as connection:
        connection.sendall(
            b"POST /sparql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/sparql-query\r\n"
            b"Content-Length: -1\r\n\r\n"
        )
        connection.settimeout(0.5)
        sent = 0
        try:
            while sent < 64 << 20:
                sent += connection.send(b"#" * 65536)
        except OSError:  # answered and closed, or the server stopped reading: a full socket buffer
            pass
        connection.settimeout(10)
        print(f"bytes the socket took before the answer: {sent:,}")
        assert sent < 16 << 20
        answer = connection.recv(4096)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]


def test_headers_of_pages_and_answers(served):
    base = f"http://127.0.0.1:{served.port}/"
    status, headers, page = request(base + "index.html")
    assert status == 200 and headers["Server"] == "kg" and headers["X-Content-Type-Options"] == "nosniff"
    policy = headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert page.count(b"<script>") == policy.count("'sha256-")
    status, headers, _ = request(served.sparql, "ASK { ?s ?p ?o }")
    assert status == 200 and headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert headers["Server"] == "kg" and headers["X-Content-Type-Options"] == "nosniff"


def test_keep_alive_then_the_idle_connection_is_closed(served):
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    for _ in range(3):  # three requests on one connection
        connection.request("GET", "/sparql?" + urllib.parse.urlencode({"query": "ASK { ?s ?p ?o }"}))
        response = connection.getresponse()
        assert response.status == 200 and response.read() == b'{"head": {}, "boolean": true}'
    sock = connection.sock
    time.sleep(IDLE + 1)
    assert sock.recv(1) == b""  # the server closed the idle connection
    connection.close()


def test_connections_beyond_the_cap_get_503_and_the_server_recovers(served):
    held = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(MAX_CONNECTIONS)]
    try:
        time.sleep(0.3)  # every one accepted and waiting for its request line
        assert raw(served.port, b"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").startswith(
            b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n"
        )
    finally:
        for connection in held:
            connection.close()
    time.sleep(0.5)
    status, _, body = request(served.sparql, "ASK { ?s ?p ?o }")
    assert status == 200 and b"true" in body


@pytest.mark.slow
def test_a_trivial_ask_is_answered_in_under_a_second_while_eight_heavy_queries_run(served):
    heavy: list[tuple[int, dict, bytes]] = []
    threads = [threading.Thread(target=lambda: heavy.append(request(served.sparql, HEAVY))) for _ in range(8)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    latencies = []
    for at in (0.3, 0.8, 1.5, 2.2):
        time.sleep(max(0.0, started + at - time.perf_counter()))
        asked = time.perf_counter()
        status, _, body = request(served.sparql, "ASK { ?s ?p ?o }")
        latencies.append(time.perf_counter() - asked)
        assert status == 200 and b"true" in body
    for thread in threads:
        thread.join(timeout=60)
    print("ASK latencies under 8 heavy queries: " + ", ".join(f"{s * 1000:.0f} ms" for s in latencies))
    assert max(latencies) < 1.0
    assert len(heavy) == 8 and {status for status, _, _ in heavy} == {503}
    for _, headers, body in heavy:
        assert body.startswith(b"SPARQL query stopped: it ran longer than the time limit") or (
            body.startswith(b"SPARQL query not run:") and headers["Retry-After"].isdigit()
        )


def test_a_runaway_query_is_stopped_at_the_memory_limit_and_the_server_goes_on(served):
    started = time.perf_counter()
    status, headers, body = request(served.sparql, RUNAWAY)
    seconds = time.perf_counter() - started
    print(f"runaway ORDER BY stopped after {seconds:.2f} s: {body.decode().strip()}")
    assert status == 503 and body.decode().startswith(
        f"SPARQL query stopped: it needed more memory than the limit of {QUERY_MEMORY} MiB"
    )
    assert seconds < TIMEOUT  # the memory ceiling ended it, not the time limit
    status, _, body = request(served.sparql, "ASK { ?s ?p ?o }")
    assert status == 200 and b"true" in body


def test_a_client_that_goes_away_costs_one_quiet_line(served):
    before = served.log()
    for _ in range(3):
        connection = socket.create_connection(("127.0.0.1", served.port), timeout=10)
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        target = "/sparql?" + urllib.parse.urlencode({"query": "SELECT * WHERE { ?s ?p ?o }"})
        connection.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/csv\r\n\r\n".encode())
        connection.recv(100)
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        connection.close()  # a reset, with most of the answer unsent
    time.sleep(1)
    new = served.log()[len(before) :]
    print(new)
    assert "Traceback" not in new and new.splitlines()
    assert all(line.startswith("kg serve: ") and "went away" in line for line in new.splitlines()), new


def _answers(browser, prefix: str) -> list[tuple[int, str]]:
    """(status, why the page may not read it) of each response to a request the page sent to ``prefix``."""
    sent = {
        event["params"]["requestId"]
        for event in browser.events
        if event.get("method") == "Network.requestWillBeSent" and event["params"]["request"]["url"].startswith(prefix)
    }
    blocked = {
        event["params"]["requestId"]: event["params"].get("blockedReason", "")
        for event in browser.events
        if event.get("method") == "Network.loadingFailed"
    }
    return [
        (event["params"]["statusCode"], blocked.get(event["params"]["requestId"], ""))
        for event in browser.events
        if event.get("method") == "Network.responseReceivedExtraInfo" and event["params"]["requestId"] in sent
    ]


@pytest.mark.browser
def test_a_web_page_cannot_make_the_server_call_a_host(served, listener, loopback_browser, tmp_path):
    """The attack of the report: any page the user opens makes their `kg serve` run SERVICE queries."""
    listener.paths.clear()
    query = federated_queries(listener.url)[0]
    form = urllib.parse.urlencode({"query": query})
    page = tmp_path / "attack.html"
    page.write_text(f"""<!doctype html><title>attack</title>
<img src="{html.escape(served.sparql + "?" + form)}">
<script>fetch({json.dumps(served.sparql)}, {{method: "POST", mode: "no-cors", body: {json.dumps(form)},
  headers: {{"Content-Type": "application/x-www-form-urlencoded"}}}});</script>""")
    report = loopback_browser.open(page, settle=1.5)
    assert sum(url.startswith(served.sparql) for url in report.requests) == 2  # both reached the server ...
    # ... were refused as cross-site before any query ran, and the page may not even read the refusal
    assert _answers(loopback_browser, served.sparql) == [(403, "corp-not-same-origin")] * 2
    assert listener.paths == []
    # A link the user follows to the endpoint is answered, still without federation.
    link = tmp_path / "link.html"
    link.write_text(f'<!doctype html><a id="go" href="{html.escape(served.sparql + "?" + form)}">go</a>')
    loopback_browser.open(link)
    loopback_browser.evaluate("document.getElementById('go').click()")
    loopback_browser.wait_for("Page.loadEventFired")
    assert loopback_browser.evaluate("document.body.innerText").startswith("SPARQL query refused: SERVICE")
    assert listener.paths == []


def page_errors(report) -> list[str]:
    """A page's errors but the browser's own request for /favicon.ico, which the site does not have."""
    errors = list(report.errors)
    for _ in (url for url in report.requests if url.endswith("/favicon.ico")):
        errors.remove("Failed to load resource: the server responded with a status of 404 (File not found)")
    return errors


@pytest.mark.browser
def test_the_sites_pages_work_under_their_content_security_policy(served, loopback_browser):
    base = f"http://127.0.0.1:{served.port}/"
    report = loopback_browser.open_url(base + "index.html")
    assert page_errors(report) == []
    found = loopback_browser.evaluate("""(() => { const box = document.getElementById('find'); box.value = 'neumann';
        box.dispatchEvent(new Event('input'));
        return [...document.querySelectorAll('#results a')].map(a => a.textContent); })()""")
    assert found and found[0] == "Gerhard Neumann"
    for page in ("network/coauthors.html", "author/gerhard-neumann-network.html"):
        report = loopback_browser.open_url(base + page)
        assert page_errors(report) == [] and loopback_browser.evaluate("nodes.get().length") > 0, page
    report = loopback_browser.open_url(base + "author/gerhard-neumann.html")
    assert page_errors(report) == [] and "Gerhard Neumann" in loopback_browser.evaluate("document.body.innerText")
    # Markup that a page might carry or be given runs nothing: the policy has no 'unsafe-inline'.
    (served.site / "injected.html").write_text(
        '<!doctype html><title>clean</title><img src="none.png" onerror="document.title = \'ran\'">'
        '<a id="link" href="javascript:document.title = \'ran\'">x</a>'
    )
    report = loopback_browser.open_url(base + "injected.html")
    loopback_browser.evaluate("document.getElementById('link').click()")
    loopback_browser.idle(0.5)
    assert loopback_browser.evaluate("document.title") == "clean"
    assert any("Content Security Policy" in error for error in report.errors)


def test_ctrl_c_stops_the_server_and_its_workers_in_one_line(served):
    """The last test of the module: the whole process group gets SIGINT, as from a terminal, while
    queries run."""
    before = served.log()

    def heavy() -> None:
        try:
            request(served.sparql, HEAVY)
        except OSError:  # the server went away under it, as it should
            pass

    threads = [threading.Thread(target=heavy) for _ in range(3)]
    for thread in threads:
        thread.start()
    time.sleep(1)
    os.killpg(served.process.pid, signal.SIGINT)
    assert served.process.wait(timeout=30) == 130
    log = served.log()
    assert "Traceback" not in log and "KeyboardInterrupt" not in log
    assert log[len(before) :].split() == ["kg:", "aborted"]  # one line, after the terminal's newline
    for thread in threads:
        thread.join(timeout=30)
    deadline = time.monotonic() + 10
    while (left := living_in_group(served.process.pid)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert left == []  # no worker left behind


def living_in_group(group: int) -> list[int]:
    """The processes of a process group that are not zombies (a container's init may reap late)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found
