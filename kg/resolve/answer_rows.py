"""The twins of lists of one answer (:mod:`kg.query.precompute`), made from what the counts' pass wrote for them
(:mod:`.answer_lines`) and, once the store is written, the little the pass cannot know: the organisations' types
and English names, the code repositories, the number of papers. Each gives the query's answer with its
parameters' defaults: the same RDF terms, in the query's ``ORDER BY`` order (ties included), and as many. Like
the twins of :mod:`.list_rows`, each is pinned to the digest of the query text it was checked against
(``tests/query/test_twins.py``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Iterator

import pyoxigraph as ox

from ..vocab import KG, sparql_prologue
from .answer_lines import CODE_PAPERS, COUNTRY_PAIRS, INSTITUTION_PAIRS, LISTED_SETS
from .list_lines import TwinFiles, paper_rows
from .list_rows import ALL_PAPERS, Ranked, Row, integer, paper_terms, percent

_TYPES = sparql_prologue() + "SELECT ?organisation ?type WHERE { ?organisation kg:organisationType ?type }"
# The organisations' names as institution-collaborations reads them, one per organisation.
_NAMES = sparql_prologue() + (
    "SELECT ?institution (MIN(?label) AS ?name) WHERE { ?institution a org:Organization ; skos:prefLabel ?label "
    'FILTER (LANGMATCHES(LANG(?label), "en")) } GROUP BY ?institution'
)
_CODE = sparql_prologue() + (
    "SELECT ?paper ?code_repository WHERE { "
    "?code a schema:SoftwareSourceCode ; schema:isBasedOn ?paper ; schema:codeRepository ?code_repository }"
)


def _split_lines(path: Path) -> Iterator[list[str]]:
    with open(path, encoding="utf-8") as lines:
        yield from (line[:-1].split("\t") for line in lines)


def _sector(types: set[ox.NamedNode]) -> str:
    """The sector of a paper whose organisations, and those they are units of, have ``types``."""
    academic, company = KG.EducationOrganisation in types, KG.CompanyOrganisation in types
    if academic and company:
        return "academia and industry"
    if academic or company:
        return "academia only" if academic else "industry only"
    return "other sectors only" if types else "no sector known"


class SectorShare:
    """The twin of ``queries/sector-share.rq``: the papers per sector of the organisations they list (each with
    those it is a unit of; a paper listing none has no sector known), with their percentage of all papers,
    rounded half up; most papers first, then by sector."""

    digest = "5801dbfc943f306d"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("sector", "papers", "percent")

    def answer(self, store, rows: TwinFiles) -> list[Row]:
        """The query's rows, in its order."""
        every = store.scalar(ALL_PAPERS)
        types: dict[str, set[ox.NamedNode]] = defaultdict(set)
        for organisation, kind in store.select_terms(_TYPES):
            types[organisation.value].add(kind)
        sectors: Counter[str] = Counter()
        for papers, listed in _split_lines(rows.answers / LISTED_SETS):
            found = {kind for institution in listed.split(" ") for kind in types.get(institution, ())}
            sectors[_sector(found)] += int(papers)
        unlisted = every - sum(sectors.values())
        if unlisted:
            sectors["no sector known"] += unlisted
        ordered = sorted(sectors.items(), key=lambda row: (-row[1], row[0]))
        return [(ox.Literal(sector), integer(str(papers)), percent(papers, every)) for sector, papers in ordered]


SECTOR_SHARE = SectorShare()


class InstitutionCollaborations:
    """The twin of ``queries/institution-collaborations.rq`` at its default level (``organisation``, one
    shared paper or more): each two top organisations (in code-point order of IRI) with English names that the
    same papers list, themselves or one of their units, with the smallest of each one's names and the number of
    those papers; most papers first, then by name, partner's name, IRI and partner's IRI."""

    digest = "e5421e3697f26849"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("institution", "name", "partner", "partner_name", "shared_papers")

    def answer(self, store, rows: TwinFiles) -> list[Row]:
        """The query's rows, in its order."""
        names = {institution.value: name for institution, name in store.select_terms(_NAMES)}
        pairs = [
            (int(papers), names[institution].value, names[partner].value, institution, partner)
            for institution, partner, papers in _split_lines(rows.answers / INSTITUTION_PAIRS)
            if institution in names and partner in names
        ]
        pairs.sort(key=lambda pair: (-pair[0], *pair[1:]))
        return [
            (ox.NamedNode(institution), names[institution], ox.NamedNode(partner), names[partner], integer(str(n)))
            for n, _, _, institution, partner in pairs
        ]


INSTITUTION_COLLABORATIONS = InstitutionCollaborations()


class CountryCollaborations:
    """The twin of ``queries/country-collaborations.rq`` (one shared paper or more): each two countries (in
    code-point order) of organisations the same papers list, with the number of those papers; most first, then
    by country and partner."""

    digest = "450bfe31261643d0"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("country", "partner", "shared_papers")

    def answer(self, store, rows: TwinFiles) -> list[Row]:
        """The query's rows, in its order."""
        pairs = [(-int(n), country, partner) for country, partner, n in _split_lines(rows.answers / COUNTRY_PAIRS)]
        pairs.sort()
        return [(ox.Literal(country), ox.Literal(partner), integer(str(-n))) for n, country, partner in pairs]


COUNTRY_COLLABORATIONS = CountryCollaborations()


def _code_key(repository: ox.NamedNode | ox.Literal) -> tuple:
    """Where ``ORDER BY`` puts a repository: IRIs before literals, each by its string."""
    return (isinstance(repository, ox.Literal), repository.value)


class PapersWithCode:
    """The twin of ``queries/papers-with-code.rq``: each paper some code is based on with each of the code's
    repositories and of its English titles, conference names and tracks (unbound where none); by title (a paper
    without one first), then IRI, repository, venue and track."""

    digest = "53e32e6864d2536f"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("paper", "title", "code_repository", "venue", "track")

    def answer(self, store, rows: TwinFiles) -> Ranked:
        """The query's rows, in its order."""
        facts = {paper: fields for paper, *fields in _split_lines(rows.answers / CODE_PAPERS)}
        made: dict[tuple, tuple] = {}
        for paper, repository in store.select_terms(_CODE):
            for key, row in paper_rows(paper.value, *facts.get(paper.value, ("", "", ""))):
                made[(*key[:2], _code_key(repository), *key[2:])] = (row, repository)
        return Ranked([made[key] for key in sorted(made)], _code_row)  # a list keeps its first rows: terms made then


def _code_row(made: tuple) -> Row:
    row, repository = made
    paper, title, venue, track = paper_terms(row)
    return paper, title, repository, venue, track


PAPERS_WITH_CODE = PapersWithCode()
