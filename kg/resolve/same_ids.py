"""One person whom sources name by different identifiers: nodes that share an identifier are one.

A source names a person by the first identifier it gives (:func:`kg.rdf.mapping.person_ids`): a
JSON with OpenReview profiles names ``~Ada_Lovelace1--openreview`` and links her ORCID, a source
with ORCIDs alone names ``0000-…--orcid``. Nodes linked to one identifier page (``schema:sameAs``)
are one person, merged into the node named by the strongest scheme, unless the group they make
holds two identifiers of one scheme (two OpenReview profiles, two dblp pids: a source's per-author
list out of step with its byline, or two people), which keeps all of them apart (``kg quality``
lists it). The absorbed node is renamed in its own source graph, where the canonical node does not
occur (so the rename is undone exactly), and recorded as a ``kg:SamePersonByIdentifier``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterator

import pyoxigraph as ox

from ..index.match_keys import text_rows
from ..ingest.identifiers import PERSON_PAGES, person_link_scheme
from ..rdf.iris import Minter
from ..vocab import KG, RDF, RDFS, sparql_prologue

# The links first, then which link a person: read the other way, every person of every graph was looked up
# for a link (1.8 s CPU at 101,000 papers, none with one).
LINKS = (
    sparql_prologue()
    + "SELECT ?g ?person ?link WHERE { GRAPH ?g { ?person schema:sameAs ?link } "
    + "FILTER EXISTS { GRAPH ?g { ?person a foaf:Person } } }"
)
_STRENGTH = {kind: rank for rank, kind in enumerate([*PERSON_PAGES, "email"])}


@dataclass(frozen=True)
class SameIdMerge:
    graph: str
    absorbed: str
    canonical: str
    evidence: str  # "same-orcid", …
    link: str


def _strength(person: str) -> tuple[int, str]:
    """Persons named by a stronger scheme first (``author/{id}--{scheme}``), then by IRI."""
    kind = person.rsplit("--", 1)[-1] if "--" in person.rsplit("/", 1)[-1] else ""
    return _STRENGTH.get(kind, len(_STRENGTH)), person


def find_same_id_merges(rows: list[tuple[str, str, str]]) -> list[SameIdMerge]:
    """Merges of (graph, person, link) rows: every person of a group that shares identifier links
    into the group's strongest one, in each graph where that one does not occur."""
    graphs: dict[str, set[str]] = defaultdict(set)
    links: dict[str, set[str]] = defaultdict(set)
    for graph, person, link in rows:
        if person_link_scheme(link) is not None:
            graphs[person].add(graph)
            links[person].add(link)
    merges = [merge for members in _groups_sharing_links(links) for merge in _group_merges(members, graphs, links)]
    return sorted(merges, key=lambda merge: (merge.graph, merge.absorbed))


def _groups_sharing_links(links: dict[str, set[str]]) -> list[list[str]]:
    """The persons joined by the links they share, each group in IRI order (union-find)."""
    parent: dict[str, str] = {}

    def root(person: str) -> str:
        while parent.setdefault(person, person) != person:
            parent[person] = parent[parent[person]]
            person = parent[person]
        return person

    holders: dict[str, str] = {}
    for person in sorted(links):
        for link in sorted(links[person]):
            if link in holders:
                parent[root(person)] = root(holders[link])
            holders.setdefault(link, person)
    groups: dict[str, list[str]] = defaultdict(list)
    for person in sorted(links):
        groups[root(person)].append(person)
    return list(groups.values())


def _group_merges(members: list[str], graphs: dict[str, set[str]], links: dict[str, set[str]]) -> Iterator[SameIdMerge]:
    """The merges of one group into its strongest person: none where the group is one person or
    holds two identifiers of one scheme (two people, or a wrong link)."""
    schemes: dict[str, set[str]] = defaultdict(set)
    for link in set().union(*(links[person] for person in members)):
        schemes[person_link_scheme(link)].add(link)
    if len(members) < 2 or any(len(ids) > 1 for ids in schemes.values()):
        return
    canonical = min(members, key=_strength)
    for person in members:
        shared = sorted(links[person] & set().union(*(links[other] for other in members if other != person)))
        for graph in sorted(graphs[person] - graphs[canonical]) if person != canonical else ():
            yield SameIdMerge(graph, person, canonical, f"same-{person_link_scheme(shared[0])}", shared[0])


def read_links(store) -> list[tuple[str, str, str]]:
    return sorted(text_rows(store, LINKS))


def same_id_triples(merges: list[SameIdMerge], minter: Minter) -> Iterator[ox.Triple]:
    for merge in merges:
        node = ox.NamedNode(
            minter.iri("merge", f"{merge.absorbed.rsplit('/', 1)[-1]}--{merge.graph.rsplit('/', 1)[-1]}")
        )
        yield ox.Triple(node, RDF.type, KG.SamePersonByIdentifier)
        yield ox.Triple(node, KG.mergedInto, ox.NamedNode(merge.canonical))
        yield ox.Triple(node, KG.absorbed, ox.NamedNode(merge.absorbed))
        yield ox.Triple(node, KG.inGraph, ox.NamedNode(merge.graph))
        yield ox.Triple(node, KG.evidence, ox.Literal(merge.evidence))
        yield ox.Triple(node, RDFS.comment, ox.Literal(f"both are {merge.link}"))
