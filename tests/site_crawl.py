"""Follow every ``href`` and ``src`` of a built site: each must be a file of the site or an outside page.

Shared by the site's tests (on the samples) and ``bench/crawl_site.py`` (on a large synthetic corpus).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: The graph's own IRIs answer nowhere but under ``kg serve``: the site must link its pages instead.
OWN_BASE = "https://kg.example.org/"
#: Tags whose address the browser fetches by itself: never from the network.
FETCHED = ("script", "link", "img")


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.links += [(tag, value or "") for name, value in attrs if name in ("src", "href")]


@dataclass
class Crawl:
    """What following every link of a site found: pages read, links to its own files and to outside
    pages, and each broken link as ``page: why``."""

    pages: int = 0
    internal: int = 0
    external: int = 0
    broken: list[str] = field(default_factory=list)


def crawl(root: Path, own_base: str = OWN_BASE) -> Crawl:
    """Every link of every ``*.html`` below ``root`` (the network pages and the site's folder)."""
    found = Crawl()
    for page in sorted(root.rglob("*.html")):
        found.pages += 1
        parser = Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for tag, link in parser.links:
            _follow(found, root, page, tag, link, own_base)
    return found


def _follow(found: Crawl, root: Path, page: Path, tag: str, link: str, own_base: str) -> None:
    where = page.relative_to(root)
    if tag in FETCHED and re.match(r"\s*(https?:)?//", link, re.I):
        found.broken.append(f"{where}: <{tag}> fetches {link} from the network")
    elif re.match(r"https?://", link):
        # an identifier page (ORCID, DOI, ...) or a paper's code and other links
        if tag != "a" or link.startswith(own_base):
            found.broken.append(f"{where}: <{tag}> links to {link}")
        else:
            found.external += 1
    elif page.name == "index.html" and page.parent.name == "site" and link == "sparql":
        pass  # the endpoint: kg serve answers it beside the site's files (tests/stores/test_query_page.py)
    elif (page.parent / unquote(urlsplit(link).path)).resolve().is_file():
        found.internal += 1
    else:
        found.broken.append(f"{where}: <{tag}> links to missing {link}")
