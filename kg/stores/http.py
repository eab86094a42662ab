"""HTTP for the remote store, made to fail well against a misbehaving server.

Every request has two time limits: one for making the connection (``KG_STORE_CONNECT_TIMEOUT``
seconds, short, so a host that drops packets is reported at once) and one for the whole answer
(``KG_STORE_TIMEOUT``, long, since a big query may compute for minutes before its first byte);
every answer has a size cap (``KG_STORE_MAX_BYTES``); the status and content
type are checked before the body is parsed. Redirects are followed by hand and only to the
configured host, so the credentials (:mod:`kg.stores.auth`) never leave it; a redirected write is an error (a
re-sent update could run twice, a dropped one would be reported as done). Reads are retried
with back-off when the server is briefly unreachable or overloaded (502/503/504). Every failure
is one :class:`RemoteError` line naming the URL and what was wrong.
"""

from __future__ import annotations

import functools
import http.client
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import IO

from ..errors import KgError
from .auth import Credentials

TIMEOUT_ENV = "KG_STORE_TIMEOUT"
CONNECT_TIMEOUT_ENV = "KG_STORE_CONNECT_TIMEOUT"
MAX_BYTES_ENV = "KG_STORE_MAX_BYTES"
DEFAULT_TIMEOUT = 300.0
DEFAULT_CONNECT_TIMEOUT = 10.0
DEFAULT_MAX_BYTES = 2 * 1024**3
RETRY_DELAYS = (0.5, 1.0, 2.0)  # seconds before the 2nd, 3rd and 4th try of a read
RETRY_STATUSES = {502, 503, 504}
MAX_REDIRECTS = 5
CHUNK = 1024 * 1024


class RemoteError(KgError):
    """The SPARQL server failed, or answered something kg cannot use."""

    exit_code = 2

    def __init__(self, message: str, status: int | None = None, limit: str | None = None):
        super().__init__(message)
        self.status = status  # the server's HTTP status, when it answered with an error
        self.limit = limit  # "time" or "size": the limit the answer went past


def _setting(name: str, default: float) -> float:
    value = os.environ.get(name)
    try:
        number = float(value) if value else default
    except ValueError:
        number = -1
    if number <= 0:
        raise KgError(f"${name}={value!r}: give a positive number")
    return number


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # urllib then raises the 3xx as an HTTPError, which Client.send decides on


class ConnectTimeout(OSError):
    """No connection within the connect limit: the host is down or drops packets (retried for reads)."""


def _connecting_within(connection_class: type) -> type:
    """``connection_class`` whose connect (TLS handshake included) has its own, shorter limit;
    the socket then waits for the answer as long as the answer's limit allows."""

    class Connection(connection_class):
        def __init__(self, *args, connect_timeout: float, **kwargs):
            super().__init__(*args, **kwargs)
            self.connect_timeout = connect_timeout

        def connect(self):
            answer_timeout = self.timeout
            self.timeout = min(self.connect_timeout, answer_timeout)
            try:
                super().connect()
            except TimeoutError:
                raise ConnectTimeout(f"no connection within {self.timeout:g} s, ${CONNECT_TIMEOUT_ENV}") from None
            finally:
                self.timeout = answer_timeout
            self.sock.settimeout(answer_timeout)

    return Connection


_HTTP_CONNECTION = _connecting_within(http.client.HTTPConnection)
_HTTPS_CONNECTION = _connecting_within(http.client.HTTPSConnection)


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, connect_timeout: float):
        super().__init__()
        self.connection = functools.partial(_HTTP_CONNECTION, connect_timeout=connect_timeout)

    def http_open(self, req):
        return self.do_open(self.connection, req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, connect_timeout: float):
        super().__init__()
        self.connection = functools.partial(_HTTPS_CONNECTION, connect_timeout=connect_timeout)

    def https_open(self, req):
        return self.do_open(self.connection, req, context=self._context)


class Answer:
    """A response body read within the time limit and size cap, as bytes or a stream."""

    def __init__(self, response, url: str, deadline: float, limit: int):
        self.response, self.url, self.deadline, self.limit = response, url, deadline, limit
        self.content_type = response.headers.get_content_type()
        self.server = response.headers.get("Server")
        self.size = 0
        self._buffer, self._offset = bytearray(), 0

    def expect(self, *content_types: str) -> "Answer":
        if self.content_type not in content_types:
            self.close()
            raise RemoteError(
                f"{self.url}: the server answered {self.content_type} where {' or '.join(content_types)} "
                "was expected; is this the SPARQL endpoint?"
            )
        return self

    def read(self, size: int = -1) -> bytes:
        """At most ``size`` bytes (all, with -1), or a one-line error past the deadline or the cap.
        Parsers ask for a few hundred bytes at a time, so the network is read a chunk ahead."""
        while size < 0 or len(self._buffer) - self._offset < size:
            part = self._receive()
            if not part:
                break
            del self._buffer[: self._offset]
            self._offset = 0
            self._buffer += part
        end = len(self._buffer) if size < 0 else self._offset + size
        taken = bytes(self._buffer[self._offset : end])
        self._offset += len(taken)
        return taken

    def _receive(self) -> bytes:
        if time.monotonic() > self.deadline:
            raise RemoteError(f"{self.url}: the answer took longer than the time limit (${TIMEOUT_ENV})", limit="time")
        try:
            part = self.response.read1(CHUNK)  # what has arrived, not a whole chunk: the deadline is checked often
        except (http.client.HTTPException, OSError) as exc:
            raise RemoteError(f"{self.url}: the answer was cut short ({type(exc).__name__}: {exc})") from None
        if not part and getattr(self.response, "length", None):  # bytes the Content-Length promised never came
            raise RemoteError(
                f"{self.url}: the answer was cut short ({self.response.length:,} bytes missing of its Content-Length)"
            )
        self.size += len(part)
        if self.size > self.limit:
            raise RemoteError(
                f"{self.url}: the answer is larger than {self.limit:,} bytes (${MAX_BYTES_ENV})", limit="size"
            )
        return part

    def readable(self) -> bool:  # so parsers take it as a binary stream
        return True

    def close(self) -> None:
        self.response.close()

    def __enter__(self) -> "Answer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _unreachable(url: str, reason) -> RemoteError:
    """The error for a server that did not answer: in time (a time limit) or at all."""
    if isinstance(reason, TimeoutError):
        return RemoteError(f"{url}: cannot reach the SPARQL server (no answer within the time limit)", limit="time")
    return RemoteError(f"{url}: cannot reach the SPARQL server ({reason})")


