"""``listing``: an aggregator listing, one block of blank-line separated fields per paper.

Example: ``samples/001_0af6457a65591eab.txt``. A block is::

    English title
    translated title              (optional; may repeat the English one)
    Author One, Author Two        (byline order)
    机构 * Inst A（中文） ； Inst B 纠错   (optional)
    AI总结 summary                  (optional, may be empty)
    Comments free text            (optional)
    Journal ref text or URL       (optional)

A block is read by its structure: its unlabelled paragraphs (title, optional translation,
byline) followed by its labelled fields, so an unlabelled paragraph after a field starts the
next block, and the position of a paragraph decides what it is: the last unlabelled paragraph
before the fields is the byline, whatever its names look like ("brian ichter", "Katherine A
Heller", "Mireia Planas i Lisbona"). Only where structure cannot decide (unlabelled
paragraphs with no field after them) does the shape of names break the tie
(:func:`looks_like_authors`). A block that has no byline is one rejection (with its file and
line), and reading goes on with the next block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.entities import html5
from typing import Iterator

from ...records import Institution, PaperRecord, Rejection, excerpt
from ...text.names import clean, has_cjk, unescape_html, with_generations
from ..comments import VENUES, find_venue
from ..reading import Paragraph
from . import Source, split_header

MAX_TITLE = 1_000
MAX_FIELD = 20_000
MAX_HEADER = 100

LABELS = {
    "institutions": re.compile(r"^机构\s*[*:：]?\s*"),
    "summary": re.compile(r"^AI\s*总结\s*[:：]?\s*"),
    "comments": re.compile(r"^Comments\b\s*[:：]?\s*", re.IGNORECASE),
    "journal_ref": re.compile(r"^Journal[\s\-]+ref\b\s*[:：]?\s*", re.IGNORECASE),
}
_LINK_LABEL = re.compile(r"\s*纠错\s*$")  # the aggregator's "report an error" link
_INSTITUTION_SEPARATOR = re.compile(r"\s*[；;]\s*")
_AUTHOR_SEPARATOR = re.compile(r"\s*(?:,|，|、|;|；|\band\b|&)\s*")
_AUTHOR_MARKS = re.compile(r"[\d*†‡§¶#]+$")
# Words of titles that no personal name holds, in any case ("Deep Ganguli" and "Will Ma" are
# names, so content words are not evidence); and lower-case words that are title words only
# as written: "A" and "To" are initials or surnames, "i" and "de" are particles.
_TITLE_WORDS = frozenset(
    "the of for with via from is are not into towards toward using beyond under over through "
    "without when why how what does our".split()
)
_LOWER_TITLE_WORDS = frozenset("a an in on to at by as or vs".split())
_MAX_NAME_WORDS = 6
_MAX_SOLE_NAME_WORDS = 4  # one name and no comma: short, or it is a title


def _label(text: str) -> tuple[str | None, str]:
    for label, pattern in LABELS.items():
        if match := pattern.match(text):
            return label, text[match.end() :]
    return None, text


def _author_names(text: str) -> list[str]:
    return with_generations(
        _AUTHOR_MARKS.sub("", part).strip() for part in _AUTHOR_SEPARATOR.split(clean(unescape_html(text)))
    )


def _is_title_word(word: str) -> bool:
    return word.casefold() in _TITLE_WORDS or word in _LOWER_TITLE_WORDS


def _name_shaped(name: str) -> bool:
    """A name short enough to be a person's, with no title word (East Asian names are short)."""
    words = name.split()
    if has_cjk(name):
        return len(words) <= 2 and all(len(word) <= 4 for word in words)
    return len(words) <= _MAX_NAME_WORDS and not any(_is_title_word(word) for word in words)


def looks_like_authors(text: str) -> bool:
    """Name-shape evidence that a paragraph is a byline, for where structure cannot decide.

    Accepts every real name form (lower case, bare initials, particles, given names that are
    words, CJK); refuses title punctuation, title function words, names too long to be names,
    and a comma-separated line whose parts are mostly single words ("Sparse, Efficient, and
    Robust Models").
    """
    if "\n" in text or len(text) > MAX_FIELD or re.search(r"[:?!]", text):
        return False
    names = _author_names(text)
    if not names or not all(map(_name_shaped, names)):
        return False
    if len(names) == 1:
        return len(names[0].split()) <= _MAX_SOLE_NAME_WORDS
    return sum(len(name.split()) > 1 or has_cjk(name) for name in names) * 2 >= len(names)


