"""Identity from identifiers: which name-only author mentions are a person some source identifies.

A person with an identifier (OpenReview profile, ORCID, dblp pid, OpenReview's e-mail id) is
named by it (:func:`kg.rdf.mapping.person_iri`), so two namesakes with different ids are two
nodes and one id is one node however the name is spelled. A source without ids (a listing, a
BibTeX file) names people by their name alone; such a name-only person of one source is the
identified person ``I`` when

- **same-authorship**: on the same paper at the same byline position another source names
  ``I`` with the same name (by :func:`kg.text.names.match_key`), and no other identified
  person; or else
- **only-identified-namesake**: ``I`` is the only identified person with that name.

Anything else (two identified namesakes, "Yang Liu" and "Yang Liu") leaves the name-only
mention as it is, and ``kg quality`` lists it. The decision is per mention (one authorship):
a listing's one "Yang Liu" node may be two people whom the JSON tells apart. A merge moves that
authorship (and the paper's ``dcterms:creator``) to ``I`` inside the mention's own source
graph, is recorded as a ``kg:PersonMerge`` in the derived graph, and is undone with the paper
merges before any source changes (:mod:`.store_step`). It is made only where ``I`` does not occur
in that graph, so undoing it restores the graph exactly.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterator

import pyoxigraph as ox

from ..index.match_keys import text_rows
from ..rdf.iris import Minter
from ..text.names import match_key
from ..vocab import DCTERMS, FOAF, KG, RDF, RDFS, sparql_prologue


@dataclass(frozen=True)
class PersonMerge:
    graph: str
    authorship: str
    absorbed: str
    canonical: str
    evidence: str


EXPLANATIONS = {
    "same-authorship": "another source names this author, on the same paper and byline position, with an identifier",
    "only-identified-namesake": "the only person with an identifier who has this name",
}


def is_identified(person: str) -> bool:
    """Identified persons are minted as ``author/{id}--{kind}``; name slugs never hold ``--``."""
    return "--" in person.rsplit("/", 1)[-1]


# An identified person's IRI ends in a segment holding "--" (is_identified); a store without one
# (listings, BibTeX) has no mention to move, and asking is one scan of the persons instead of reading
# every authorship (at 100,000 papers 0.5 s against 28 s).
_ANY_IDENTIFIED = sparql_prologue() + 'ASK { ?person a foaf:Person FILTER(REGEX(STR(?person), "--[^/]*$")) }'


def read_mentions(store, anyone: bool | None = None) -> list[tuple[str, str, str, str]]:
    """(graph, authorship, person, name as written) for every authorship of every source; none
    when no source identifies anyone (``anyone``, asked of the store where None: :mod:`.identified` knows it
    from the side rows), since then no mention can be moved or left apart."""
    if not (store.query(_ANY_IDENTIFIED).askAnswer if anyone is None else anyone):
        return []
    return sorted(
        text_rows(
            store,
            sparql_prologue()
            + """
        SELECT ?g ?authorship ?person ?written WHERE {
          GRAPH ?g { ?authorship kg:author ?person ; kg:nameAsWritten ?written } }""",
        )
    )


def find_person_merges(
    mentions: list[tuple[str, str, str, str]],
) -> tuple[list[PersonMerge], list[tuple[str, str, str, list[str]]]]:
    """Merges, and the mentions left apart because several identified people fit:
    ``(graph, authorship, name, [identified candidates])``."""
    namesakes: dict[str, set[str]] = defaultdict(set)
    on_authorship: dict[tuple[str, str], set[str]] = defaultdict(set)
    persons_in: dict[str, set[str]] = defaultdict(set)
    for graph, authorship, person, written in mentions:
        persons_in[graph].add(person)
        if is_identified(person):
            namesakes[match_key(written)].add(person)
            on_authorship[(authorship, match_key(written))].add(person)
    merges, ambiguous = [], []
    for graph, authorship, person, written in mentions:
        if is_identified(person):
            continue
        key = match_key(written)
        same, named = on_authorship.get((authorship, key), set()), namesakes.get(key, set())
        candidates, evidence = (same, "same-authorship") if same else (named, "only-identified-namesake")
        if len(candidates) > 1:
            ambiguous.append((graph, authorship, written, sorted(candidates)))
        elif candidates and not candidates & persons_in[graph]:  # else the move could not be undone exactly
            merges.append(PersonMerge(graph, authorship, person, next(iter(candidates)), evidence))
    return merges, ambiguous


def _values(moves: list[PersonMerge]) -> str:
    rows = " ".join(f"(<{m.graph}> <{m.authorship}> <{m.absorbed}> <{m.canonical}>)" for m in moves)
    return f"VALUES (?g ?a ?old ?new) {{ {rows} }}"


def apply_moves(store, moves: list[PersonMerge]) -> None:
    """Each mention names the identified person in its own graph; a name-only node no longer
    used there loses its type there (undo gives it back)."""
    if not moves:
        return
    values = _values(moves)
    store.update(
        f"DELETE {{ GRAPH ?g {{ ?a {KG.author} ?old . ?paper {DCTERMS.creator} ?old }} }} "
        f"INSERT {{ GRAPH ?g {{ ?a {KG.author} ?new . ?paper {DCTERMS.creator} ?new }} }} "
        f"WHERE {{ {values} GRAPH ?g {{ ?paper {KG.authorship} ?a }} }} ;\n"
        f"DELETE {{ GRAPH ?g {{ ?old {RDF.type} {FOAF.Person} }} }} WHERE {{ {values} GRAPH ?g {{ "
        f"?old {RDF.type} {FOAF.Person} }} "
        f"FILTER NOT EXISTS {{ GRAPH ?g {{ ?other {KG.author} ?old }} }} }}"
    )


def undo_moves(store, resolved: ox.NamedNode) -> set[str]:
    """Give every moved mention its name-only person back, and forget the person merges; the graphs
    written."""
    rows = store.query(
        f"SELECT ?g ?a ?old ?new WHERE {{ GRAPH {resolved} {{ ?m {RDF.type} {KG.PersonMerge} ; {KG.inGraph} ?g ; "
        f"{KG.mention} ?a ; {KG.absorbed} ?old ; {KG.mergedInto} ?new }} }}"
    )
    moves = [PersonMerge(str(g), str(a), str(old), str(new), "") for g, a, old, new in rows]
    if moves:
        store.update(
            f"DELETE {{ GRAPH ?g {{ ?a {KG.author} ?new . ?paper {DCTERMS.creator} ?new }} }} "
            f"INSERT {{ GRAPH ?g {{ ?a {KG.author} ?old . ?paper {DCTERMS.creator} ?old . ?old "
            f"{RDF.type} {FOAF.Person} }} }} "
            f"WHERE {{ {_values(moves)} GRAPH ?g {{ ?paper {KG.authorship} ?a }} }}"
        )
    store.update(
        (
            f"DELETE {{ GRAPH {resolved} {{ ?m ?p ?o }} }} WHERE {{ GRAPH {resolved} {{ ?m {RDF.type} "
            f"{KG.PersonMerge} ; ?p ?o }} }}"
        )
    )
    return {move.graph for move in moves}


def person_merge_triples(merges: list[PersonMerge], minter: Minter) -> Iterator[ox.Triple]:
    for merge in merges:
        local = f"{merge.authorship.rsplit('/', 1)[-1]}--{merge.graph.rsplit('/', 1)[-1]}"
        node = ox.NamedNode(minter.iri("merge", local))
        yield ox.Triple(node, RDF.type, KG.PersonMerge)
        yield ox.Triple(node, KG.mention, ox.NamedNode(merge.authorship))
        yield ox.Triple(node, KG.mergedInto, ox.NamedNode(merge.canonical))
        yield ox.Triple(node, KG.absorbed, ox.NamedNode(merge.absorbed))
        yield ox.Triple(node, KG.inGraph, ox.NamedNode(merge.graph))
        yield ox.Triple(node, KG.evidence, ox.Literal(merge.evidence))
        yield ox.Triple(node, RDFS.comment, ox.Literal(EXPLANATIONS[merge.evidence]))