class Client:
    def __init__(self, credentials: Credentials, timeout: float | None = None, limit: int | None = None):
        """``timeout`` and ``limit`` (bytes) in place of the environment's, for kg serve's own limits."""
        self.credentials = credentials
        self.timeout = timeout or _setting(TIMEOUT_ENV, DEFAULT_TIMEOUT)
        connect_timeout = _setting(CONNECT_TIMEOUT_ENV, DEFAULT_CONNECT_TIMEOUT)
        self._opener = urllib.request.build_opener(
            _NoRedirects, _HTTPHandler(connect_timeout), _HTTPSHandler(connect_timeout)
        )
        self.limit = limit or int(_setting(MAX_BYTES_ENV, DEFAULT_MAX_BYTES))

    def send(
        self,
        url: str,
        body: bytes | IO[bytes],
        content_type: str,
        accept: str | None = None,
        write: bool = False,
        length: int | None = None,
    ) -> Answer:
        """POST ``body``; a read (not ``write``) is retried and follows same-host redirects."""
        deadline = time.monotonic() + self.timeout
        target, hops = url, 0

        def last_try(attempt: int) -> bool:  # a write is never re-sent; a read is, while time allows
            return write or attempt == len(RETRY_DELAYS) or deadline - time.monotonic() < RETRY_DELAYS[attempt]

        attempt, challenged = 0, False
        while True:
            try:
                return Answer(
                    self._open(target, body, content_type, accept, length, deadline), url, deadline, self.limit
                )
            except urllib.error.HTTPError as exc:
                if (
                    exc.code == 401
                    and not challenged
                    and self.credentials.answer(exc.headers.get("WWW-Authenticate"), url)
                ):
                    exc.close()  # nothing was done: the same request again, with the answer to the challenge
                    challenged = True
                    if hasattr(body, "seek"):
                        body.seek(0)
                    continue
                if 300 <= exc.code < 400:
                    target = self._redirect(url, target, exc, write)
                    hops += 1
                    if hops > MAX_REDIRECTS:
                        raise RemoteError(f"{url}: more than {MAX_REDIRECTS} redirects") from None
                    continue
                if exc.code not in RETRY_STATUSES or last_try(attempt):
                    raise self._refusal(url, exc) from None
            except (urllib.error.URLError, OSError) as exc:
                reason = getattr(exc, "reason", exc)
                if isinstance(reason, TimeoutError) or last_try(attempt):
                    raise _unreachable(url, reason) from None
            time.sleep(RETRY_DELAYS[attempt])
            attempt += 1

    def _refusal(self, url: str, exc: urllib.error.HTTPError) -> RemoteError:
        """The error for an answer that is final: its status and the start of its body."""
        detail = " ".join(exc.read(2000).decode("utf-8", "replace").split())[:300]
        if exc.code == 401:
            detail = detail or self.credentials.refused()
        return RemoteError(f"{url}: the server answered {exc.code} {exc.reason}: {detail}", exc.code)

    def _open(self, url, body, content_type, accept, length, deadline):
        headers = {"Content-Type": content_type}
        if accept:
            headers["Accept"] = accept
        if length is not None:
            headers["Content-Length"] = str(length)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise urllib.error.URLError(TimeoutError())
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        if authorization := self.credentials.header(request):
            request.add_unredirected_header("Authorization", authorization)
        return self._opener.open(request, timeout=remaining)

    @staticmethod
    def _redirect(url: str, current: str, exc: urllib.error.HTTPError, write: bool) -> str:
        location = exc.headers.get("Location")
        exc.close()
        if not location:
            raise RemoteError(f"{url}: the server answered {exc.code} without a Location") from None
        target = urllib.parse.urljoin(current, location)
        here, there = urllib.parse.urlsplit(url), urllib.parse.urlsplit(target)
        if (here.scheme, here.hostname, here.port) != (there.scheme, there.hostname, there.port):
            raise RemoteError(
                f"{url}: the server redirects to another host ({there.scheme}://{there.netloc}); "
                "not followed, so the credentials stay on the configured host"
            ) from None
        if write:
            raise RemoteError(
                f"{url}: the server redirects this write to {target}; nothing was written, give the endpoint's own URL"
            ) from None
        return target
