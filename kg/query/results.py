"""Query results as text: the W3C SPARQL 1.1 results formats (JSON, CSV, TSV), and aligned tables.

The standard formats come from standard serializers (rdflib's JSON, Oxigraph's CSV and TSV): CSV
holds plain values (a literal's lexical form, an IRI as is), TSV RDF terms as N-Triples writes
them (``<iri>``, ``"text"@en``, bare numbers). Tables are for reading: IRIs under a known namespace are shortened to
prefixed names (``author:gerhard-neumann``) and columns are aligned by display width, so Chinese names
line up too.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Mapping

import pyoxigraph as ox
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import SKOS
from rdflib.query import Result
from rdflib.term import Identifier, Variable
from rich.cells import cell_len
from rich.table import Table

from .. import ONTOLOGY_DIR
from ..vocab import KG_NS
from .library import LibraryQuery, QueryResult


def plain(term: Identifier | None) -> str:
    if term is None:
        return ""
    if isinstance(term, BNode):
        return f"_:{term}"
    return str(term)


# A cell a spreadsheet would run as a formula (OWASP's list), and a number, which it would not.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def spreadsheet_safe(text: str) -> str:
    """``text`` with a leading ``'`` when it starts like a formula (``=``, ``+``, ``-``, ``@``, tab, CR)
    and is not a number, so that a spreadsheet opening a CSV or TSV file shows it instead of running it."""
    if text.startswith(_FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def _safe_term(term: Identifier | None) -> Identifier | None:
    if isinstance(term, Literal) and spreadsheet_safe(str(term)) != str(term):
        return Literal("'" + str(term), lang=term.language, datatype=term.datatype)
    return term


def _rdflib_result(result: QueryResult) -> Result:
    if result.ask is not None:
        out = Result("ASK")
        out.askAnswer = result.ask
        return out
    out = Result("SELECT")
    out.vars = [Variable(name) for name in result.variables]
    out.bindings = [
        {Variable(name): term for name, term in zip(result.variables, row) if term is not None} for row in result.rows
    ]
    return out


def sparql_results(result: QueryResult, format_name: str) -> bytes:
    """The result as a W3C SPARQL 1.1 Query Results document: ``json`` (rdflib's serializer), ``csv``
    (plain values) or ``tsv`` (terms as in N-Triples), the last two by Oxigraph's serializers, with
    every literal that starts like a spreadsheet formula given a leading ``'`` (``spreadsheet_safe``)."""
    if format_name == "json":
        return _rdflib_result(result).serialize(format="json")
    rows = [[_safe_term(term) for term in row] for row in result.rows]
    document = _rdflib_result(replace(result, rows=rows)).serialize(format="json")
    solutions = ox.parse_query_results(document, format=ox.QueryResultsFormat.JSON)
    return solutions.serialize(format=RESULT_FORMATS[format_name])


RESULT_FORMATS = {"csv": ox.QueryResultsFormat.CSV, "tsv": ox.QueryResultsFormat.TSV}


def page_note(result: QueryResult, query: LibraryQuery, option: str = "-p ") -> str:
    """Which rows were shown, how many more there are, and how to ask for the next page (``option``: how a
    parameter is given, ``-p `` on the command line, nothing in a URL)."""
    first, last = result.offset + 1, result.offset + len(result.rows)
    shown = f"rows {first:,}–{last:,}" if result.rows else f"no rows after row {result.offset:,}"
    total = f"{result.total:,}" if result.total_exact else f"more than {result.total:,}"
    size = next((param.default for param in query.params if param.name == "limit"), None)
    more = result.total - last
    page = f"; page size {size} ({option}limit=N)" if size else ""
    if more <= 0:
        return f"{shown} of {total}{page}"
    return (
        f"{shown} of {total}, {'more than ' if not result.total_exact else ''}{more:,} more"
        f"{page}; next page: {option}offset={last}"
    )


@lru_cache(maxsize=1)
def enumeration_labels() -> dict[str, str]:
    """The ontology's enumerated values (``skos:inScheme``: tracks, presentation types …) by local
    name, with their English labels: ``MainTrack`` -> "main conference"."""
    ontology = Graph().parse(ONTOLOGY_DIR / "kg.ttl", format="turtle")
    return {
        str(value)[len(KG_NS) :]: str(label)
        for value, _, _ in ontology.triples((None, SKOS.inScheme, None))
        for label in ontology.objects(value, SKOS.prefLabel)
        if str(value).startswith(KG_NS) and label.language == "en"
    }


def readable(term: Identifier | None, prefixes: Mapping[str, str]) -> str:
    """A cell for people: the ontology's values by their labels (``kg:MainTrack`` or the string
    ``MainTrack`` -> "main conference"), prefixed names for IRIs in a known namespace, values as they read."""
    local = str(term)[len(KG_NS) :] if isinstance(term, URIRef) and str(term).startswith(KG_NS) else str(term)
    if isinstance(term, (URIRef, Literal)) and not getattr(term, "language", None) and local in enumeration_labels():
        return enumeration_labels()[local]
    if isinstance(term, URIRef):
        for prefix, namespace in prefixes.items():
            local = str(term)[len(namespace) :]
            if str(term).startswith(namespace) and local and "/" not in local and "#" not in local:
                return f"{prefix}:{local}"
    return plain(term)


def table_cells(result: QueryResult, prefixes: Mapping[str, str]) -> list[list[str]]:
    """The cells of a table for people: an IRI column left out where the column after it names every
    one of its IRIs (``?institution ?name``), and columns empty in every row left out."""
    if result.ask is not None:
        return [["boolean"], [str(result.ask).lower()]]
    shown = [
        column
        for column in range(len(result.variables))
        if not result.rows or (_filled(result.rows, column) and not _named_by_next(result.rows, column))
    ]
    return [
        [result.variables[column] for column in shown],
        *([readable(row[column], prefixes) for column in shown] for row in result.rows),
    ]


def _filled(rows: list[tuple], column: int) -> bool:
    return any(row[column] is not None and str(row[column]) != "" for row in rows)


def _named_by_next(rows: list[tuple], column: int) -> bool:
    """Whether every IRI of the column has a name (a non-empty literal) in the next column."""
    return (
        all(
            isinstance(row[column], URIRef) and isinstance(row[column + 1], Literal) and str(row[column + 1])
            for row in rows
        )
        if column + 1 < len(rows[0])
        else False
    )


def numeric_columns(cells: list[list[str]]) -> list[bool]:
    """Columns whose values are all numbers (right-aligned, as people read counts)."""
    return [
        len(cells) > 1 and all(row[column].lstrip("-").replace(".", "", 1).isdigit() for row in cells[1:])
        for column in range(len(cells[0]))
    ]


def aligned_text(cells: list[list[str]]) -> str:
    """Columns padded to their widest cell (by display width), two spaces apart, numbers right-aligned."""
    widths = [max(cell_len(row[column]) for row in cells) for column in range(len(cells[0]))]
    right = numeric_columns(cells)
    lines = []
    for row in cells:
        padded = [
            " " * (width - cell_len(cell)) + cell if numbers else cell + " " * (width - cell_len(cell))
            for cell, width, numbers in zip(row, widths, right)
        ]
        lines.append("  ".join(padded).rstrip())
    return "\n".join(lines) + "\n"


def rich_table(cells: list[list[str]], title: str | None = None) -> Table:
    table = Table(title=title, show_lines=False, header_style="bold")
    for name, numbers in zip(cells[0], numeric_columns(cells)):
        table.add_column(name, overflow="fold", justify="right" if numbers else "left")
    for row in cells[1:]:
        table.add_row(*row)
    return table
