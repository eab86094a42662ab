"""The rows the collaboration networks are built from: scans of one pattern each, joined and counted in Python.

Networks differ only in how a paper links to its members: ``dcterms:creator`` for authors,
``schema:sourceOrganization`` for institutions, ``dcterms:subject`` for topics. That link is bound as a parameter (an
RDF term, never pasted into the text), so one query per question serves every network. Each paper's
members, its years and every label are read once (:class:`Teams`); node counts, pairs, the
author–institution affiliations and the papers' titles are joined from them here: at 20,000
papers the store's nested DISTINCT and GROUP BY over every pair took 7× as long, and its GROUP BY
over the affiliations' UNION and DISTINCT / ORDER BY over every title were most of the pages' time.
Rows come as pyoxigraph terms (``select_terms``), not rdflib ones: converting each value was half of the time.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Iterator

import pyoxigraph as ox
from rdflib import URIRef

from ..stores.embedded import KGStore
from ..vocab import DCTERMS, SCHEMA, sparql_prologue

AUTHORS = URIRef(DCTERMS.creator.value)
INSTITUTIONS = URIRef(SCHEMA.sourceOrganization.value)
# Topics found in a paper's text, not the broader ones added for them: otherwise every topic
# would co-occur with its own ancestors.
TOPICS = URIRef(DCTERMS.subject.value)
# Countries: a paper's through its organisations (kg/graphs/countries.py), not one link.
COUNTRIES = URIRef(SCHEMA.addressCountry.value)


def _member(var: str, level: str, link: str = "?link", subject: str = "?paper") -> str:
    """The pattern binding ``?var`` to a member of ``?paper``: as listed, or rolled up to its top parent.

    A parent that papers name only through its units (Zhejiang University through its
    colleges) is then a node of its own, with every paper of its units counted once.
    """
    if level == "listed":
        return f"{subject} {link} ?{var} ."
    return (
        f"{subject} {link} ?{var}_listed . ?{var}_listed org:subOrganizationOf* ?{var} . "
        f"FILTER NOT EXISTS {{ ?{var} org:subOrganizationOf ?{var}_above }}"
    )


# Each paper's members, as listed (one scan of the link; repeats across source graphs are
# dropped in Python), or rolled up to their parents (once each: several units of one parent
# are one member). Oxigraph substitutes a bound variable only where it is in scope, so every
# (sub)query that uses ?link also projects it.
def _members(level: str) -> str:
    if level == "listed":
        return "SELECT ?link ?paper ?member WHERE { ?paper ?link ?member }"
    return (
        f"SELECT DISTINCT ?link ?paper ?member WHERE {{ ?paper a schema:ScholarlyArticle . "
        f"{_member('member', level)} }}"
    )


# Scans of one pattern each, joined in Python: at 100,000 papers 3× faster than the store's
# join, DISTINCT and GROUP BY over every (paper, member) row.
_PAPERS = "SELECT ?paper WHERE { ?paper a schema:ScholarlyArticle }"
_YEARS = "SELECT ?paper ?year WHERE { ?paper bibo:presentedAt/schema:startDate ?year }"  # its edition's
# A paper's label is its English title (no rdfs:label repeats it).
_LABELS = (
    "SELECT ?node ?label WHERE { { ?node skos:prefLabel ?label } UNION { ?node dcterms:title "
    '?label FILTER(lang(?label) = "en") } }'
)


# Each authorship's stated affiliation (structured sources say which author is where), with the
# author where there is one: a paper with any stated affiliation counts by those alone.
_STATED = """SELECT ?paper ?author ?listed WHERE {
  ?paper kg:authorship ?authorship . ?authorship kg:affiliation ?listed .
  OPTIONAL { ?authorship kg:author ?author } }"""


def _rolled_up(level: str) -> str:
    """Each stated affiliation with the top parent it rolls up to (``level="parent"``)."""
    return (
        f"SELECT DISTINCT ?institution_listed ?institution WHERE {{ "
        f"{_member('institution', level, 'kg:affiliation', '?authorship')} }}"
    )


@dataclass(frozen=True)
class NodeRow:
    iri: str
    label: str
    papers: int
    year: float | None = None  # mean year of its papers, where their venues have one


@dataclass(frozen=True)
class PairRow:
    """``papers`` papers with ``team_size`` members list both ``a`` and ``b``."""

    a: str
    b: str
    team_size: int
    papers: int


@dataclass(frozen=True)
class AffiliationRow:
    author: str
    author_label: str
    institution: str
    institution_label: str
    papers: int


def values(store: KGStore, query: str, **bindings: URIRef) -> Iterator[tuple[str | None, ...]]:
    """Rows as plain strings (None where unbound), streamed as pyoxigraph terms from the store."""
    terms = {name: ox.NamedNode(str(iri)) for name, iri in bindings.items()}
    return (
        tuple(None if term is None else term.value for term in row)
        for row in store.select_terms(sparql_prologue() + query, terms)
    )


LabelRow = tuple[str, str, str]  # a node, one of its labels, and the label's language (lower case; "" for none)


def label_rows(store: KGStore) -> list[LabelRow]:
    return [
        (node.value, label.value, (label.language or "").lower())
        for node, label in store.select_terms(sparql_prologue() + _LABELS)
        if isinstance(label, ox.Literal)
    ]


@dataclass(frozen=True)
class Papers:
    """Every paper, and each one's years (once each, in the order read): the same for every network."""

    ids: set[str]
    years: dict[str, list[int]]


