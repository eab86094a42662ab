"""The remote store against a loopback fault server: every fault one line, exit 2, in time."""

from __future__ import annotations

import http.server
import os
import socket
import subprocess
import threading
import time
import urllib.parse

import pytest
from conftest import KG_BIN, LISTING

GRAPHS_TSV = b"?g\n<https://kg.example.org/id/source/a>\n"
TIMEOUT = 3.0


class Fault(http.server.BaseHTTPRequestHandler):
    """Answers the graph list correctly, then misbehaves as ``server.mode`` says."""

    def do_POST(self):
        self.server.seen.append((self.path, self.headers.get("Authorization")))
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        query = urllib.parse.parse_qs(body.decode("utf-8", "replace")).get("query", [""])[0]
        mode = self.server.mode
        if mode == "write-redirect":  # reads answered, every update redirected on the same host
            if self.path.startswith("/update"):
                mode = "redirect-307"
            elif "json" in self.headers.get("Accept", ""):
                return self.answer(
                    200, "application/sparql-results+json", b'{"head":{"vars":["g"]},"results":{"bindings":[]}}'
                )
        if "DISTINCT ?g" in query and mode not in ("tsv-huge", "tsv-html") and not mode.startswith("redirect"):
            return self.answer(200, "text/tab-separated-values", GRAPHS_TSV)
        if mode == "json-truncated":
            return self.answer(
                200, "application/sparql-results+json", b'{"head":{"vars":["n"]},"results":{"bindings":[{"n":'
            )
        if mode == "json-wrong":
            return self.answer(200, "application/sparql-results+json", b'{"hello": ["world"]}')
        if mode == "html":
            return self.answer(200, "text/html", b"<html><body>Log in</body></html>")
        if mode == "text-plain":
            return self.answer(200, "text/plain", b"ok")
        if mode == "tsv-html":
            return self.answer(200, "text/html", b"<html></html>")
        if mode == "wrong-length":
            self.send_response(200)
            self.send_header("Content-Type", "application/sparql-results+json")
            self.send_header("Content-Length", "5000")
            self.end_headers()
            self.wfile.write(b'{"head":{"vars":["n"]},"results":{"bindings":[')
            self.wfile.flush()
            self.close_connection = True
            return
        if mode == "slow":
            time.sleep(TIMEOUT * 3)
            return self.answer(200, "text/tab-separated-values", GRAPHS_TSV)
        if mode == "tsv-huge":
            self.send_response(200)
            self.send_header("Content-Type", "text/tab-separated-values")
            self.end_headers()
            self.wfile.write(b"?g\n")
            try:
                for _ in range(64):
                    self.wfile.write(b'"' + b"x" * (1 << 20))
            except OSError:
                pass
            return
        if mode == "unavailable":
            return self.answer(503, "text/plain", b"busy")
        if mode.startswith("redirect"):
            code = int(mode.split("-")[1])
            self.send_response(code)
            self.send_header("Location", f"{self.server.elsewhere}{self.path}")
            self.end_headers()
            return
        raise AssertionError(mode)

    def answer(self, code: int, content_type: str, body: bytes):
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start(host: str, mode: str = "") -> http.server.ThreadingHTTPServer:
    httpd = http.server.ThreadingHTTPServer((host, 0), Fault)
    httpd.daemon_threads = True
    httpd.mode, httpd.seen, httpd.elsewhere = mode, [], ""
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


@pytest.fixture
def servers():
    here, there = start("127.0.0.1"), start("127.0.0.2", "html")  # 127.0.0.2: another host on loopback
    here.elsewhere = f"http://127.0.0.2:{there.server_port}"
    yield here, there
    for httpd in (here, there):
        httpd.shutdown()
        httpd.server_close()


def start_up(here, tmp_path) -> float:
    """The wall time of a kg process that fails at its first answer (an HTML page), measured just before
    a case: what start-up costs under the machine's present load, so a case's bound is the limit it
    tests plus this, not a guess of the load."""
    mode, here.mode = here.mode, "html"
    result, elapsed = kg("stats", "--store", f"http://127.0.0.1:{here.server_port}/query", cwd=tmp_path)
    here.mode = mode
    assert result.returncode == 2
    return elapsed


