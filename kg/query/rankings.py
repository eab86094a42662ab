"""Precomputed rankings: a query's whole answer, row by row in its ``ORDER BY`` order, each row
with its rank, so that any page of it is read by rank instead of grouping and sorting the graph.

A library query declares the list that serves it in its header (``# precomputed: NAME``,
:mod:`kg.query.library`); :mod:`kg.query.precompute` writes the lists after every change of
sources. One list is a ``kg:Ranking`` node (``{base}ranking/NAME``) and one node per row:

- the ranking: ``kg:rankingName`` (NAME), ``kg:queryDigest`` (:func:`digest` of the query text it
  was computed from: a list whose query has changed since is never served), ``kg:rankedRows`` (the
  answer's length: "N more" is exact) and ``kg:rankedVariables`` (the columns, space-separated);
- each row, ``{ranking}/RANK``: ``kg:rankIn`` the ranking, ``kg:rank`` (1 for the first row) and
  each bound value under ``{ranking}#VARIABLE`` (an unbound one has no triple).

A page is one query that binds the ranks it wants in a ``VALUES`` block of integer literals (RDF
terms the engine serialises, never text a user typed), so the engine seeks each row by its rank.
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
) -> Iterator[ox.Triple]:
    """The list ``name`` of ``rows`` (values in the order of ``variables``, None where unbound), given in
    the query's order: the first row is rank 1."""
    columns = [ox.NamedNode(f"{ranking.value}#{variable}") for variable in variables]
    count = 0
    for count, row in enumerate(rows, start=1):
        node = ox.NamedNode(f"{ranking.value}/{count}")
        yield ox.Triple(node, KG.rankIn, ranking)
        yield ox.Triple(node, KG.rank, _integer(count))
        yield from (ox.Triple(node, column, value) for column, value in zip(columns, row) if value is not None)
    yield ox.Triple(ranking, RDF.type, KG.Ranking)
    yield ox.Triple(ranking, KG.rankingName, ox.Literal(name))
    yield ox.Triple(ranking, KG.queryDigest, ox.Literal(query_digest))
    yield ox.Triple(ranking, KG.rankedRows, _integer(count))
    yield ox.Triple(ranking, KG.rankedVariables, ox.Literal(" ".join(variables)))


def _header(store, name: str, query_digest: str) -> tuple[ox.NamedNode, int, list[str]] | None:
    sparql = f"""{sparql_prologue()}
    SELECT ?ranking ?rows ?variables WHERE {{
      ?ranking kg:rankingName {ox.Literal(name)} ; kg:queryDigest {ox.Literal(query_digest)} ;
               kg:rankedRows ?rows ; kg:rankedVariables ?variables }}"""
    found = next(iter(store.query(sparql)), None)  # any engine with kg's query(): rdflib's terms
    if found is None:
        return None
    ranking, rows, variables = found
    return ox.NamedNode(str(ranking)), int(rows), str(variables).split()


def ranked_page(store, name: str, query_digest: str, offset: int, limit: int):
    """The variables, the answer of the page query (``offset + 1`` to ``offset + limit`` of the list ``name``,
    ?rank first, in any order) and the list's length; None when the store holds no list of that name computed
    from this query text."""
    header = _header(store, name, query_digest)
    if header is None:
        return None
    ranking, total, variables = header
    ranks = range(offset + 1, min(offset + limit, total) + 1)
    if not ranks:
        return variables, None, total
    columns = "\n".join(
        f"OPTIONAL {{ ?row {ox.NamedNode(f'{ranking.value}#{variable}')} ?{variable} }}" for variable in variables
    )
    sparql = f"""{sparql_prologue()}
    SELECT ?rank {" ".join(f"?{variable}" for variable in variables)} WHERE {{
      VALUES ?rank {{ {" ".join(str(_integer(rank)) for rank in ranks)} }}
      ?row kg:rank ?rank ; kg:rankIn {ranking} .
      {columns}
    }}"""
    return variables, store.query(sparql), total
