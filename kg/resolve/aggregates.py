"""Precomputed counts for the whole-graph and per-institution library queries.

Written by the store-level resolution step into the derived graph after every change of
sources (so ``kg remove`` and re-ingest are followed), read by ``queries/*.rq``; the raw-data
form of each query stays in ``queries/checks/`` and the tests check that both give the same rows.

An institution's papers are the papers that list it or one of its units
(``org:subOrganizationOf*``, the institution itself included), as the raw queries count them:

- on each institution with papers: ``kg:paperCount``, ``kg:authorCount`` and the track and
  presentation counts (``kg:mainTrackPapers`` …) of ``top-institutions`` and ``track-breakdown``;
- ``kg:InstitutionTopic`` / ``kg:InstitutionPartner`` nodes, linked from their
  institution (``kg:institutionTopic`` …): the topic / partner institution counted (``kg:countedTopic`` …) and the
  number of its papers that have it (``kg:paperCount``); a partner is a listed institution that is not
  one of the institution's own units;
- ``kg:CoauthorPair`` nodes: two people (in code-point order of IRI) with at least :data:`PAIR_FLOOR`
  papers together, and ``kg:sharedPapers``;
- ``kg:InstitutionPair`` nodes: two institutions listed on the same papers, as listed (no roll-up),
  in code-point order of IRI, with ``kg:sharedPapers``;
- ``kg:withinInstitution``: every listed or affiliated (``kg:affiliation``) institution to itself and
  each institution it is a unit of, so the queries that list papers or authors need no property path;
- ``kg:bylineLength`` on each paper: its distinct authorships (``author-papers``' number of authors);
- ``kg:statesAuthorAffiliations`` on each paper with authorships: whether any of them has a
  ``kg:affiliation`` (a per-author source), so the affiliation questions need no ``NOT EXISTS`` per row;
- ``kg:displayTitle`` on each paper: its English titles, else the start of its abstracts followed by
  "…", as ``artifacts`` and ``topic-papers`` show it (two whole-graph left joins per query otherwise),
  made from the paper's facts as the counts are (:func:`display_titles`);
- the name lists of the papers that introduce an artifact (:mod:`.name_lists`): the same pass writes
  what they are made of (:func:`introducing_lines`), joined with the display names once those are chosen.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter, defaultdict
from functools import partial
from itertools import combinations, groupby
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..rdf.iris import Minter
from ..rdf.side_rows import (
    AFFILIATED,
    AFFILIATION,
    ARTIFACT_CLASS,
    ARTIFACT_NAME,
    PAPER_FACT_KINDS,
    TEXT_KINDS,
    YEAR,
    artifact_name,
    fact_line,
    text_value,
)
from ..stores.ordering import grouped_lines, sorted_lines
from ..vocab import BIBO, DCTERMS, FALSE, KG, ORG, RDF, SCHEMA, SKOS, TRUE, XSD, sparql_prologue
from .artifact_rows import TwinLines
from .list_lines import ListLines, TwinFiles
from .sorted_facts import grouped_facts
from .staged_rows import StagedRows, select

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
_TALLIES = {
    "topic": (KG.InstitutionTopic, KG.institutionTopic, KG.countedTopic),
    "partner": (KG.InstitutionPartner, KG.institutionPartner, KG.countedPartner),
}

# One stream of every paper's facts, grouped by paper on disk (kg/stores/ordering.py; a kept source's
# lines sorted once, kg/resolve/sorted_facts.py), so memory does not grow with the corpus: at 100,000
# papers the facts, creators and pair counter held in dicts of sets were 335 MB, and grew with every
# paper. No DISTINCT: the grouping drops repeats (what two sources state twice) without the engine's set
# of every row. The sources a run staged give the same lines from their side rows (kg/rdf/side_rows.py)
# and are not read here. One query per kind, not their UNION: Virtuoso 7.2 crashes on that UNION over
# named graphs when the request names its dataset (as kg's remote store does), and each kind is one scan
# either way.
_PAPER_FACTS = {
    **{kind: f"?paper {predicate} ?value" for predicate, kind in PAPER_FACT_KINDS.items()},
    AFFILIATION: f"?authorship {KG.affiliation} ?value . ?paper {KG.authorship} ?authorship",
    # the affiliations first: the engine joins in the order written, and most authorships state none
    AFFILIATED: f"?a {KG.affiliation} ?o ; {KG.author} ?p . ?paper {KG.authorship} ?a "
    'BIND(CONCAT(STR(?a), " ", STR(?p), " ", STR(?o)) AS ?value)',
    YEAR: f"?paper {BIBO.presentedAt} ?event . ?event a {BIBO.Conference} ; {SCHEMA.startDate} ?value",
    # what the title of queries/checks/artifacts.rq is made of: English titles, abstracts (their start kept)
    TEXT_KINDS[
        DCTERMS.title
    ]: f'?paper a {SCHEMA.ScholarlyArticle} ; {DCTERMS.title} ?value FILTER(lang(?value) = "en")',
    TEXT_KINDS[DCTERMS.abstract]: f"?paper a {SCHEMA.ScholarlyArticle} ; {DCTERMS.abstract} ?value",
    # an introduced artifact's names and classes, the artifact as the subject (kg/resolve/artifact_rows.py)
    ARTIFACT_NAME: f"?introducing {KG.introduces} ?paper . ?paper {SKOS.prefLabel} ?value",
    ARTIFACT_CLASS: f"?introducing {KG.introduces} ?paper . ?paper a ?value",
}
_TEXTS = frozenset(TEXT_KINDS.values())
_WRITTEN = _TEXTS | {ARTIFACT_NAME}  # the kinds whose values the side rows write otherwise than as they are
# The sources' units; the derived graph's (units placed by e-mail domain) come from this run's step.
_SOURCE_UNITS = (
    sparql_prologue()
    + """SELECT DISTINCT ?unit ?parent WHERE {
  GRAPH ?g { ?unit org:subOrganizationOf ?parent } FILTER(?g != RESOLVED) }"""
)
PAIR_FLOOR = 2  # a pair with one shared paper is just that paper's author list


def _count(n: int) -> ox.Literal:
    return ox.Literal(str(n), datatype=XSD.integer)


def _local(iri: str) -> str:
    return iri.rsplit("/", 1)[-1]


class _Within:
    """An institution -> itself and every institution it is a unit of (transitively), worked
    out once per institution met."""

    def __init__(self, units: Iterable[tuple[str, str]]):
        self.parents: dict[str, set[str]] = defaultdict(set)
        for unit, parent in units:
            self.parents[unit].add(parent)
        self.closure: dict[str, frozenset[str]] = {}

    def __call__(self, start: str) -> frozenset[str]:
        if start not in self.closure:
            seen, todo = {start}, [start]
            while todo:
                for parent in self.parents.get(todo.pop(), ()):
                    if parent not in seen:
                        seen.add(parent)
                        todo.append(parent)
            self.closure[start] = frozenset(seen)
        return self.closure[start]


def paper_lines(store, staged: StagedRows) -> Iterator[str]:
    """Every paper's facts: the staged sources' side rows, the other graphs' read from the store."""
    yield from staged.facts()
    yield from store_facts(store, staged)


