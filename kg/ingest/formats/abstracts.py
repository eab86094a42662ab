"""``abstracts``: a venue header line, then one abstract per paragraph (no titles, no authors).

Example: ``samples/000_d46489bfe8e71c68.txt`` ("ICML 2026 Papers", then 14 abstracts).
"""

from __future__ import annotations

from typing import Iterator

from ...records import PaperRecord, Rejection, excerpt
from ...text.names import clean
from ..reading import Paragraph
from . import Source, split_header

MAX_ABSTRACT = 20_000
MIN_ABSTRACT_WORDS = 8


def _is_header(first: Paragraph, second: Paragraph | None) -> bool:
    return "\n" not in first.text and len(first.text) <= 200 and len(first.text.split()) < MIN_ABSTRACT_WORDS


class AbstractsFormat:
    name = "abstracts"
    description = "a venue header line, then one abstract per paragraph"

    def sniff(self, paragraphs: list[Paragraph]) -> float:
        body = paragraphs[1:] if paragraphs and _is_header(paragraphs[0], None) else paragraphs
        if not body:
            return 0.0
        long = sum(len(p.text.split()) >= 15 for p in body)
        return long / len(body)

    def read(self, paragraphs: Iterator[Paragraph], source: Source) -> Iterator[PaperRecord | Rejection]:
        header, body = split_header(paragraphs, _is_header)
        for paragraph in body:
            text = clean(paragraph.text)
            where = source.at(paragraph.line)
            if len(text) > MAX_ABSTRACT:
                yield Rejection(
                    where,
                    f"paragraph of {len(text):,} characters is too long for an abstract (limit {MAX_ABSTRACT:,})",
                    excerpt(text),
                )
            elif len(text.split()) < MIN_ABSTRACT_WORDS:
                yield Rejection(
                    where, f"paragraph of {len(text.split())} words is too short for an abstract", excerpt(text)
                )
            else:
                yield PaperRecord(source=where, venue_header=header or "", abstract=text)


FORMAT = AbstractsFormat()
