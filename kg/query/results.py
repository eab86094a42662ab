"""Query results as text: SPARQL 1.1 JSON, CSV/TSV of plain values, and aligned tables.

CSV and TSV hold plain values: a literal's lexical form (no quotes, language tag or datatype),
an IRI as is. Tables are for reading: IRIs under a known namespace are shortened to prefixed
names (``author:gerhard-neumann``) and columns are aligned by display width, so Chinese names
line up too.
"""

from __future__ import annotations

import csv
import io
from typing import Mapping

from rdflib import BNode, Literal, URIRef
from rdflib.term import Identifier
from rich.cells import cell_len
from rich.table import Table

from .library import QueryResult


def plain(term: Identifier | None) -> str:
    if term is None:
        return ""
    if isinstance(term, BNode):
        return f"_:{term}"
    return str(term)


def json_term(term: Identifier) -> dict[str, str]:
    if isinstance(term, URIRef):
        return {"type": "uri", "value": str(term)}
    if isinstance(term, BNode):
        return {"type": "bnode", "value": str(term)}
    assert isinstance(term, Literal)
    described = {"type": "literal", "value": str(term)}
    if term.language:
        described["xml:lang"] = term.language
    elif term.datatype:
        described["datatype"] = str(term.datatype)
    return described


def sparql_json(result: QueryResult) -> dict:
    """The W3C SPARQL 1.1 Query Results JSON document (unbound variables left out of a row)."""
    if result.ask is not None:
        return {"head": {}, "boolean": result.ask}
    bindings = [
        {name: json_term(term) for name, term in zip(result.variables, row) if term is not None}
        for row in result.rows
    ]
    return {"head": {"vars": result.variables}, "results": {"bindings": bindings}}


def delimited(result: QueryResult, delimiter: str) -> str:
    """A header row and one row per solution, plain values (``true``/``false`` for ASK)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    if result.ask is not None:
        writer.writerows([["boolean"], [str(result.ask).lower()]])
    else:
        writer.writerow(result.variables)
        writer.writerows([plain(term) for term in row] for row in result.rows)
    return out.getvalue()


def readable(term: Identifier | None, prefixes: Mapping[str, str]) -> str:
    """A cell for people: prefixed names for IRIs in a known namespace, values as they read."""
    if isinstance(term, URIRef):
        for prefix, namespace in prefixes.items():
            local = str(term)[len(namespace):]
            if str(term).startswith(namespace) and local and "/" not in local and "#" not in local:
                return f"{prefix}:{local}"
    return plain(term)


def table_cells(result: QueryResult, prefixes: Mapping[str, str]) -> list[list[str]]:
    if result.ask is not None:
        return [["boolean"], [str(result.ask).lower()]]
    return [result.variables, *([readable(term, prefixes) for term in row] for row in result.rows)]


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