# A character reference whose own ';' became the list's separator: a list made by cutting the
# source's affiliations at every ';' ("Xi&amp;amp;#x27;an" -> "Xi&amp ； amp ； #x27 ； an"). Only
# a numeric reference or an HTML entity name counts, so "AT&T ； Bell Labs" stays two.
_CUT_REFERENCE = re.compile(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31})\s*[；;]\s*")


def _rejoined_references(body: str) -> str:
    """The body with every cut character reference whole again and resolved: one level of escaping
    at a time, since "&amp;amp;" leaves the next reference's '&' only once the first is resolved."""
    while True:
        rejoined = _CUT_REFERENCE.sub(
            lambda match: f"&{match[1]};" if match[1][0] == "#" or f"{match[1]};" in html5 else match[0], body
        )
        if rejoined == body:
            return body
        body = unescape_html(rejoined)


def parse_institutions(text: str) -> list[Institution]:
    """``A（甲） ； B`` -> institutions with their English and bracketed (usually Chinese) names."""
    body = _rejoined_references(unescape_html(_LINK_LABEL.sub("", text)))  # "Xi&amp;#x27;an" is one name, not three
    entries = []
    for raw in _INSTITUTION_SEPARATOR.split(clean(body)):
        if not raw or raw in {"*", "-"}:
            continue
        name, bracketed = split_bracketed(raw)
        entries.append(Institution(raw=raw, name=name or bracketed or raw, name_zh=bracketed if name else None))
    return entries


def split_bracketed(text: str) -> tuple[str, str | None]:
    """``English（中文（X））`` -> (``English``, ``中文（X）``): the last balanced full-width group."""
    if not text.endswith("）"):
        return text, None
    depth = 0
    for index in range(len(text) - 1, -1, -1):
        if text[index] == "）":
            depth += 1
        elif text[index] == "（":
            depth -= 1
            if depth == 0:
                return text[:index].strip(), text[index + 1 : -1].strip() or None
    return text, None


def _is_header(first: Paragraph, second: Paragraph | None) -> bool:
    """A short first line is the venue header unless the next paragraph is its translation or byline;
    a line that is a known conference's name alone ("ICML", "ICML 2024 Papers") is the header always,
    never a paper's title, whatever follows it."""
    if "\n" in first.text or len(first.text) > MAX_HEADER:
        return False
    return (
        second is None
        or names_a_known_venue_only(first.text)
        or not (_is_translation(first, second) or looks_like_authors(second.text))
    )


_HEADER_WORDS = re.compile(r"\b(?:(?:19|20)\d\d|accepted|papers|proceedings)\b", re.IGNORECASE)


def names_a_known_venue_only(text: str) -> bool:
    """The text is a known conference's acronym, with at most its year and "(Accepted) Papers"."""
    venue, _ = find_venue(text)
    if venue not in VENUES:
        return False
    return not _HEADER_WORDS.sub("", re.sub(rf"\b{re.escape(venue)}\b", "", text, flags=re.IGNORECASE)).strip(" -–:,")


def _is_translation(title: Paragraph, paragraph: Paragraph) -> bool:
    """Whether a paragraph after a title is its translation: the title again, or one CJK phrase."""
    text = paragraph.text
    if clean(text) == clean(title.text):
        return True
    return has_cjk(text) and (len(_author_names(text)) == 1 or not looks_like_authors(text))


@dataclass(slots=True)
class _Block:
    """A paper's unlabelled paragraphs, as structure assigned them, and its labelled fields."""

    title: Paragraph
    translation: Paragraph | None = None
    byline: Paragraph | None = None
    fields: dict[str, str] = field(default_factory=dict)
    problem: str | None = None


def _by_position(run: list[Paragraph]) -> tuple[list[Paragraph], _Block]:
    """The block that owns the fields after a run of unlabelled paragraphs, and what is before it.

    Its last paragraph is the byline, the one before it its translation when it is one, and
    the one before that its title; a block of title and translation only has no byline.
    """
    if len(run) == 1:
        return [], _Block(run[0])
    if len(run) == 2 and _is_translation(run[0], run[1]):
        return [], _Block(run[0], translation=run[1])
    if len(run) >= 3 and _is_translation(run[-3], run[-2]):
        return run[:-3], _Block(run[-3], translation=run[-2], byline=run[-1])
    return run[:-2], _Block(run[-2], byline=run[-1])


