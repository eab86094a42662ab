"""Credentials for the remote store, from the environment only: HTTP Basic or Digest.

``KG_STORE_USER`` / ``KG_STORE_PASSWORD`` name the account (never the command line, where
other users could read them in the process list); ``KG_STORE_AUTH`` says how to send them:

- ``basic`` (the default): an ``Authorization: Basic`` header on every request;
- ``digest``: nothing until the server challenges (``401`` with ``WWW-Authenticate: Digest``,
  as Virtuoso's ``/sparql-auth`` and ``/sparql-graph-crud-auth`` do); the answer is computed by
  the standard library's RFC 7616 implementation, and the server's nonce is reused with a
  growing count, so only a command's first request is sent twice. The password never crosses
  the wire.
"""

from __future__ import annotations

import base64
import os
import urllib.request

from ..errors import KgError
from . import PASSWORD_ENV, USER_ENV

AUTH_ENV = "KG_STORE_AUTH"
SCHEMES = ("basic", "digest")


class _OneAccount(urllib.request.HTTPPasswordMgr):
    """The one account, for any realm: requests go only to the configured host (kg/stores/http.py)."""

    def __init__(self, user: str, password: str):
        super().__init__()
        self.account = (user, password)

    def find_user_password(self, realm, authuri):
        return self.account


class Credentials:
    """What to send with each request, and how to answer a server's challenge."""

    def __init__(self, user: str | None, password: str, scheme: str):
        self.user, self.password, self.scheme = user, password, scheme
        self._digest = urllib.request.HTTPDigestAuthHandler(_OneAccount(user or "", password))
        self._challenge: dict[str, str] | None = None

    @classmethod
    def from_environment(cls) -> "Credentials":
        scheme = (os.environ.get(AUTH_ENV) or "basic").lower()
        if scheme not in SCHEMES:
            raise KgError(f"${AUTH_ENV}={scheme!r}: give {' or '.join(SCHEMES)}")
        return cls(os.environ.get(USER_ENV), os.environ.get(PASSWORD_ENV) or "", scheme)

    def header(self, request: urllib.request.Request) -> str | None:
        """The ``Authorization`` value for this request, or None (no account, or no challenge yet)."""
        if not self.user:
            return None
        if self.scheme == "basic":
            return "Basic " + base64.b64encode(f"{self.user}:{self.password}".encode()).decode()
        if self._challenge is None:
            return None
        answer = self._digest.get_authorization(request, self._challenge)  # None: an algorithm it cannot compute
        return f"Digest {answer}" if answer else None

    def refused(self) -> str:
        """Why a 401 came, as far as kg can tell."""
        if not self.user:
            return f"the server wants credentials: set ${USER_ENV} and ${PASSWORD_ENV}"
        return f"the {self.scheme} credentials of ${USER_ENV} were refused" + (
            f" (a server that takes only Digest refuses Basic: set ${AUTH_ENV}=digest)"
            if self.scheme == "basic"
            else ""
        )

    def answer(self, challenge_header: str | None, url: str) -> bool:
        """Take a 401's ``WWW-Authenticate``; True when the request should be sent again (once) with it."""
        scheme, _, rest = (challenge_header or "").partition(" ")
        if not self.user or scheme.lower() != "digest":
            return False
        if self.scheme != "digest":
            raise KgError(f"{url}: the server asks for HTTP Digest credentials: set ${AUTH_ENV}=digest")
        self._challenge = urllib.request.parse_keqv_list(filter(None, urllib.request.parse_http_list(rest)))
        return True
