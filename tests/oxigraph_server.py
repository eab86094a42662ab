"""An Oxigraph server (the ``oxigraph`` command installed beside Python) on 127.0.0.1, for tests.

Its data in one folder, a free port; :meth:`stop` ends it and :meth:`start` starts it again on the
same folder and port (a test that kills the server mid-request sees what its data kept).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

OXIGRAPH = Path(sys.executable).with_name("oxigraph")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class OxigraphServer:
    def __init__(self, folder: Path):
        self.folder, self.port = folder, free_port()
        base = f"http://127.0.0.1:{self.port}"
        self.query, self.update, self.store = f"{base}/query", f"{base}/update", f"{base}/store"
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self, limit: float = 60.0) -> None:
        self.process = subprocess.Popen(
            [str(OXIGRAPH), "serve", "--location", str(self.folder), "--bind", f"127.0.0.1:{self.port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                urllib.request.urlopen(f"{self.query}?query=ASK%7B%7D", timeout=2).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"oxigraph serve did not start in {limit:g} s on {self.folder}")

    def kill(self) -> None:
        """Ended at once (SIGKILL), as a crash or a power cut would end it."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
