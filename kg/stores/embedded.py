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
import fcntl
import gc
import os
import re
import shutil
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from pathlib import Path
from typing import BinaryIO, Callable, Collection, ContextManager, Iterable, Iterator, Mapping

import pyoxigraph as ox
import rdflib
from oxrdflib import OxigraphStore
from rdflib.query import Result

from ..errors import KgError, SparqlSyntaxError
from ..vocab import KG_NS, OWL
from . import DEFAULT_WAIT, WAIT_ENV, default_store_spec
from .answers import as_result
from .loading import ChunkLoader, TeeSink, load_file
from .ordering import sorted_lines, sorted_statements
from .snapshots import READERS, WRITER_LOCK, Snapshot, clear_stale, open_snapshot, publish
from .values import with_values

REMOTE_SCHEMES = ("http://", "https://")

# Sorted outside the engine (kg.stores.ordering) so exports repeat byte for byte; the graph
# filter keeps other data on a shared server (and staging graphs) out.
# The graphs set aside: in every query's union, in an export or the triple count only when asked for
# by name; each says of itself that it is of its class. The index: the counts and look-up keys the
# query library reads (kg.resolve.store_step.index_graph); the topic detail: each source's topic
# assignments with their weights and evidence (kg.rdf.topic_triples.detail_graph).
ASIDE_GRAPHS = {"index": f"{KG_NS}IndexGraph", "topic-detail": f"{KG_NS}TopicDetailGraph"}
SOURCES_QUERY = f"SELECT DISTINCT ?g WHERE {{ GRAPH ?g {{ ?g a <{KG_NS}Source> }} }}"
# Every graph kg writes says what it is, so a shared server's other graphs stay apart.
KG_GRAPHS_QUERY = (
    f"SELECT DISTINCT ?g WHERE {{ GRAPH ?g {{ ?g a ?kind }} VALUES ?kind {{ <{KG_NS}Source> "
    f"<{KG_NS}DerivedGraph> <{OWL}Ontology> }} }}"
)


