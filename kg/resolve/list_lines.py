"""What the counts' pass over every paper's facts (:func:`~.aggregates.aggregate_triples`) writes for the twins of
the precomputed lists (:mod:`.list_rows`): a few lines a paper, into files that outlive the pass.

- ``institution_authors``: ``institution<TAB>author<TAB>papers``, in code-point order;
- ``institution_authorships``: ``institution<TAB>author<TAB>known<TAB>papers<TAB>first year<TAB>last year``, in
  code-point order (:func:`span_lines`);
- ``institution_papers``: ``institution<TAB>paper<TAB>[titles, venues, tracks] (JSON)``, a line per paper and
  institution, in the order of the pass;
- ``country_papers``: ``country<TAB>papers<TAB>authors``, in code-point order: the papers with an author
  affiliated in the country, or listing an organisation there where no authorship states an affiliation, and
  those authors (an organisation's country its own ``schema:addressCountry``, else those of every organisation
  it is a unit of, as ``queries/country-papers.rq`` has it).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..rdf.side_rows import AFFILIATED, AFFILIATION, YEAR
from ..stores.ordering import grouped_lines
from ..vocab import KG, sparql_prologue

Within = Callable[[str], Iterable[str]]  # an institution -> itself and every institution it is a unit of
# The conferences' names, one small read (a conference edition is shared by its papers, as named in the union).
_CONFERENCE_NAMES = sparql_prologue() + "SELECT ?event ?name WHERE { ?event a bibo:Conference ; skos:prefLabel ?name }"
_COUNTRIES = sparql_prologue() + "SELECT ?organisation ?country WHERE { ?organisation schema:addressCountry ?country }"


@dataclass(frozen=True)
class ListRows:
    """The files a resolution leaves for the twins (above), alive until the step's last write (its ``finish``);
    ``person_names``: the people's display names (:func:`~.name_lists.person_name_line`, in IRI order of
    person); ``scratch``: where sorts spill."""

    institution_authors: Path
    institution_authorships: Path
    institution_papers: Path
    country_papers: Path
    person_names: Path
    scratch: Path | None = None

    @classmethod
    def in_folder(cls, folder: Path, person_names: Path, scratch: Path | None) -> ListRows:
        names = ("institution-authors", "institution-authorships", "institution-papers", "country-papers")
        return cls(*(folder / name for name in names), person_names, scratch)


def where_lines(own: dict[str, set[str]], authors: list[str], within: Within) -> Iterator[str]:
    """``institution<TAB>person<TAB>known<TAB>first year<TAB>last year`` of one paper, once each: its authors
    with an affiliation within an institution (known "per author"), and where no authorship states one, its
    creators at each institution it lists (known "per paper"); the years of its conferences ("" for none)."""
    years = sorted(own[YEAR], key=int)
    span = f"{years[0]}\t{years[-1]}" if years else "\t"
    said = set()
    for value in own[AFFILIATED]:
        _, person, organisation = value.split(" ")
        said.update((institution, person, "per author") for institution in within(organisation))
    if own["authorship"] and not own[AFFILIATION]:
        institutions = {institution for organisation in own["listed"] for institution in within(organisation)}
        said.update((institution, person, "per paper") for institution in institutions for person in authors)
    return (f"{institution}\t{person}\t{known}\t{span}\n" for institution, person, known in said)


def span_lines(lines: Iterable[str], scratch: Path | None) -> Iterator[str]:
    """``institution<TAB>person<TAB>known<TAB>papers<TAB>first year<TAB>last year`` from :func:`where_lines`
    (a line a paper), in code-point order."""
    for institution, rows in grouped_lines(lines, scratch, unique=False):
        spans: dict[tuple[str, str], list] = {}
        for row in rows:
            person, known, first, last = row.split("\t")
            span = spans.setdefault((person, known), [0, [], []])
            span[0] += 1
            if first:
                span[1].append(first)
                span[2].append(last)
        for (person, known), (papers, firsts, lasts) in sorted(spans.items()):
            first, last = (min(firsts, key=int), max(lasts, key=int)) if firsts else ("", "")
            yield f"{institution}\t{person}\t{known}\t{papers}\t{first}\t{last}\n"


def track_name(track: str) -> str:
    """``STRAFTER(STR(?track_iri), "#")``: what follows the first "#", "" without one."""
    return track.partition("#")[2]


class ListLines:
    """The files above, opened for one pass (each to ``os.devnull`` without ``rows``): :meth:`add` each paper,
    :meth:`add_members` each institution's authors, then :meth:`close`."""

    def __init__(self, store, rows: ListRows | None, within: Within, spool: Callable):
        self.within, self._files = within, ExitStack()
        opened = (self._files.enter_context(open(path, "w", encoding="utf-8")) for path in self._paths(rows))
        self.members, self.papers, self.spans, self.countries = opened
        self.where = self._files.enter_context(spool("who-is-where")) if rows else None
        self.country_authors = self._files.enter_context(spool("country-authors")) if rows else None
        self.country_papers: Counter[str] = Counter()
        self.venues: dict[str, list] = {}
        for event, name in store.select_terms(_CONFERENCE_NAMES) if rows else ():
            self.venues.setdefault(event.value, []).append([name.value, name.language or ""])
        self.own_countries: dict[str, set[str]] = {}
        for organisation, country in store.select_terms(_COUNTRIES) if rows else ():
            self.own_countries.setdefault(organisation.value, set()).add(country.value)

    @staticmethod
    def _paths(rows: ListRows | None) -> tuple:
        if rows is None:
            return (os.devnull,) * 4
        return rows.institution_authors, rows.institution_papers, rows.institution_authorships, rows.country_papers

    def add(self, paper: str, own: dict[str, set[str]], authors: list[str]) -> None:
        if self.where is None:
            return
        self.where.writelines(where_lines(own, authors, self.within))
        institutions = {institution for organisation in own["listed"] for institution in self.within(organisation)}
        if institutions:
            titles = sorted(json.loads(title) for title in own["title"])
            venues = sorted(venue for event in own["event"] for venue in self.venues.get(event, ()))
            tracks = sorted(track_name(track) for track in own[KG.track.value])
            facts = json.dumps([titles, venues, tracks])
            self.papers.writelines(f"{institution}\t{paper}\t{facts}\n" for institution in sorted(institutions))
        self._add_countries(own, authors)

    def _countries(self, organisation: str) -> set[str]:
        """An organisation's own countries, else those of the organisations it is a unit of."""
        if organisation in self.own_countries:
            return self.own_countries[organisation]
        above = (self.own_countries.get(parent, ()) for parent in self.within(organisation) if parent != organisation)
        return {country for countries in above for country in countries}

    def _add_countries(self, own: dict[str, set[str]], authors: list[str]) -> None:
        """The paper's countries, each with the authors it has there."""
        pairs = [(value.split(" ")[2], value.split(" ")[1]) for value in own[AFFILIATED]]
        if own["authorship"] and not own[AFFILIATION]:
            pairs += [(organisation, person) for organisation in own["listed"] for person in authors]
        there: dict[str, set[str]] = {}
        for organisation, person in pairs:
            for country in self._countries(organisation):
                there.setdefault(country, set()).add(person)
        self.country_papers.update(there.keys())
        self.country_authors.writelines(
            f"{country}\t{person}\n" for country, people in there.items() for person in people
        )

    def add_members(self, institution: str, papers: Counter[str]) -> None:
        """One institution's authors (author -> papers)."""
        self.members.writelines(f"{institution}\t{author}\t{n}\n" for author, n in sorted(papers.items()))

    def close(self, rewound: Callable, scratch: Path | None) -> None:
        if self.where is not None:
            self.spans.writelines(span_lines(rewound(self.where), scratch))
            for country, people in grouped_lines(rewound(self.country_authors), scratch):
                self.countries.write(f"{country}\t{self.country_papers[country]}\t{len(people)}\n")
        self._files.close()
