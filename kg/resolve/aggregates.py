"""Precomputed counts for the whole-graph and per-institution library queries.

Written by the store-level resolution step into the derived graph after every change of
sources (so ``kg remove`` and re-ingest are followed), read by ``queries/*.rq``; the raw-data
form of each query stays in ``queries/checks/`` and the tests check that both give the same rows.

An institution's papers are the papers that list it or one of its units
(``org:subOrganizationOf*``, the institution itself included), as the raw queries count them:

- on each institution with papers: ``kg:paperCount``, ``kg:authorCount`` and the track and
  presentation counts (``kg:mainTrackPapers`` …) of ``top-institutions`` and ``track-breakdown``;
- ``kg:InstitutionTopic`` / ``kg:InstitutionPartner`` nodes, linked from their
  institution (``kg:institutionTopic`` …): the topic / partner institution counted (``kg:countedTopic`` …) and the number
  of its papers that have it (``kg:paperCount``); a partner is a listed institution that is not
  one of the institution's own units;
- ``kg:InstitutionPair`` nodes: two institutions listed on the same papers, as listed (no roll-up),
  in code-point order of IRI, with ``kg:sharedPapers``;
- ``kg:withinInstitution``: every listed or affiliated (``kg:affiliation``) institution to itself and
  each institution it is a unit of, so the queries that list papers or authors need no property path;
- ``kg:bylineLength`` on each paper: its distinct authorships (``author-papers``' number of authors);
- ``kg:statesAuthorAffiliations`` on each paper with authorships: whether any of them has a
  ``kg:affiliation`` (a per-author source), so the affiliation questions need no ``NOT EXISTS`` per row;
- ``kg:displayTitle`` on each paper: its English titles, else the start of its abstracts, as
  ``artifacts`` and ``topic-papers`` show it (two whole-graph left joins per query otherwise);
- ``kg:authorNames`` and ``kg:institutionNames`` on each paper that introduces an artifact: its
  authors' display names and its institutions' English names, each list distinct, in code-point
  order and joined by "; " ("" for none), as ``artifacts`` shows them (:func:`name_list_triples`;
  written after the rest, since the display names are the derived graph's own).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import combinations
from sys import intern
from typing import Iterable, Iterator, Mapping

import pyoxigraph as ox

from ..rdf.iris import Minter
from ..rdf.vocab import FALSE, KG, ORG, RDF, TRUE, XSD, sparql_prologue

# Per-institution counts of papers with one of these (predicate, value) facts.
_TRACK_COUNTS = {
    (KG.track.value, KG.MainTrack.value): KG.mainTrackPapers,
    (KG.track.value, KG.PositionTrack.value): KG.positionTrackPapers,
    (KG.track.value, KG.WorkshopTrack.value): KG.workshopTrackPapers,
    (KG.presentationType.value, KG.Oral.value): KG.oralPapers,
    (KG.presentationType.value, KG.Spotlight.value): KG.spotlightPapers,
}
# kind -> (class, institution -> node, node -> what is counted): predicates per kind, so that a query
# about an institution's topics reads its few topic nodes, not its thousands of author nodes too
_TALLIES = {"topic": (KG.InstitutionTopic, KG.institutionTopic, KG.countedTopic),
            "partner": (KG.InstitutionPartner, KG.institutionPartner, KG.countedPartner)}

# Authors come from paper_creators (read once for this and the co-author pairs); the byline
# lengths are counted in the store (100,000 rows at 100,000 papers instead of 470,000).
_PAPER_FACTS = sparql_prologue() + """
    SELECT DISTINCT ?paper ?kind ?value WHERE {
      { ?paper schema:sourceOrganization ?value BIND("listed" AS ?kind) }
      UNION { ?paper dcterms:subject ?value BIND("topic" AS ?kind) }
      UNION { ?paper kg:track ?value BIND(STR(kg:track) AS ?kind) }
      UNION { ?paper kg:presentationType ?value BIND(STR(kg:presentationType) AS ?kind) }
      UNION { ?authorship kg:affiliation ?value . ?paper kg:authorship ?authorship BIND("affiliation" AS ?kind) }
    }"""
# The title expression of queries/checks/artifacts.rq and topic-papers.rq, evaluated by the engine
# itself, so the stored titles are what the raw forms compute (language tags included).
_DISPLAY_TITLES = sparql_prologue() + """
    SELECT DISTINCT ?paper ?title WHERE {
      ?paper a schema:ScholarlyArticle .
      OPTIONAL { ?paper dcterms:title ?english FILTER(lang(?english) = "en") }
      OPTIONAL { ?paper dcterms:abstract ?abstract }
      BIND(COALESCE(?english, CONCAT(SUBSTR(?abstract, 1, 80), "…")) AS ?title)
      FILTER(BOUND(?title))
    }"""
_BYLINE_LENGTHS = sparql_prologue() + "SELECT ?paper (COUNT(DISTINCT ?authorship) AS ?n) WHERE { ?paper kg:authorship ?authorship } GROUP BY ?paper"
_CREATORS = sparql_prologue() + "SELECT ?paper ?person WHERE { ?paper dcterms:creator ?person }"
# The named entities of each paper that introduces an artifact, every name read in one scan and
# joined by hash (looked up per entity, the authors' names took twice as long).
_INTRODUCING = "{ SELECT DISTINCT ?paper WHERE { ?paper kg:introduces ?artifact } }"
_NAMES_LISTED = {
    KG.authorNames: "?paper dcterms:creator ?entity . { SELECT ?entity ?name WHERE { ?entity foaf:name ?name } }",
    KG.institutionNames: """?paper schema:sourceOrganization ?entity .
        { SELECT ?entity ?name WHERE { { SELECT DISTINCT ?entity WHERE { ?listed schema:sourceOrganization ?entity } }
                                       ?entity rdfs:label ?name FILTER(lang(?name) = "en") } }""",
}
NAME_LISTS = frozenset(_NAMES_LISTED)  # the predicates name_list_triples writes


def paper_creators(store) -> dict[str, set[str]]:
    """Each paper's authors (IRIs), from one scan; the union repeats a creator two sources state."""
    creators: dict[str, set[str]] = defaultdict(set)
    for paper, person in store.select_terms(_CREATORS):
        creators[paper.value].add(intern(person.value))  # one string per person, not one per authorship
    return creators
