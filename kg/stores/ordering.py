"""A store's statements in one fixed order, with memory bounded whatever the store's size.

Exports must repeat byte for byte, so statements are sorted; a SPARQL ``ORDER BY`` over the
whole store holds every row at once and grew 23x for 10x the data. Here rows are read
unsorted, written as N-Triples / N-Quads lines in sorted runs of :data:`RUN` lines beside
the store, and the runs merged (an external merge sort). The order is (graph,) subject and
predicate IRI, then the code-point order of the line: it keeps a subject's statements
together (what Turtle needs to group them) and depends only on the statements.

The same sort groups tab-separated lines by their first field (:func:`grouped_lines`): how the
resolution step goes through every paper's facts and every person's written forms without
holding them.
"""

from __future__ import annotations

import heapq
import tempfile
from contextlib import ExitStack
from itertools import chain, islice
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pyoxigraph as ox

RUN = 400_000  # lines sorted in memory at a time (about 100 MB of text)


def sorted_lines(lines: Iterable[str], scratch: Path | None, unique: bool = True) -> Iterator[str]:
    """``lines`` (each ending in a newline) in code-point order, repeats dropped (``unique``) or kept.
    One run is held at a time; lines that fit one run never touch the disk."""
    lines = iter(lines)
    run = _run(lines, unique)
    following = next(lines, None)
    if following is None:
        yield from run
        return
    with tempfile.TemporaryDirectory(prefix="kg-sort-", dir=scratch) as folder, ExitStack() as files:
        opened, rest = [], chain([following], lines)
        while run:
            path = Path(folder) / f"{len(opened)}.run"
            with open(path, "w", encoding="utf-8") as out:
                out.writelines(run)
            opened.append(files.enter_context(open(path, encoding="utf-8")))
            run = []  # let it go before the next is read
            run = _run(rest, unique)
        previous = None
        for line in heapq.merge(*opened):
            if line != previous or not unique:
                yield line
            previous = line


def _run(lines: Iterator[str], unique: bool) -> list[str]:
    """The next :data:`RUN` lines (fewer at the end), sorted."""
    run = list(islice(lines, RUN))
    return sorted(set(run) if unique else run)


def grouped_lines(lines: Iterable[str], scratch: Path | None, unique: bool = True) -> Iterator[tuple[str, list[str]]]:
    """Tab-separated ``lines`` grouped by their first field, in code-point order of it, with
    bounded memory: (first field, [the rest of each line of the group, without its newline]).
    A tab sorts below every character a field holds, so a group's lines are together and a
    field that is a prefix of another comes first."""
    return grouped_sorted(sorted_lines(lines, scratch, unique))


def merged_lines(streams: Iterable[Iterable[str]]) -> Iterator[str]:
    """Streams of distinct lines, each in code-point order, merged into one in that order, repeats dropped."""
    previous = None
    for line in heapq.merge(*streams):
        if line != previous:
            yield line
        previous = line


def grouped_sorted(lines: Iterable[str]) -> Iterator[tuple[str, list[str]]]:
    """Lines already in code-point order grouped as :func:`grouped_lines` groups them."""
    key, group = None, []  # one split a line, not a key call and a slice (this is every paper's every fact)
    for line in lines:
        first, _, rest = line.partition("\t")
        if first != key:
            if group:
                yield key, group
            key, group = first, []
        group.append(rest[:-1])
    if group:
        yield key, group


def sorted_statements(
    rows: Iterable[tuple[ox.Term, ...]],
    dataset: bool,
    scratch: Path | None,
    on_progress: Callable[[int], None] | None = None,
) -> Iterator[ox.Triple | ox.Quad]:
    """Rows ``(g, s, p, o)`` as sorted distinct triples of their union, or (``dataset``) as
    quads sorted by graph then triple. ``on_progress`` hears the count of rows read."""

    def lines() -> Iterator[str]:
        count = 0
        for count, (g, s, p, o) in enumerate(rows, start=1):
            # N-Triples escapes tabs and newlines, and IRIs have none: the sort key before the
            # last tab and the line framing are unambiguous
            if dataset:
                yield f"{g.value}\t{s.value}\t{p.value}\t{s} {p} {o} {g} .\n"
            else:
                yield f"{s.value}\t{p.value}\t{s} {p} {o} .\n"
            if on_progress and count % 10_000 == 0:
                on_progress(count)
        if on_progress and count % 10_000:
            on_progress(count)  # the display reaches every statement

    with tempfile.TemporaryDirectory(prefix="kg-sorted-", dir=scratch) as folder:
        merged = Path(folder) / "sorted.nq"
        with open(merged, "w", encoding="utf-8") as out:
            for line in sorted_lines(lines(), scratch):
                out.write(line.rsplit("\t", 1)[1])
        kind = ox.RdfFormat.N_QUADS if dataset else ox.RdfFormat.N_TRIPLES
        for quad in ox.parse(path=str(merged), format=kind):
            yield quad if dataset else quad.triple


def spool(folder: str | Path, name: str):
    """A file in ``folder`` to write lines to and read them back from (:func:`rewound`)."""
    return open(Path(folder) / name, "w+", encoding="utf-8")


def rewound(file) -> Iterator[str]:
    """The lines written to a :func:`spool`, from its start."""
    file.flush()
    file.seek(0)
    return iter(file)
