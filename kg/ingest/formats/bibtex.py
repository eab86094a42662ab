"""``bibtex``: BibTeX as OpenReview, PMLR, the ACL Anthology or dblp export it.

Entries are parsed by ``bibtexparser`` (v2), a chunk at a time: a chunk ends where the next
line opening with ``@`` begins, so a file of any size is streamed and an entry with
unbalanced braces spoils only itself (it is rejected with its line). TeX accents, commands
and braces become Unicode (``pylatexenc``); authors are written "First Last" whether the
entry says "Last, First" or "First Last" (``von`` and ``Jr`` parts kept in place).
booktitle / journal and year are read as the venue by the rules of listing Comments.
"""

from __future__ import annotations

import logging
import re
from typing import Iterator

import bibtexparser
from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names
from pylatexenc.latex2text import LatexNodes2Text

from ...records import PaperRecord, Rejection, excerpt
from ...text.names import clean
from .. import identifiers
from ..comments import find_venue
from ..reading import Paragraph, iter_lines
from ..structured import MAX_FIELD, distinct, make_record
from . import Source

_ENTRY = re.compile(r"^\s*@\s*([A-Za-z]+)\s*[{(]", re.MULTILINE)
_NOT_PAPERS = {"string", "preamble", "comment"}
MAX_ENTRY = 20 * MAX_FIELD  # characters of one entry: twenty fields of the longest a field may be
# OpenReview writes keys from surnames with their TeX accents (g{\"u}nster2024handling), which
# bibtexparser cannot read as a key; the key is only a label, so its markup is dropped.
_MARKED_UP_KEY = re.compile(r"(@\s*[A-Za-z]+\s*[{(]\s*)([^,\s]*[{}\\][^,\n]*),")
_LATEX = LatexNodes2Text(math_mode="verbatim", strict_latex_spaces=False)  # "D$^3$RoMa" stays as the sites write it
# \textasciicircum and \textasciitilde are the ASCII characters; pylatexenc gives modifier letters
_LEFT_MARKUP = re.compile(r"\\(?:[A-Za-z]+\{|['`^\"~=.]\{?[A-Za-z])")  # \texttt{…}, \'e
_ASCII_MARKS = str.maketrans({"\u02c6": "^", "\u02dc": "~"})
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)  # failures are reported as rejections


# What pylatexenc reads: commands, groups, math, ties, and TeX's quotes and dashes (``, '', --, ---)
_MARKUP = re.compile(r"[\\{}$~]|``|''|--")
# the tie accent over two letters (\t{oo}), which pylatexenc drops
_TIE = re.compile(r"\\t\s*\{(\w)(\w)\}")
# An accent command with its letter ("\~n", "\'{\i}", "\c c"): a BibTeX name is split at "~" and
# spaces, so the accent is braced first ("{\~n}"), as BibTeX's own special characters are.
_ACCENT = re.compile(
    r"\\['`^\"~=.]\s*(?:\{[^{}]*\}|\\[ij](?![A-Za-z])|[A-Za-z])|\\[uvHckrdbt](?:\s*\{[^{}]*\}|\s+[A-Za-z])"
)


def unlatex(value: str) -> str:
    """TeX markup as Unicode text: ``Gon{\\c{c}}alves`` -> ``Gonçalves``, ``{C}ausal`` -> ``Causal``,
    ```` ``Quirky'' ```` -> ``“Quirky”``, ``--`` -> ``–``."""
    if not _MARKUP.search(value):
        return clean(value)
    try:
        text = _LATEX.latex_to_text(_TIE.sub("\\1\u0361\\2", value)).translate(_ASCII_MARKS)
        if _LEFT_MARKUP.search(
            re.sub(r"\$[^$]*\$", "", text)
        ):  # escaped twice by the site ({\textbackslash}'e): once more
            text = _LATEX.latex_to_text(text)
        return clean(text)
    except Exception:  # pylatexenc gives up on some malformed markup; braces are then just dropped
        return clean(value.replace("{", "").replace("}", ""))


