"""Find and classify the links a listing mentions (code, project pages, poster pages)."""

from __future__ import annotations

import re

from ..text.domains import host

_URL = re.compile(r"https?://[^\s<>\"'`\]\[{}|\\^]+", re.IGNORECASE)
_TRAILING = ".,;:!?*_'\""
CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "sourceforge.net")


def find_urls(text: str) -> list[str]:
    """URLs in order of appearance, without the punctuation that ends a sentence or a link."""
    if "://" not in text:  # in every URL: most texts (abstracts) have none, and this scan is 30x faster
        return []
    found: dict[str, None] = {}  # ordered, and a set for the look-up
    for match in _URL.finditer(text):
        url = match.group(0)
        while url and (url[-1] in _TRAILING or (url[-1] == ")" and url.count("(") < url.count(")"))):
            url = url[:-1]
        if url not in found and "://" in url and len(url) > len("https://x"):
            found[url] = None
    return list(found)


def is_code_repository(url: str) -> bool:
    return host(url) in CODE_HOSTS


def is_poster_page(url: str) -> bool:
    """The conference's own page for the paper, e.g. https://icml.cc/virtual/2026/poster/67185."""
    return "/virtual/" in url and host(url).endswith((".cc", ".org"))