def papers_read(store: KGStore) -> Papers:
    years: dict[str, dict[int, None]] = defaultdict(dict)  # ordered sets
    for paper, year in values(store, _YEARS):
        if year.isdigit():  # as xsd:integer(STR(?year)) would read it
            years[paper][int(year)] = None
    return Papers({paper for (paper,) in values(store, _PAPERS)}, {paper: list(y) for paper, y in years.items()})


@dataclass
class Teams:
    """Each paper's members and years, and every label: the one read the nodes' counts and names,
    the pairs and the papers' titles come from (the labels were scanned seven times a page)."""

    members: dict[str, list[str]]
    years: dict[str, list[int]]
    labels: list[LabelRow]
    papers: Papers  # what the teams of the other networks take instead of reading again


def teams(
    store: KGStore,
    link: URIRef,
    level: str = "listed",
    labels: list[LabelRow] | None = None,
    papers: Papers | None = None,
) -> Teams:
    pairs = ((paper, member) for _, paper, member in values(store, _members(level), link=link))
    return team_sets(store, pairs, labels, papers)


def team_sets(
    store: KGStore,
    pairs: Iterable[tuple[str, str]],
    labels: list[LabelRow] | None = None,
    papers: Papers | None = None,
) -> Teams:
    """Each paper's members from ``pairs`` (paper, member), with the papers' years and every label
    (``labels`` and ``papers``: as another network's teams read them, not read again)."""
    papers = papers or papers_read(store)
    members: dict[str, dict[str, None]] = defaultdict(dict)  # ordered sets: a member once per paper
    for paper, member in pairs:
        if paper in papers.ids:
            members[paper][member] = None
    return Teams(
        {paper: list(team) for paper, team in members.items()},
        {paper: found for paper, found in papers.years.items() if paper in members},
        label_rows(store) if labels is None else labels,
        papers,
    )


def _labels(rows: list[LabelRow], nodes: set[str], english_first: bool = True) -> dict[str, str]:
    """Each node's name: its smallest English label where it has one (institutions also carry a
    Chinese one; ``english_first=False``: in any language), else its smallest label. Nodes
    without a label are left out."""
    english: dict[str, str] = {}
    other: dict[str, str] = {}
    for iri, label, language in rows:
        if iri in nodes:
            found = english if english_first and (language == "en" or language.startswith("en-")) else other
            if iri not in found or label < found[iri]:
                found[iri] = label
    return {node: name for node in nodes if (name := english.get(node) or other.get(node))}


def distinct_labels(names: dict[str, str]) -> dict[str, str]:
    """The names with a qualifier, the node's IRI's last segment, added wherever two nodes would
    share one (two people named "Yang Liu", two institutions named "RIKEN"): every node of a network
    and its files (Pajek identifies vertices by label) is told apart by its name."""
    shared = Counter(names.values())
    return {
        node: f"{name} ({re.split(r'[/#]', node.rstrip('/'))[-1]})" if shared[name] > 1 else name
        for node, name in names.items()
    }


