"""Precomputed rankings: a query's whole answer, row by row in its ``ORDER BY`` order, each row
with its rank, so that any page of it is read by rank instead of grouping and sorting the graph.

A library query declares the list that serves it in its header (``# precomputed: NAME``,
:mod:`kg.query.library`); :mod:`kg.query.precompute` writes the lists after every change of
sources. One list is a ``kg:Ranking`` node (``{base}ranking/NAME``) and one node per row:

- the ranking: ``kg:rankingName`` (NAME), ``kg:queryDigest`` (:func:`digest` of the query text it
  was computed from: a list whose query has changed since is never served), ``kg:rankedRows`` (the
  answer's length: "N more" is exact) and ``kg:rankedVariables`` (the columns, space-separated);
  a list of a query about an entity (``{base}ranking/NAME/for-DIGEST``) also ``kg:rankedFor`` the
  entity; a list that keeps only the answer's first rows, ``kg:rankedKept`` (how many: a page
  past them is the query's own);
- each row, ``{ranking}/RANK``: ``kg:rankIn`` the ranking, ``kg:rank`` (1 for the first row) and
  each bound value under ``{ranking}#VARIABLE`` (an unbound one has no triple).

A page is one query that binds the rows it wants, each rank with its row's node, in a ``VALUES`` block
(RDF terms the engine serialises, never text a user typed), so the engine reads each row by its
subject: a rank alone would match one row of every list (hundreds, with lists per entity).
"""

from __future__ import annotations

import hashlib
from typing import Iterable, Iterator, Sequence

import pyoxigraph as ox

from ..vocab import KG, RDF, XSD, sparql_prologue


def digest(sparql: str) -> str:
    """The query text's fingerprint a list is stored with (the header included: a list follows its file)."""
    return hashlib.sha256(sparql.encode("utf-8")).hexdigest()[:16]


def _integer(n: int) -> ox.Literal:
    return ox.Literal(str(n), datatype=XSD.integer)


def ranking_triples(
    ranking: ox.NamedNode,
    name: str,
    query_digest: str,
    variables: Sequence[str],
    rows: Iterable[Sequence[ox.Term | None]],
    entity: ox.NamedNode | None = None,
    kept: int | None = None,
) -> Iterator[ox.Triple]:
    """The list ``name`` of ``rows`` (values in the order of ``variables``, None where unbound), given in
    the query's order: the first row is rank 1; of a query about ``entity`` if given; keeping the first ``kept``
    (of a sequence, such as a twin's rows, the others are not read)."""
    columns = [ox.NamedNode(f"{ranking.value}#{variable}") for variable in variables]
    count = 0
    for count, row in enumerate(rows[:kept] if isinstance(rows, Sequence) else rows, start=1):
        if kept is not None and count > kept:
            continue  # counted, not kept
        node = _row(ranking, count)
        yield ox.Triple(node, KG.rankIn, ranking)
        yield ox.Triple(node, KG.rank, _integer(count))
        yield from (ox.Triple(node, column, value) for column, value in zip(columns, row) if value is not None)
    if isinstance(rows, Sequence):  # the rows past the kept ones are counted without being read
        count = len(rows)
    yield ox.Triple(ranking, RDF.type, KG.Ranking)
    yield ox.Triple(ranking, KG.rankingName, ox.Literal(name))
    yield ox.Triple(ranking, KG.queryDigest, ox.Literal(query_digest))
    yield ox.Triple(ranking, KG.rankedRows, _integer(count))
    yield ox.Triple(ranking, KG.rankedVariables, ox.Literal(" ".join(variables)))
    if entity is not None:
        yield ox.Triple(ranking, KG.rankedFor, entity)
    if kept is not None and count > kept:
        yield ox.Triple(ranking, KG.rankedKept, _integer(kept))


def _row(ranking: ox.NamedNode, rank: int) -> ox.NamedNode:
    """A row's node, named by its rank: a page names its rows, so the number of lists does not slow it."""
    return ox.NamedNode(f"{ranking.value}/{rank}")


def entity_ranking(ranking: ox.NamedNode, entity: str) -> ox.NamedNode:
    """The list of a query about ``entity``: beside the query's name, by the entity IRI's fingerprint."""
    return ox.NamedNode(f"{ranking.value}/for-{digest(entity)}")


def _header(store, name: str, query_digest: str, entity) -> tuple[ox.NamedNode, int, list[str], int] | None:
    about = f"; kg:rankedFor {ox.NamedNode(str(entity))}" if entity is not None else ""
    sparql = f"""{sparql_prologue()}
    SELECT ?ranking ?rows ?variables ?kept WHERE {{
      ?ranking kg:rankingName {ox.Literal(name)} ; kg:queryDigest {ox.Literal(query_digest)} {about} ;
               kg:rankedRows ?rows ; kg:rankedVariables ?variables
      OPTIONAL {{ ?ranking kg:rankedKept ?kept }} }}"""
    found = next(iter(store.query(sparql)), None)  # any engine with kg's query(): rdflib's terms
    if found is None:
        return None
    ranking, rows, variables, kept = found
    return ox.NamedNode(str(ranking)), int(rows), str(variables).split(), int(rows if kept is None else kept)


def ranked_page(store, name: str, query_digest: str, offset: int, limit: int, entity=None):
    """The variables, the answer of the page query (``offset + 1`` to ``offset + limit`` of the list ``name``,
    of ``entity`` for a query about one; ?rank first, in any order) and the list's length; None when the store
    holds no list of that name computed from this query text, or it does not keep the page's rows."""
    header = _header(store, name, query_digest, entity)
    if header is None:
        return None
    ranking, total, variables, kept = header
    if min(offset + limit, total) > kept:
        return None
    ranks = range(offset + 1, min(offset + limit, total) + 1)
    if not ranks:
        return variables, None, total
    columns = "\n".join(
        f"OPTIONAL {{ ?row {ox.NamedNode(f'{ranking.value}#{variable}')} ?{variable} }}" for variable in variables
    )
    sparql = f"""{sparql_prologue()}
    SELECT ?rank {" ".join(f"?{variable}" for variable in variables)} WHERE {{
      VALUES (?rank ?row) {{ {" ".join(f"({_integer(rank)} {_row(ranking, rank)})" for rank in ranks)} }}
      ?row kg:rankIn {ranking} .
      {columns}
    }}"""
    return variables, store.query(sparql), total
