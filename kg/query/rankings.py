"""Precomputed rankings: a query's whole answer, row by row in its ``ORDER BY`` order, with the rows'
order, so that any page of it is read by rank instead of grouping and sorting the graph.

A library query declares the list that serves it in its header (``# precomputed: NAME``,
:mod:`kg.query.library`); :mod:`kg.query.precompute` writes the lists after every change of
sources. One list is a ``kg:Ranking`` node (``{base}ranking/NAME``) and one node per row:

- the ranking: ``kg:rankingName`` (NAME), ``kg:queryDigest`` (:func:`digest` of the query text it
  was computed from: a list whose query has changed since is never served), ``kg:rankedRows`` (the
  answer's length: "N more" is exact) and ``kg:rankedVariables`` (the columns, space-separated);
  a list of a query about an entity (``{base}ranking/NAME/for-DIGEST``) also ``kg:rankedFor`` the
  entity; a list that keeps only the answer's first rows, ``kg:rankedKept`` (how many: a page
  past them is the query's own); and ``kg:rankedOrder``, the kept rows' names in rank order, separated by
  spaces;
- each row, ``{ranking}/row-DIGEST`` (:func:`row_name`: named by its values, not by its rank):
  ``kg:rankIn`` the ranking and each bound value under ``{ranking}#VARIABLE`` (an unbound one has no
  triple).

A row keeps its node wherever it ranks: a row inserted near a list's top changes the list's order (one
literal) and adds the row's triples, not the values of every row below it, so a change of sources writes
what it changed. A page reads the order with the list's header, then is one query that binds the rows
it wants, each rank with its row's node, in a ``VALUES`` block (RDF terms the engine serialises, never
text a user typed), so the engine reads each row by its subject.
"""

from __future__ import annotations

import hashlib
from typing import Iterable, NamedTuple, Sequence

import pyoxigraph as ox

from ..vocab import KG, RDF, XSD, sparql_prologue


def digest(sparql: str) -> str:
    """The query text's fingerprint a list is stored with (the header included: a list follows its file)."""
    return hashlib.sha256(sparql.encode("utf-8")).hexdigest()[:16]


def _integer(n: int) -> ox.Literal:
    return ox.Literal(str(n), datatype=XSD.integer)


class RankedList(NamedTuple):
    """One list as N-Triples lines (each ending in `` .\n``): written as text, compared as text
    (:mod:`kg.resolve.ranked_memo`), never made into triples one by one."""

    key: str  # the ranking node's IRI
    lines: list[str]  # every line of the list but its digest's
    digest: str  # the line of its kg:queryDigest, written last (kg/query/precompute.py)


def ranked_list(
    ranking: ox.NamedNode,
    name: str,
    query_digest: str,
    variables: Sequence[str],
    rows: Iterable[Sequence[ox.Term | None]],
    entity: ox.NamedNode | None = None,
    kept: int | None = None,
) -> RankedList:
    """The list ``name`` of ``rows`` (values in the order of ``variables``, None where unbound), given in
    the query's order: the first row is rank 1; of a query about ``entity`` if given; keeping the first ``kept``
    (of a sequence, such as a twin's rows, the others are not read; of rows kept between runs, their values are
    read as N-Triples texts, :meth:`kg.resolve.list_store.KeptRanked.texts`, never made into terms)."""
    columns = [f" <{ranking.value}#{variable}> " for variable in variables]
    rank_in = f" {KG.rankIn} {ranking} .\n"
    lines: list[str] = []
    count, order = 0, {}
    for count, row in enumerate(_kept(rows, kept), start=1):
        if kept is not None and count > kept:
            continue  # counted, not kept
        values = [None if value is None else str(value) for value in row]  # N-Triples terms (a text is its own)
        node = f"<{ranking.value}/{row_name(values, order)}>"
        lines.append(node + rank_in)
        lines.extend(f"{node}{column}{value} .\n" for column, value in zip(columns, values) if value is not None)
    if isinstance(rows, Sequence):  # the rows past the kept ones are counted without being read
        count = len(rows)
    about = [(KG.rankedFor, entity)] if entity is not None else []
    about += [(KG.rankedKept, _integer(kept))] if kept is not None and count > kept else []
    lines.extend(
        f"{ranking} {predicate} {value} .\n"
        for predicate, value in [
            (RDF.type, KG.Ranking),
            (KG.rankingName, ox.Literal(name)),
            (KG.rankedRows, _integer(count)),
            (KG.rankedVariables, ox.Literal(" ".join(variables))),
            (KG.rankedOrder, ox.Literal(" ".join(order))),
            *about,
        ]
    )
    return RankedList(ranking.value, lines, f"{ranking} {KG.queryDigest} {ox.Literal(query_digest)} .\n")


