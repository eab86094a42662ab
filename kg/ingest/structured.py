"""Records from structured sources (paperlists JSON, BibTeX, arXiv Atom, CSV), checked one way.

Each of those formats turns one entry into named fields; :func:`make_record` applies the
checks every format shares (a title that is text and not absurdly long, per-author lists aligned
with the byline) and returns a record or a rejection with the reason. An entry with a title and
no author is a paper whose source does not give its byline (EMNLP 2023's list gives none for any
paper): it is kept, with its venue, keywords and institutions, and no authorship.
A field of the wrong type raises :class:`FieldError`, which the format turns into a rejection.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..records import AuthorDetail, Institution, PaperRecord, Rejection, SourceRef, excerpt
from ..text.names import clean, unescape_html

MAX_TITLE = 1_000
MAX_FIELD = 20_000
MAX_PART = 2_000  # characters of one entry of a list field: one name, affiliation or keyword


class FieldError(ValueError):
    """A field of an entry that is not what the format says it is (the message is the reason)."""


def text(value: object, key: str) -> str | None:
    """A text field, cleaned; None when absent or empty; a number or list is a :class:`FieldError`."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise FieldError(f"field {key!r} is {type(value).__name__}, not text")
    if len(value) > MAX_FIELD:  # refused before it is cleaned, which takes seconds at 10 MB
        raise FieldError(f"field {key!r} of {len(value):,} characters is too long (limit {MAX_FIELD:,})")
    return clean(unescape_html(value)) or None


def parts(value: object, key: str, separator: str) -> list[str]:
    """A list field written as a list of strings or as one string joined by ``separator``.

    Empty parts are kept (``";IBM;"`` is three entries), because position aligns them with authors;
    HTML character references are resolved first, so that their ';' splits nothing.
    """
    if value is None or value == "":
        return []
    if isinstance(value, str):
        listed = unescape_html(value).split(separator)
    elif isinstance(value, list) and all(isinstance(part, str) for part in value):
        listed = [unescape_html(part) for part in value]
    else:
        raise FieldError(f"field {key!r} is {type(value).__name__}, not text or a list of text")
    if longest := max((part for part in listed if len(part) > MAX_PART), key=len, default=None):
        # refused before the affiliation rules, whose time grows with the square of a part's words
        raise FieldError(f"an entry of field {key!r} has {len(longest):,} characters (limit {MAX_PART:,})")
    return [clean(part) for part in listed]


def aligned(values: Sequence, authors: Sequence) -> Sequence:
    """Per-author values only when there is one per author: a misaligned list says nothing exact."""
    return values if len(values) == len(authors) else ()


def distinct(names: Iterable[str]) -> list[str]:
    """Names in order of first appearance, each once (empty ones dropped)."""
    return list(dict.fromkeys(name for name in names if name))


def institutions_of(names: Iterable[str], details: Iterable[AuthorDetail]) -> list[Institution]:
    """The paper's institutions, each once, with the e-mail domains its authors give for it
    (which tell apart two universities' "Department of Computer Science")."""
    domains: dict[str, dict[str, None]] = {}
    for detail in details:
        for affiliation in detail.affiliations:
            if affiliation.domain:
                domains.setdefault(affiliation.name, {})[affiliation.domain] = None
    return [Institution(name, name, domains=tuple(domains.get(name, ()))) for name in distinct(names)]


def _without_enclosing_quotes(title: str) -> str:
    """A title a CSV export wrapped whole in straight double quotes (ECCV's list writes
    '"Trust, but Verify: ..."') without them; quotes that open or close only a part of the title
    ('"Why Should I Trust You?": ...') are the title's own."""
    if len(title) > 2 and title[0] == title[-1] == '"' and '"' not in title[1:-1]:
        return title[1:-1].strip()
    return title


def _too_long_field(fields: dict) -> str | None:
    """Why the first text field over the limit is refused, or None where none is."""
    for key in ("abstract", "comments", "journal_ref"):
        if len(fields.get(key) or "") > MAX_FIELD:
            return f"{key} of {len(fields[key]):,} characters is too long (limit {MAX_FIELD:,})"
    return None


def _named_authors(authors: list[str], details: list[AuthorDetail]) -> tuple[list[str], list[AuthorDetail]]:
    """The authors with a name, and their details where the details align with the authors."""
    details = list(aligned(details, authors))
    if details:
        details = [detail for name, detail in zip(authors, details) if name]
    return [name for name in authors if name], details


def make_record(
    where: SourceRef,
    header: str,
    title: str | None,
    authors: list[str],
    details: list[AuthorDetail] | None = None,
    **fields,
) -> PaperRecord | Rejection:
    """The record of one entry, or why it cannot be one; paper-level institutions are the
    distinct per-author affiliations unless the entry lists its own."""
    title = _without_enclosing_quotes(title) if title else title
    shown = excerpt(title or fields.get("abstract") or " ".join(authors) or "(empty entry)")
    if not title:
        return Rejection(where, "entry has no title", shown)
    if len(title) > MAX_TITLE:
        return Rejection(where, f"title of {len(title):,} characters is too long (limit {MAX_TITLE:,})", shown)
    authors, details = _named_authors(authors, details or [])
    if (too_long := _too_long_field(fields)) is not None:
        return Rejection(where, too_long, shown)
    if "institutions" not in fields:
        fields["institutions"] = institutions_of(
            (aff.name for detail in details for aff in detail.affiliations), details
        )
    return PaperRecord(
        source=where, venue_header=header, title=title, authors=authors, author_details=details, **fields
    )
