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

import os
import shutil
import tempfile
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping

import pyoxigraph as ox
import rdflib
from oxrdflib import OxigraphStore
from rdflib.query import Result

from ..errors import KgError
from ..rdf.iris import digest
from ..rdf.vocab import KG_NS, OWL
from .ordering import sorted_statements

DEFAULT_STORE = ".kg-store"
STORE_ENV = "KG_STORE"
REMOTE_SCHEMES = ("http://", "https://")

# Sorted outside the engine (kg.stores.ordering) so exports repeat byte for byte; the graph
# filter keeps other data on a shared server (and staging graphs) out.
QUADS_QUERY = "SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }"
SOURCES_QUERY = f"SELECT DISTINCT ?g WHERE {{ GRAPH ?g {{ ?g a <{KG_NS}Source> }} }}"
# Every graph kg writes says what it is, so a shared server's other graphs stay apart.
KG_GRAPHS_QUERY = (f"SELECT DISTINCT ?g WHERE {{ GRAPH ?g {{ ?g a ?kind }} VALUES ?kind {{ <{KG_NS}Source> "
                   f"<{KG_NS}DerivedGraph> <{OWL}Ontology> }} }}")


def default_store_spec() -> str:
    return os.environ.get(STORE_ENV) or DEFAULT_STORE