def node_rows(store: KGStore, link: URIRef, level: str = "listed", read: Teams | None = None) -> list[NodeRow]:
    """Members of papers (authors or institutions) with their labels, paper counts and mean year."""
    read = read or teams(store, link, level)
    papers: Counter = Counter()
    years: dict[str, list[int]] = defaultdict(list)
    for paper, members in read.members.items():
        papers.update(members)
        for member in members if paper in read.years else ():
            years[member].extend(read.years[paper])
    names = distinct_labels(_labels(read.labels, set(papers)))
    return [
        NodeRow(
            node,
            names.get(node, node),
            papers[node],
            round(sum(years[node]) / len(years[node]), 2) if years.get(node) else None,
        )
        for node in sorted(papers)
    ]


def pair_rows(store: KGStore, link: URIRef, level: str = "listed", read: Teams | None = None) -> Iterator[PairRow]:
    """Every pair of members that share a paper, counted per team size (``a`` < ``b``), in order. Made
    as they are read: millions at 100,000 papers, which a list held beside the counts."""
    read = read or teams(store, link, level)
    counts = Counter(
        (a, b, len(team)) for team in read.members.values() if len(team) > 1 for a, b in combinations(sorted(team), 2)
    )
    return (PairRow(a, b, size, papers) for (a, b, size), papers in sorted(counts.items()))


def paper_titles(read: Teams) -> dict[str, list[str]]:
    """Each member's paper titles (of the papers ``read``), distinct and sorted. Joined here from the
    labels read: the store's DISTINCT and ORDER BY read every title back from disk at each comparison."""
    titled: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for paper, title, language in read.labels:
        if paper in read.members:
            titled[paper].add((title, language))
    titles: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for paper, members in read.members.items():
        for member in members:
            titles[member] |= titled.get(paper, set())
    return {member: [title for title, _ in sorted(found)] for member, found in sorted(titles.items()) if found}


def _stated_affiliations(
    store: KGStore, level: str, authors: Teams
) -> tuple[defaultdict[tuple[str, str], set[str]], set[str]]:
    """The papers of each (author, institution) pair the sources state (kg:affiliation), the
    institution rolled up to ``level``, and the papers that state any affiliation."""
    parents: dict[str, list[str]] = defaultdict(list)
    if level != "listed":
        for listed, institution in values(store, _rolled_up(level)):
            parents[listed].append(institution)
    papers: defaultdict[tuple[str, str], set[str]] = defaultdict(set)
    stated: set[str] = set()
    for paper, author, listed in values(store, _STATED):
        stated.add(paper)
        if author is not None and paper in authors.members:
            for institution in parents[listed] if level != "listed" else (listed,):
                papers[(author, institution)].add(paper)
    return papers, stated


def affiliation_rows(
    store: KGStore, level: str = "listed", authors: Teams | None = None, institutions: Teams | None = None
) -> list[AffiliationRow]:
    """Author–institution pairs with their papers counted: the author's own affiliations where the
    paper's source states any (kg:affiliation), else every institution the paper lists (listings
    do not say which author is where), as listed or rolled up to their parents (``level``).
    Joined here from the papers' teams and one scan of the stated affiliations: the store's
    GROUP BY over the UNION of both was most of the network pages' time."""
    authors = authors or teams(store, AUTHORS, labels=institutions.labels if institutions else None)
    institutions = institutions or teams(store, INSTITUTIONS, level, authors.labels)
    papers, stated = _stated_affiliations(store, level, authors)
    for paper, team in authors.members.items():
        if paper not in stated:
            for institution in institutions.members.get(paper, ()):
                for author in team:
                    papers[(author, institution)].add(paper)
    author_names = distinct_labels(_labels(authors.labels, {author for author, _ in papers}, english_first=False))
    names = distinct_labels(_labels(authors.labels, {institution for _, institution in papers}))
    return [
        AffiliationRow(author, author_names[author], institution, names.get(institution, institution), len(found))
        for (author, institution), found in sorted(papers.items())
        if author in author_names
    ]