def store_facts(store, staged: StagedRows) -> Iterator[str]:
    """The facts of the graphs that are not staged, read from the store (every graph's when none is)."""
    graphs = staged.other_graphs(store)
    if graphs != []:
        for kind, pattern in _PAPER_FACTS.items():
            rows = store.select_terms(select("?paper ?value", pattern, graphs))
            if kind in _WRITTEN:
                yield from (fact_line(paper.value, kind, _fact_value(kind, value)) for paper, value in rows)
            else:  # the value as it is (fact_line's fields, without a call a row)
                yield from (f"{paper.value}\t{kind}\t{value.value}\n" for paper, value in rows)


def _fact_value(kind: str, value: ox.Literal) -> str:
    """A text's or an artifact name's fact value as the side rows write it (kg/rdf/side_rows.py)."""
    return text_value(kind, value.value) if kind in _TEXTS else artifact_name(value)


def display_titles(paper: ox.NamedNode, own: dict[str, set[str]]) -> Iterator[ox.Triple]:
    """The paper's display titles: its English titles, else each abstract's start and "…" (the expression
    of queries/checks/artifacts.rq, ``COALESCE(?english, CONCAT(SUBSTR(?abstract, 1, 80), "…"))``, whose
    CONCAT of a tagged and a plain literal is plain)."""
    if own["title"]:
        for title in own["title"]:
            yield ox.Triple(paper, KG.displayTitle, ox.Literal(json.loads(title), language="en"))
    else:
        for abstract in own["abstract"]:
            yield ox.Triple(paper, KG.displayTitle, ox.Literal(json.loads(abstract) + "…"))