class KGStore(ABC):
    """What every store offers. ``KGStore(spec)`` returns the implementation for ``spec``."""

    spec: str
    #: Where the pipeline stages a source's N-Triples file (same file system as the store).
    scratch_dir: Path | None = None
    #: The SPARQL query endpoint others can use, for a store that is a server (the dataset description says it).
    endpoint: str | None = None

    def __new__(cls, spec: str | None = None, **options):
        if cls is KGStore:
            spec = spec or default_store_spec()
            from . import STORES  # the package's registry imports the implementations lazily

            cls = STORES["remote" if spec.startswith(REMOTE_SCHEMES) else "embedded"]
        return super().__new__(cls)

    # ------------------------------------------------------------------ writing

    @abstractmethod
    def clear(self) -> None:
        """Remove every source graph."""

    @abstractmethod
    def replace_graph(self, graph: ox.NamedNode, ntriples_file: Path) -> None:
        """Swap a source's graph for the triples in a complete N-Triples file, atomically."""

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

    def replace_graph_from_turtle(self, graph: ox.NamedNode, turtle_file: Path) -> None:
        """Swap a graph for a small Turtle file's triples (the ontology)."""
        self.replace_graph_triples(graph, (quad.triple for quad in ox.parse(path=str(turtle_file), format=ox.RdfFormat.TURTLE)))

    def sources(self) -> list[str]:
        """The IRIs of the source graphs (each says of itself that it is a kg:Source), sorted."""
        return sorted(row[0].value for row in self.select_terms(SOURCES_QUERY))

    # ------------------------------------------------------------------ reading

    @abstractmethod
    def query(self, sparql: str, bindings: Mapping[str, rdflib.term.Identifier] | None = None) -> Result:
        """Run SPARQL over the union of all sources; ``bindings`` are RDF terms for variables."""

    @abstractmethod
    def select_terms(self, sparql: str) -> Iterator[tuple[ox.Term, ...]]:
        """Stream the rows of a SELECT as pyoxigraph terms (for exports of any size)."""

    def scalar(self, sparql: str) -> int:
        """The single number a COUNT query returns."""
        row = next(iter(self.query(sparql)))
        return int(row[0])

    def distinct_triples(self, on_progress: Callable[[int], None] | None = None) -> Iterable[ox.Triple]:
        """Every triple of every source once, sorted: the basis of deterministic exports."""
        return sorted_statements(self.select_terms(QUADS_QUERY), False, self.scratch_dir, on_progress)

    def quads(self, on_progress: Callable[[int], None] | None = None) -> Iterable[ox.Quad]:
        """Every triple in its source graph, sorted by graph then triple."""
        return sorted_statements(self.select_terms(QUADS_QUERY), True, self.scratch_dir, on_progress)

    def close(self) -> None:
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

    def __init__(self, spec: str | None = None, **_options):
        self.spec = spec or default_store_spec()
        if self.spec == "memory":
            self.oxigraph = ox.Store()
        else:
            path = Path(self.spec)
            if path.exists() and not path.is_dir():
                raise KgError(f"--store {self.spec}: is a file, not a store folder")
            try:
                self.oxigraph = ox.Store(str(path))
            except OSError as exc:
                raise KgError(f"--store {self.spec}: cannot open the store ({exc}); is another kg command using it?") from None
            self.scratch_dir = path / "kg-journal"
            self._recover()
            self.scratch_dir.mkdir(exist_ok=True)
        self.dataset = rdflib.Dataset(store=OxigraphStore(store=self.oxigraph), default_union=True)

    # ------------------------------------------------------------------ writing

    def clear(self) -> None:
        self.oxigraph.clear()

    def replace_graph(self, graph: ox.NamedNode, ntriples_file: Path) -> None:
        if self.scratch_dir is None:  # in memory: nothing outlives the process
            self._load(graph, ntriples_file)
            return
        entry = self.scratch_dir / f"{_entry_name(graph)}.commit"
        staged = entry.with_suffix(".staged")
        shutil.rmtree(staged, ignore_errors=True)
        staged.mkdir(parents=True)
        (staged / "graph").write_text(graph.value, encoding="utf-8")
        shutil.move(str(ntriples_file), staged / "triples.nt")
        for written in (staged / "graph", staged / "triples.nt", staged):
            _fsync(written)
        shutil.rmtree(entry, ignore_errors=True)
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
        self.oxigraph.update(sparql)

    def graphs(self) -> list[str]:
        return sorted(graph.value for graph in self.oxigraph.named_graphs())

    def _load(self, graph: ox.NamedNode, ntriples_file: Path) -> None:
        if self.oxigraph.contains_named_graph(graph):
            self.oxigraph.remove_graph(graph)
        self.oxigraph.bulk_load(path=str(ntriples_file), format=ox.RdfFormat.N_TRIPLES, to_graph=graph)
        self.oxigraph.flush()

    def _apply(self, entry: Path) -> None:
        """Make a committed journal entry true in the store; safe to repeat."""
        graph = ox.NamedNode((entry / "graph").read_text(encoding="utf-8"))
        self._load(graph, entry / "triples.nt")
        shutil.rmtree(entry)

    def _recover(self) -> None:
        """Finish the commits a killed process left; forget what it had not committed."""
        for leftover in sorted(self.scratch_dir.iterdir()) if self.scratch_dir.is_dir() else ():
            if leftover.suffix == ".commit":
                self._apply(leftover)
            elif leftover.is_dir():
                shutil.rmtree(leftover)
            else:
                leftover.unlink()

    # ------------------------------------------------------------------ reading

    def query(self, sparql: str, bindings: Mapping[str, rdflib.term.Identifier] | None = None) -> Result:
        try:
            return self.dataset.query(sparql, initBindings=dict(bindings or {}))
        except SyntaxError as exc:
            raise KgError(f"SPARQL syntax error: {exc}") from None

    def select_terms(self, sparql: str) -> Iterator[tuple[ox.Term, ...]]:
        solutions = self.oxigraph.query(sparql, use_default_graph_as_union=True)
        width = len(solutions.variables)
        return (tuple(row[i] for i in range(width)) for row in solutions)

    def scalar(self, sparql: str) -> int:
        row = next(iter(self.oxigraph.query(sparql, use_default_graph_as_union=True)))
        return int(row[0].value)

    def close(self) -> None:
        self.oxigraph.flush()


def _entry_name(graph: ox.NamedNode) -> str:
    return digest(graph.value, 16)


def _fsync(path: Path) -> None:
    """Make a file or a rename durable (POSIX: a directory entry is synced through its folder)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
