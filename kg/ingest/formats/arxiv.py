"""``arxiv``: an Atom feed as the arXiv API returns it.

Per ``<entry>``: the title, ``summary`` (abstract), authors with their
``arxiv:affiliation`` where present, categories (as keywords), ``arxiv:comment`` and
``arxiv:journal_ref`` (read by the same rules as a listing's Comments and Journal ref),
``arxiv:doi``, and the arXiv id and version from the entry's ``id``.

The feed is parsed with the standard library's pull parser, fed a line at a time, so a feed
of any size is streamed and each entry knows its line. The API's error entries ("incorrect
id format") are rejected with their message; HTML's named references (``&nbsp;``) are read as
the characters they name; an entry that is malformed (a missing end tag) is rejected with its
line and the line and column of the fault, and reading goes on at the next ``<entry>``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.entities import html5
from typing import Iterator

from ...records import Affiliation, AuthorDetail, PaperRecord, Rejection
from ...text.names import clean
from .. import identifiers
from ..reading import Paragraph, iter_lines
from ..structured import distinct, make_record
from . import Source

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
_ERROR_ID = "arxiv.org/api/errors"
_OPENING_LINES = 200  # lines before the first entry kept to restart the parser after a fault
# HTML's named character references (&nbsp;, &eacute;) are no XML entities: written as the numbers
# they stand for, so a feed that uses them is read, not refused from the first one on.
_XML_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}
_NAMED_REFERENCE = re.compile(r"&([A-Za-z][A-Za-z0-9]{1,31});")


def _with_numeric_references(text: str) -> str:
    if "&" not in text:
        return text
    return _NAMED_REFERENCE.sub(
        lambda match: (
            match[0]
            if match[1] in _XML_ENTITIES or f"{match[1]};" not in html5
            else "".join(f"&#{ord(char)};" for char in html5[f"{match[1]};"])
        ),
        text,
    )


def _text(element: ET.Element, tag: str) -> str | None:
    found = element.find(tag)
    return clean(found.text or "") or None if found is not None else None


def _author_detail(author: ET.Element) -> AuthorDetail:
    """An Atom author's affiliations (arxiv:affiliation), the empty ones left out."""
    return AuthorDetail(
        tuple(
            Affiliation(clean(aff.text or "")) for aff in author.findall(f"{ARXIV}affiliation") if clean(aff.text or "")
        )
    )