def kg(*args: str, cwd) -> tuple[subprocess.CompletedProcess, float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KG_")}
    env.update(
        KG_STORE_TIMEOUT=str(TIMEOUT), KG_STORE_MAX_BYTES=str(4 << 20), KG_STORE_USER="u", KG_STORE_PASSWORD="secret"
    )
    started = time.monotonic()
    result = subprocess.run([str(KG_BIN), *args], cwd=cwd, env=env, capture_output=True, timeout=120)
    return result, time.monotonic() - started


@pytest.mark.parametrize(
    "mode, message",
    [
        ("json-truncated", "not valid application/sparql-results+json"),
        ("json-wrong", "not valid application/sparql-results+json"),
        ("wrong-length", "cut short"),
        ("html", "answered text/html where application/sparql-results+json or application/sparql-results+xml or"),
        ("text-plain", "answered text/plain where"),
        ("tsv-html", "answered text/html where application/sparql-results+json or application/sparql-results+xml or"),
        ("slow", "no answer within the time limit"),
        ("tsv-huge", "larger than 4,194,304 bytes"),
        ("unavailable", "503"),
        ("redirect-301", "redirects to another host"),
        ("redirect-302", "redirects to another host"),
        ("redirect-303", "redirects to another host"),
    ],
)
def test_each_fault_is_one_line_exit_2_in_time(servers, tmp_path, mode, message):
    here, there = servers
    started_in = start_up(here, tmp_path)
    here.mode = mode
    url = f"http://127.0.0.1:{here.server_port}/query"
    result, elapsed = kg("stats", "--store", url, cwd=tmp_path)
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 2, lines
    assert len(lines) == 1 and lines[0].startswith(f"kg: error: {url}: ") and message in lines[0], lines
    assert elapsed < started_in + TIMEOUT + sum((0.5, 1.0, 2.0)) + 2  # the limit and the back-off of retried reads
    assert there.seen == []  # nothing, credentials least of all, went to the other host


def test_a_redirected_write_is_an_error_and_writes_nothing(servers, tmp_path):
    here, _ = servers
    here.mode = "write-redirect"
    here.elsewhere = f"http://127.0.0.1:{here.server_port}/moved"  # same host: followed for reads only
    query = f"http://127.0.0.1:{here.server_port}/query"
    result, _ = kg(
        "ingest",
        str(LISTING),
        "--store",
        query,
        "--update-endpoint",
        f"http://127.0.0.1:{here.server_port}/update",
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert "ingested" not in result.stdout.decode()
    assert result.stderr.decode().splitlines() == [
        f"kg: error: http://127.0.0.1:{here.server_port}/update: the server redirects this write to "
        f"{here.elsewhere}/update; nothing was written, give the endpoint's own URL"
    ]


@pytest.fixture
def unanswering_port():
    """A loopback port whose accept queue is full: the kernel completes no more handshakes, so
    a client's connect hangs as it does against a host that drops packets."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    fillers = []
    for _ in range(4):  # the first completes into the queue, the later ones hang and stay pending
        filler = socket.socket()
        filler.setblocking(False)
        filler.connect_ex(("127.0.0.1", port))
        fillers.append(filler)
    time.sleep(0.2)
    yield port
    for sock in (*fillers, listener):
        sock.close()


@pytest.mark.slow
def test_a_host_that_never_connects_fails_on_the_connect_limit_not_the_answer_limit(
    unanswering_port, servers, tmp_path
):
    """The answer limit is long (a big query may compute for minutes); the connect limit is what
    says the host is not there, and it applies to each try of a retried read."""
    started_in = start_up(servers[0], tmp_path)
    url = f"http://127.0.0.1:{unanswering_port}/query"
    env = {k: v for k, v in os.environ.items() if not k.startswith("KG_")}
    env.update(KG_STORE_TIMEOUT="600", KG_STORE_CONNECT_TIMEOUT="0.5")
    started = time.monotonic()
    result = subprocess.run(
        [str(KG_BIN), "stats", "--store", url], cwd=tmp_path, env=env, capture_output=True, timeout=120
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == [
        f"kg: error: {url}: cannot reach the SPARQL server (no connection within 0.5 s, $KG_STORE_CONNECT_TIMEOUT)"
    ]
    assert elapsed < started_in + 4 * 0.5 + sum((0.5, 1.0, 2.0)) + 2  # four tries and their back-off


def test_a_connect_limit_must_be_a_positive_number(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("KG_")}
    env.update(KG_STORE_CONNECT_TIMEOUT="soon")
    result = subprocess.run(
        [str(KG_BIN), "stats", "--store", "http://127.0.0.1:9/query"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert result.stderr.decode().splitlines() == [
        "kg: error: $KG_STORE_CONNECT_TIMEOUT='soon': give a positive number"
    ]
