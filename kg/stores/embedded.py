"""The RDF store every command works on.

One option chooses it (``--store`` or ``KG_STORE``):

- a folder holds a persistent embedded Oxigraph store (default ``.kg-store`` in the current
  folder, so ``kg build`` then ``kg stats`` just works);
- ``memory`` a throwaway embedded one;
- an ``http(s)://`` URL a remote SPARQL 1.1 server (:mod:`kg.stores.remote`).

Every store keeps one named graph per source file (the graph's IRI is the source's IRI)
and answers queries over the union of its sources; query parameters are bound as RDF terms,
never pasted into query text. :class:`KGStore` is the contract the rest of ``kg`` uses;
``KGStore(spec)`` opens the implementation the spec names.

Writing a source is atomic: the pipeline writes the source's whole N-Triples file before
the store is touched, and the on-disk store commits it through a journal (see
:class:`EmbeddedStore`), so a killed ingest leaves either the old or the new source, never
half of one.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Callable, Collection, Iterable, Iterator, Mapping

import pyoxigraph as ox
import rdflib
from oxrdflib import OxigraphStore
from rdflib.query import Result

from ..errors import KgError, SparqlSyntaxError
from . import default_store_spec
from .answers import as_result
from .contract import KGStore
from .loading import load_file
from .ordering import sorted_lines
from .preload import Preload
from .snapshots import Snapshot, clear_stale, publish
from .store_folder import (
    _check_folder,
    _close_lock,
    _committed,
    _fsync,
    _open_reader,
    _open_writer,
    _take_lock,
    default_wait,
    note_closed,
)
from .values import with_values


class EmbeddedStore(KGStore):
    """An embedded Oxigraph store, on disk or in memory.

    Writes go through Oxigraph's bulk loader, which is fast but not transactional, so the
    on-disk store commits a source in two steps: the staged N-Triples file is renamed into
    ``kg-journal/`` (the commit point, an atomic rename), then applied (graph dropped,
    file bulk-loaded) and the journal entry deleted. Opening the store re-applies any entry
    a killed process left, so a source is either as before or completely replaced. The
    alternative, bulk-loading into a staging graph and ``MOVE``-ing it in one transaction,
    measured 10x slower than the load itself and 3 GB of memory per million triples.
    """

    def __init__(
        self,
        spec: str | None = None,
        read_only: bool = False,
        wait: float | None = None,
        snapshot: bool = True,
        **_options,
    ):
        self.spec = spec or default_store_spec()
        self._lock: int | None = None
        self.untouched = False  # nothing but kg wrote the store since its last writer closed it (store_folder.py)
        self._preload: Preload | None = None
        self._snapshot: Snapshot | None = None
        if self.spec == "memory":
            self.oxigraph = ox.Store()
        else:
            path = Path(self.spec)
            _check_folder(path, self.spec, read_only)
            self.scratch_dir = path / "kg-journal"
            if read_only:
                # Several readers beside one writer: a read-only open takes no lock. Committed
                # work a killed writer left is finished first, when no writer is at it now.
                if _committed(self.scratch_dir) and (lock := _take_lock(path, self.spec, 0, quiet=True)) is not None:
                    _close_lock(lock)
                    EmbeddedStore(self.spec, wait=0).close()
                # Through a snapshot (kg/stores/snapshots.py) unless it is one already; a reader's
                # scratch (an export's sort) in its snapshot's folder, which no writer clears.
                self.oxigraph, self._snapshot = _open_reader(self.spec, path, snapshot)
                if self._snapshot is not None:
                    self.scratch_dir = self._snapshot.folder
            else:
                self._lock, self.oxigraph, self.untouched = _open_writer(
                    path, self.spec, default_wait() if wait is None else wait
                )
                self._recover()
                self.scratch_dir.mkdir(exist_ok=True)
        self.read_only = read_only
        self.dataset = rdflib.Dataset(store=OxigraphStore(store=self.oxigraph), default_union=True)

    # ------------------------------------------------------------------ writing

    def replace_graphs(self, replacements: list[tuple[ox.NamedNode, Path]], drop: Iterable[str] = ()) -> None:
        drop = sorted(set(drop) - {graph.value for graph, _ in replacements})
        preload = self._preload
        if preload is not None and any(graph.value in preload.graphs for graph, _ in replacements):
            self._preload = None  # committed below: no longer undone on failure
        else:
            preload = None
        if preload is not None:
            preload.finish()
            replacements = [(graph, file) for graph, file in replacements if graph.value not in preload.graphs]
        if self.scratch_dir is None:  # in memory: nothing outlives the process
            self._load(replacements, drop)
            return
        entry = self.scratch_dir / f"{time.time_ns():020d}.commit"  # names sort in commit order
        staged = entry.with_suffix(".staged")
        staged.mkdir(parents=True)
        (staged / "drop").write_text("".join(f"{graph}\n" for graph in drop), encoding="utf-8")
        if preload is not None:  # the loaded graphs' marker moves into the entry, committed with it
            os.replace(preload.marker, staged / "preloaded")
        for number, (graph, ntriples_file) in enumerate(replacements):
            (staged / f"{number}.graph").write_text(graph.value, encoding="utf-8")
            shutil.move(str(ntriples_file), staged / f"{number}.nt")
        for written in (*staged.iterdir(), staged):
            _fsync(written)
        os.replace(staged, entry)  # the commit point
        _fsync(self.scratch_dir)
        self._apply(entry)

    def remove_graph(self, graph: ox.NamedNode) -> bool:
        if not self.oxigraph.contains_named_graph(graph):
            return False
        self.oxigraph.remove_graph(graph)
        self.oxigraph.flush()
        return True

    def update(self, sparql: str) -> None:
        if self.read_only:
            raise KgError(f"--store {self.spec}: opened read-only by this command")
        self.oxigraph.update(sparql)

    def graphs(self) -> list[str]:
        return sorted(graph.value for graph in self.oxigraph.named_graphs())

    def graph_sizes(
        self, left_out: Collection[ox.NamedNode | None], known: Mapping[str, int]
    ) -> dict[ox.NamedNode, int]:
        # Graph by graph, so the graphs left out (the index, topic detail and ranked lists: a third
        # of the quads) are not read at all, nor a graph whose count is known (a source of 10^5
        # papers: 1.5 s).
        counted = (ox.NamedNode(graph) for graph in self.graphs())
        return {
            graph: known.get(graph.value)
            or self.scalar(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} }}")
            for graph in counted
            if graph not in left_out
        }

    def _load(self, replacements: list[tuple[ox.NamedNode, Path]], drop: Iterable[str]) -> None:
        for graph in [*drop, *(graph.value for graph, _ in replacements)]:
            if self.oxigraph.contains_named_graph(ox.NamedNode(graph)):
                self.oxigraph.remove_graph(ox.NamedNode(graph))
        for graph, ntriples_file in replacements:
            load_file(self.oxigraph, ntriples_file, graph)
        self.oxigraph.flush()

    @contextlib.contextmanager
    def preloading(self, graphs: list[ox.NamedNode]) -> Iterator["Preload | None"]:
        # Only graphs the store does not hold yet: until the commit they are the run's alone, and
        # undoing them is dropping them (here on failure, or by the next writer after a kill:
        # the marker names them). A graph being replaced is loaded at the commit, as before.
        fresh = {graph.value for graph in graphs if not self.oxigraph.contains_named_graph(graph)}
        if not fresh or self.read_only:
            yield None
            return
        marker = None
        if self.scratch_dir is not None:
            marker = self.scratch_dir / f"{time.time_ns():020d}.loading"
            marker.write_text("".join(f"{graph}\n" for graph in sorted(fresh)), encoding="utf-8")
            _fsync(marker)
        self._preload = Preload(self.oxigraph, fresh, marker)
        try:
            yield self._preload
        finally:
            if self._preload is not None:  # not committed: the run failed
                preload, self._preload = self._preload, None
                preload.abandon()
                self._drop_loaded(sorted(preload.graphs))
                if marker is not None:
                    marker.unlink(missing_ok=True)

    def _drop_loaded(self, graphs: Iterable[str]) -> None:
        for graph in graphs:
            if self.oxigraph.contains_named_graph(ox.NamedNode(graph)):
                self.oxigraph.remove_graph(ox.NamedNode(graph))
        self.oxigraph.flush()

    def _append(self, graph: ox.NamedNode, ntriples_file: Path) -> None:
        load_file(self.oxigraph, ntriples_file, graph)
        self.oxigraph.flush()

    def compact(self) -> None:
        # Each bulk load adds its own sorted files, whose key ranges overlap the store's, so a read merges
        # them all (every term decoded looks in each): at 100,000 papers a store fresh from its first ingest
        # exports in 164 s of CPU, and in 79 s once compacted (16 s). RocksDB compacts in the background too,
        # but only as later writes trigger it. Oxigraph's optimize() compacts every index whole.
        if self.scratch_dir is not None and not self.read_only:
            self.oxigraph.flush()
            self.oxigraph.optimize()

    def set_graph_triples(self, graph: ox.NamedNode, triples: Iterable[ox.Triple]) -> None:
        self._set_graph(graph, lambda wanted: ox.serialize(triples, str(wanted), ox.RdfFormat.N_TRIPLES))

    def set_graph_lines(self, graph: ox.NamedNode, lines: Iterable[str]) -> None:
        """:meth:`set_graph_triples` with the triples given as N-Triples lines (each ending in a newline), as
        pyoxigraph writes them: written as they are, no term made of them."""

        def write(wanted: Path) -> None:
            with open(wanted, "w", encoding="utf-8") as out:
                out.writelines(lines)

        self._set_graph(graph, write)

    def _set_graph(self, graph: ox.NamedNode, write: Callable[[Path], None]) -> None:
        """Make a graph hold exactly the triples ``write`` puts in the N-Triples file it is given."""
        # Only the difference is written: on disk, removing a quad costs ~10 µs and dropping a
        # graph ~50 µs per quad, and a re-resolution after a small change changes few triples.
        # The difference comes from the graph and the triples as sorted N-Triples lines (sorted
        # runs merged from disk), so memory does not grow with the graph (2 M derived triples at
        # 100,000 papers were two Python sets of 1 GB).
        with tempfile.TemporaryDirectory(prefix="kg-derived-", dir=self.scratch_dir) as folder:
            wanted, held, added = (Path(folder) / name for name in ("wanted.nt", "held.nt", "added.nt"))
            write(wanted)  # all read before the graph changes
            self.oxigraph.dump(str(held), ox.RdfFormat.N_TRIPLES, from_graph=graph)
            if not held.stat().st_size:  # nothing held (a first resolution): every triple is new, no sort
                load_file(self.oxigraph, wanted, graph)
                self.oxigraph.flush()
                return
            stale: list[str] = []
            with (
                open(wanted, encoding="utf-8") as new_lines,
                open(held, encoding="utf-8") as old_lines,
                open(added, "w", encoding="utf-8") as out,
            ):
                for line, side in sorted_difference(
                    sorted_lines(new_lines, Path(folder)), sorted_lines(old_lines, Path(folder))
                ):
                    if side == "new":
                        out.write(line)
                    else:
                        stale.append(line)
                        if len(stale) == _REMOVE_BATCH:
                            self._remove_lines(stale, graph)
            self._remove_lines(stale, graph)
            load_file(self.oxigraph, added, graph)  # in chunks: a first resolution adds every derived triple
        self.oxigraph.flush()

    def _remove_lines(self, lines: list[str], graph: ox.NamedNode) -> None:
        """Remove these N-Triples statements from the graph, and empty the list."""
        for triple in ox.parse("".join(lines), format=ox.RdfFormat.N_TRIPLES):
            self.oxigraph.remove(ox.Quad(triple.subject, triple.predicate, triple.object, graph))
        lines.clear()

    def _apply(self, entry: Path) -> None:
        """Make a committed journal entry true in the store; safe to repeat. An entry that is
        not whole is refused before anything is dropped."""
        graphs = list(entry.glob("*.graph"))
        if not (entry / "drop").is_file() or not all(graph.with_suffix(".nt").is_file() for graph in graphs):
            raise KgError(
                f"--store {self.spec}: the journal entry {entry} is incomplete; nothing was changed. "
                "Move it out of kg-journal to give up that change"
            )
        drop = (entry / "drop").read_text(encoding="utf-8").split()
        preloaded = (
            set((entry / "preloaded").read_text(encoding="utf-8").split()) if (entry / "preloaded").is_file() else set()
        )
        replacements = [
            (ox.NamedNode(graph_file.read_text(encoding="utf-8")), graph_file.with_suffix(".nt"))
            for graph_file in sorted(entry.glob("*.graph"), key=lambda f: int(f.stem))
            if graph_file.read_text(encoding="utf-8") not in preloaded
        ]
        self._load(replacements, drop)
        shutil.rmtree(entry)

    def _recover(self) -> None:
        """Finish the commits a killed process left; forget what it had not committed (and the
        snapshots of readers that were killed)."""
        clear_stale(Path(self.spec))
        for leftover in sorted(self.scratch_dir.iterdir()) if self.scratch_dir.is_dir() else ():
            if leftover.suffix == ".commit":
                self._apply(leftover)
            elif leftover.suffix == ".loading":  # graphs loaded by a run that never committed
                self._drop_loaded(leftover.read_text(encoding="utf-8").split())
                leftover.unlink()
            elif leftover.is_dir():
                shutil.rmtree(leftover)
            else:
                leftover.unlink()

    # ------------------------------------------------------------------ reading

    def query(self, sparql: str, bindings: Mapping[str, rdflib.term.Identifier] | None = None) -> Result:
        try:
            # The terms in the query, not substitutions: Oxigraph applies those after evaluating (kg/stores/values.py).
            # pyoxigraph's own answer (with the prefixes rdflib's Dataset knows, as oxrdflib passes them),
            # so that the rows a query runner leaves out are never converted (kg/stores/answers.py).
            return as_result(
                self.oxigraph.query(
                    with_values(sparql, bindings or {}),
                    use_default_graph_as_union=True,
                    prefixes={prefix: str(ns) for prefix, ns in self.dataset.namespaces()},
                )
            )
        except SyntaxError as exc:
            at = re.match(r"error at (\d+):(\d+): (.*)", str(exc), re.DOTALL)
            if at is None:
                raise KgError(f"SPARQL syntax error: {exc}") from None
            raise SparqlSyntaxError(int(at.group(1)), int(at.group(2)), " ".join(at.group(3).split())[:200]) from None

    def select_terms(self, sparql: str, bindings: Mapping[str, ox.Term] | None = None) -> Iterator[tuple[ox.Term, ...]]:
        substitutions = {ox.Variable(name): term for name, term in (bindings or {}).items()}
        solutions = self.oxigraph.query(sparql, use_default_graph_as_union=True, substitutions=substitutions)
        return map(tuple, solutions)  # each solution's values in the order of the variables, None where unbound

    def scalar(self, sparql: str) -> int:
        row = next(iter(self.oxigraph.query(sparql, use_default_graph_as_union=True)))
        return int(row[0].value)

    def close(self) -> None:
        if not self.read_only:
            self.oxigraph.flush()
        if self._snapshot is None and self._lock is None:
            return
        if self._lock is not None:  # the work is complete: readers see it from now on (kg/stores/snapshots.py)
            publish(self.oxigraph, Path(self.spec))
        # Oxigraph closes its database with the last reference, so no compaction runs after the lock is
        # released and no reader's database is open when its snapshot goes. rdflib's Dataset holds one
        # in a reference cycle that a collection may never reach (kg.collector.kept_for_good freezes
        # what a process made before it): closing the Dataset lets go of it.
        self.dataset.close()
        del self.oxigraph, self.dataset
        if self._snapshot is not None:
            self._snapshot.remove()
            self._snapshot = None
        if self._lock is not None:
            note_closed(Path(self.spec))
            _close_lock(self._lock)
            self._lock = None


_REMOVE_BATCH = 100_000  # stale statements parsed and removed at a time


def sorted_difference(new: Iterator[str], old: Iterator[str]) -> Iterator[tuple[str, str]]:
    """The lines only in ``new`` ("new") or only in ``old`` ("old"), from two sorted streams of distinct lines."""
    sentinel = None
    a, b = next(new, sentinel), next(old, sentinel)
    while a is not sentinel or b is not sentinel:
        if b is sentinel or (a is not sentinel and a < b):
            yield a, "new"
            a = next(new, sentinel)
        elif a is sentinel or b < a:
            yield b, "old"
            b = next(old, sentinel)
        else:
            a, b = next(new, sentinel), next(old, sentinel)