def entry_record(entry: ET.Element, where) -> PaperRecord | Rejection:
    entry_id = _text(entry, f"{ATOM}id") or ""
    if _ERROR_ID in entry_id:
        return Rejection(where, f"arXiv API error: {_text(entry, f'{ATOM}summary') or 'no message'}", entry_id)
    authors = [_text(author, f"{ATOM}name") or "" for author in entry.findall(f"{ATOM}author")]
    details = [_author_detail(author) for author in entry.findall(f"{ATOM}author")]
    arxiv = identifiers.arxiv(entry_id)
    pdf = [link.get("href") for link in entry.findall(f"{ATOM}link") if link.get("title") == "pdf" and link.get("href")]
    return make_record(
        where,
        "",
        _text(entry, f"{ATOM}title"),
        authors,
        details,
        abstract=_text(entry, f"{ATOM}summary"),
        comments=_text(entry, f"{ARXIV}comment"),
        journal_ref=_text(entry, f"{ARXIV}journal_ref"),
        doi=identifiers.doi(_text(entry, f"{ARXIV}doi")),
        arxiv_id=arxiv[0] if arxiv else None,
        arxiv_version=arxiv[1] if arxiv else None,
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
        feed = _Feed()
        for line, text in iter_lines(source.path, self.encoding):
            yield from feed.line(line, _with_numeric_references(text) + "\n", source)
        yield from feed.close(source)


class _EntryInEntry(Exception):
    """An entry starts inside another: the other's end tag is missing."""


class _Feed:
    """The pull parser over a feed's lines. After a fault the entry it was in is one rejection, and
    a new parser, given the feed's opening again, starts at the next line that opens an ``<entry>``."""

    def __init__(self):
        self.opening: list[str] = []  # the lines before the first entry (the namespaces), for a restart
        self.parser, self.depth, self.entry_line, self.skipping = ET.XMLPullParser(events=("start", "end")), 0, 0, False
        self.last_line, self.in_body = 0, False
        self.pending: Rejection | None = None
        self.skipped_entry = False

    def line(self, number: int, text: str, source: Source) -> Iterator[PaperRecord | Rejection]:
        self.last_line = number
        if self.skipping:
            if (at := text.find("<entry")) < 0:
                self.skipped_entry |= "</entry" in text
                return
            yield from self._pending()
            self.parser, self.depth, self.skipping = ET.XMLPullParser(events=("start", "end")), 0, False
            self.parser.feed("".join(self.opening))
            list(self._events())
            text = text[at:]
        elif not self.in_body:
            self.in_body = "<entry" in text or len(self.opening) >= _OPENING_LINES
            if not self.in_body:
                self.opening.append(text)
        try:
            self.parser.feed(text)
            yield from self._records(number, source)
        except _EntryInEntry:
            yield Rejection(
                source.at(self.entry_line),
                f"an <entry> opens at line {number} inside this one: its end tag is missing",
                "",
            )
            self.skipping, self.entry_line = True, 0
            yield from self.line(number, text, source)  # read again from the new <entry>
        except ET.ParseError as exc:
            if self.opening and self.opening[-1] is text:  # a faulty line is no part of the opening a restart feeds
                self.opening.pop()
            yield from self._fault(exc, number, source)
            self.skipped_entry = "</entry" in text  # the end of an entry whose start was damaged

    def _pending(self) -> Iterator[Rejection]:
        """A fault outside any entry is an entry's only where the text skipped after it held an entry's end."""
        if self.pending is not None and self.skipped_entry:
            yield self.pending
        self.pending, self.skipped_entry = None, False

    def close(self, source: Source) -> Iterator[PaperRecord | Rejection]:
        if self.skipping:
            yield from self._pending()
            return
        try:
            self.parser.close()
            yield from self._records(0, source)
        except ET.ParseError as exc:
            yield from self._fault(exc, None, source)

    def _events(self) -> Iterator[tuple[str, ET.Element]]:
        for event, element in self.parser.read_events():
            self.depth += 1 if event == "start" else -1
            yield event, element

    def _records(self, number: int, source: Source) -> Iterator[PaperRecord | Rejection]:
        for event, element in self._events():
            if event == "start" and element.tag == f"{ATOM}entry":
                if self.depth > 2:
                    raise _EntryInEntry()
                self.entry_line = number
            elif event == "end" and element.tag == f"{ATOM}entry" and self.depth == 1:
                yield entry_record(element, source.at(self.entry_line))
                element.clear()  # the feed is streamed: entries read are dropped
                self.entry_line = 0

    def _fault(self, exc: ET.ParseError, number: int | None, source: Source) -> Iterator[Rejection]:
        """The rejection of the entry a fault is in; ``number`` the file's line fed, None at the end of the file."""
        message = re.sub(r": line \d+, column \d+$", "", str(exc))
        in_entry, where = self.entry_line, source.at(self.entry_line or number or self.last_line or 1)
        self.skipping, self.entry_line, self.in_body = True, 0, True
        if number is None:
            rejection = Rejection(
                where, f"the feed ends at line {self.last_line} before it is closed (truncated): {message}", ""
            )
        else:
            rejection = Rejection(
                where,
                f"malformed XML at line {number}, column {exc.position[1] + 1}: {message}; "
                "reading goes on at the next <entry>",
                "",
            )
        if in_entry:
            yield rejection
        else:  # decided when the next entry starts (kg/ingest/formats/arxiv.py: _pending)
            self.pending, self.skipped_entry = rejection, False


FORMAT = ArxivFormat()
