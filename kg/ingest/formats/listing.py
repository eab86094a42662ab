"""``listing``: an aggregator listing, one block of blank-line separated fields per paper.

Example: ``samples/001_0af6457a65591eab.txt``. A block is::

    English title
    translated title              (optional; may repeat the English one)
    Author One, Author Two        (byline order)
    机构 * Inst A（中文） ； Inst B 纠错   (optional)
    AI总结 summary                  (optional, may be empty)
    Comments free text            (optional)
    Journal ref text or URL       (optional)

Fields other than the first three are recognised by their label, so any of them may be
missing; a block ends where the next title begins. A block that has no author line is
rejected (with its file and line) and reading goes on with the next block.
"""

from __future__ import annotations

import re
from typing import Iterator

from ..names import clean, has_cjk
from ..reading import Paragraph
from ..records import Institution, PaperRecord, Rejection, excerpt
from . import Source, split_header

MAX_TITLE = 1_000
MAX_FIELD = 20_000

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
# Words that occur in titles but not in personal names; a "name" holding one is a title.
# Short words that are also surnames ("Do", "An", "To", "On", "Le") are deliberately absent.
_TITLE_WORDS = frozenset(
    "a the of for with via from is are not into towards toward using beyond under over through "
    "without when why how what does our learning model models network networks data neural deep "
    "language large analysis benchmark benchmarks".split()
)
_MARKUP = re.compile(r"[<>=/]")
_PARTICLES = frozenset("van von der den de del della di da dos du la le ten ter bin ibn al el y".split())


def _label(text: str) -> tuple[str | None, str]:
    for field, pattern in LABELS.items():
        if match := pattern.match(text):
            return field, text[match.end():]
    return None, text


def _author_names(text: str) -> list[str]:
    return [name for name in (_AUTHOR_MARKS.sub("", part).strip() for part in _AUTHOR_SEPARATOR.split(clean(text))) if name]


def looks_like_authors(text: str) -> bool:
    """An author line: names of 1-6 words, capitalised (or name particles), no title words."""
    if "\n" in text or len(text) > MAX_FIELD or re.search(r"[:?!]", text):
        return False
    names = _author_names(text)
    if not names:
        return False
    for name in names:
        words = name.split()
        if has_cjk(name):
            if len(words) > 2 or any(len(word) > 4 for word in words):  # East Asian names are short
                return False
            continue
        if not 1 <= len(words) <= 6:
            return False
        for word in words:
            if not word[:1].isalpha() or _MARKUP.search(word):
                continue  # quotes, brackets, stray markup: no evidence either way
            lowered = word.casefold()
            if lowered in _TITLE_WORDS:
                return False
            if not (word[:1].isupper() or lowered in _PARTICLES):
                return False
    return len(names) > 1 or len(names[0].split()) <= 4


def parse_institutions(text: str) -> list[Institution]:
    """``A（甲） ； B`` -> institutions with their English and bracketed (usually Chinese) names."""
    body = _LINK_LABEL.sub("", text)
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
                return text[:index].strip(), text[index + 1:-1].strip() or None
    return text, None


def _is_header(first: Paragraph, second: Paragraph | None) -> bool:
    """A short first line is the venue header unless the next paragraph is its translation or byline."""
    if "\n" in first.text or len(first.text) > 100:
        return False
    return second is None or not (has_cjk(second.text) or looks_like_authors(second.text))


class _Block:
    def __init__(self, paragraph: Paragraph):
        self.line = paragraph.line
        self.title = clean(paragraph.text)
        self.stage = "title"  # title -> translation -> authors -> fields
        self.fields: dict[str, str] = {}
        self.authors: list[str] = []
        self.title_zh: str | None = None
        self.problem: str | None = None
        self.paragraphs = 1


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
        block: _Block | None = None
        for paragraph in body:
            field, value = _label(paragraph.text)
            if field is None and (block is None or not self._continues(block, paragraph.text)):
                if block is not None:
                    yield self._finish(block, header, source)
                block = _Block(paragraph)
                if len(block.title) > MAX_TITLE:
                    block.problem = f"title of {len(block.title):,} characters is too long (limit {MAX_TITLE:,})"
                continue
            if block is None:
                yield Rejection(source.at(paragraph.line), f"'{field}' field before any paper title", excerpt(paragraph.text))
                continue
            block.paragraphs += 1
            if field is None:
                continue  # consumed by _continues
            if block.stage in ("title", "translation"):
                block.problem = block.problem or "block has no author line"
            block.stage = "fields"
            if len(value) > MAX_FIELD:
                block.problem = block.problem or f"'{field}' field of {len(value):,} characters is too long (limit {MAX_FIELD:,})"
            block.fields[field] = (block.fields[field] + "\n" + value) if field in block.fields else value
        if block is not None:
            yield self._finish(block, header, source)

    @staticmethod
    def _continues(block: _Block, text: str) -> bool:
        """Whether an unlabelled paragraph is the block's translated title or author line."""
        one_cjk_phrase = has_cjk(text) and len(_author_names(text)) == 1  # a translation, not a byline
        if block.stage == "title" and (clean(text) == block.title or has_cjk(text) and (one_cjk_phrase or not looks_like_authors(text))):
            block.title_zh = clean(text) if clean(text) != block.title else None
            block.stage = "translation"
            return True
        if block.stage in ("title", "translation") and looks_like_authors(text):
            block.authors = _author_names(text)
            block.stage = "authors"
            return True
        return False

    @staticmethod
    def _finish(block: _Block, header: str | None, source: Source) -> PaperRecord | Rejection:
        where = source.at(block.line)
        if block.problem is None and not block.authors:
            block.problem = "block has no author line"
        if block.problem:
            return Rejection(where, block.problem, excerpt(block.title))
        fields = block.fields
        return PaperRecord(
            source=where,
            venue_header=header or "",
            title=block.title,
            title_zh=block.title_zh,
            authors=block.authors,
            institutions=parse_institutions(fields["institutions"]) if "institutions" in fields else [],
            summary_zh=clean(fields["summary"]) or None if "summary" in fields else None,
            comments=clean(fields["comments"]) or None if "comments" in fields else None,
            journal_ref=clean(fields["journal_ref"]) or None if "journal_ref" in fields else None,
        )


FORMAT = ListingFormat()
