"""The RDF store every command works on.

One option chooses it (``--store`` or ``KG_STORE``): a folder holds a persistent embedded
Oxigraph store (default ``.kg-store`` in the current folder, so ``kg build`` then
``kg stats`` just works), ``memory`` a throwaway one. Writing goes through Oxigraph's bulk
loader, one named graph per source file; reading goes through rdflib's API over the same
store (oxrdflib), with the union of the source graphs as the default graph and query
parameters bound as RDF terms (SPARQL substitutions), never pasted into query text.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Mapping

import pyoxigraph as ox
import rdflib
from oxrdflib import OxigraphStore
from rdflib.query import Result

from .errors import KgError

DEFAULT_STORE = ".kg-store"
STORE_ENV = "KG_STORE"


def default_store_spec() -> str:
    return os.environ.get(STORE_ENV) or DEFAULT_STORE


class KGStore:
    """An embedded Oxigraph store, on disk or in memory."""

    def __init__(self, spec: str | None = None):
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
        self.dataset = rdflib.Dataset(store=OxigraphStore(store=self.oxigraph), default_union=True)

    # ------------------------------------------------------------------ writing

    def clear(self) -> None:
        self.oxigraph.clear()

    def replace_graph(self, graph: ox.NamedNode, ntriples_file: Path) -> None:
        """Swap a source's graph for the triples in a file (the file was written completely first)."""
        self.oxigraph.remove_graph(graph) if self.oxigraph.contains_named_graph(graph) else None
        self.oxigraph.bulk_load(path=str(ntriples_file), format=ox.RdfFormat.N_TRIPLES, to_graph=graph)
        self.oxigraph.flush()

    def replace_graph_from_turtle(self, graph: ox.NamedNode, turtle_file: Path) -> None:
        """Swap a graph for a small Turtle file's triples (the ontology, the topic scheme)."""
        self.oxigraph.remove_graph(graph) if self.oxigraph.contains_named_graph(graph) else None
        self.oxigraph.load(path=str(turtle_file), format=ox.RdfFormat.TURTLE, to_graph=graph)

    def update(self, sparql: str) -> None:
        """Run a SPARQL 1.1 Update (used by the store-level resolution step)."""
        self.oxigraph.update(sparql)

    def graphs(self) -> list[str]:
        return sorted(graph.value for graph in self.oxigraph.named_graphs())

    # ------------------------------------------------------------------ reading

    def query(self, sparql: str, bindings: Mapping[str, rdflib.term.Identifier] | None = None) -> Result:
        """Run SPARQL over the union of all sources; ``bindings`` are RDF terms for variables."""
        try:
            return self.dataset.query(sparql, initBindings=dict(bindings or {}))
        except SyntaxError as exc:
            raise KgError(f"SPARQL syntax error: {exc}") from None

    def scalar(self, sparql: str) -> int:
        """The single number a COUNT query returns."""
        row = next(iter(self.oxigraph.query(sparql, use_default_graph_as_union=True)))
        return int(row[0].value)

    def distinct_triples(self) -> Iterable[ox.Triple]:
        """Every triple of every source once, sorted: the basis of deterministic exports."""
        solutions = self.oxigraph.query(
            "SELECT DISTINCT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?s ?p ?o"
        )
        return (ox.Triple(row[0], row[1], row[2]) for row in solutions)

    def close(self) -> None:
        self.oxigraph.flush()