# The sources' units; the derived graph's (units placed by e-mail domain) come from this run's step.
_SOURCE_UNITS = sparql_prologue() + """SELECT DISTINCT ?unit ?parent WHERE {
  GRAPH ?g { ?unit org:subOrganizationOf ?parent } FILTER(?g != RESOLVED) }"""


def _count(n: int) -> ox.Literal:
    return ox.Literal(str(n), datatype=XSD.integer)


def _local(iri: str) -> str:
    return iri.rsplit("/", 1)[-1]


def _within(units: Iterable[tuple[str, str]], institutions: set[str]) -> dict[str, set[str]]:
    """Each of the institutions -> itself and every institution it is a unit of (transitively)."""
    parents: dict[str, set[str]] = defaultdict(set)
    for unit, parent in units:
        parents[unit].add(parent)
    closure: dict[str, set[str]] = {}
    for start in institutions:
        seen, todo = {start}, [start]
        while todo:
            for parent in parents.get(todo.pop(), ()):
                if parent not in seen:
                    seen.add(parent)
                    todo.append(parent)
        closure[start] = seen
    return closure


def aggregate_triples(store, minter: Minter, creators: Mapping[str, set[str]],
                      derived: Iterable[ox.Triple] = ()) -> Iterator[ox.Triple]:
    """The counts described above, in a deterministic order; ``creators`` are :func:`paper_creators`,
    ``derived`` this run's other derived triples, whose ``org:subOrganizationOf`` count as units too."""
    facts: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for paper, kind, value in store.select_terms(_PAPER_FACTS):
        facts[paper.value][intern(kind.value)].add(intern(value.value))
    for paper, authors in creators.items():
        facts[paper]["author"] = authors
    byline = {paper.value: int(count.value) for paper, count in store.select_terms(_BYLINE_LENGTHS)}
    named = {org for paper in facts.values() for org in paper["listed"] | paper["affiliation"]}
    resolved = ox.NamedNode(minter.iri("graph", "resolved"))  # ours, so written into the text
    units = [(u.value, p.value) for u, p in store.select_terms(_SOURCE_UNITS.replace("RESOLVED", str(resolved)))]
    units += [(t.subject.value, t.object.value) for t in derived if t.predicate == ORG.subOrganizationOf]
    within = _within(units, named)

    papers_of: dict[str, set[str]] = defaultdict(set)
    # Each paper is seen once and its institutions, authors… are sets, so counting never counts a paper twice.
    tallies: Counter[tuple[str, str, str]] = Counter()  # (kind, institution, counted) -> papers
    pairs: Counter[tuple[str, str]] = Counter()
    for paper in sorted(facts):
        own = facts[paper]
        for first, second in combinations(sorted(own["listed"]), 2):
            pairs[(first, second)] += 1
        for institution in {i for org in own["listed"] for i in within[org]}:
            papers_of[institution].add(paper)
            for topic in own["topic"]:
                tallies[("topic", institution, topic)] += 1
            for partner in own["listed"]:
                if institution not in within[partner]:
                    tallies[("partner", institution, partner)] += 1

    for org in sorted(within):
        for institution in sorted(within[org]):
            yield ox.Triple(ox.NamedNode(org), KG.withinInstitution, ox.NamedNode(institution))
    for paper in sorted(byline):
        node = ox.NamedNode(paper)
        yield ox.Triple(node, KG.bylineLength, _count(byline[paper]))
        stated = paper in facts and facts[paper]["affiliation"]
        yield ox.Triple(node, KG.statesAuthorAffiliations, TRUE if stated else FALSE)
    yield from sorted((ox.Triple(paper, KG.displayTitle, title) for paper, title in store.select_terms(_DISPLAY_TITLES)),
                      key=lambda triple: (triple.subject.value, str(triple.object)))
    for institution in sorted(papers_of):
        node, papers = ox.NamedNode(institution), papers_of[institution]
        yield ox.Triple(node, KG.paperCount, _count(len(papers)))
        yield ox.Triple(node, KG.authorCount, _count(len({a for p in papers for a in facts[p]["author"]})))
        for (predicate, value), count_predicate in _TRACK_COUNTS.items():
            yield ox.Triple(node, count_predicate, _count(sum(value in facts[p][predicate] for p in papers)))
    for (kind, institution, counted), papers in sorted(tallies.items()):  # papers: a count
        node = ox.NamedNode(minter.iri(f"institution-{kind}", f"{_local(institution)}--{_local(counted)}"))
        cls, link, counted_predicate = _TALLIES[kind]
        yield ox.Triple(node, RDF.type, cls)
        yield ox.Triple(ox.NamedNode(institution), link, node)
        yield ox.Triple(node, counted_predicate, ox.NamedNode(counted))
        yield ox.Triple(node, KG.paperCount, _count(papers))
    for (first, second), papers in sorted(pairs.items()):
        node = ox.NamedNode(minter.iri("institution-pair", f"{_local(first)}--{_local(second)}"))
        yield ox.Triple(node, RDF.type, KG.InstitutionPair)
        yield ox.Triple(node, KG.pairInstitution, ox.NamedNode(first))
        yield ox.Triple(node, KG.pairPartner, ox.NamedNode(second))
        yield ox.Triple(node, KG.sharedPapers, _count(papers))


def name_list_triples(store) -> Iterator[ox.Triple]:
    """The name lists described above, read from the store as it is (after the derived graph with its
    display names is written), papers in code-point order of IRI."""
    prologue = sparql_prologue()
    papers = sorted(row[0].value for row in store.select_terms(f"{prologue} SELECT ?paper WHERE {_INTRODUCING}"))
    for predicate, pattern in _NAMES_LISTED.items():
        names: dict[str, set[str]] = defaultdict(set)
        for paper, name in store.select_terms(f"{prologue} SELECT DISTINCT ?paper ?name WHERE {{ {_INTRODUCING} {pattern} }}"):
            names[paper.value].add(name.value)
        for paper in papers:
            yield ox.Triple(ox.NamedNode(paper), predicate, ox.Literal("; ".join(sorted(names.get(paper, ())))))