def introducing_lines(paper: str, own: dict[str, set[str]]) -> Iterator[str]:
    """What a paper's name lists are made of, if it introduces an artifact: ``paper<TAB>`` then a
    ``paper<TAB>kind<TAB>entity`` line for each of its creators and listed institutions (:mod:`.name_lists`)."""
    if own["introduces"]:
        yield f"{paper}\t\n"
        for kind in ("author", "listed"):
            yield from (f"{paper}\t{kind}\t{entity}\n" for entity in sorted(own[kind]))


def _counted_lines(lines: Iterable[str], scratch: Path | None) -> Iterator[tuple[str, int]]:
    """Each distinct line (without its newline) and how often it came, in code-point order."""
    for line, repeats in groupby(sorted_lines(lines, scratch, unique=False)):
        yield line[:-1], sum(1 for _ in repeats)


def spool(folder: str, name: str):
    return open(Path(folder) / name, "w+", encoding="utf-8")


def rewound(file) -> Iterator[str]:
    file.flush()
    file.seek(0)
    return iter(file)


class _Tallies:
    """The per-institution counts of the papers seen so far (each paper once, in IRI order)."""

    def __init__(self, within: _Within):
        self.within = within
        self.named: set[str] = set()  # institutions listed or affiliated
        self.papers: Counter[str] = Counter()  # institution -> papers
        self.tracks: Counter[tuple[str, ox.NamedNode]] = Counter()  # (institution, count predicate) -> papers
        self.tallies: Counter[tuple[str, str, str]] = Counter()  # (kind, institution, counted) -> papers
        self.pairs: Counter[tuple[str, str]] = Counter()  # institutions listed together -> papers

    def add(self, own: dict[str, set[str]], authors: list[str], members) -> None:
        """One paper's facts (kind -> values); each (institution, author) goes to ``members``."""
        listed = sorted(own["listed"])
        self.named.update(listed, own["affiliation"])
        self.pairs.update(combinations(listed, 2))
        institutions = {i for org in listed for i in self.within(org)}
        # one write a paper: a spool is opened to be read back, and each write to such a file resets its decoder
        members.write("".join(f"{institution}\t{author}\n" for institution in institutions for author in authors))
        # a count the paper is not in is 0 all the same, read from the Counter
        counted = [
            count_predicate for (predicate, value), count_predicate in _TRACK_COUNTS.items() if value in own[predicate]
        ]
        for institution in institutions:
            self.papers[institution] += 1
            for count_predicate in counted:
                self.tracks[(institution, count_predicate)] += 1
            for topic in own["topic"]:
                self.tallies[("topic", institution, topic)] += 1
            for partner in listed:
                if institution not in self.within(partner):
                    self.tallies[("partner", institution, partner)] += 1

    def triples(self, minter: Minter, authors_of: Counter[str]) -> Iterator[ox.Triple]:
        """Within-institution links, then the counts, the tallies and the pairs."""
        for org in sorted(self.named):
            for institution in sorted(self.within(org)):
                yield ox.Triple(ox.NamedNode(org), KG.withinInstitution, ox.NamedNode(institution))
        for institution in sorted(self.papers):
            node = ox.NamedNode(institution)
            yield ox.Triple(node, KG.paperCount, _count(self.papers[institution]))
            yield ox.Triple(node, KG.authorCount, _count(authors_of[institution]))
            for count_predicate in _TRACK_COUNTS.values():
                yield ox.Triple(node, count_predicate, _count(self.tracks[(institution, count_predicate)]))
        for (kind, institution, counted), count in sorted(self.tallies.items()):
            node = ox.NamedNode(minter.iri(f"institution-{kind}", f"{_local(institution)}--{_local(counted)}"))
            cls, link, counted_predicate = _TALLIES[kind]
            yield ox.Triple(node, RDF.type, cls)
            yield ox.Triple(ox.NamedNode(institution), link, node)
            yield ox.Triple(node, counted_predicate, ox.NamedNode(counted))
            yield ox.Triple(node, KG.paperCount, _count(count))
        for (first, second), count in sorted(self.pairs.items()):
            node = ox.NamedNode(minter.iri("institution-pair", f"{_local(first)}--{_local(second)}"))
            yield ox.Triple(node, RDF.type, KG.InstitutionPair)
            yield ox.Triple(node, KG.pairInstitution, ox.NamedNode(first))
            yield ox.Triple(node, KG.pairPartner, ox.NamedNode(second))
            yield ox.Triple(node, KG.sharedPapers, _count(count))


