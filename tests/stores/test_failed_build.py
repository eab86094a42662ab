"""What a failed `kg build --store http://…` leaves, with the failure put at each stage of the build.

A proxy on 127.0.0.1 passes the build's writes on to a real server (Oxigraph, the session's Virtuoso)
and answers one of them with 500 instead: a server that fails a request there, or that is killed
there (Oxigraph, SIGKILL, then started again on its data). Wherever the failure is, the build exits
2, and once the next command with the update endpoint has finished the interrupted resolution, the
server holds the graph as it was before the build (a failure up to the sources' move) or as the
build would have left it (after), never a mix: the description too (docs/stores.md)."""

from __future__ import annotations

import os
import subprocess
import threading
import urllib.error
import urllib.request
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import ABSTRACTS, KG_BIN, LISTING

pytestmark = [pytest.mark.server, pytest.mark.slow, pytest.mark.xdist_group("virtuoso")]  # one server (conftest)


class FailingProxy(ThreadingHTTPServer):
    """Writes passed on to ``target`` and their bodies kept (``bodies``, of the last build); the one
    ``fail_when(number, body)`` chooses (numbered from 1) answered 500 and not passed on."""

    def __init__(self, target: str):
        super().__init__(("127.0.0.1", 0), _Forward)
        self.target, self.bodies = target, []
        self.fail_when = lambda number, body: False
        self.on_failure = None  # called at the failing write (to kill the server), before the 500
        self.url = f"http://127.0.0.1:{self.server_address[1]}/update"
        self.lock = threading.Lock()
        threading.Thread(target=self.serve_forever, daemon=True).start()


class _Forward(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):  # noqa: N802 - http.server's naming
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with self.server.lock:
            self.server.bodies.append(body)
            fail = self.server.fail_when(len(self.server.bodies), body)
        if fail:
            if self.server.on_failure:
                self.server.on_failure()
            status, answer = 500, b"injected failure\n"
        else:
            request = urllib.request.Request(
                self.server.target, data=body, headers={"Content-Type": self.headers["Content-Type"]}
            )
            try:
                with urllib.request.urlopen(request, timeout=300) as response:
                    status, answer = response.status, response.read()
            except urllib.error.HTTPError as exc:
                status, answer = exc.code, exc.read()
        self.send_response(status)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


def kg(*args, cwd: Path, update: str | None = None, check: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KG_")}
    if update:
        env["KG_UPDATE_ENDPOINT"] = update
    result = subprocess.run([str(KG_BIN), *map(str, args)], cwd=cwd, capture_output=True, env=env, timeout=900)
    assert not check or result.returncode == 0, result.stderr.decode(errors="replace")
    return result


#: The writes a failure is put at, each found among a build's requests by what it is (its number, its
#: body, and the last body of a build), with the graph the failure leaves: the first write (nothing
#: written yet); the update that moves the new sources in; the move of the derived graph (the
#: resolution half written); the last write.
POINTS = {
    "first": (lambda number, body, last: number == 1, "before"),
    "sources-moved-in": (lambda number, body, last: body.startswith(b"MOVE") and b"/id/source/" in body, "before"),
    "resolution": (
        lambda number, body, last: body.startswith(b"MOVE") and body.rstrip().endswith(b"/graph/resolved>"),
        "after",
    ),
    "last": (lambda number, body, last: body == last, "after"),
}
#: per server: the failure points, each with whether the server is killed there (Oxigraph: SIGKILL, then
#: started again on its data); each point is on one server at least, the middle ones on both
CASES = {
    "oxigraph": (("first", False), ("sources-moved-in", False), ("resolution", True), ("last", False)),
    "virtuoso": (("sources-moved-in", False), ("resolution", False), ("last", False)),
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_a_build_failed_at_any_write_leaves_the_graph_as_before_or_as_after(kind, request, tmp_path):
    if kind == "virtuoso":
        server = request.getfixturevalue("virtuoso")
        query = update = server.sparql
    else:
        server = request.getfixturevalue("oxigraph")
        query, update = server.query, server.update
    proxy = FailingProxy(update)
    store = ["--store", query]

    def build(*sources, through=update, check=True):
        return kg("build", *sources, *store, "--update-endpoint", through, "--out", "out", cwd=tmp_path, check=check)

    def graph() -> bytes:  # read after the next command has finished an interrupted resolution
        return kg("export", "--format", "nquads", *store, cwd=tmp_path, update=update).stdout

    build(LISTING, ABSTRACTS, through=proxy.url)
    writes, graphs = list(proxy.bodies), {"after": graph()}
    build(LISTING)
    graphs["before"] = graph()
    assert graphs["before"] != graphs["after"]
    for number, (point, killed) in enumerate(CASES[kind], 1):
        chosen, leaves = POINTS[point]
        assert sum(chosen(n, body, writes[-1]) for n, body in enumerate(writes, 1)) == 1, point  # one such write
        proxy.fail_when, proxy.bodies = partial(chosen, last=writes[-1]), []
        proxy.on_failure = server.kill if killed else None
        failed = build(LISTING, ABSTRACTS, through=proxy.url, check=False)
        assert failed.returncode == 2, (point, failed.stderr)
        assert killed or b"injected failure" in failed.stderr, (point, failed.stderr)
        if killed:
            server.start()  # the same data folder, as after a crash
        now = graph()
        assert now == graphs[leaves], (point, [name for name, held in graphs.items() if held == now] or "a mix")
        if leaves == "after" and number < len(CASES[kind]):  # back to the graph before, for the next point
            build(LISTING)
    proxy.shutdown()
