"""The contract every store offers (:class:`KGStore`): what the rest of ``kg`` uses.

``KGStore(spec)`` opens the implementation the spec names (:mod:`kg.stores.embedded`,
:mod:`kg.stores.remote`); the queries here find the graphs kg wrote in any of them.
"""

from __future__ import annotations

import contextlib
import tempfile
from abc import ABC, abstractmethod
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Collection, ContextManager, Iterable, Iterator, Mapping

import pyoxigraph as ox
import rdflib
from rdflib.query import Result

from ..vocab import KG_NS, OWL
from . import default_store_spec
from .ordering import sorted_statements

if TYPE_CHECKING:
    from .preload import Preload


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

    def compact(self) -> None:  # noqa: B027 - only a store that keeps files of its own has work to do
        """Rewrite the store's files for reading, after a write of a large share of it (the embedded store:
        :meth:`~kg.stores.embedded.EmbeddedStore.compact`); here nothing to do."""

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

    def graph_sizes(
        self, left_out: Collection[ox.NamedNode | None], known: Mapping[str, int]
    ) -> dict[ox.NamedNode, int]:
        """The quads of every named graph but those ``left_out`` (the union's, foreign graphs included).
        Here one grouped count over every quad, one request to a server; ``known``: counts that hold
        now, which a store that counts graph by graph takes instead (the embedded store)."""
        rows = self.select_terms("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g")
        return {graph: int(count.value) for graph, count in rows if graph not in left_out}

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
        return (
            f"SELECT ?g ?s ?p ?o WHERE {{ GRAPH ?g {{ ?s ?p ?o }} "
            f"{f'FILTER(?g NOT IN ({left_out}))' if left_out else ''} }}"
        )

    def close(self) -> None:  # noqa: B027 - a store with nothing to release need not say so
        pass
