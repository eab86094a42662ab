"""The rows of precomputed lists (:mod:`kg.query.precompute`), made from what the resolution step has in hand.

A list of a query about an entity is the query's answer for each entity with enough papers. Run once per
entity, the query reads the whole graph's names each time; the resolution step's one pass over every paper's
facts (:mod:`.aggregates`) has already counted what the answer is made of (:mod:`.list_lines`), so a *twin*
of the query makes every entity's rows at once (:meth:`InstitutionAuthors.lists`), or the one answer of a
query about none (:meth:`CountryPapers.answer`), from those rows and the display names the step chose
(:func:`~.name_lists.person_name_line`): the same RDF terms, in the query's ``ORDER BY`` order (ties
included: plain strings compare by code point in SPARQL as in Python), and as many.

A twin is pinned to the :func:`kg.query.rankings.digest` of the query text it was checked against
(``tests/query/test_twins.py`` compares its rows with the query's own); the query library serves a twin's
rows only while the query's digest is still that one, and runs the query otherwise.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from itertools import groupby
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pyoxigraph as ox

from ..rdf.terms import integer as text_integer
from ..rdf.terms import literal, minted
from ..rdf.vocab_texts import XSD as XSD_TEXTS
from ..stores.ordering import grouped_lines
from ..vocab import XSD, sparql_prologue
from .list_lines import (
    TwinFiles,
    authorship_lines,
    institution_author_lines,
    institution_paper_lines,
    paper_rows,
)
from .list_store import smallest_names

Row = tuple[ox.NamedNode | ox.Literal | None, ...]
# the lines of a list's rows for these entities, in code-point order (kg/resolve/list_lines.py)
Expand = Callable[[TwinFiles, set[str]], Iterator[str]]


class Ranked(Sequence):
    """A twin's rows of one answer, in the query's order, made into RDF terms (``terms``) only when read: a list
    keeps its first rows (:data:`kg.query.precompute.KEPT_ROWS`) and only counts the others."""

    def __init__(self, ordered: list[tuple], terms: Callable[[tuple], Row]):
        self.ordered, self.terms = ordered, terms

    def __len__(self) -> int:
        return len(self.ordered)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.terms(row) for row in self.ordered[index]]
        return self.terms(self.ordered[index])

    def __eq__(self, other) -> bool:
        """The same rows as a list of them (or another Ranked) in the same order."""
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # as a list's


def integer(n: str) -> ox.Literal:
    return ox.Literal(n, datatype=XSD.integer)


def _year(year: str) -> ox.Literal | None:
    return ox.Literal(year, datatype=XSD.gYear) if year else None


def _named_groups(expand: Expand, entities: list[str], rows: TwinFiles) -> Iterator[tuple[str, list[tuple]]]:
    """(entity, [(person, its smallest display name, [the line's other fields]) for each of its lines]) for each of
    ``entities`` (in code-point order), from the ``entity<TAB>person<TAB>fields…`` lines ``expand`` makes for them
    in code-point order (a person without a display name is no row, as in the queries' join with
    ``skos:prefLabel``). The lines wait in a file and the names of the people they name are held once; the lines
    are read back an entity at a time."""
    people: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="kg-list-rows-", dir=rows.scratch) as folder:
        with open(Path(folder) / "rows", "w+", encoding="utf-8") as lines:
            for line in expand(rows, set(entities)):
                people.add(line.split("\t", 2)[1])
                lines.write(line)
            names = smallest_names(rows.person_names, people)
            lines.seek(0)
            groups = (
                (entity, list(group)) for entity, group in groupby(lines, key=lambda line: line.partition("\t")[0])
            )
            for entity, found in _each_group(groups, entities):
                named = []
                for line in found:
                    _, person, *fields = line[:-1].split("\t")
                    if person in names:
                        named.append((person, names[person], fields))
                yield entity, named


def _each_group(groups: Iterator[tuple[str, list[str]]], entities: list[str]) -> Iterator[tuple[str, list[str]]]:
    """(entity, its group's lines, none where it has no group) for each of ``entities`` (in code-point order),
    from ``groups`` in the same order."""
    group = next(groups, None)
    for entity in entities:
        while group is not None and group[0] < entity:
            group = next(groups, None)
        yield entity, group[1] if group is not None and group[0] == entity else []


class InstitutionAuthors:
    """The twin of ``queries/institution-authors.rq``: per institution, each author of a paper that lists it
    or one of its units (``kg:withinInstitution``) and has a display name, with the smallest of its names and
    its number of such papers; most papers first, then by name, then by IRI."""

    digest = "7d72e9446f6337b9"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("author", "name", "papers")

    def lists(self, store, rows: TwinFiles, entities: Iterable[str]) -> Iterator[tuple[str, Ranked]]:
        """(entity, its rows in the query's order) for each of ``entities``, in code-point order of IRI."""
        if rows.kept is not None:
            yield from rows.kept.lists("authors", rows, entities, _kept_author_texts)
            return
        for entity, named in _named_groups(institution_author_lines, sorted(set(entities)), rows):
            ordered = sorted(named, key=lambda row: (-int(row[2][0]), row[1], row[0]))
            yield entity, Ranked(ordered, _author_terms)


class InstitutionAuthorsPerAuthor:
    """The twin of ``queries/institution-authors-per-author.rq``: per institution, each author whose own
    affiliation on a paper is within it (known "per author") or, on a paper whose authorships state none, each
    creator of a paper that lists it (known "per paper"), with a display name: the smallest of its names, the
    papers and the first and last year of their conferences (none where no paper has one); most papers first,
    then by name, IRI and known."""

    digest = "fad118573f6558c0"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("author", "name", "known", "papers", "first_year", "last_year")

    def lists(self, store, rows: TwinFiles, entities: Iterable[str]) -> Iterator[tuple[str, Ranked]]:
        """(entity, its rows in the query's order) for each of ``entities``, in code-point order of IRI."""
        if rows.kept is not None:
            yield from rows.kept.lists("authorships", rows, entities, _kept_authorship_texts)
            return
        for entity, named in _named_groups(authorship_lines, sorted(set(entities)), rows):
            ordered = sorted(named, key=lambda row: (-int(row[2][1]), row[1], row[0], row[2][0]))
            yield entity, Ranked(ordered, _authorship_terms)


def _author_terms(row: tuple) -> Row:
    author, name, (papers,) = row
    return ox.NamedNode(author), ox.Literal(name), integer(papers)


def _authorship_terms(row: tuple) -> Row:
    author, name, (known, papers, first, last) = row
    return ox.NamedNode(author), ox.Literal(name), ox.Literal(known), integer(papers), _year(first), _year(last)


def _kept_author_texts(row: tuple) -> tuple[str, ...]:
    """A row of the kept ``institution-authors`` (:mod:`.list_store`): person, name, papers."""
    author, name, papers = row
    return minted(author), literal(name), text_integer(papers)


def _kept_authorship_texts(row: tuple) -> tuple[str | None, ...]:
    """A row of the kept ``institution-authors-per-author``: person, name, known, papers, first and last year."""
    author, name, known, papers, first, last = row
    years = (literal(year, datatype=XSD_TEXTS.gYear) if year else None for year in (first, last))
    return minted(author), literal(name), literal(known), text_integer(papers), *years


INSTITUTION_AUTHORS = InstitutionAuthors()
INSTITUTION_AUTHORS_PER_AUTHOR = InstitutionAuthorsPerAuthor()


def _venue(venue: tuple[str, str]) -> ox.Literal:
    value, language = venue
    return ox.Literal(value, language=language) if language else ox.Literal(value)


class InstitutionPapers:
    """The twin of ``queries/institution-papers.rq``: per institution, each paper that lists it or one of its
    units with each of its English titles, conference names and tracks (unbound where none); by title (a paper
    without one first), then IRI, venue and track."""

    digest = "6bb4811f6dcf1cb6"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("paper", "title", "venue", "track")

    def lists(self, store, rows: TwinFiles, entities: Iterable[str]) -> Iterator[tuple[str, Ranked]]:
        """(entity, its rows in the query's order) for each of ``entities``, in code-point order of IRI."""
        if rows.kept is not None:
            yield from rows.kept.lists("paper_rows", rows, entities, _kept_paper_texts)
            return
        wanted = sorted(set(entities))
        lines = institution_paper_lines(rows, set(wanted))
        for entity, papers in _each_group(grouped_lines(lines, rows.scratch), wanted):
            made = {key: row for line in papers for key, row in paper_rows(*line.split("\t"))}
            yield entity, Ranked([made[key] for key in sorted(made)], paper_terms)


def paper_terms(row: tuple) -> Row:
    paper, title, venue, track = row
    return (
        ox.NamedNode(paper),
        None if title is None else ox.Literal(title, language="en"),
        None if venue is None else _venue(venue),
        None if track is None else ox.Literal(track),
    )


def _kept_paper_texts(row: tuple) -> tuple[str | None, ...]:
    """A row of the kept ``institution-papers``: paper, title, venue's name and language, track."""
    paper, title, venue, language, track = row
    return (
        minted(paper),
        None if title is None else literal(title, "en"),
        None if venue is None else literal(venue, language),
        None if track is None else literal(track),
    )


INSTITUTION_PAPERS = InstitutionPapers()

# The query's ?all: every paper of the graph, as the query counts them.
ALL_PAPERS = sparql_prologue() + "SELECT (COUNT(DISTINCT ?any) AS ?all) WHERE { ?any a schema:ScholarlyArticle }"


class CountryPapers:
    """The twin of ``queries/country-papers.rq`` (one answer): per country, its papers and authors
    (:mod:`.list_lines`) and its papers' percentage of all the graph's papers, rounded half up; most papers
    first, then most authors, then by country."""

    digest = "d590e23a580f2e79"  # of the query text the rows were checked against (tests/query/test_twins.py)
    variables = ("country", "papers", "authors", "percent")

    def answer(self, store, rows: TwinFiles) -> list[Row]:
        """The query's rows, in its order."""
        every = store.scalar(ALL_PAPERS)
        with open(rows.country_papers, encoding="utf-8") as lines:
            counted = [(country, int(papers), int(authors)) for country, papers, authors in map(_fields, lines)]
        counted.sort(key=lambda row: (-row[1], -row[2], row[0]))
        return [
            (ox.Literal(country), integer(str(papers)), integer(str(authors)), percent(papers, every))
            for country, papers, authors in counted
        ]


def _fields(line: str) -> list[str]:
    return line[:-1].split("\t")


def percent(papers: int, every: int) -> ox.Literal | None:
    """``xsd:integer(FLOOR(100.0 * ?papers / ?all + 0.5))``, exactly; unbound where there is no paper."""
    return integer(str((200 * papers + every) // (2 * every))) if every else None


COUNTRY_PAPERS = CountryPapers()
