"""``csv``: a spreadsheet of papers (CSV or TSV) with a header row.

Columns are recognised by their common names, case and punctuation aside ("Title", "Paper
title", "Authors", "Affiliations", "Abstract", "Venue", "Year", "DOI", "URL", "arXiv", …);
``--columns authors=Writers,title=Paper`` names others. The delimiter (comma, tab, semicolon)
is the one the header uses most. Authors are split the way the cell writes them: by ``;`` or
``|`` when it has them (then each may be "Last, First"), else by commas and "and".
Affiliations with one entry per author, split the same way, are per-author (``+`` between
several of one author); otherwise they are the paper's institutions.

Rows are streamed with their first line, read as a listing's lines are (BOMs, line ends,
control characters, encoding errors); a row with more or fewer cells than the header is rejected
with its line, and lines no row can start at by the CSV grammar (a stray quote) are one
rejection, after which reading goes on with the next row (:class:`CsvRows`).
"""

from __future__ import annotations

import csv as stdlib_csv
import itertools
import re
from collections import deque
from typing import Callable, Iterator

from ...records import Affiliation, AuthorDetail, Institution, PaperRecord, Rejection, excerpt
from ...text.names import clean
from .. import identifiers
from ..reading import Paragraph, iter_lines
from ..structured import MAX_FIELD, distinct, make_record
from . import Source
from .bibtex import person_name

COLUMNS: dict[str, tuple[str, ...]] = {
    "title": ("title", "papertitle", "name"),
    "authors": ("authors", "author", "authornames", "creators", "byline"),
    "affiliations": (
        "affiliations",
        "affiliation",
        "institutions",
        "institution",
        "aff",
        "organisations",
        "organizations",
    ),
    "abstract": ("abstract", "summary", "description"),
    "venue": ("venue", "conference", "booktitle", "journal", "event", "proceedings"),
    "year": ("year", "publicationyear", "date", "published"),
    "doi": ("doi",),
    "arxiv": ("arxiv", "arxivid", "eprint"),
    "openreview": ("openreview", "openreviewurl", "forum", "openreviewid"),
    "url": ("url", "link", "paperurl", "pdf", "pdfurl", "site"),
    "code": ("code", "github", "coderepository", "codeurl", "repository"),
    "project": ("project", "projectpage", "projecturl", "homepage"),
    "keywords": ("keywords", "keyword", "tags", "topics"),
    "comments": ("comments", "comment", "note", "notes"),
    "presentation": ("status", "decision", "presentation", "presentationtype", "type", "session"),
    "track": ("track",),
}
_DELIMITERS = (",", "\t", ";")
_COMMA_LIST = re.compile(r"\s*(?:,|\band\b|&)\s*")
_user_columns: dict[str, str] = {}


def use_columns(spec: str | None) -> None:
    """``title=Paper,authors=Writers``: header names for kg's fields (the ``--columns`` option)."""
    _user_columns.clear()
    for pair in filter(None, (part.strip() for part in (spec or "").split(","))):
        field, _, header = pair.partition("=")
        if field.strip() not in COLUMNS or not header.strip():
            raise ValueError(f"--columns: {pair!r} is not FIELD=HEADER with FIELD one of {', '.join(COLUMNS)}")
        _user_columns[field.strip()] = header.strip()


def _key(header: str) -> str:
    return re.sub(r"[^a-z0-9]", "", header.casefold())


def column_map(header: list[str]) -> dict[str, int]:
    """kg field -> index of its column: the user's names first, then the common ones."""
    keys = [_key(name) for name in header]
    found: dict[str, int] = {}
    for field, name in _user_columns.items():
        if _key(name) in keys:
            found[field] = keys.index(_key(name))
    for field, names in COLUMNS.items():
        if field not in found:
            index = next(
                (keys.index(name) for name in names if name in keys and keys.index(name) not in found.values()), None
            )
            if index is not None:
                found[field] = index
    return found


def _delimiter(line: str) -> str:
    return max(_DELIMITERS, key=line.count)


def list_separator(cell: str) -> str | None:
    """``;`` when the cell has one, else ``|``, else None (then commas separate)."""
    return next((separator for separator in ";|" if separator in cell), None)


def split_people(cell: str) -> tuple[list[str], str | None]:
    """Names from an authors cell, and the list separator they were split by."""
    separator = list_separator(cell)
    if separator:
        return [
            person_name(part) if "," in part else clean(part) for part in cell.split(separator) if part.strip()
        ], separator
    return [clean(part) for part in _COMMA_LIST.split(cell) if part.strip()], None


def _affiliations(cell: str, authors: list[str], separator: str | None) -> tuple[list[AuthorDetail], list[Institution]]:
    parts = cell.split(separator) if separator else [cell]
    if len(authors) > 1 and separator and len(parts) == len(authors):
        details = [
            AuthorDetail(tuple(Affiliation(clean(name)) for name in part.split("+") if name.strip())) for part in parts
        ]
        return details, []
    names = distinct(
        clean(name) for part in (cell.split(separator) if separator else [cell]) for name in part.split("+")
    )
    if len(authors) == 1 and names:
        return [AuthorDetail(tuple(Affiliation(name) for name in names))], []
    return [], [Institution(name, name) for name in names]


