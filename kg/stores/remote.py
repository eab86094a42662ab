"""A remote SPARQL 1.1 server as the store (``--store http(s)://host/query``).

Everything goes through the standard protocols, so any SPARQL 1.1 server works (Oxigraph
server, Fuseki, Virtuoso, GraphDB, QLever for reading):

- **Queries** are POSTed to the query endpoint. The dataset is named in the request
  (``default-graph-uri`` and ``named-graph-uri`` = the graphs kg wrote), so the
  default graph is the union of sources whatever the server's own default is, and other data
  on a shared server stays out. Parameters are bound as RDF terms in the query's patterns and
  a ``VALUES`` block where selected (:mod:`kg.stores.values`: terms serialised by rdflib, which
  refuses invalid IRIs and escapes literals), never pasted as text; aggregation runs on the server.
- **Writes** are bulk: a source's N-Triples file is sent in one Graph Store Protocol request
  (``--graph-store``/``KG_GRAPH_STORE``, e.g. Oxigraph's ``/store``) or, without one, as
  ``INSERT DATA`` batches of at most :data:`UPDATE_BATCH_BYTES`. Every load goes into a fresh
  staging graph first; when all of a command's loads are complete, one update ``MOVE``s them in
  (and drops the sources a build no longer has), a single transaction on transactional
  servers, so a failed load leaves the server's graphs as they were.
- **Answers** are asked for as SPARQL JSON results, then XML, then TSV, and read by the parser
  the answer's content type names (:mod:`kg.stores.results`, which also undoes Virtuoso's habits).
- **Credentials** come from ``KG_STORE_USER`` / ``KG_STORE_PASSWORD`` only, sent as HTTP Basic or
  Digest (``KG_STORE_AUTH``, :mod:`kg.stores.auth`), never from the command line, where other
  users could read them in the process list.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from pathlib import Path
from typing import Iterator, Mapping

import pyoxigraph as ox
import rdflib
from oxrdflib._converter import from_ox  # the embedded store's own term conversion
from rdflib.query import Result

from ..errors import KgError
from ..vocab import PREFIXES
from . import GRAPH_STORE_ENV, UPDATE_ENV, default_store_spec
from .answers import as_result
from .auth import Credentials
from .contract import KG_GRAPHS_QUERY, KGStore
from .http import Answer, Client, RemoteError
from .results import ANY_ACCEPT, GRAPHS, SOLUTIONS, SOLUTIONS_ACCEPT, dialect_of, parse_answer, rows
from .values import where_position, with_values  # noqa: F401 (where_position: tests import it from here)

UPDATE_BATCH_BYTES = 512 * 1024  # below the smallest request-body limit we know (Oxigraph: 1 MB)
STAGING_PREFIX = "urn:kg:staging:"
EMPTY_DATASET = "urn:kg:empty"

# The prefixes an embedded store knows without declarations (rdflib's defaults and ours), so
# a query that runs there runs here unchanged.
KNOWN_PREFIXES = {**dict((p, str(ns)) for p, ns in rdflib.Dataset().namespaces()), **PREFIXES}


class RemoteStore(KGStore):
    def __init__(
        self, spec: str | None = None, update_endpoint: str | None = None, graph_store: str | None = None, **_options
    ):
        self.spec = spec or default_store_spec()
        self.endpoint = self.spec
        self.update_endpoint = update_endpoint or os.environ.get(UPDATE_ENV)
        self.graph_store = graph_store or os.environ.get(GRAPH_STORE_ENV)
        self._http = Client(Credentials.from_environment())
        self._sources: list[str] | None = None

    # ------------------------------------------------------------------ protocol

    def _post_query(self, sparql: str, accept: str):
        graphs = self.graphs() or [EMPTY_DATASET]  # no kg graphs yet: an empty dataset, not the server's default
        dataset = [("default-graph-uri", g) for g in graphs] + [("named-graph-uri", g) for g in graphs]
        body = urllib.parse.urlencode([("query", sparql), *dataset]).encode()
        return self._http.send(self.spec, body, "application/x-www-form-urlencoded", accept)

    def update(self, sparql: str) -> None:
        if not self.update_endpoint:
            raise KgError(f"--store {self.spec} is read-only here: give --update-endpoint (or ${UPDATE_ENV}) to write")
        self._http.send(self.update_endpoint, sparql.encode("utf-8"), UPDATE_TYPE, write=True).close()
        self._sources = None

    # ------------------------------------------------------------------ writing

    def replace_graphs(self, replacements: list[tuple[ox.NamedNode, Path]], drop=()) -> None:
        """Each file is loaded into a fresh staging graph; only when all are complete does one
        update (a single transaction on transactional servers) move them in and drop ``drop``."""
        staging = [(STAGING_PREFIX + graph.value, graph.value, file) for graph, file in replacements]
        leftovers = self._staging_graphs()  # of a killed run
        try:
            if leftovers or staging:
                self.update(
                    " ;\n".join(f"DROP SILENT GRAPH <{g}>" for g in sorted({*leftovers, *(s for s, _, _ in staging)}))
                )
            for stage, _, file in staging:
                self._upload(stage, file)
        except KgError:
            self._drop_quietly([stage for stage, _, _ in staging])
            raise
        moves = [f"MOVE SILENT GRAPH <{stage}> TO GRAPH <{graph}>" for stage, graph, _ in staging]
        drops = [f"DROP SILENT GRAPH <{graph}>" for graph in sorted(set(drop) - {graph for _, graph, _ in staging})]
        if moves or drops:
            self.update(" ;\n".join(moves + drops))

    def _drop_quietly(self, graphs: list[str]) -> None:
        """Best effort after a failed load: the staging graphs are never read, and the next load drops them."""
        if graphs:
            try:
                self.update(" ;\n".join(f"DROP SILENT GRAPH <{g}>" for g in graphs))
            except KgError:
                pass

    def remove_graph(self, graph: ox.NamedNode) -> bool:
        if graph.value not in self.graphs():
            return False
        self.update(f"DROP SILENT GRAPH <{graph.value}>")
        return True

    def graphs(self, fresh: bool = False) -> list[str]:
        """kg's graphs on the server, read once (again when ``fresh``: another command may have written)."""
        if self._sources is None or fresh:
            self._sources = sorted(self._select_column(KG_GRAPHS_QUERY))
        return self._sources

    def _staging_graphs(self) -> list[str]:
        # GRAPH ?g { } lists no graphs on Virtuoso: graphs are found by their triples
        return self._select_column(
            f'SELECT DISTINCT ?g WHERE {{ GRAPH ?g {{ ?s ?p ?o }} FILTER(STRSTARTS(STR(?g), "{STAGING_PREFIX}")) }}'
        )

    def quad_counts(self, graphs: list[str]) -> dict[str, int]:
        """Quads in each of these graphs as the server counts them (a graph it does not have: left out)."""
        values = " ".join(f"<{graph}>" for graph in graphs)
        sparql = f"SELECT ?g (COUNT(*) AS ?n) WHERE {{ VALUES ?g {{ {values} }} GRAPH ?g {{ ?s ?p ?o }} }} GROUP BY ?g"
        return {graph.value: int(count.value) for graph, count in self._select_rows(sparql)}

    def _select_column(self, sparql: str) -> list[str]:
        return [row[0].value for row in self._select_rows(sparql)]

    def _select_rows(self, sparql: str) -> list[tuple[ox.Term | None, ...]]:
        """The rows of a query run over the server's whole dataset (no dataset in the request)."""
        body = urllib.parse.urlencode([("query", sparql)]).encode()
        with self._http.send(self.spec, body, "application/x-www-form-urlencoded", SOLUTIONS_ACCEPT) as answer:
            return list(_parsed_rows(answer.expect(*SOLUTIONS)))

    def _append(self, graph: ox.NamedNode, ntriples_file: Path) -> None:
        self._upload(graph.value, ntriples_file)

    def _upload(self, graph: str, ntriples_file: Path) -> None:
        if self.graph_store:
            url = f"{self.graph_store}?{urllib.parse.urlencode({'graph': graph})}"
            with open(ntriples_file, "rb") as body:
                # POST adds to the (empty) graph in one streamed request; Oxigraph loads it in one transaction.
                self._http.send(url, body, NTRIPLES, write=True, length=ntriples_file.stat().st_size).close()
            return
        for batch in _line_batches(ntriples_file, UPDATE_BATCH_BYTES):
            self.update(f"INSERT DATA {{ GRAPH <{graph}> {{\n{batch}}} }}")

    # ------------------------------------------------------------------ reading

    def query(self, sparql: str, bindings: Mapping[str, rdflib.term.Identifier] | None = None) -> Result:
        text = with_prefixes(with_values(sparql, bindings or {}))
        with self._post_query(text, ANY_ACCEPT) as answer:
            payload = answer.expect(*SOLUTIONS, *GRAPHS).read()
        try:
            return _result(payload, answer)
        except (SyntaxError, ValueError, MemoryError) as exc:
            raise RemoteError(
                f"{self.spec}: the server's answer is not valid {answer.content_type} ({_first_line(exc)})"
            ) from None

    def select_terms(self, sparql: str, bindings: Mapping[str, ox.Term] | None = None) -> Iterator[tuple[ox.Term, ...]]:
        if bindings:
            sparql = with_values(sparql, {name: from_ox(term) for name, term in bindings.items()})
        with self._post_query(sparql, SOLUTIONS_ACCEPT) as answer:
            yield from _parsed_rows(answer.expect(*SOLUTIONS))


