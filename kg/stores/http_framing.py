"""The HTTP side of ``kg serve`` that knows nothing of SPARQL: strict request framing, loopback host names
only, the common response headers, and a cap on connections at once.

A body needs a plain Content-Length within the cap; a path must be a decodable absolute path without
control characters; a request addressed to a host name other than a loopback one gets 403 (a page
that rebinds its own host name to 127.0.0.1 reaches nothing); more than ``MAX_CONNECTIONS``
connections at once get 503. A failed request is one log line, never a traceback.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import traceback
import urllib.parse
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

from .page_policy import COMMON_HEADERS, INERT_POLICY

MAX_BODY = 1 << 20
MAX_CONNECTIONS = 128
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "[::1]"}
_DIGITS = re.compile(r"[0-9]{1,15}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class FramedHandler(SimpleHTTPRequestHandler):
    """Requests framed strictly and addressed to a loopback name; replies with the common headers."""

    protocol_version = "HTTP/1.1"  # keep-alive; an idle connection is closed after its timeout
    default_request_version = "HTTP/1.0"  # so that even an answer to a broken request line has headers
    _replied = False
    _policy = INERT_POLICY

    def version_string(self) -> str:
        return "kg"  # no versions of kg or Python

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # quiet: a load test would flood the terminal

    def end_headers(self) -> None:
        for name, value in COMMON_HEADERS.items():
            self.send_header(name, value)
        self.send_header("Content-Security-Policy", self._policy)
        self._replied = True
        super().end_headers()

    def _reply(self, status: int, content_type: str, body: bytes, headers: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _error(self, status: int, message: str) -> None:
        self._reply(status, "text/plain; charset=utf-8", (message + "\n").encode())

    def _refuse(self, status: int, message: str) -> None:
        """An error after which the connection is closed (its body, if any, left unread)."""
        self.close_connection = True
        self._reply(status, "text/plain; charset=utf-8", (message + "\n").encode(), {"Connection": "close"})

    # ------------------------------------------------------------------ framing

    def parse_request(self) -> bool:
        self._replied, self._policy = False, INERT_POLICY
        if not super().parse_request():
            return False
        if self.command != "POST" and (
            self.headers.get("Transfer-Encoding") or (self.headers.get("Content-Length") or "0").strip() != "0"
        ):
            self.close_connection = True  # a body nobody reads must not become the next request
        if len(self.requestline.split()) != 3:
            self._refuse(HTTPStatus.BAD_REQUEST, "bad request: HTTP/0.9 requests (no version) are not answered")
            return False
        problem = self._path_problem() or self._host_problem()
        if problem:
            status, message = problem
            self._refuse(status, message)
            return False
        return True

    def _path_problem(self) -> tuple[int, str] | None:
        if not self.path.startswith("/"):
            return HTTPStatus.BAD_REQUEST, "bad request: the target must be a path starting with '/'"
        try:
            path = urllib.parse.unquote_to_bytes(urllib.parse.urlsplit(self.path).path).decode("utf-8")
        except (UnicodeDecodeError, ValueError):
            return HTTPStatus.BAD_REQUEST, "bad request: the path is not UTF-8 once decoded"
        if _CONTROL.search(path):
            return HTTPStatus.BAD_REQUEST, "bad request: the path holds a control character (NUL, CR, LF, tab ...)"
        return None

    def _host_problem(self) -> tuple[int, str] | None:
        host = (self.headers.get("Host") or "127.0.0.1").strip().lower()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name in LOOPBACK_HOSTS:
            return None
        return HTTPStatus.FORBIDDEN, "forbidden: kg serve answers only requests addressed to 127.0.0.1 or localhost"

    def _body(self) -> bytes | None:
        """The request's body, read to its Content-Length; ``None`` once the request has been refused."""
        lengths = self.headers.get_all("Content-Length") or []
        if self.headers.get("Transfer-Encoding"):
            return self._refuse(
                HTTPStatus.LENGTH_REQUIRED,
                "length required: send the body with a Content-Length (chunked transfer coding is not accepted)",
            )
        if not lengths:
            return self._refuse(HTTPStatus.LENGTH_REQUIRED, "length required: a POST needs a Content-Length")
        if len({value.strip() for value in lengths}) != 1 or not _DIGITS.fullmatch(lengths[0].strip()):
            return self._refuse(
                HTTPStatus.BAD_REQUEST, "bad request: Content-Length must be one decimal number of bytes, 0 or more"
            )
        length = int(lengths[0])
        if length > MAX_BODY:
            return self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"SPARQL request over {MAX_BODY:,} bytes")
        body = self.rfile.read(length)
        if len(body) != length:
            return self._refuse(
                HTTPStatus.BAD_REQUEST, f"bad request: the body ended after {len(body):,} of its {length:,} bytes"
            )
        return body


class Server(ThreadingHTTPServer):
    """At most MAX_CONNECTIONS connections at once (more get 503); a failed request is one log line."""

    daemon_threads = True
    request_queue_size = MAX_CONNECTIONS  # the listen backlog: a burst of connections waits to be accepted

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def process_request(self, request, client_address):
        if not self.slots.acquire(blocking=False):
            try:
                request.sendall(
                    b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\n"
                    b"Connection: close\r\n\r\n"
                )
            except OSError:
                pass
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        client = f"{client_address[0]}:{client_address[1]}"
        if isinstance(exc, (ConnectionError, TimeoutError)):
            log(f"kg serve: {client} went away ({type(exc).__name__})")
            return
        log(f"kg serve: {client}: request failed: {type(exc).__name__}: {exc}")
        if os.environ.get("KG_DEBUG"):
            traceback.print_exc()
