"""A real ``kg serve`` of the samples on 127.0.0.1 with tight limits, and a loopback listener that
counts the requests it gets, for the endpoint's attack tests (fixtures in tests/stores/conftest.py).

The server runs in its own process group, so a test can press Ctrl-C the way a terminal does."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import KG_BIN, kg_here

# The server started with Ctrl-C's signal as a terminal gives it: a test run started in the background of a
# shell (`pytest … &`) ignores SIGINT, and a process started with SIGINT ignored keeps ignoring it (Python
# installs no handler for it), so the Ctrl-C test would wait for a server that never hears it.
AS_FROM_A_TERMINAL = [
    sys.executable,
    "-c",
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])",
]
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

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)


def serve_samples(folder: Path) -> Served:
    """``kg build`` of the samples in ``folder``, then ``kg serve`` of them on a free port, with the limits above."""
    kg_here("build", "--store", str(folder / "store"), cwd=folder)
    stderr = folder / "serve.err"
    with stderr.open("wb") as sink:
        process = subprocess.Popen(
            [
                *AS_FROM_A_TERMINAL,
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
    return Served(process, int(match.group(1)), stderr, folder / "site")


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

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


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
