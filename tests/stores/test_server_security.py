"""Attacks on a real `kg serve` on 127.0.0.1: federation, request framing, load, memory, headers, Ctrl-C.

One server over the samples serves the whole module (tests/limited_server.py: started in its own
process group, so the last test can press Ctrl-C the way a terminal does); a loopback listener counts
every request any query makes it receive. Every test reads the server's stderr for tracebacks. What a
browser makes of the server: tests/stores/test_server_pages.py.
"""

from __future__ import annotations

import codecs
import csv
import http.client
import os
import signal
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import run_kg
from limited_server import IDLE, QUERY_MEMORY, TIMEOUT, federated_queries, raw, request

from kg.stores.server import MAX_CONNECTIONS

pytestmark = pytest.mark.server

ATTACKS = Path(__file__).parent.parent / "data" / "serve_framing_attacks.tsv"
HEAVY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
RUNAWAY = "SELECT ?a ?b ?c ?d ?e ?f WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?f ?c"


def test_service_is_refused_and_no_query_makes_the_server_call_a_host(limited_server, listener, tmp_path):
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
            status, _, answer = request(
                limited_server.sparql, query if method == "GET" else None, method, body, headers
            )
            assert status == 400 and answer.startswith(b"SPARQL query refused:"), (query, method, answer)
    for query in (
        f"SELECT * FROM <{listener.url}> WHERE {{ ?s ?p ?o }}",
        f"SELECT * FROM NAMED <{listener.url}> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}",
        f'SELECT * WHERE {{ ?s ?p "SERVICE <{listener.url}> {{}}" }}',
    ):
        status, _, answer = request(limited_server.sparql, query)
        assert status == 200, answer  # a dataset of the store's own graphs, nothing fetched
    rq = tmp_path / "service.rq"
    rq.write_text(federated_queries(listener.url)[0])
    cli = run_kg("query", "--file", str(rq), "--store", limited_server.sparql, cwd=tmp_path, check=False)
    assert cli.returncode == 2 and b"SERVICE" in cli.stderr and b"Traceback" not in cli.stderr
    time.sleep(0.3)
    assert listener.paths == []
    assert "Traceback" not in limited_server.log()


def _attacks() -> list:
    rows = csv.DictReader((line for line in ATTACKS.open(encoding="utf-8") if not line.startswith("#")), delimiter="\t")
    return [pytest.param(row["request"], int(row["status"]), id=row["case"]) for row in rows]


@pytest.mark.parametrize(("sent", "status"), _attacks())
def test_framing_attacks_get_their_4xx_and_leave_no_traceback(limited_server, sent, status):
    data = codecs.decode(sent, "unicode_escape").replace("{long}", "a" * 70_000).encode("latin-1")
    answer = raw(limited_server.port, data)
    assert answer.startswith(b"HTTP/1."), answer[:200]
    assert int(answer.split()[1]) == status, answer[:300]
    assert answer.count(b"\r\nServer: kg\r\n") == 1  # one answer: nothing after it read as a request
    assert b"Server: kg\r\n" in answer and b"X-Content-Type-Options: nosniff" in answer
    assert "Traceback" not in limited_server.log()
    status_now, _, body = request(limited_server.sparql, "ASK { ?s ?p ?o }")
    assert status_now == 200 and b"true" in body


def test_a_body_over_the_cap_is_not_read(limited_server):
    """Content-Length -1 once made the server read 200 MB; now no byte beyond the cap is taken."""
    with socket.create_connection(("127.0.0.1", limited_server.port), timeout=10) as connection:
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


def test_headers_of_pages_and_answers(limited_server):
    base = f"http://127.0.0.1:{limited_server.port}/"
    status, headers, page = request(base + "index.html")
    assert status == 200 and headers["Server"] == "kg" and headers["X-Content-Type-Options"] == "nosniff"
    policy = headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert page.count(b"<script>") == policy.count("'sha256-")
    status, headers, _ = request(limited_server.sparql, "ASK { ?s ?p ?o }")
    assert status == 200 and headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert headers["Server"] == "kg" and headers["X-Content-Type-Options"] == "nosniff"


