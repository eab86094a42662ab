"""The side rows of the sources a run staged (:mod:`kg.rdf.side_rows`), as the resolution step reads them.

A run that ingests sources has their facts and written names in hand as the mapping wrote them; the
resolution step takes those rows instead of reading the same facts back out of the store, and reads
the store only for the graphs the run did not stage (:meth:`StagedRows.other_graphs`). The rows are
as mapped, so the renames the step makes in the store (papers merged, people named by the same
identifier, name-only mentions moved to an identified person) are made on them too: the lines are
the ones the store would give after those rewrites.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..rdf.side_rows import AFFILIATED, FACT, FORM, PAPER
from ..rdf.topic_triples import detail_graph
from ..vocab import sparql_prologue


@dataclass
class StagedRows:
    """``files``: each staged source graph's side rows file. ``renamed``: per graph, IRIs rewritten
    (old -> new); ``moved``: per graph, authorship -> (person it named, person it names now). ``quads``:
    source graphs' quad counts, taken for the kept rows' stamps (:mod:`.kept_rows`) with the last run's
    rewrites undone."""

    files: dict[str, Path] = field(default_factory=dict)
    quads: dict[str, int] = field(default_factory=dict)
    renamed: dict[str, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))
    moved: dict[str, dict[str, tuple[str, str]]] = field(default_factory=lambda: defaultdict(dict))

    def rename(self, moves: Iterable[tuple[str, str, str]]) -> None:
        """(graph, old, new) rewrites made in the store, after the ones before."""
        for graph, old, new in moves:
            earlier = self.renamed[graph]
            for before, after in earlier.items():
                if after == old:
                    earlier[before] = new
            earlier.setdefault(old, new)

    def move(self, moves: Iterable[tuple[str, str, str, str]]) -> None:
        """(graph, authorship, old person, new person) moves made in the store."""
        for graph, authorship, old, new in moves:
            self.moved[graph][authorship] = (old, new)

    def known_quads(self) -> dict[str, int]:
        """The quad counts that still hold: a graph's count changes only by the step's rewrites, which
        :meth:`rename` and :meth:`move` record (a rewritten graph is counted again by whoever needs it)."""
        return {graph: count for graph, count in self.quads.items() if not self.rewritten(graph)}

    def forget_quads(self, graphs: Iterable[str]) -> None:
        """Graphs written since their quads were counted."""
        for graph in graphs:
            self.quads.pop(graph, None)

    def other_graphs(self, store) -> list[str] | None:
        """The graphs whose facts are read from the store: every graph but the staged sources and
        their detail graphs; None when nothing was staged (read the whole union)."""
        if not self.files:
            return None
        staged = set(self.files) | {detail_graph_iri(graph) for graph in self.files}
        return [graph for graph in store.graphs() if graph not in staged]

    def _lines(self, graph: str, kind: str) -> Iterator[list[str]]:
        with open(self.files[graph], encoding="utf-8") as rows:
            for line in rows:
                if line.startswith(kind):
                    yield line[len(kind) : -1].split("\t")

    def facts(self) -> Iterator[str]:
        """``paper<TAB>kind<TAB>value`` lines of every staged source, renames made."""
        for graph in sorted(self.files):
            yield from self.graph_facts(graph)

    def rewritten(self, graph: str) -> bool:
        """Whether this run renamed or moved anything in the graph: its lines are not as mapped."""
        return bool(self.renamed.get(graph) or self.moved.get(graph))

    def graph_facts(self, graph: str) -> Iterator[str]:
        """The fact lines of one staged source, renames made."""
        if self.rewritten(graph):
            yield from self._rewritten_facts(graph)
        else:  # nothing to rewrite: the lines as written, not split and joined again
            with open(self.files[graph], encoding="utf-8") as rows:
                yield from (line[len(FACT) :] for line in rows if line.startswith(FACT))

    def _rewritten_facts(self, graph: str) -> Iterator[str]:
        """The graph's fact lines with its renames and moves made."""
        renamed, moved = self.renamed.get(graph, {}), self._paper_moves(graph)
        for subject, kind, value in self._lines(graph, FACT):
            subject, value = renamed.get(subject, subject), renamed.get(value, value)
            if kind == "author" and subject in moved:
                value = moved[subject].get(value, value)
            elif kind == AFFILIATED:
                value = self._affiliated(graph, value)
            yield f"{subject}\t{kind}\t{value}\n"

    def _affiliated(self, graph: str, value: str) -> str:
        """An :data:`~kg.rdf.side_rows.AFFILIATED` value with its person renamed or its authorship moved."""
        authorship, person, institution = value.split(" ")
        person = self.renamed.get(graph, {}).get(person, person)
        old, new = self.moved.get(graph, {}).get(authorship, (None, None))
        return f"{authorship} {new if person == old else person} {institution}"

    def _paper_moves(self, graph: str) -> dict[str, dict[str, str]]:
        """paper -> old creator -> new, for the papers of the graph's moved authorships."""
        moved, renamed = self.moved.get(graph), self.renamed.get(graph, {})
        papers: dict[str, dict[str, str]] = defaultdict(dict)
        if moved:
            for subject, kind, authorship in self._lines(graph, FACT):
                if kind == "authorship" and authorship in moved:
                    old, new = moved[authorship]
                    papers[renamed.get(subject, subject)][old] = new
        return papers

    def papers(self, graphs: Iterable[str] | None = None) -> Iterator[tuple[str, str, str, str]]:
        """(graph, paper, kind, value) of every staged source's paper lines (or of ``graphs`` of them), as mapped:
        what the merges of papers are decided on, before any rename."""
        for graph in sorted(self.files if graphs is None else graphs):
            for paper, kind, value in self._lines(graph, PAPER):
                yield graph, paper, kind, value

    def forms(self) -> Iterator[str]:
        """``person<TAB>language<TAB>written (JSON)<TAB>authorship`` lines of every staged source, renames made."""
        for graph in sorted(self.files):
            yield from self.graph_forms(graph)

    def graph_forms(self, graph: str) -> Iterator[str]:
        """The written names' lines of one staged source, renames made."""
        renamed, moved = self.renamed.get(graph, {}), self.moved.get(graph, {})
        for person, language, written, authorship in self._lines(graph, FORM):
            person = renamed.get(person, person)
            old, new = moved.get(authorship, (None, None))
            yield f"{new if person == old else person}\t{language}\t{written}\t{authorship}\n"


def detail_graph_iri(graph: str) -> str:
    return detail_graph(ox.NamedNode(graph)).value


def in_graphs(pattern: str, graphs: list[str] | None) -> str:
    """A query's pattern over the union (``graphs`` None) or over the named ``graphs`` only."""
    if graphs is None:
        return pattern
    values = " ".join(f"<{graph}>" for graph in graphs)
    return f"VALUES ?g {{ {values} }} GRAPH ?g {{ {pattern} }}"


def select(variables: str, pattern: str, graphs: list[str] | None) -> str:
    return f"{sparql_prologue()} SELECT {variables} WHERE {{ {in_graphs(pattern, graphs)} }}"
