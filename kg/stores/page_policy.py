"""The response headers that keep ``kg serve``'s pages and answers inert in a browser.

Every response says ``nosniff`` and may not be framed. A page of the site gets a Content Security
Policy that lets it run its own scripts and nothing else: its script files from the server, and
its inline ``<script>`` elements by their SHA-256 (the site's pages carry their data inline), so
an event-handler attribute, a ``javascript:`` link or markup a script writes into the page never
runs, and the page can load or send nothing beyond the server. Everything else (SPARQL answers,
data files, errors) gets a policy that allows nothing at all.
"""

from __future__ import annotations

import base64
import hashlib
import re
import threading
from pathlib import Path

# An inline script: a <script> element without a src attribute, up to the first "</script".
_SCRIPT = re.compile(rb"<script\b([^>]*)>(.*?)</script", re.IGNORECASE | re.DOTALL)
_SRC = re.compile(rb"\bsrc\s*=", re.IGNORECASE)
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'{hashes}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
INERT_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox"
COMMON_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def page_policy(html: bytes) -> str:
    """The Content Security Policy of one page: its inline scripts allowed by hash."""
    hashes = sorted(
        {
            "'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'"
            for attributes, body in _SCRIPT.findall(html)
            if not _SRC.search(attributes)
        }
    )
    return PAGE_POLICY.format(hashes="".join(" " + value for value in hashes))


class PagePolicies:
    """Page policies by file, computed once per version of the file (its size and time)."""

    def __init__(self) -> None:
        self._known: dict[Path, tuple[tuple[int, int], str]] = {}
        self._lock = threading.Lock()

    def for_file(self, path: Path) -> str:
        if path.suffix.lower() not in (".html", ".htm"):
            return INERT_POLICY
        try:
            stat = path.stat()
        except OSError:
            return INERT_POLICY
        version = (stat.st_size, stat.st_mtime_ns)
        with self._lock:
            known = self._known.get(path)
        if known and known[0] == version:
            return known[1]
        try:
            policy = page_policy(path.read_bytes())
        except OSError:
            return INERT_POLICY
        with self._lock:
            self._known[path] = (version, policy)
        return policy