def test_keep_alive_then_the_idle_connection_is_closed(limited_server):
    connection = http.client.HTTPConnection("127.0.0.1", limited_server.port, timeout=10)
    for _ in range(3):  # three requests on one connection
        connection.request("GET", "/sparql?" + urllib.parse.urlencode({"query": "ASK { ?s ?p ?o }"}))
        response = connection.getresponse()
        assert response.status == 200 and response.read() == b'{"head": {}, "boolean": true}'
    sock = connection.sock
    time.sleep(IDLE + 1)
    assert sock.recv(1) == b""  # the server closed the idle connection
    connection.close()


def test_connections_beyond_the_cap_get_503_and_the_server_recovers(limited_server):
    held = [socket.create_connection(("127.0.0.1", limited_server.port), timeout=10) for _ in range(MAX_CONNECTIONS)]
    try:
        time.sleep(0.3)  # every one accepted and waiting for its request line
        assert raw(limited_server.port, b"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").startswith(
            b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n"
        )
    finally:
        for connection in held:
            connection.close()
    time.sleep(0.5)
    status, _, body = request(limited_server.sparql, "ASK { ?s ?p ?o }")
    assert status == 200 and b"true" in body


@pytest.mark.slow
def test_a_trivial_ask_is_answered_in_under_a_second_while_eight_heavy_queries_run(limited_server):
    heavy: list[tuple[int, dict, bytes]] = []
    threads = [threading.Thread(target=lambda: heavy.append(request(limited_server.sparql, HEAVY))) for _ in range(8)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    latencies = []
    for at in (0.3, 0.8, 1.5, 2.2):
        time.sleep(max(0.0, started + at - time.perf_counter()))
        asked = time.perf_counter()
        status, _, body = request(limited_server.sparql, "ASK { ?s ?p ?o }")
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


def test_a_runaway_query_is_stopped_at_the_memory_limit_and_the_server_goes_on(limited_server):
    started = time.perf_counter()
    status, headers, body = request(limited_server.sparql, RUNAWAY)
    seconds = time.perf_counter() - started
    print(f"runaway ORDER BY stopped after {seconds:.2f} s: {body.decode().strip()}")
    assert status == 503 and body.decode().startswith(
        f"SPARQL query stopped: it needed more memory than the limit of {QUERY_MEMORY} MiB"
    )
    assert seconds < TIMEOUT  # the memory ceiling ended it, not the time limit
    status, _, body = request(limited_server.sparql, "ASK { ?s ?p ?o }")
    assert status == 200 and b"true" in body


def test_a_client_that_goes_away_costs_one_quiet_line(limited_server):
    before = limited_server.log()
    for _ in range(3):
        connection = socket.create_connection(("127.0.0.1", limited_server.port), timeout=10)
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        target = "/sparql?" + urllib.parse.urlencode({"query": "SELECT * WHERE { ?s ?p ?o }"})
        connection.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/csv\r\n\r\n".encode())
        connection.recv(100)
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        connection.close()  # a reset, with most of the answer unsent
    time.sleep(1)
    new = limited_server.log()[len(before) :]
    print(new)
    assert "Traceback" not in new and new.splitlines()
    assert all(line.startswith("kg serve: ") and "went away" in line for line in new.splitlines()), new


def test_ctrl_c_stops_the_server_and_its_workers_in_one_line(limited_server):
    """The last test of the module: the whole process group gets SIGINT, as from a terminal, while
    queries run."""
    before = limited_server.log()

    def heavy() -> None:
        try:
            request(limited_server.sparql, HEAVY)
        except OSError:  # the server went away under it, as it should
            pass

    threads = [threading.Thread(target=heavy) for _ in range(3)]
    for thread in threads:
        thread.start()
    time.sleep(1)
    os.killpg(limited_server.process.pid, signal.SIGINT)
    assert limited_server.process.wait(timeout=30) == 130
    log = limited_server.log()
    assert "Traceback" not in log and "KeyboardInterrupt" not in log
    assert log[len(before) :].split() == ["kg:", "aborted"]  # one line, after the terminal's newline
    for thread in threads:
        thread.join(timeout=30)
    deadline = time.monotonic() + 10
    while (left := living_in_group(limited_server.process.pid)) and time.monotonic() < deadline:
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
