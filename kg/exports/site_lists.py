"""The site's pages of the query library's long answers: each query with a precomputed list (and no
entity to name) gets ``lists/NAME.html``, its first page as ``kg query NAME`` gives it, read from the
list by rank (:func:`kg.query.library.run`), with the same note on the rows that follow and how to
read them (``kg query NAME -p offset=N``, or ``/query/NAME?offset=N`` under ``kg serve``). Cells that
name an entity with a page of the site link to it.
"""

from __future__ import annotations

from typing import Mapping

from ..query.library import LibraryQuery, library, run
from ..query.results import page_note, plain, readable

FOLDER = "lists"


def listed_queries() -> list[LibraryQuery]:
    """The queries the site shows a page of: those with a precomputed list of one answer."""
    return [query for query in library().values() if query.precomputed and query.entity_param is None]


def list_page(store, query: LibraryQuery, named: Mapping[str, tuple[str, str]]) -> dict:
    """What the page of one query shows: its title and description, its columns, its first page's rows
    (each cell its text and, for an entity in ``named`` (IRI -> name, link), its name and page) and the note
    on the rest."""
    result = run(store, query, {})
    rows = [[_cell(term, named) for term in row] for row in result.rows]
    more = result.total > result.offset + len(result.rows)
    return {
        "title": query.title,
        "description": query.description,
        "columns": result.variables,
        "rows": rows,
        "note": page_note(result, query, "-p "),
        "command": f"kg query {query.name} -p offset={len(result.rows)}" if more else None,
        "served": f"/query/{query.name}?offset={len(result.rows)}" if more else None,
    }


def _cell(term, named: Mapping[str, tuple[str, str]]) -> dict:
    if term is not None and plain(term) in named:
        name, href = named[plain(term)]
        return {"text": name, "href": href}
    return {"text": readable(term, {}), "href": None}
