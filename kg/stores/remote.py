"""A remote SPARQL 1.1 server as the store (``--store http(s)://host/query``).

Everything goes through the standard protocols, so any SPARQL 1.1 server works (Oxigraph
server, Fuseki, Virtuoso, GraphDB, QLever for reading):

- **Queries** are POSTed to the query endpoint. The dataset is named in the request
  (``default-graph-uri`` and ``named-graph-uri`` = the graphs kg wrote), so the
  default graph is the union of sources whatever the server's own default is, and other data
  on a shared server stays out. Parameters are bound as RDF terms in a ``VALUES`` block at the
  top of the query's WHERE clause (terms serialised by rdflib, which refuses invalid IRIs and
  escapes literals), never pasted as text; aggregation runs on the server.
- **Writes** are bulk: a source's N-Triples file is sent in one Graph Store Protocol request
  (``--graph-store``/``KG_GRAPH_STORE``, e.g. Oxigraph's ``/store``) or, without one, as
  ``INSERT DATA`` batches of at most :data:`UPDATE_BATCH_BYTES`. A source that replaces an
  existing one is loaded into a staging graph first and swapped in with one ``MOVE`` update,
  a single transaction on transactional servers; a new source loads straight into its graph.
- **Credentials** come from ``KG_STORE_USER`` / ``KG_STORE_PASSWORD`` only (HTTP Basic),
  never from the command line, where other users could read them in the process list.
"""

from __future__ import annotations

import base64
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator, Mapping

import pyoxigraph as ox
import rdflib
from oxrdflib._converter import from_ox  # the embedded store's own term conversion
from rdflib.query import Result

from ..errors import KgError
from .embedded import KG_GRAPHS_QUERY, KGStore, default_store_spec
from ..rdf.vocab import PREFIXES

UPDATE_ENV = "KG_UPDATE_ENDPOINT"
GRAPH_STORE_ENV = "KG_GRAPH_STORE"
USER_ENV = "KG_STORE_USER"
PASSWORD_ENV = "KG_STORE_PASSWORD"
TIMEOUT_ENV = "KG_STORE_TIMEOUT"
UPDATE_BATCH_BYTES = 512 * 1024  # below the smallest request-body limit we know (Oxigraph: 1 MB)
STAGING_PREFIX = "urn:kg:staging:"
EMPTY_DATASET = "urn:kg:empty"

# The prefixes an embedded store knows without declarations (rdflib's defaults and ours), so
# a query that runs there runs here unchanged.
KNOWN_PREFIXES = {**dict((p, str(ns)) for p, ns in rdflib.Dataset().namespaces()), **PREFIXES}