def _coauthor_pair_triples(author_pairs, minter: Minter, scratch: Path | None) -> Iterator[ox.Triple]:
    """The pairs of :data:`PAIR_FLOOR` or more papers among the spooled pairs (one line a paper)."""
    for pair, count in _counted_lines(rewound(author_pairs), scratch):
        if count >= PAIR_FLOOR:
            first, second = pair.split("\t")
            node = ox.NamedNode(minter.iri("coauthor-pair", f"{_local(first)}--{_local(second)}"))
            yield ox.Triple(node, RDF.type, KG.CoauthorPair)
            yield ox.Triple(node, KG.pairAuthor, ox.NamedNode(first))
            yield ox.Triple(node, KG.pairCoauthor, ox.NamedNode(second))
            yield ox.Triple(node, KG.sharedPapers, _count(count))


def aggregate_triples(
    store,
    minter: Minter,
    derived: Iterable[ox.Triple] = (),
    scratch: Path | None = None,
    staged: StagedRows | None = None,
    introducing: Path | None = None,
    lists: TwinFiles | None = None,
) -> Iterator[ox.Triple]:
    """The co-author pairs of :data:`PAIR_FLOOR` or more papers (``kg:CoauthorPair``), the
    counts and the display titles described above, from one pass over the papers in IRI order; ``derived``
    is this run's other derived triples, whose ``org:subOrganizationOf`` count as units too. What grows with
    the corpus (author pairs, institution × author) is spooled beside the store and counted sorted;
    ``staged``: the side rows of the sources this run staged, read instead of their graphs; ``introducing``:
    the file the same pass writes the name lists' :func:`introducing_lines` to, in IRI order of paper;
    ``lists``: the files it writes what the precomputed lists' twins make their rows of to (:mod:`.list_lines`)."""
    resolved = ox.NamedNode(minter.iri("graph", "resolved"))  # ours, so written into the text
    units = [(u.value, p.value) for u, p in store.select_terms(_SOURCE_UNITS.replace("RESOLVED", str(resolved)))]
    units += [(t.subject.value, t.object.value) for t in derived if t.predicate == ORG.subOrganizationOf]
    tallies = _Tallies(_Within(units))
    with (
        tempfile.TemporaryDirectory(prefix="kg-aggregates-", dir=scratch) as folder,
        spool(folder, "author-pairs") as author_pairs,
        spool(folder, "institution-authors") as members,
        open(introducing or os.devnull, "w", encoding="utf-8") as named,
        TwinLines(lists) as shown,
    ):
        listed = ListLines(store, lists, tallies.within, partial(spool, folder))
        staged = staged or StagedRows()
        for paper, rows in grouped_facts(staged, store_facts(store, staged), scratch):
            own: dict[str, set[str]] = defaultdict(set)
            for row in rows:
                kind, _, value = row.partition("\t")
                own[kind].add(value)
            node = ox.NamedNode(paper)
            titles = list(display_titles(node, own))
            yield from titles
            shown.add(paper, own, titles)
            named.write("".join(introducing_lines(paper, own)))
            authors = sorted(own["author"])
            author_pairs.write("".join(f"{first}\t{second}\n" for first, second in combinations(authors, 2)))
            if own["authorship"]:
                yield ox.Triple(node, KG.bylineLength, _count(len(own["authorship"])))
                yield ox.Triple(node, KG.statesAuthorAffiliations, TRUE if own["affiliation"] else FALSE)
            tallies.add(own, authors, members)
            listed.add(paper, own, authors)
        yield from _coauthor_pair_triples(author_pairs, minter, scratch)
        authors_of: Counter[str] = Counter()
        for institution, lines in grouped_lines(rewound(members), scratch, unique=False):
            authors_of[institution] = len(set(lines))  # one line a paper and author
        listed.close(rewound, scratch)
    yield from tallies.triples(minter, authors_of)
