"""The author mentions of the sources a run stages, kept as their N-Triples are written.

Each authorship's ``kg:author`` and ``kg:nameAsWritten`` are what the resolution step needs for the
people's display names, their match keys and the moves of name-only mentions
(:mod:`kg.resolve.identity`). Read from the staged lines as the stager writes them, they need not
be decoded from the store again after the load: when a run stages every source the store holds
(``kg build``, a first ``kg ingest``), :func:`kg.resolve.store_step.rebuild` takes them from here.
A run that leaves other sources in the store reads them back as before, so the result never depends
on which sources a run staged.
"""

from __future__ import annotations

from typing import BinaryIO, Iterator

import pyoxigraph as ox

from ..vocab import KG

_PREDICATES = (f" {KG.author} ".encode(), f" {KG.nameAsWritten} ".encode())


def _lines_with(data: bytes, needle: bytes) -> Iterator[bytes]:
    """The lines of ``data`` that hold ``needle``: found by the bytes' own search, so the lines
    without it (most of them) are never looked at one by one."""
    at = data.find(needle)
    while at != -1:
        end = data.find(b"\n", at)
        end = len(data) if end == -1 else end
        yield data[data.rfind(b"\n", 0, at) + 1 : end]
        at = data.find(needle, end)


class StagedMentions:
    """The lines of authors and names as written of every graph tapped (:meth:`tap`), kept as
    written (about 110 bytes a line) and parsed once, when the resolution asks (:meth:`mentions`)."""

    def __init__(self) -> None:
        self.graphs: set[str] = set()
        self.loaded = False  # set once the staged graphs are the store's (the commit succeeded)
        self.lines: dict[str, list[bytes]] = {}

    def tap(self, graph: ox.NamedNode, out: BinaryIO) -> BinaryIO:
        """A file writing to ``out`` whose lines of authors and names as written are kept too."""
        self.graphs.add(graph.value)
        return _Tap(out, self, graph.value)

    def keep(self, graph: str, data: bytes) -> None:
        """Keep the mentions among whole N-Triples lines (the stager writes whole lines)."""
        lines = [line for needle in _PREDICATES for line in _lines_with(data, needle)]
        if lines:
            self.lines.setdefault(graph, []).append(b"\n".join(lines))

    def covers(self, sources: list[str]) -> bool:
        """Whether the tapped graphs were loaded and are exactly these (then no mention is in the
        store alone, and none kept here is missing from it: a failed commit leaves the old graphs)."""
        return self.loaded and self.graphs == set(sources)

    def mentions(self) -> list[tuple[str, str, str, ox.Literal]]:
        """(graph, authorship, person, name as written) of every authorship, sorted; the kept lines
        are let go (asked once)."""
        found: list[tuple[str, str, str, ox.Literal]] = []
        for graph in sorted(self.lines):
            authors: dict[str, str] = {}
            written: dict[str, set[ox.Literal]] = {}
            for triple in ox.parse(b"\n".join(self.lines[graph]), format=ox.RdfFormat.N_TRIPLES):
                if triple.predicate == KG.author:
                    authors[triple.subject.value] = triple.object.value
                elif triple.predicate == KG.nameAsWritten:
                    written.setdefault(triple.subject.value, set()).add(triple.object)
            found.extend(
                (graph, authorship, person, name)
                for authorship, person in sorted(authors.items())
                for name in sorted(written.get(authorship, ()), key=lambda term: (term.value, term.language or ""))
            )
        self.lines.clear()
        return found


class _Tap:
    def __init__(self, out: BinaryIO, mentions: StagedMentions, graph: str):
        self.out, self.mentions, self.graph = out, mentions, graph

    def write(self, data: bytes) -> None:
        self.out.write(data)
        self.mentions.keep(self.graph, data)

    def flush(self) -> None:
        self.out.flush()