def row_record(row: dict[str, str], where, header: str) -> PaperRecord | Rejection:
    get = lambda field: clean(row.get(field) or "") or None  # noqa: E731 (one lookup rule for every field)
    authors, separator = split_people(row.get("authors") or "")
    details, institutions = (
        _affiliations(row.get("affiliations") or "", authors, separator) if get("affiliations") else ([], [])
    )
    fields = {
        "abstract": get("abstract"),
        "comments": get("comments"),
        **_identifier_fields(get),
        "keywords": distinct(clean(k) for k in re.split(r"[;,|]", get("keywords") or "")),
        "code_urls": [get("code")] if get("code") else [],
        "project_urls": [get("project")] if get("project") else [],
        "other_urls": [get("url")] if get("url") else [],
        "stated_facts": _stated_facts(get),
    }
    if institutions or not details:
        fields["institutions"] = institutions
    return make_record(where, header, get("title"), authors, details, **fields)


def _identifier_fields(get: Callable[[str], str | None]) -> dict[str, str | None]:
    """The DOI, arXiv id and version and OpenReview forum id of a row: from their own columns, else its url."""
    arxiv = identifiers.arxiv(get("arxiv")) or identifiers.arxiv(get("url"))
    forum = identifiers.openreview_forum(get("openreview") or get("url") or "")
    if get("openreview") and not forum and re.fullmatch(r"[\w\-]{6,20}", get("openreview")):
        forum = get("openreview")
    return {
        "doi": identifiers.doi(get("doi")) or identifiers.doi(get("url")),
        "arxiv_id": arxiv[0] if arxiv else None,
        "arxiv_version": arxiv[1] if arxiv else None,
        "openreview_id": forum,
    }


def _stated_facts(get: Callable[[str], str | None]) -> str | None:
    """What a row states of its paper's presentation, track, venue and year, as a listing would."""
    year = re.search(r"\b(19|20)\d\d\b", get("year") or "")
    facts = "; ".join(
        part
        for part in (
            get("presentation"),
            f"{get('track')} track" if get("track") else None,
            " ".join(filter(None, (get("venue"), year.group(0) if year else None))) or None,
        )
        if part
    )
    return facts or None


class CsvFormat:
    name = "csv"
    description = "a spreadsheet (CSV or TSV) with a header row naming title, authors, affiliations, … columns"

    def sniff(self, paragraphs: list[Paragraph]) -> float:
        first = paragraphs[0].text.split("\n", 1)[0] if paragraphs else ""
        try:
            header = next(stdlib_csv.reader([first], delimiter=_delimiter(first)))
        except (stdlib_csv.Error, StopIteration):
            return 0.0
        found = column_map(header)
        return 1.0 if len(header) >= 2 and "title" in found and ("authors" in found or "abstract" in found) else 0.0

    def read(self, paragraphs: Iterator[Paragraph], source: Source) -> Iterator[PaperRecord | Rejection]:
        del paragraphs  # a quoted cell may hold blank lines: the file is read row by row by the CSV grammar
        rows = CsvRows(iter_lines(source.path))
        header: list[str] | None = None
        for line, cells, problem in rows:
            if header is None:
                header, columns = cells or [], column_map(cells or [])
                rows.limit = MAX_FIELD * max(1, len(header))
                continue
            where = source.at(line)
            if cells is None:
                yield Rejection(where, f"row cannot be read as CSV: {problem}", excerpt(rows.failed_text))
            elif not any(cell.strip() for cell in cells):
                continue
            elif len(cells) != len(header):
                yield Rejection(
                    where, f"row has {len(cells)} cells, the header has {len(header)}", excerpt(" | ".join(cells)[:400])
                )
            elif any(len(cell) > MAX_FIELD for cell in cells):
                yield Rejection(
                    where, f"a cell is longer than {MAX_FIELD:,} characters", excerpt(" | ".join(cells)[:400])
                )
            else:
                yield row_record({field: cells[index] for field, index in columns.items()}, where, "")


class CsvRows:
    """``(first line, cells, None)`` per row of numbered lines, by the CSV grammar (a quoted cell may
    span lines); where the grammar fails (a stray quote), ``(first line, None, reason)`` once for the
    run of lines no row can start at, and reading goes on at the next line a row can start at, so a
    stray quote costs its own row and no other. The delimiter is the one the first line uses most."""

    def __init__(self, lines: Iterator[tuple[int, str]]):
        self.lines, self.buffer = lines, deque()
        self.limit = MAX_FIELD  # characters a row may take beyond its first line (a cell longer is rejected anyway)
        self.delimiter, self.failed_text = ",", ""

    def _feed(self) -> Iterator[str]:
        fed = 0
        for index in itertools.count():
            if index == len(self.buffer):
                if (line := next(self.lines, None)) is None:
                    return
                self.buffer.append(line)
            text = self.buffer[index][1]
            fed += len(text)
            if index and fed > self.limit:
                return  # ends the row inside its quotes: the grammar fails
            yield text + "\n"

    def __iter__(self) -> Iterator[tuple[int, list[str] | None, str | None]]:
        if (first := next(self.lines, None)) is None:
            return
        self.buffer.append(first)
        self.delimiter = _delimiter(first[1])
        failed: tuple[int, str] | None = None  # the first line and reason of lines no row starts at
        while self.buffer:
            reader = stdlib_csv.reader(self._feed(), delimiter=self.delimiter, strict=True)
            try:
                cells = next(reader)
            except stdlib_csv.Error as exc:
                if failed is None:
                    failed, self.failed_text = (self.buffer[0][0], str(exc)), self.buffer[0][1][:200]
                self.buffer.popleft()
                if not self.buffer and (line := next(self.lines, None)) is not None:
                    self.buffer.append(line)
                continue
            if failed is not None:
                yield failed[0], None, failed[1]
                failed = None
            line = self.buffer[0][0]
            for _ in range(reader.line_num):
                self.buffer.popleft()
            yield line, cells, None
            if not self.buffer and (line := next(self.lines, None)) is not None:
                self.buffer.append(line)
        if failed is not None:
            yield failed[0], None, failed[1]


FORMAT = CsvFormat()
