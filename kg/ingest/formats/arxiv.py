"""``arxiv``: an Atom feed as the arXiv API returns it.

Per ``<entry>``: the title, ``summary`` (abstract), authors with their
``arxiv:affiliation`` where present, categories (as keywords), ``arxiv:comment`` and
``arxiv:journal_ref`` (read by the same rules as a listing's Comments and Journal ref),
``arxiv:doi``, and the arXiv id and version from the entry's ``id``.

The feed is parsed with the standard library's pull parser, fed a line at a time, so a feed
of any size is streamed and each entry knows its line. The API's error entries ("incorrect
id format") are rejected with their message; a feed cut off or malformed is rejected from
the fault on with its line and column, after every complete entry before it is read.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Iterator

from .. import identifiers
from ...text.names import clean
from ..reading import Paragraph, iter_lines
from ...records import Affiliation, AuthorDetail, PaperRecord, Rejection
from ..structured import distinct, make_record
from . import Source

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
_ERROR_ID = "arxiv.org/api/errors"


def _text(element: ET.Element, tag: str) -> str | None:
    found = element.find(tag)
    return clean(found.text or "") or None if found is not None else None


def entry_record(entry: ET.Element, where) -> PaperRecord | Rejection:
    entry_id = _text(entry, f"{ATOM}id") or ""
    if _ERROR_ID in entry_id:
        return Rejection(where, f"arXiv API error: {_text(entry, f'{ATOM}summary') or 'no message'}", entry_id)
    authors, details = [], []
    for author in entry.findall(f"{ATOM}author"):
        authors.append(_text(author, f"{ATOM}name") or "")
        details.append(AuthorDetail(tuple(Affiliation(clean(aff.text or "")) for aff in author.findall(f"{ARXIV}affiliation")
                                          if clean(aff.text or ""))))
    arxiv = identifiers.arxiv(entry_id)
    pdf = [link.get("href") for link in entry.findall(f"{ATOM}link") if link.get("title") == "pdf" and link.get("href")]
    return make_record(
        where, "", _text(entry, f"{ATOM}title"), authors, details,
        abstract=_text(entry, f"{ATOM}summary"), comments=_text(entry, f"{ARXIV}comment"),
        journal_ref=_text(entry, f"{ARXIV}journal_ref"), doi=identifiers.doi(_text(entry, f"{ARXIV}doi")),
        arxiv_id=arxiv[0] if arxiv else None, arxiv_version=arxiv[1] if arxiv else None,
        keywords=distinct(category.get("term") or "" for category in entry.findall(f"{ATOM}category")),
        other_urls=pdf,
    )


class ArxivFormat:
    name = "arxiv"
    description = "an Atom feed of papers as the arXiv API returns it"
    encoding = "utf-8"

    def sniff(self, paragraphs: list[Paragraph]) -> float:
        head = "\n".join(p.text for p in paragraphs[:3])[:4096]
        return 1.0 if "<feed" in head and "http://www.w3.org/2005/Atom" in head else 0.0

    def read(self, paragraphs: Iterator[Paragraph], source: Source) -> Iterator[PaperRecord | Rejection]:
        del paragraphs  # the XML is fed to the parser a line at a time, blank lines and all
        parser = ET.XMLPullParser(events=("start", "end"))
        depth, entry_line, line = 0, 0, 0
        try:
            for line, text in iter_lines(source.path, self.encoding):
                parser.feed(text + "\n")
                for event, element in parser.read_events():
                    depth += 1 if event == "start" else -1
                    if event == "start" and element.tag == f"{ATOM}entry":
                        entry_line = line
                    elif event == "end" and element.tag == f"{ATOM}entry" and depth == 1:
                        yield entry_record(element, source.at(entry_line))
                        element.clear()  # the feed is streamed: entries read are dropped
                        entry_line = 0
            parser.close()
        except ET.ParseError as exc:
            fault_line, _ = exc.position
            cut = "the feed ends before it is closed (truncated)" if "no element found" in str(exc) else "malformed XML"
            where = source.at(entry_line or fault_line or line or 1)
            yield Rejection(where, f"{cut}: {exc}; the rest is not read", "")


FORMAT = ArxivFormat()