def _kept(rows: Iterable[Sequence], kept: int | None) -> Iterable[Sequence]:
    """The rows a list is made of: of a sequence, only the first ``kept`` (as texts where it gives them)."""
    if not isinstance(rows, Sequence):
        return rows
    texts = getattr(rows, "texts", None)
    return rows[:kept] if texts is None else texts(len(rows) if kept is None else kept)


def row_name(values: Sequence[str | None], order: dict[str, None]) -> str:
    """The name of a row's node, added to ``order`` (the names given so far, in rank order): ``row-`` and a
    digest of its values (N-Triples terms; an unbound one as nothing); a row the same as one before it is told
    from it by how many came before (``row-DIGEST-2``...)."""
    text = "\t".join("" if value is None else value for value in values)
    name = f"row-{hashlib.blake2b(text.encode('utf-8'), digest_size=8).hexdigest()}"
    same, named = 1, name
    while named in order:
        same += 1
        named = f"{name}-{same}"
    order[named] = None
    return named


def _row(ranking: ox.NamedNode, name: str) -> ox.NamedNode:
    """A row's node: a page names its rows, so the number of lists does not slow it."""
    return ox.NamedNode(f"{ranking.value}/{name}")


def entity_ranking(ranking: ox.NamedNode, entity: str) -> ox.NamedNode:
    """The list of a query about ``entity``: beside the query's name, by the entity IRI's fingerprint."""
    return ox.NamedNode(f"{ranking.value}/for-{digest(entity)}")


def _header(store, name: str, query_digest: str, entity) -> tuple[ox.NamedNode, int, list[str], list[str]] | None:
    """The list's node, its length, its variables and its kept rows' names in rank order."""
    about = f"; kg:rankedFor {ox.NamedNode(str(entity))}" if entity is not None else ""
    sparql = f"""{sparql_prologue()}
    SELECT ?ranking ?rows ?variables ?order WHERE {{
      ?ranking kg:rankingName {ox.Literal(name)} ; kg:queryDigest {ox.Literal(query_digest)} {about} ;
               kg:rankedRows ?rows ; kg:rankedVariables ?variables ; kg:rankedOrder ?order }}"""
    found = next(iter(store.query(sparql)), None)  # any engine with kg's query(): rdflib's terms
    if found is None:
        return None
    ranking, rows, variables, order = found
    return ox.NamedNode(str(ranking)), int(rows), str(variables).split(), str(order).split()


def ranked_page(store, name: str, query_digest: str, offset: int, limit: int, entity=None):
    """The variables, the answer of the page query (``offset + 1`` to ``offset + limit`` of the list ``name``,
    of ``entity`` for a query about one; ?rank first, in any order) and the list's length; None when the store
    holds no list of that name computed from this query text, or it does not keep the page's rows."""
    header = _header(store, name, query_digest, entity)
    if header is None:
        return None
    ranking, total, variables, order = header
    if min(offset + limit, total) > len(order):
        return None
    ranks = range(offset + 1, min(offset + limit, total) + 1)
    if not ranks:
        return variables, None, total
    columns = "\n".join(
        f"OPTIONAL {{ ?row {ox.NamedNode(f'{ranking.value}#{variable}')} ?{variable} }}" for variable in variables
    )
    sparql = f"""{sparql_prologue()}
    SELECT ?rank {" ".join(f"?{variable}" for variable in variables)} WHERE {{
      VALUES (?rank ?row) {{ {" ".join(f"({_integer(rank)} {_row(ranking, order[rank - 1])})" for rank in ranks)} }}
      ?row kg:rankIn {ranking} .
      {columns}
    }}"""
    return variables, store.query(sparql), total
