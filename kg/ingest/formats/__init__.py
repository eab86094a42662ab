"""Input formats, registered by name in :data:`FORMATS` (a lazy :class:`kg.registry.Registry`).

A format is an object with a ``name``, a one-line ``description``, a ``sniff`` score for
auto-detection and a ``read`` method that turns a file's paragraphs into records or
rejections. Adding a format is one new module here with a module-level ``FORMAT`` and one
line in :data:`FORMATS`.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Iterable, Iterator, Protocol

from ...errors import InputError
from ...records import PaperRecord, Rejection, SourceRef
from ...registry import Registry
from ..reading import Paragraph, iter_lines, iter_paragraphs

_SNIFF_PARAGRAPHS = 12
_SNIFF_LINES = 400


class InputFormat(Protocol):
    name: str
    description: str

    def sniff(self, paragraphs: list[Paragraph]) -> float:
        """How much the first paragraphs of a file look like this format, 0 to 1."""

    def read(self, paragraphs: Iterator[Paragraph], source: "Source") -> Iterator[PaperRecord | Rejection]:
        """Every record of the file, in order; every paragraph lands in one of them."""


class Source:
    """One input file being read: its path, stable name, format, and where records start."""

    def __init__(self, path: Path, name: str, format_name: str):
        self.path = path
        self.name = name
        self.format = format_name

    def at(self, line: int) -> SourceRef:
        return SourceRef(str(self.path), self.name, line, self.format)


FORMATS: Registry[InputFormat] = Registry(
    "format",
    {
        "abstracts": "kg.ingest.formats.abstracts:FORMAT",
        "arxiv": "kg.ingest.formats.arxiv:FORMAT",
        "bibtex": "kg.ingest.formats.bibtex:FORMAT",
        "csv": "kg.ingest.formats.csv:FORMAT",
        "listing": "kg.ingest.formats.listing:FORMAT",
        "paperlists": "kg.ingest.formats.paperlists:FORMAT",
    },
)


def get_format(name: str) -> InputFormat:
    return FORMATS[name]


def detect(path: Path, paragraphs: list[Paragraph]) -> InputFormat:
    """The registered format whose sniff scores the file's first paragraphs highest."""
    scored = sorted(((fmt.sniff(paragraphs), name) for name, fmt in FORMATS.items()), reverse=True)
    if not scored or scored[0][0] <= 0:
        raise InputError(
            path, f"does not look like any known listing format ({', '.join(sorted(FORMATS))}); pass --format"
        )
    return FORMATS[scored[0][1]]


def read_source(
    path: Path, name: str, format_name: str | None = None, encoding: str = "utf-8"
) -> tuple[Source, Iterator[PaperRecord | Rejection]]:
    """Open a listing file, pick its format (given or detected) and stream its records."""
    # Sniffing sees the first lines only: a JSON or XML file may be one "paragraph" of many MB.
    head = list(
        itertools.islice(iter_paragraphs(itertools.islice(iter_lines(path, encoding), _SNIFF_LINES)), _SNIFF_PARAGRAPHS)
    )
    fmt = get_format(format_name) if format_name else (detect(path, head) if head else FORMATS["listing"])
    source = Source(path, name, fmt.name)
    return source, fmt.read(iter_paragraphs(iter_lines(path, encoding)), source)


def split_header(paragraphs: Iterable[Paragraph], is_header) -> tuple[str | None, Iterator[Paragraph]]:
    """Take the venue header line off the front when ``is_header(first, second)`` says so."""
    stream = iter(paragraphs)
    first = next(stream, None)
    if first is None:
        return None, iter(())
    second = next(stream, None)
    rest = itertools.chain([second] if second else [], stream)
    if is_header(first, second):
        return first.text, rest
    return None, itertools.chain([first], rest)