NTRIPLES = "application/n-triples"
UPDATE_TYPE = "application/sparql-update; charset=utf-8"  # Virtuoso reads a body without a charset as Latin-1


def _first_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200]


def _parsed_rows(answer: Answer) -> Iterator[tuple[ox.Term, ...]]:
    """Solutions streamed from the answer; a malformed one is a :class:`RemoteError`."""
    dialect = dialect_of(answer.server)
    try:
        solutions = parse_answer(answer, answer.content_type, dialect)
        if not isinstance(solutions, ox.QuerySolutions):
            raise ValueError("not the solutions of a SELECT")
        yield from rows(solutions, dialect)
    except (SyntaxError, ValueError, MemoryError) as exc:  # MemoryError: pyoxigraph's buffer cap on one huge row
        raise RemoteError(
            f"{answer.url}: the server's answer is not valid {answer.content_type} results ({_first_line(exc)})"
        ) from None


def _result(payload: bytes, answer: Answer) -> Result:
    """Results as the embedded store gives them: parsed by pyoxigraph, converted as read (kg/stores/answers.py)."""
    dialect = dialect_of(answer.server)
    parsed = parse_answer(payload, answer.content_type, dialect)
    if answer.content_type in GRAPHS:
        result = Result("CONSTRUCT")
        result.graph = rdflib.Graph()
        result.graph += (from_ox(quad.triple) for quad in parsed)
        return result
    return as_result(parsed, read_now=True, rows=lambda solutions: rows(solutions, dialect))


def _line_batches(path: Path, limit: int) -> Iterator[str]:
    """The file's lines (whole N-Triples statements) in chunks of at most ``limit`` bytes."""
    batch: list[str] = []
    size = 0
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if batch and size + len(line) > limit:
                yield "".join(batch)
                batch, size = [], 0
            batch.append(line)
            size += len(line)
    if batch:
        yield "".join(batch)


# ---------------------------------------------------------------------- query text

_DECLARED = re.compile(r"\bPREFIX\s+([A-Za-z][\w.-]*)?:", re.IGNORECASE)


def with_prefixes(sparql: str) -> str:
    """Declare the prefixes the query uses without declaring (as the embedded store does)."""
    declared = {name or "" for name in _DECLARED.findall(sparql)}
    lines = "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in KNOWN_PREFIXES.items() if name not in declared)
    return lines + sparql