def _by_shape(run: list[Paragraph]) -> Iterator[_Block]:
    """Blocks of unlabelled paragraphs that no field follows: a title, then its translation and
    byline where they look like one (the tie-breaker structure leaves)."""
    index = 0
    while index < len(run):
        block = _Block(run[index])
        index += 1
        if index < len(run) and _is_translation(block.title, run[index]):
            block.translation = run[index]
            index += 1
        if index < len(run) and looks_like_authors(run[index].text) and not _opens_block(run, index):
            block.byline = run[index]
            index += 1
        yield block


def _opens_block(run: list[Paragraph], index: int) -> bool:
    """A lone name ("Second Paper") followed by its translation or a byline is the next title."""
    if index + 1 >= len(run) or len(_author_names(run[index].text)) > 1:
        return False
    following = run[index + 1]
    return _is_translation(run[index], following) or looks_like_authors(following.text)


class ListingFormat:
    name = "listing"
    description = "one block per paper: title, translated title, authors, 机构, AI总结, Comments, Journal ref"

    def sniff(self, paragraphs: list[Paragraph]) -> float:
        body = paragraphs[1:]  # the first paragraph may be the venue header
        if not body:
            return 0.0
        labelled = sum(_label(p.text)[0] is not None for p in body)
        authors = sum(looks_like_authors(p.text) for p in body)
        return min(1.0, (labelled + authors) / max(1, len(body) / 2))

    def read(self, paragraphs: Iterator[Paragraph], source: Source) -> Iterator[PaperRecord | Rejection]:
        header, body = split_header(paragraphs, _is_header)
        run: list[Paragraph] = []  # unlabelled paragraphs whose fields have not come yet
        block: _Block | None = None  # the block whose fields are being read
        for paragraph in body:
            field_name, value = _label(paragraph.text)
            if field_name is None:
                if block is not None:
                    yield self._finish(block, header, source)
                    block = None
                run.append(paragraph)
                continue
            if run:
                earlier, block = _by_position(run)
                if header is None and len(earlier) == 1 and _is_header(earlier[0], None):
                    header, earlier = earlier[0].text, []  # the first block shows the line before it is the header
                for unfielded in _by_shape(earlier):
                    yield self._finish(unfielded, header, source)
                run = []
            if block is None:
                yield Rejection(
                    source.at(paragraph.line), f"'{field_name}' field before any paper title", excerpt(paragraph.text)
                )
                continue
            if len(value) > MAX_FIELD:
                block.problem = (
                    block.problem
                    or f"'{field_name}' field of {len(value):,} characters is too long (limit {MAX_FIELD:,})"
                )
            block.fields[field_name] = (
                (block.fields[field_name] + "\n" + value) if field_name in block.fields else value
            )
        if block is not None:
            yield self._finish(block, header, source)
        for unfielded in _by_shape(run):
            yield self._finish(unfielded, header, source)

    @staticmethod
    def _finish(block: _Block, header: str | None, source: Source) -> PaperRecord | Rejection:
        where = source.at(block.title.line)
        title = clean(block.title.text)
        problem = _block_problem(block, title)
        authors = _author_names(block.byline.text) if problem is None else []
        if problem is None and not authors:
            problem = "block has no author line"
        if problem:
            return Rejection(where, problem, excerpt(title))
        translation = clean(block.translation.text) if block.translation else None
        fields = block.fields
        return PaperRecord(
            source=where,
            venue_header=header or "",
            title=title,
            title_zh=translation if translation != title else None,
            authors=authors,
            institutions=parse_institutions(fields["institutions"]) if "institutions" in fields else [],
            summary_zh=_cleaned(fields, "summary"),
            comments=_cleaned(fields, "comments"),
            journal_ref=_cleaned(fields, "journal_ref"),
        )


def _block_problem(block: _Block, title: str) -> str | None:
    """Why a block cannot be a record before its byline is read: a field or the title too long,
    no author line."""
    if len(title) > MAX_TITLE:
        return f"title of {len(title):,} characters is too long (limit {MAX_TITLE:,})"
    if block.byline is None:
        return block.problem or "block has no author line"
    if len(block.byline.text) > MAX_FIELD:
        return (
            block.problem or f"author line of {len(block.byline.text):,} characters is too long (limit {MAX_FIELD:,})"
        )
    return block.problem


def _cleaned(fields: dict[str, str], name: str) -> str | None:
    """A field's cleaned text, None where the block does not have it or it is empty."""
    return clean(fields[name]) or None if name in fields else None


FORMAT = ListingFormat()
