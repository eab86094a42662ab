"""A SPARQL server's answers read by pyoxigraph's standard parsers, whatever the server's dialect.

kg asks by content negotiation for SPARQL 1.1 JSON results, then XML, then TSV
(:data:`SOLUTIONS_ACCEPT`), and parses what the server says it sent, so a server whose TSV is
its own dialect (Virtuoso quotes header names and values) answers in JSON, which it writes as
the standard says. JSON's ``typed-literal`` spelling (Virtuoso's, from the 2007 note) is read by
pyoxigraph as a literal with its datatype. Graphs (CONSTRUCT) come as N-Triples or Turtle.

Two habits of Virtuoso are undone by a row of :data:`DIALECTS`, chosen by the answer's
``Server`` header: blank node labels written as ``nodeID://b123`` (not a label a standard
parser takes: the prefix is dropped, the label kept), and booleans stored as ``"0"``/``"1"``
(the canonical ``"false"``/``"true"``, so a row compares equal to the embedded store's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import IO, Callable, Iterator

import pyoxigraph as ox

JSON, XML, TSV = "application/sparql-results+json", "application/sparql-results+xml", "text/tab-separated-values"
NTRIPLES, TURTLE = "application/n-triples", "text/turtle"
SOLUTIONS = {JSON: ox.QueryResultsFormat.JSON, XML: ox.QueryResultsFormat.XML, TSV: ox.QueryResultsFormat.TSV}
GRAPHS = {NTRIPLES: ox.RdfFormat.N_TRIPLES, TURTLE: ox.RdfFormat.TURTLE}
SOLUTIONS_ACCEPT = f"{JSON}, {XML};q=0.9, {TSV};q=0.8"
GRAPHS_ACCEPT = f"{NTRIPLES}, {TURTLE};q=0.9"
ANY_ACCEPT = f"{JSON}, {XML};q=0.9, {NTRIPLES};q=0.9, {TURTLE};q=0.8, {TSV};q=0.8"
BOOLEAN = ox.NamedNode("http://www.w3.org/2001/XMLSchema#boolean")
CANONICAL_BOOLEANS = {"0": ox.Literal("false", datatype=BOOLEAN), "1": ox.Literal("true", datatype=BOOLEAN)}


# What stands before a blank node's label, per format: neither can occur inside a string of its
# format (XML escapes "<" in text, JSON escapes '"'), so only labels are touched.
BNODE_LABEL_STARTS = {
    XML: rb"(<bnode>)",
    JSON: rb'("type"\s{0,8}:\s{0,8}"bnode"\s{0,8},\s{0,8}"value"\s{0,8}:\s{0,8}")',
}


@dataclass(frozen=True)
class Dialect:
    """How a server's answers differ from the standard's, and what undoes it."""

    server: str  # the start of its Server header
    bnode_prefix: bytes  # written before every blank node label
    numeric_booleans: bool  # xsd:boolean values written as 0 / 1


DIALECTS = (Dialect("Virtuoso/", b"nodeID://", True),)
STANDARD = Dialect("", b"", False)


def dialect_of(server_header: str | None) -> Dialect:
    return next((d for d in DIALECTS if (server_header or "").startswith(d.server)), STANDARD)


def parse_answer(source: IO[bytes] | bytes, content_type: str, dialect: Dialect = STANDARD):
    """Solutions, a boolean or triples, parsed by the parser the content type names."""
    if dialect.bnode_prefix and content_type in BNODE_LABEL_STARTS:
        source = _Unprefixed(source, BNODE_LABEL_STARTS[content_type] + re.escape(dialect.bnode_prefix))
    if content_type in GRAPHS:
        return ox.parse(source, GRAPHS[content_type])
    return ox.parse_query_results(source, SOLUTIONS[content_type])


def rows(solutions: ox.QuerySolutions, dialect: Dialect = STANDARD) -> Iterator[tuple[ox.Term | None, ...]]:
    """Each solution's values in the order of the variables, None where unbound."""
    return map(row_reader(dialect), solutions)


def row_reader(dialect: Dialect = STANDARD) -> Callable[[ox.QuerySolution], tuple[ox.Term | None, ...]]:
    """One solution's values as the standard writes them (the dialect's booleans made canonical)."""
    if not dialect.numeric_booleans:
        return tuple
    return lambda solution: tuple(map(_canonical, solution))


def _canonical(term):
    if isinstance(term, ox.Literal) and term.datatype == BOOLEAN:
        return CANONICAL_BOOLEANS.get(term.value, term)
    return term


class _Unprefixed:
    """A results stream with a prefix taken off blank node labels (``pattern``: what stands before
    a label, in a group, then the prefix)."""

    HOLD = 96  # bytes kept back between reads, so a match split across two reads is still seen

    def __init__(self, source: IO[bytes] | bytes, pattern: bytes):
        self.source = source
        self.pattern = re.compile(pattern)
        self.pending, self.done = b"", isinstance(source, bytes)
        if self.done:
            self.pending = self.pattern.sub(rb"\1", source)

    def read(self, size: int = -1) -> bytes:
        while not self.done and (size < 0 or len(self.pending) < size + self.HOLD):
            part = self.source.read(max(size, 1 << 16))
            if not part:
                self.done = True
            self.pending = self.pattern.sub(rb"\1", self.pending + part)
        cut = len(self.pending) if self.done else max(0, len(self.pending) - self.HOLD)
        cut = cut if size < 0 else min(size, cut)
        taken, self.pending = self.pending[:cut], self.pending[cut:]
        return taken

    def readable(self) -> bool:
        return True
