"""Writes the precomputed lists (:mod:`kg.query.rankings`) after every change of sources.

Each library query whose header declares ``# precomputed: NAME`` is run once, whole, with its
parameters' defaults, and its rows are stored in its order in the rankings graph: a graph set
aside like the index graph (``kg:IndexGraph``: in every query's union, left out of exports and
of ``kg stats``), replaced as a whole each time, so ``kg ingest`` and ``kg remove`` are followed.
The rows are the real query's own, so a page read from a list is the same page of the query.
A list keeps the answer's first :data:`KEPT_ROWS` rows and its length: a page past them runs the query.
A query about an entity (``# precomputed: NAME : PAPERS``) has a list for each entity with at least
PAPERS papers, the entities whose answer the engine would sort too long for a page; the others are
answered by the query.

A list with a *twin* (:data:`TWINS`: Python that gives the query's rows for every entity at once, from the
rows the resolution step made for it, :mod:`kg.resolve.list_rows`) is made by the twin instead of the query
run once per entity, but only while the query's text has the digest the twin was checked against; a query
edited since is run as above until its twin is checked again (``tests/query/test_twins.py``).
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import pyoxigraph as ox
from rdflib import URIRef

from .. import QUERIES_DIR
from ..errors import KgError
from ..rdf.iris import Minter
from ..registry import Registry
from ..resolve.kept_rows import side_folder
from ..resolve.ranked_memo import ListWriter
from ..resolve.side_database import forget_kept_databases
from ..vocab import KG, RDF
from .library import LibraryQuery, answer, bind, library, plain_defaults
from .lookup import entities_with_papers
from .rankings import RankedList, digest, entity_ranking, ranked_list

if TYPE_CHECKING:
    from ..resolve.list_rows import TwinFiles

#: The rows a list keeps: ten pages of 100 (a page past them runs the query). A one-answer list of every
#: artifact grows with the corpus, and a change of sources shifts most of its ranks: kept whole, it was half the
#: rankings graph's quads to write again at every ingest.
KEPT_ROWS = 1000
#: list name -> its twin (:mod:`kg.resolve.list_rows`): ``digest``, ``variables`` and, of a query about an entity,
#: ``lists(store, rows, entities)``, else ``answer(store, rows)``
TWINS: Registry = Registry(
    "list twin",
    {
        "institution-authors": "kg.resolve.list_rows:INSTITUTION_AUTHORS",
        "institution-authors-per-author": "kg.resolve.list_rows:INSTITUTION_AUTHORS_PER_AUTHOR",
        "institution-papers": "kg.resolve.list_rows:INSTITUTION_PAPERS",
        "country-papers": "kg.resolve.list_rows:COUNTRY_PAPERS",
        "sector-share": "kg.resolve.answer_rows:SECTOR_SHARE",
        "institution-collaborations": "kg.resolve.answer_rows:INSTITUTION_COLLABORATIONS",
        "papers-with-code": "kg.resolve.answer_rows:PAPERS_WITH_CODE",
        "country-collaborations": "kg.resolve.answer_rows:COUNTRY_COLLABORATIONS",
        "artifacts": "kg.resolve.artifact_store:ARTIFACTS_KEPT",
        "topic-papers": "kg.resolve.topic_rows:TOPIC_PAPERS",
    },
)


def rankings_graph(minter: Minter) -> ox.NamedNode:
    return ox.NamedNode(minter.iri("graph", "rankings"))


def query_lists(
    store, query: LibraryQuery, ranking: ox.NamedNode, rows: TwinFiles | None = None, counted: dict | None = None
) -> Iterator[RankedList]:
    """The lists of one query, each the first :data:`KEPT_ROWS` rows of an answer with the parameters' defaults, in
    its order: the query's answer, or of a query about an entity, one list per entity with at least
    ``query.list_papers`` papers (made by the list's twin from ``rows`` where it serves the query's text;
    ``counted``: kind -> ``(entity, papers)`` of the entities with enough papers for every list of the kind, counted
    once, :func:`~.lookup.entities_with_papers`)."""
    twin = _twin(query, rows)
    if query.entity_param is None:
        if twin is not None:  # one answer
            answer_rows = twin.answer(store, rows)
            yield ranked_list(ranking, query.precomputed, twin.digest, twin.variables, answer_rows, None, KEPT_ROWS)
        else:
            yield _answer_list(store, query, bind(query, store, {})[0], ranking)
        return
    kind, floor = query.entity_param.kind, query.list_papers or 0
    if counted is not None and kind in counted:
        entities = [entity for entity, papers in counted[kind] if papers >= floor]
    else:
        entities = entities_with_papers(store, kind, floor)
    if twin is not None:
        for entity, answer_rows in twin.lists(store, rows, entities):
            yield ranked_list(
                entity_ranking(ranking, entity),
                query.precomputed,
                twin.digest,
                twin.variables,
                answer_rows,
                ox.NamedNode(entity),
                KEPT_ROWS,
            )
        return
    defaults = plain_defaults(query)
    for entity in entities:
        bindings = {**defaults, query.entity_param.name: URIRef(entity)}
        yield _answer_list(store, query, bindings, entity_ranking(ranking, entity), ox.NamedNode(entity))


def _twin(query: LibraryQuery, rows: TwinFiles | None):
    """The list's twin, if it has one checked against this query text and the resolution's rows are at hand."""
    if rows is None or query.precomputed not in TWINS:
        return None
    twin = TWINS[query.precomputed]
    return twin if twin.digest == digest(query.sparql) else None


def _answer_list(store, query: LibraryQuery, bindings, ranking: ox.NamedNode, entity=None) -> RankedList:
    result = answer(store, query, bindings)
    shown = [i for i, var in enumerate(result.vars) if str(var) not in bindings]  # as kg query shows it
    rows = (tuple(row[i] for i in shown) for row in result.terms)
    variables = [str(result.vars[i]) for i in shown]
    name = query.precomputed or query.name
    return ranked_list(ranking, name, digest(query.sparql), variables, rows, entity, KEPT_ROWS)


def _lists(store, minter: Minter, folder: Path, rows: TwinFiles | None) -> Iterator[RankedList]:
    names: dict[str, str] = {}
    queries = [query for query in library(folder).values() if query.precomputed]
    floors: dict[str, int] = {}  # each kind's entities counted once for all its lists: from the lowest floor
    for query in queries:
        if query.entity_param is not None:
            kind = query.entity_param.kind
            floors[kind] = min(floors.get(kind, query.list_papers or 0), query.list_papers or 0)
    counted = {kind: entities_with_papers(store, kind, floor, counted=True) for kind, floor in sorted(floors.items())}
    for query in queries:
        if query.precomputed in names:
            raise KgError(f"{query.path}: the list {query.precomputed!r} already serves {names[query.precomputed]}")
        names[query.precomputed] = query.name
        yield from query_lists(store, query, ox.NamedNode(minter.iri("ranking", query.precomputed)), rows, counted)


def refresh_rankings(store, minter: Minter, folder: Path = QUERIES_DIR, rows: TwinFiles | None = None) -> None:
    """Replace the rankings graph with every declared list, computed from the store as it is now (``rows``: what
    the resolution step that just ran made for the lists' twins; without them every list runs its query).

    A list is served only while it has its query's digest, so the digests go first and come back last,
    in one small write: a run killed in between leaves lists that are never served (the queries answer
    themselves) until the next change of sources rewrites them, never a list half old and half new.

    A kept database of list rows damaged where opening it does not look (:mod:`kg.resolve.side_database`) fails
    when its rows are read: every kept database is then left unused and the lists are made again whole, the graph
    compared whole (the remembered lists were set aside when the first attempt began)."""
    try:
        _refresh(store, minter, folder, rows)
    except sqlite3.DatabaseError:
        forget_kept_databases(side_folder(store))
        _refresh(store, minter, folder, rows if rows is None else replace(rows, kept=None))


def _refresh(store, minter: Minter, folder: Path, rows: TwinFiles | None) -> None:
    graph = rankings_graph(minter)
    writer = ListWriter(store, graph)
    writer.withdraw()
    digests: list[str] = []

    def undigested(lists: Iterator[RankedList]) -> Iterator[tuple[str, list[str]]]:
        for made in lists:
            digests.append(made.digest)
            yield made.key, made.lines

    header = [f"{graph} {RDF.type} {kind} .\n" for kind in (KG.DerivedGraph, KG.IndexGraph)]
    lists = undigested(_lists(store, minter, folder, rows))
    try:  # one list in memory at a time; written only where it changed, on an on-disk store (kg/resolve/ranked_memo.py)
        writer.write(chain([(graph.value, header)], lists), digests)
    finally:
        if rows is not None and rows.kept is not None:
            rows.kept.close()