class RemoteStore(KGStore):
    def __init__(self, spec: str | None = None, update_endpoint: str | None = None, graph_store: str | None = None):
        self.spec = spec or default_store_spec()
        self.endpoint = self.spec
        self.update_endpoint = update_endpoint or os.environ.get(UPDATE_ENV)
        self.graph_store = graph_store or os.environ.get(GRAPH_STORE_ENV)
        self.timeout = float(os.environ.get(TIMEOUT_ENV) or 600)
        user, password = os.environ.get(USER_ENV), os.environ.get(PASSWORD_ENV)
        self._auth = (
            {"Authorization": "Basic " + base64.b64encode(f"{user}:{password or ''}".encode()).decode()} if user else {}
        )
        self._sources: list[str] | None = None

    # ------------------------------------------------------------------ protocol

    def _send(self, url: str, body, content_type: str | None, accept: str | None = None, length: int | None = None):
        headers = dict(self._auth)
        if length is not None:
            headers["Content-Length"] = str(length)
        if content_type:
            headers["Content-Type"] = content_type
        if accept:
            headers["Accept"] = accept
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as exc:
            detail = " ".join(exc.read().decode("utf-8", "replace").split())[:300]
            raise KgError(f"{url}: the server answered {exc.code} {exc.reason}: {detail}") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise KgError(f"{url}: cannot reach the SPARQL server ({reason})") from None

    def _post_query(self, sparql: str, accept: str):
        graphs = self.graphs() or [EMPTY_DATASET]  # no kg graphs yet: an empty dataset, not the server's default
        dataset = [("default-graph-uri", g) for g in graphs] + [("named-graph-uri", g) for g in graphs]
        body = urllib.parse.urlencode([("query", sparql), *dataset]).encode()
        return self._send(self.spec, body, "application/x-www-form-urlencoded", accept)

    def update(self, sparql: str) -> None:
        if not self.update_endpoint:
            raise KgError(f"--store {self.spec} is read-only here: give --update-endpoint (or ${UPDATE_ENV}) to write")
        self._send(self.update_endpoint, sparql.encode("utf-8"), "application/sparql-update").close()
        self._sources = None

    # ------------------------------------------------------------------ writing

    def clear(self) -> None:
        """Drop the source graphs kg wrote (and staging leftovers); other data on the server stays."""
        stale = [g for g in self._all_graphs() if g.startswith(STAGING_PREFIX)]
        graphs = self.graphs() + stale
        if graphs:
            self.update(" ;\n".join(f"DROP SILENT GRAPH <{g}>" for g in graphs))

    def replace_graph(self, graph: ox.NamedNode, ntriples_file: Path) -> None:
        if graph.value not in self.graphs():
            self.update(f"DROP SILENT GRAPH <{graph.value}>")  # not kg's yet, but maybe not empty either
            self._upload(graph.value, ntriples_file)
            self._sources = None
            return
        staging = STAGING_PREFIX + graph.value
        self.update(f"DROP SILENT GRAPH <{staging}>")
        self._upload(staging, ntriples_file)
        self.update(f"MOVE SILENT GRAPH <{staging}> TO GRAPH <{graph.value}>")

    def remove_graph(self, graph: ox.NamedNode) -> bool:
        if graph.value not in self.graphs():
            return False
        self.update(f"DROP SILENT GRAPH <{graph.value}>")
        return True

    def graphs(self) -> list[str]:
        if self._sources is None:
            self._sources = sorted(self._select_column(KG_GRAPHS_QUERY))
        return self._sources

    def _all_graphs(self) -> list[str]:
        return self._select_column("SELECT DISTINCT ?g WHERE { GRAPH ?g { } }")

    def _select_column(self, sparql: str) -> list[str]:
        """First column of a query run over the server's whole dataset (no dataset in the request)."""
        body = urllib.parse.urlencode([("query", sparql)]).encode()
        with self._send(self.spec, body, "application/x-www-form-urlencoded", "text/tab-separated-values") as response:
            return [row[0].value for row in ox.parse_query_results(response, ox.QueryResultsFormat.TSV)]

    def _upload(self, graph: str, ntriples_file: Path) -> None:
        if self.graph_store:
            url = f"{self.graph_store}?{urllib.parse.urlencode({'graph': graph})}"
            with open(ntriples_file, "rb") as body:
                # POST adds to the (empty) graph in one streamed request; Oxigraph loads it in one transaction.
                self._send(url, body, "application/n-triples", length=ntriples_file.stat().st_size).close()
            return
        for batch in _line_batches(ntriples_file, UPDATE_BATCH_BYTES):
            self.update(f"INSERT DATA {{ GRAPH <{graph}> {{\n{batch}}} }}")

    # ------------------------------------------------------------------ reading

    def query(self, sparql: str, bindings: Mapping[str, rdflib.term.Identifier] | None = None) -> Result:
        """Results as the embedded store gives them: parsed by pyoxigraph, converted by oxrdflib."""
        text = with_prefixes(with_values(sparql, bindings or {}))
        with self._post_query(text, "application/sparql-results+json, application/n-triples;q=0.9") as response:
            content_type = response.headers.get_content_type()
            payload = response.read()
        if content_type != "application/sparql-results+json":
            result = Result("CONSTRUCT")
            result.graph = rdflib.Graph()
            result.graph += (from_ox(triple) for triple in ox.parse(payload, ox.RdfFormat.N_TRIPLES))
            return result
        parsed = ox.parse_query_results(payload, ox.QueryResultsFormat.JSON)
        if isinstance(parsed, ox.QueryBoolean):
            result = Result("ASK")
            result.askAnswer = bool(parsed)
            return result
        result = Result("SELECT")
        result.vars = [rdflib.Variable(v.value) for v in parsed.variables]
        result.bindings = [
            {var: from_ox(value) for var, value in zip(result.vars, row) if value is not None} for row in parsed
        ]
        return result

    def select_terms(self, sparql: str) -> Iterator[tuple[ox.Term, ...]]:
        response = self._post_query(sparql, "text/tab-separated-values")
        with response:
            solutions = ox.parse_query_results(response, ox.QueryResultsFormat.TSV)
            width = len(solutions.variables)
            for row in solutions:
                yield tuple(row[i] for i in range(width))


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

_TOKEN = re.compile(
    r'(?P<skip>\#[^\n]*|"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\''
    r'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|<[^<>"{}|^`\\\x00-\x20]*>)'
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<brace>[{}])",
    re.DOTALL,
)
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DECLARED = re.compile(r"\bPREFIX\s+([A-Za-z][\w.-]*)?:", re.IGNORECASE)


def where_position(sparql: str) -> int:
    """The index just inside the opening brace of the query's WHERE clause.

    Comments, strings and IRIs are skipped; for CONSTRUCT the template's braces are too.
    """
    form = None
    previous = None
    depth = 0
    for token in _TOKEN.finditer(sparql):
        if token.group("word"):
            word = token.group("word").upper()
            if form is None and word in ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE"):
                form = word
            previous = word
        elif token.group("brace") == "{":
            if depth == 0 and form and (form != "CONSTRUCT" or previous == "WHERE"):
                return token.end()
            depth += 1
            previous = "{"
        elif token.group("brace") == "}":
            depth -= 1
            previous = "}"
    raise KgError("cannot bind parameters: the query has no WHERE clause")


def sparql_term(term: rdflib.term.Identifier) -> str:
    if not isinstance(term, (rdflib.URIRef, rdflib.Literal)):
        raise KgError(f"cannot bind {term!r}: only IRIs and literals can be query parameters")
    try:
        return term.n3()
    except Exception as exc:  # rdflib refuses IRIs with characters that would break out of <…>
        raise KgError(f"cannot bind {str(term)!r}: {exc}") from None


def with_values(sparql: str, bindings: Mapping[str, rdflib.term.Identifier]) -> str:
    """The query with its parameters bound by a one-row VALUES block inside WHERE."""
    if not bindings:
        return sparql
    for name in bindings:
        if not _VARIABLE.fullmatch(name):
            raise KgError(f"cannot bind {name!r}: not a SPARQL variable name")
    at = where_position(sparql)
    names = " ".join(f"?{name}" for name in bindings)
    terms = " ".join(sparql_term(term) for term in bindings.values())
    return f"{sparql[:at]} VALUES ({names}) {{ ({terms}) }} {sparql[at:]}"


def with_prefixes(sparql: str) -> str:
    """Declare the prefixes the query uses without declaring (as the embedded store does)."""
    declared = {name or "" for name in _DECLARED.findall(sparql)}
    lines = "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in KNOWN_PREFIXES.items() if name not in declared)
    return lines + sparql
