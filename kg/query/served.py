"""The library's pages over ``kg serve``: ``GET /query/NAME?PARAM=VALUE&limit=N&offset=N``.

A page is made exactly as ``kg query`` makes it (:func:`kg.query.library.bind` and
:func:`~kg.query.library.execute`): the same names looked up, a precomputed list read by rank,
the rows after the page counted only up to :data:`~kg.query.library.MORE_COUNTED`. Each SPARQL
query this takes is one request to the server's query processes (:class:`PooledStore`), so the
server's time limit, memory ceiling and admission hold for every one of them. The answer is a
SPARQL results document (JSON, CSV or TSV by the Accept header); the page is said in headers:
``X-KG-Total`` (the answer's rows, ``>N`` when more than that), ``X-KG-Offset`` and, while rows
follow, ``Link: <…>; rel="next"``; a JSON document also has a ``page`` member with the note ``kg query``
prints.
"""

from __future__ import annotations

import json
import urllib.parse
from typing import Callable, Mapping

from rdflib.term import Identifier

from ..errors import KgError
from ..stores.answers import as_result
from ..stores.dereference import preferred
from ..stores.query_pool import Answer
from ..stores.results import parse_answer, rows
from ..stores.values import with_values
from .library import LIMIT, MORE_COUNTED, OFFSET, LibraryQuery, QueryResult, bind, execute, library
from .results import page_note, sparql_results

#: Accept header's media types the page is written in, and the first one is the default.
PAGE_TYPES = {"application/sparql-results+json": "json", "text/csv": "csv", "text/tab-separated-values": "tsv"}
TEXT = "text/plain; charset=utf-8"
JSON_RESULTS = "application/sparql-results+json"


class Refused(Exception):
    """A request of the page's that the query processes answered with an error: that answer is the page's."""

    def __init__(self, answer: Answer):
        super().__init__(answer.body.decode("utf-8", "replace"))
        self.answer = answer


class PooledStore:
    """What the library runs on (:class:`kg.query.lookup.SparqlStore`): each query one request to the
    server's query processes, parameters bound as RDF terms (kg/stores/values.py), at most ``rows`` rows back."""

    def __init__(self, ask: Callable[[dict], Answer], rows: int):
        self.ask, self.rows = ask, rows

    def query(self, sparql: str, bindings: Mapping[str, Identifier] | None = None):
        answer = self.ask(
            {
                "query": with_values(sparql, bindings or {}),
                "default": [],
                "named": [],
                "rows": self.rows,
                "select": "json",
                "graph": "application/n-triples",
            }
        )
        if answer.status != 200:
            raise Refused(answer)
        if answer.content_type != JSON_RESULTS:
            raise KgError("only SELECT queries are served as pages; run this one at /sparql")
        return as_result(parse_answer(answer.body, JSON_RESULTS), read_now=True, rows=rows)


def _values(fields: Mapping[str, list[str]]) -> dict[str, str]:
    """The request's parameters, one value each (a repeated one is an error, not a silent choice)."""
    repeated = sorted(name for name, given in fields.items() if len(given) != 1)
    if repeated:
        raise KgError(f"give each parameter once ({', '.join(repeated)} repeated)")
    return {name: given[0] for name, given in fields.items()}


def _next_link(name: str, values: Mapping[str, str], offset: int) -> str:
    query = urllib.parse.urlencode(sorted({**values, OFFSET: str(offset)}.items()))
    return f'</query/{urllib.parse.quote(name)}?{query}>; rel="next"'


def _format(accept: str) -> str | None:
    """The results format the client accepts first (JSON for any), None for none of them."""
    for media in preferred(accept):
        if media in PAGE_TYPES:
            return PAGE_TYPES[media]
        if media in ("*/*", "application/*", "text/*"):
            return "json"
    return None


def library_page(
    name: str, fields: Mapping[str, list[str]], ask: Callable[[dict], Answer], row_limit: int, accept: str
):
    """The page of library query ``name`` asked for by ``fields`` (the URL's parameters), each of its SPARQL
    queries run by ``ask`` with at most ``row_limit`` rows: an :class:`Answer` (404 for no such query, 406
    for no format the client takes, 400 for a parameter kg query would refuse)."""
    fmt = _format(accept)
    if fmt is None:
        return Answer(406, TEXT, f"not acceptable: pages are {', '.join(PAGE_TYPES)}\n".encode())
    query = library().get(name)
    if query is None:
        return Answer(404, TEXT, f"no query named {name!r} (kg queries lists them)\n".encode())
    try:
        values = _values(fields)
        store = PooledStore(ask, row_limit)
        notes: list[str] = []
        bindings, page = bind(query, store, values, notes)
        if page.limit is not None:  # the rows kg query reads: the page and at most MORE_COUNTED after it
            store.rows = min(row_limit, page.offset + page.limit + MORE_COUNTED + 1)
        result = execute(store, query, bindings, page)
    except Refused as refused:
        return refused.answer
    except KgError as exc:
        return Answer(400, TEXT, f"{exc}\n".encode())
    result.notes = notes
    last = result.offset + len(result.rows)
    headers = {
        "X-KG-Total": str(result.total) if result.total_exact else f">{result.total}",
        "X-KG-Offset": str(result.offset),
    }
    if result.total > last and any(param.name == LIMIT for param in query.params):
        headers["Link"] = _next_link(name, values, last)
    content_type = next(media for media, kind in PAGE_TYPES.items() if kind == fmt)
    return Answer(200, content_type, _document(result, query, fmt), headers=headers)


def _document(result: QueryResult, query: LibraryQuery, fmt: str) -> bytes:
    """The SPARQL results document; in JSON also a ``page`` member: the note ``kg query`` prints, its
    figures, and the notes on defaults chosen (a member SPARQL JSON readers skip)."""
    document = sparql_results(result, fmt)
    if fmt != "json":
        return document
    members = json.loads(document)
    members["page"] = {
        "offset": result.offset,
        "rows": len(result.rows),
        "total": result.total,
        "total_exact": result.total_exact,
        "note": page_note(result, query, ""),
        "notes": result.notes,
    }
    return json.dumps(members, ensure_ascii=False).encode("utf-8")
