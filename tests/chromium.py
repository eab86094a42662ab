"""A real headless Chromium with networking off, driven over the DevTools protocol.

The protocol runs over a pipe (``--remote-debugging-pipe``: JSON messages separated by NUL
on file descriptors 3 and 4), so nothing but the standard library is needed and no port
is opened. The browser cannot reach any network: host names resolve to nothing and every
connection goes to a proxy that does not exist; the tests also record every request the
page makes.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--mute-audio",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
    "--window-size=1280,900",
    "--remote-debugging-pipe",
)


@dataclass
class PageReport:
    """What happened while a page loaded: console errors, exceptions, requests, dialogs."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    load_seconds: float = 0.0


class Chromium:
    def __init__(self, reach_loopback: bool = False) -> None:
        """``reach_loopback``: connections to 127.0.0.1 go straight to it (a server under test there);
        every other host stays unreachable."""
        flags = [flag for flag in FLAGS if not (reach_loopback and flag.startswith("--proxy-bypass-list="))]
        if reach_loopback:
            flags = [
                flag + ", EXCLUDE 127.0.0.1" if flag.startswith("--host-resolver-rules=") else flag for flag in flags
            ]
        self.profile = tempfile.mkdtemp(prefix="kg-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # Move the child's ends above 10 first, so dup2 onto 3 and 4 cannot clobber one another.
        child_in, child_out = (fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_browser_r, from_browser_w))

        def wire_pipes() -> None:  # in the child, before exec: dup2 leaves 3 and 4 inheritable
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        self.process = subprocess.Popen(
            [CHROMIUM, *flags, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,
            preexec_fn=wire_pipes,
        )
        for fd in (to_browser_r, from_browser_w, child_in, child_out):
            os.close(fd)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []
        self.session = None

    # ------------------------------------------------------------------ protocol

    def _receive(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._from_browser], [], [], remaining)[0]:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise ConnectionError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, timeout: float = 30, **params) -> dict:
        """Call a DevTools method (on the page once attached) and return its result."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._handle_event(reply)

    def _handle_event(self, event: dict) -> None:
        self.events.append(event)
        if event.get("method") == "Page.javascriptDialogOpening":  # record it, then let the page go on
            self.events.append({"method": "dismiss"})
            message = {
                "id": 0,
                "method": "Page.handleJavaScriptDialog",
                "params": {"accept": True},
                "sessionId": self.session,
            }
            os.write(self._to_browser, json.dumps(message).encode() + b"\0")

    def wait_for(self, method: str, timeout: float = 30) -> dict:
        deadline = time.monotonic() + timeout
        seen = len(self.events)
        while True:
            for event in self.events[seen:]:
                if event.get("method") == method:
                    return event
            seen = len(self.events)
            self._handle_event(self._receive(deadline))

    def idle(self, seconds: float) -> None:
        """Collect events for a while (late errors, requests, dialogs)."""
        deadline = time.monotonic() + seconds
        try:
            while True:
                self._handle_event(self._receive(deadline))
        except TimeoutError:
            pass

    # ------------------------------------------------------------------ pages

    def open(self, path: Path, settle: float = 0.5) -> PageReport:
        """Load a file in a new tab and report what it did."""
        return self.open_url(path.resolve().as_uri(), settle)

    def open_url(self, url: str, settle: float = 0.5) -> PageReport:
        """Load a URL (a file's, or a server's on 127.0.0.1) in a new tab and report what it did."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")
        self.events.clear()
        started = time.monotonic()
        self.send("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired", timeout=60)
        loaded = time.monotonic() - started
        self.idle(settle)
        return self._report(url, loaded)

    def _report(self, url: str, load_seconds: float) -> PageReport:
        report = PageReport(load_seconds=load_seconds)
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                # The message first: the JSON repeats the page's URL, which can push it past the cut.
                message = details.get("exception", {}).get("description") or details.get("text", "")
                report.errors.append(f"{message} {json.dumps(details)[:500]}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                report.errors.append(json.dumps(params.get("args"))[:500])
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                report.errors.append(params["entry"].get("text", ""))
            elif method == "Network.requestWillBeSent":
                report.requests.append(params["request"]["url"])
            elif method == "Page.javascriptDialogOpening":
                report.dialogs.append(params.get("message", ""))
        report.requests = [request for request in report.requests if request != url]
        return report

    def evaluate(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def hover(self, x: float, y: float) -> None:
        self.send("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=5)
        except (TimeoutError, ConnectionError, RuntimeError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)