class KGStore(ABC):
    """What every store offers. ``KGStore(spec)`` returns the implementation for ``spec``."""

    spec: str
    #: Where the pipeline stages a source's N-Triples file (same file system as the store).
    scratch_dir: Path | None = None
    #: The SPARQL query endpoint others can use, for a store that is a server (the dataset description says it).
    endpoint: str | None = None
    #: Opened for reading only (an embedded store beside other readers and one writer).
    read_only: bool = False

    def __new__(cls, spec: str | None = None, **options):
        if cls is KGStore:
            spec = spec or default_store_spec()
            from . import STORES  # the package's registry imports the implementations lazily

            cls = STORES["remote" if spec.startswith(REMOTE_SCHEMES) else "embedded"]
        return super().__new__(cls)

    # ------------------------------------------------------------------ writing

    @abstractmethod
    def replace_graphs(self, replacements: list[tuple[ox.NamedNode, Path]], drop: Iterable[str] = ()) -> None:
        """Swap graphs for the triples in complete N-Triples files and drop the graphs ``drop``
        names, all in one commit: after a failure or a kill the store is as before or as after."""

    def preloading(self, graphs: list[ox.NamedNode]) -> ContextManager["Preload | None"]:
        """A :class:`Preload` that takes the N-Triples of these graphs while they are staged, or
        None: a store that cannot load before the commit loads the staged files at the commit."""
        return contextlib.nullcontext(None)

    def replace_graph(self, graph: ox.NamedNode, ntriples_file: Path) -> None:
        """Swap one graph for the triples in a complete N-Triples file, atomically."""
        self.replace_graphs([(graph, ntriples_file)])

    @abstractmethod
    def remove_graph(self, graph: ox.NamedNode) -> bool:
        """Drop a source's graph; False when there was none."""

    @abstractmethod
    def graphs(self) -> list[str]:
        """The IRIs of the graphs kg wrote (sources, the ontology, derived graphs), sorted."""

    @abstractmethod
    def update(self, sparql: str) -> None:
        """Run a SPARQL 1.1 Update (the store-level resolution step uses it)."""

    def replace_graph_triples(self, graph: ox.NamedNode, triples: Iterable[ox.Triple]) -> None:
        """Swap a graph for these triples: staged as N-Triples beside the store, then :meth:`replace_graph`."""
        with tempfile.TemporaryDirectory(prefix="kg-graph-", dir=self.scratch_dir) as scratch:
            staged = Path(scratch) / "graph.nt"
            ox.serialize(triples, str(staged), ox.RdfFormat.N_TRIPLES)
            self.replace_graph(graph, staged)

    def add_graph_triples(self, graph: ox.NamedNode, triples: Iterable[ox.Triple]) -> None:
        """Add these triples to a graph, keeping what it holds; not atomic (the resolution step
        adds to its derived graph under its suspended mark, so a killed run is redone)."""
        with tempfile.TemporaryDirectory(prefix="kg-graph-", dir=self.scratch_dir) as scratch:
            staged = Path(scratch) / "graph.nt"
            ox.serialize(triples, str(staged), ox.RdfFormat.N_TRIPLES)
            self._append(graph, staged)

    def set_graph_triples(self, graph: ox.NamedNode, triples: Iterable[ox.Triple]) -> None:
        """Make a graph hold exactly these triples (not atomic: the resolution step's derived graph).
        Here: replaced; stores that can change only the difference do."""
        self.replace_graph_triples(graph, triples)

    @abstractmethod
    def _append(self, graph: ox.NamedNode, ntriples_file: Path) -> None:
        """Load an N-Triples file into a graph without dropping it first."""

    def replace_graph_from_turtle(self, graph: ox.NamedNode, turtle_file: Path) -> None:
        """Swap a graph for a small Turtle file's triples (the ontology)."""
        self.replace_graph_triples(
            graph, (quad.triple for quad in ox.parse(path=str(turtle_file), format=ox.RdfFormat.TURTLE))
        )

    def sources(self) -> list[str]:
        """The IRIs of the source graphs (each says of itself that it is a kg:Source), sorted."""
        return sorted(row[0].value for row in self.select_terms(SOURCES_QUERY))

    # ------------------------------------------------------------------ reading

    @abstractmethod
    def query(self, sparql: str, bindings: Mapping[str, rdflib.term.Identifier] | None = None) -> Result:
        """Run SPARQL over the union of all sources; ``bindings`` are RDF terms for variables."""

    @abstractmethod
    def select_terms(self, sparql: str, bindings: Mapping[str, ox.Term] | None = None) -> Iterator[tuple[ox.Term, ...]]:
        """Stream the rows of a SELECT as pyoxigraph terms (for exports of any size and the
        whole-graph aggregates: no rdflib term per value); ``bindings`` as for :meth:`query`."""

    def scalar(self, sparql: str) -> int:
        """The single number a COUNT query returns."""
        row = next(iter(self.query(sparql)))
        return int(row[0])

    def distinct_triples(
        self, on_progress: Callable[[int], None] | None = None, including: Collection[str] = ()
    ) -> Iterable[ox.Triple]:
        """Every triple of every source once, sorted: the basis of deterministic exports; with the
        graphs set aside that ``including`` names (``ASIDE_GRAPHS``), theirs too."""
        return sorted_statements(
            self.select_terms(self._exported_quads(including)), False, self.scratch_dir, on_progress
        )

    def quads(
        self, on_progress: Callable[[int], None] | None = None, including: Collection[str] = ()
    ) -> Iterable[ox.Quad]:
        """Every triple in its source graph, sorted by graph then triple (``including``: as above)."""
        return sorted_statements(
            self.select_terms(self._exported_quads(including)), True, self.scratch_dir, on_progress
        )

    def graphs_aside(self, including: Collection[str] = ()) -> list[ox.NamedNode]:
        """The graphs set aside (``ASIDE_GRAPHS``) but those ``including`` names: left out of exports and counts."""
        kinds = " ".join(f"<{kind}>" for name, kind in ASIDE_GRAPHS.items() if name not in including)
        if not kinds:
            return []
        query = f"SELECT DISTINCT ?g WHERE {{ GRAPH ?g {{ ?g a ?kind }} VALUES ?kind {{ {kinds} }} }} ORDER BY ?g"
        return [row[0] for row in self.select_terms(query)]

    def _exported_quads(self, including: Collection[str] = ()) -> str:
        """Every quad but the graphs set aside that ``including`` does not name (their IRIs come from
        the store, checked by pyoxigraph)."""
        left_out = ", ".join(str(graph) for graph in self.graphs_aside(including))
        return f"SELECT ?g ?s ?p ?o WHERE {{ GRAPH ?g {{ ?s ?p ?o }} {f'FILTER(?g NOT IN ({left_out}))' if left_out else ''} }}"

    def close(self) -> None:  # noqa: B027 - a store with nothing to release need not say so
        pass


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
                self._lock, self.oxigraph = _open_writer(path, self.spec, default_wait() if wait is None else wait)
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
        self.oxigraph.bulk_load(path=str(ntriples_file), format=ox.RdfFormat.N_TRIPLES, to_graph=graph)
        self.oxigraph.flush()

    def set_graph_triples(self, graph: ox.NamedNode, triples: Iterable[ox.Triple]) -> None:
        # Only the difference is written: on disk, removing a quad costs ~10 µs and dropping a
        # graph ~50 µs per quad, and a re-resolution after a small change changes few triples.
        # The difference comes from the graph and the triples as sorted N-Triples lines (sorted
        # runs merged from disk), so memory does not grow with the graph (2 M derived triples at
        # 100,000 papers were two Python sets of 1 GB).
        with tempfile.TemporaryDirectory(prefix="kg-derived-", dir=self.scratch_dir) as folder:
            wanted, held, added = (Path(folder) / name for name in ("wanted.nt", "held.nt", "added.nt"))
            ox.serialize(triples, str(wanted), ox.RdfFormat.N_TRIPLES)  # all read before the graph changes
            self.oxigraph.dump(str(held), ox.RdfFormat.N_TRIPLES, from_graph=graph)
            stale: list[str] = []
            with (
                open(wanted, encoding="utf-8") as new_lines,
                open(held, encoding="utf-8") as old_lines,
                open(added, "w", encoding="utf-8") as out,
            ):
                for line, side in _sorted_difference(
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
            # A VALUES block, not substitutions: Oxigraph applies those after evaluating (kg/stores/values.py).
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
        # Oxigraph closes its database with the last reference, and rdflib's Dataset holds one in a
        # reference cycle: collect it, so no compaction runs after the lock is released and no
        # reader's database is open when its snapshot goes.
        del self.oxigraph, self.dataset
        gc.collect()
        if self._snapshot is not None:
            self._snapshot.remove()
            self._snapshot = None
        if self._lock is not None:
            _close_lock(self._lock)
            self._lock = None


_REMOVE_BATCH = 100_000  # stale statements parsed and removed at a time


def _sorted_difference(new: Iterator[str], old: Iterator[str]) -> Iterator[tuple[str, str]]:
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


class Preload:
    """The graphs a run loads while it stages them (:meth:`EmbeddedStore.preloading`)."""

    def __init__(self, store: ox.Store, graphs: set[str], marker: Path | None):
        self.graphs, self.marker = graphs, marker
        self.loader = ChunkLoader(store)

    def sink(self, graph: ox.NamedNode, out: BinaryIO) -> BinaryIO:
        """Where the stager writes a graph's N-Triples: ``out``, and the loader for a graph loaded early."""
        return TeeSink(out, self.loader, graph) if graph.value in self.graphs else out

    def finish(self) -> None:
        self.loader.close()

    def abandon(self) -> None:
        try:
            self.loader.close()
        except Exception:  # the run failed already; its loaded graphs are dropped next
            pass


class StoreBusy(KgError):
    """Another kg command is writing the store and did not finish within the wait."""

    exit_code = 2


def default_wait() -> float:
    try:
        return float(os.environ.get(WAIT_ENV) or DEFAULT_WAIT)
    except ValueError:
        raise KgError(f"${WAIT_ENV}={os.environ[WAIT_ENV]!r}: give the wait in seconds") from None


# Files a store folder holds besides Oxigraph's own: kg's journal and lock.
_KG_FILES = {"kg-journal", WRITER_LOCK, READERS}


def _check_folder(path: Path, spec: str, read_only: bool) -> None:
    """Refuse what is not a store, and never let Oxigraph start afresh over a damaged one
    (RocksDB would create a new database and delete the old data files)."""
    if path.exists() and not path.is_dir():
        raise KgError(f"--store {spec}: is a file, not a store folder")
    if (path / "CURRENT").is_file():
        return
    others = sorted(p.name for p in path.iterdir() if p.name not in _KG_FILES) if path.is_dir() else []
    if others:
        raise KgError(
            f"--store {spec}: the store is damaged (its CURRENT file is missing) and was left as it is; "
            f"restore the folder from a backup, or move it away and run kg build to start afresh"
        )
    if read_only:
        raise KgError(f"no graph here ({spec}): run kg build first, or give --store")


def _cannot_open(spec: str, exc: OSError) -> KgError:
    return KgError(f"--store {spec}: cannot open the store ({' '.join(str(exc).split())[:300]}); nothing was changed")


def _open_reader(spec: str, path: Path, snapshot: bool) -> tuple[ox.Store, Snapshot | None]:
    try:
        return open_snapshot(path) if snapshot else (ox.Store.read_only(str(path)), None)
    except OSError as exc:
        raise _cannot_open(spec, exc) from None


def _open_writer(path: Path, spec: str, wait: float) -> tuple[int, ox.Store]:
    """The writer lock, then the store. A writer that just finished may hold Oxigraph's own lock
    a moment longer than ours (until its process ends), so that is waited for too."""
    deadline = time.monotonic() + wait
    lock = _take_lock(path, spec, wait)
    while True:
        try:
            return lock, ox.Store(str(path))
        except OSError as exc:
            if "lock" not in str(exc).lower() or time.monotonic() >= deadline:
                _close_lock(lock)
                raise _cannot_open(spec, exc) from None
            time.sleep(0.1)


def _take_lock(path: Path, spec: str, wait: float, quiet: bool = False) -> int | None:
    """Wait up to ``wait`` seconds for the store's writer lock (an flock the OS releases when a
    writer exits, even killed); None when ``quiet`` and it is taken."""
    path.mkdir(parents=True, exist_ok=True)
    handle = os.open(path / WRITER_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    deadline, told = time.monotonic() + wait, False
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return handle
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(handle)
                if quiet:
                    return None
                raise StoreBusy(
                    f"--store {spec}: another kg command is still writing it after {wait:g} s; "
                    f"try again later or wait longer (--wait SECONDS)"
                ) from None
            if not told and not quiet:
                print(
                    f"kg: waiting up to {wait:g} s for another kg command writing {spec} …", file=sys.stderr, flush=True
                )
                told = True
            time.sleep(0.1)


def _close_lock(handle: int) -> None:
    os.close(handle)  # closing the descriptor releases the flock


def _committed(journal: Path) -> bool:
    return journal.is_dir() and any(entry.suffix in (".commit", ".loading") for entry in journal.iterdir())


def _fsync(path: Path) -> None:
    """Make a file or a rename durable (POSIX: a directory entry is synced through its folder)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
