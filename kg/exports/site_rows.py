"""The rows of the site's queries, read one query at a time and spooled to disk.

Oxigraph evaluates a query with ``GROUP BY`` / ``ORDER BY`` whole when it is opened and holds
the sorted result until the last row is read. Opening every panel query of a page kind at once
(to merge them) held all of them together, with rdflib terms for each value: 2 GB at 20,000
papers. Here each query is run alone, its rows (in the query's own order) written to a file as
JSON lines of plain strings, and the query released before the next one runs; the merge then
reads the files, one row at a time.
"""

from __future__ import annotations

import json
from collections import namedtuple
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Iterator

from rdflib.plugins.sparql import prepareQuery

from ..stores.embedded import KGStore
from ..stores.ordering import sorted_lines


@lru_cache(maxsize=None)
def row_type(sparql: str) -> type:
    """A named tuple of the query's projected variables (rows keep the ``row.name`` access rdflib gives)."""
    return namedtuple("Row", [str(variable) for variable in prepareQuery(sparql).algebra["PV"]])


def rows(store: KGStore, sparql: str) -> Iterator[tuple]:
    """The rows of a SELECT, each value as its lexical form or IRI (``None`` when unbound)."""
    make = row_type(sparql)
    for terms in store.select_terms(sparql):
        yield make(*(None if term is None else term.value for term in terms))


def spool(rows: Iterable[tuple], path: Path) -> Path:
    """Read a query's rows to their end, writing them to ``path``; nothing of them stays in memory."""
    with open(path, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    return path


def unspooled(sparql: str, path: Path) -> Iterator[tuple]:
    """The rows :func:`spool` wrote, one at a time, in their order."""
    make = row_type(sparql)
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            yield make(*json.loads(line))


def page_sorted(store: KGStore, sparql: str, order: Callable[[tuple], tuple], scratch: Path | None) -> Iterator[tuple]:
    """The rows of an unordered query, by ``?page`` then ``order``, through the bounded external
    sort of :mod:`kg.stores.ordering` (Oxigraph's own ``ORDER BY`` looks each compared string up
    in the store: minutes at 20,000 papers for what Python sorts in seconds)."""
    make = row_type(sparql)
    lines = (
        f"{row.page}\t{json.dumps(row, ensure_ascii=False, separators=(',', ':'))}\n" for row in rows(store, sparql)
    )
    page, group = None, []
    for line in sorted_lines(lines, scratch):
        row = make(*json.loads(line.split("\t", 1)[1]))  # IRIs have no tabs, JSON escapes them
        if row.page != page:
            yield from sorted(group, key=order)
            page, group = row.page, []
        group.append(row)
    yield from sorted(group, key=order)