def person_name(written: str) -> str:
    """One BibTeX name as "First von Last Jr", in Unicode."""
    try:
        return unlatex(parse_single_name_into_parts(written, strict=False).merge_first_name_first)
    except Exception:  # a name bibtexparser cannot split is kept as written
        return unlatex(written)


def authors(value: str) -> list[str]:
    braced = _ACCENT.sub(lambda accent: "{" + accent.group(0) + "}", value)
    return [person_name(name) for name in split_multiple_persons_names(braced)]


def parse_entries(
    text: str, strings: dict[str, str] | None = None
) -> tuple[list[tuple[int, dict[str, str]]], list[tuple[int, str, str]]]:
    """``(line offset, fields)`` per entry (type in ``ENTRYTYPE``, key in ``ID``) and
    ``(line offset, reason, raw)`` per block that is not a valid entry; offsets are 0-based.
    ``@string`` macros are added to ``strings`` and a field that is one of them is replaced,
    so macros defined in an earlier chunk of the file apply."""
    strings = {} if strings is None else strings
    text = _MARKED_UP_KEY.sub(lambda m: m.group(1) + re.sub(r"[^\w:.\-]", "", m.group(2)) + ",", text)
    library = bibtexparser.parse_string(text)
    strings.update((macro.key.casefold(), str(macro.value)) for macro in library.strings)
    entries = []
    for entry in library.entries:
        fields = {key.casefold(): str(field.value) for key, field in entry.fields_dict.items()}
        fields = {key: strings.get(value.casefold(), value) for key, value in fields.items()}
        entries.append((entry.start_line, {"ENTRYTYPE": entry.entry_type.casefold(), "ID": entry.key, **fields}))
    failures = []
    for block in library.failed_blocks:
        error = getattr(block, "error", None)
        reason = (str(error or "").strip().splitlines() or ["not a valid BibTeX entry"])[0]
        failures.append((block.start_line, f"invalid BibTeX entry: {reason}", block.raw))
    return entries, failures


_SIMPLE_FIELD = re.compile(
    r"^\s*(booktitle|journal|year|doi|eprint|archiveprefix|url)\s*=\s*\{([^{}\\\n]*)\},?\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_WANTED_FIELD = re.compile(r"\b(?:booktitle|journal|year|doi|eprint|archiveprefix|url)\s*=", re.IGNORECASE)


def citation_fields(text: str) -> dict[str, str]:
    """The venue and identifier fields of one entry embedded in another source (the JSON's
    ``bibtex``). OpenReview writes them one per line without markup, which a line pattern
    reads a hundred times faster than a full parse; anything else gets the full parse."""
    simple = {key.casefold(): value for key, value in _SIMPLE_FIELD.findall(text)}
    if len(simple) == len(_WANTED_FIELD.findall(text)):
        return simple
    entries, _ = parse_entries(text)
    return entries[0][1] if entries else {}


def venue_facts(fields: dict[str, str]) -> str | None:
    """booktitle / journal and year, as one phrase for the Comments rules ("… Statistics 2025").

    The year dates the conference the booktitle names where the booktitle gives none, however far
    from its name ("Proceedings of the Thirty-Second International Joint Conference on Artificial
    Intelligence, IJCAI-23" is IJCAI 2023 with ``year = {2023}``): the phrase then starts with the
    conference and that year."""
    venue = unlatex(fields.get("booktitle") or fields.get("journal") or "")
    year = clean(fields.get("year") or "")
    if venue and year:
        named, edition = find_venue(venue)
        return f"{named} {year}: {venue}" if named and edition is None else f"{venue} {year}"
    return venue or year or None


def entry_record(fields: dict[str, str], where, header: str) -> PaperRecord | Rejection:
    if long := next((key for key, value in fields.items() if len(value) > MAX_FIELD), None):  # before TeX is read
        return Rejection(
            where,
            f"{long} of {len(fields[long]):,} characters is too long (limit {MAX_FIELD:,})",
            excerpt(fields.get("title", "")[:200]),
        )
    keywords = distinct(unlatex(word) for word in re.split(r"[;,]", fields.get("keywords") or ""))
    return make_record(
        where,
        header,
        unlatex(fields.get("title") or "") or None,
        authors(fields.get("author") or ""),
        abstract=unlatex(fields.get("abstract") or "") or None,
        **_ids_and_link(fields),
        keywords=keywords,
        stated_facts=venue_facts(fields),
    )


def _ids_and_link(fields: dict[str, str]) -> dict:
    """An entry's DOI, arXiv id and version (of its eprint unless another archive is named) and OpenReview
    forum id, from their own fields or its url, and the url."""
    eprint = (
        identifiers.arxiv(fields.get("eprint"))
        if (fields.get("archiveprefix") or "arxiv").casefold() == "arxiv"
        else None
    )
    url = clean(fields.get("url") or "") or None
    arxiv = eprint or identifiers.arxiv(url)
    return {
        "doi": identifiers.doi(fields.get("doi")) or identifiers.doi(url),
        "arxiv_id": arxiv[0] if arxiv else None,
        "arxiv_version": arxiv[1] if arxiv else None,
        "openreview_id": identifiers.openreview_forum(url),
        "other_urls": [url] if url else [],
    }


_FIELD_WITH_AT = re.compile(r"\s*@\s*\w+\s*=")  # "@url={…}": a field with a stray '@', no entry's start


def _chunks(source: Source, encoding: str) -> Iterator[tuple[int, str]]:
    """(1-based first line, text) of runs of lines that each start with an ``@`` line."""
    start, lines = 1, []
    for number, line in iter_lines(source.path, encoding):
        if line.lstrip().startswith("@") and not _FIELD_WITH_AT.match(line) and lines:
            yield start, "\n".join(lines)
            start, lines = number, []
        lines.append(line)
    if lines:
        yield start, "\n".join(lines)


class BibtexFormat:
    name = "bibtex"
    description = "BibTeX entries (@inproceedings, @article, …), as exported by OpenReview, PMLR, ACL Anthology, dblp"
    encoding = "utf-8"

    def sniff(self, paragraphs: list[Paragraph]) -> float:
        text = "\n".join(p.text for p in paragraphs[:4])
        found = [kind.casefold() for kind in _ENTRY.findall(text)]
        # certain, like every structured format (ties with the paragraph formats go to the other name)
        return 1.0 if any(kind not in _NOT_PAPERS for kind in found) and text.lstrip().startswith(("@", "%")) else 0.0

    def read(self, paragraphs: Iterator[Paragraph], source: Source) -> Iterator[PaperRecord | Rejection]:
        del paragraphs  # entries may span blank lines: the file is re-read in chunks of whole entries
        strings: dict[str, str] = {}
        for first, chunk in _chunks(source, self.encoding):
            if not _ENTRY.search(chunk):
                if chunk.lstrip().startswith("@"):  # an entry whose opening is damaged ("@inpro\\ceedings{")
                    yield Rejection(
                        source.at(first), "a line opens with '@' but starts no BibTeX entry", excerpt(chunk[:200])
                    )
                continue  # text outside entries is a comment in BibTeX
            if len(chunk) > MAX_ENTRY:  # refused before parsing: the parsers' time grows faster than the text
                yield Rejection(
                    source.at(first),
                    f"entry of {len(chunk):,} characters is too long (limit {MAX_ENTRY:,})",
                    excerpt(chunk[:200]),
                )
                continue
            entries, failures = parse_entries(chunk, strings)
            for offset, reason, raw in failures:
                yield Rejection(source.at(first + offset), reason, excerpt(raw))
            for offset, fields in entries:
                if fields["ENTRYTYPE"] in _NOT_PAPERS:
                    continue
                yield entry_record(fields, source.at(first + offset), "")


FORMAT = BibtexFormat()
