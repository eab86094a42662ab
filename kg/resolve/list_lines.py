"""What the counts' pass over every paper's facts (:func:`~.aggregates.aggregate_triples`) writes for the twins of
the precomputed lists (:mod:`.list_rows`), into files that outlive the pass:

- ``papers``: a line for each paper that names an institution (:class:`ListedPaper`, :meth:`ListLines.add`): what
  the lists about an institution are made of, compact. Only a few institutions have lists (those with enough
  papers, known once every paper is counted), so a list's rows are made from these lines for its institutions
  alone when the lists are made (:func:`institution_author_lines`, :func:`authorship_lines`,
  :func:`institution_paper_lines`), not for every institution in the pass;
- ``country_papers``: ``country<TAB>papers<TAB>authors``, in code-point order: the papers with an author
  affiliated in the country, or listing an organisation there where no authorship states an affiliation, and
  those authors (an organisation's country its own ``schema:addressCountry``, else those of every organisation
  it is a unit of, as ``queries/country-papers.rq`` has it).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple, Protocol

from ..rdf.side_rows import AFFILIATED, AFFILIATION, YEAR
from ..stores.ordering import grouped_lines
from ..vocab import KG, sparql_prologue
from .answer_lines import AnswerLines, Within
from .contribution_totals import ContributionTotals


class KeptLists(Protocol):
    """The rows of the lists about an institution as the last run left them (:class:`.list_store.ListStore`)."""

    def lists(self, table: str, rows: TwinFiles, entities: Iterable[str], terms: Callable) -> Iterator: ...

    def close(self) -> None: ...


# The conferences' names, one small read (a conference edition is shared by its papers, as named in the union).
_CONFERENCE_NAMES = sparql_prologue() + "SELECT ?event ?name WHERE { ?event a bibo:Conference ; skos:prefLabel ?name }"
_COUNTRIES = sparql_prologue() + "SELECT ?organisation ?country WHERE { ?organisation schema:addressCountry ?country }"


@dataclass(frozen=True)
class TwinFiles:
    """The files a resolution leaves for the twins (above), alive until the step's last write (its ``finish``);
    ``person_names``: the people's display names (:func:`~.name_lists.person_name_line`, in IRI order of
    person); ``answers``: the folder of the lines of the lists of one answer (:mod:`.answer_lines`); ``scratch``:
    where sorts spill; ``paper_titles``, ``name_lists`` and ``artifact_names``: what the twins of ``artifacts`` and
    ``topic-papers`` are made of (:mod:`.artifact_rows`); ``kept``: the rows of the lists about an institution as the
    last run left them, brought up to date from ``papers`` (:mod:`.list_store`; None: made from ``papers`` whole);
    ``restaged``: the source graphs the change loaded, whose topic detail graphs' rows are made again whatever their
    stamps say (a source ingested again changed keeps its quad count, and its file its modification time, when
    only a weight changed or within the same second: :mod:`.topic_rows`)."""

    papers: Path
    country_papers: Path
    person_names: Path
    answers: Path
    scratch: Path | None = None
    paper_titles: Path | None = None
    name_lists: Path | None = None
    artifact_names: Path | None = None
    kept: KeptLists | None = None
    restaged: frozenset[str] = frozenset()

    @classmethod
    def in_folder(cls, folder: Path, person_names: Path, scratch: Path | None, kept: KeptLists | None = None):
        artifacts = (folder / "paper-titles", folder / "name-lists", folder / "artifact-names")
        return cls(folder / "papers", folder / "country-papers", person_names, folder, scratch, *artifacts, kept)


# Between the values of a field of a paper's line that are JSON strings (which escape it, as tabs and newlines).
JSON_SEPARATOR = "\x1f"


class ListedPaper(NamedTuple):
    """A paper as the lists about an institution see it, from its line (``paper<TAB>the institutions it names,
    space-separated<TAB>`` then the fields below but ``affiliated``, ``span`` as two): the institutions it lists or
    one of whose units it lists (``listed``), its creators, the ``(institution, person)`` of each author's own
    affiliation within an institution (``affiliated``: on the line, space-separated as one list), whether no
    authorship states an affiliation though it has authorships (``per_paper``, "1" on the line), the first and
    last year of its conferences ("" for none); and, as on the line, its English titles and its conferences'
    names (``[name, language]``), JSON between :data:`JSON_SEPARATOR`, and its tracks' IRIs, space-separated."""

    paper: str
    listed: list[str]
    authors: list[str]
    affiliated: list[tuple[str, str]]
    per_paper: bool
    span: str
    titles: str
    venues: str
    tracks: str


def _words(field: str) -> list[str]:
    return field.split(" ") if field else []


def listed_paper(line: str) -> ListedPaper:
    """A paper of its line (:class:`ListedPaper`)."""
    paper, _, rest = line.split("\t", 2)
    listed, authors, affiliated, per_paper, first, last, titles, venues, tracks = rest[:-1].split("\t")
    pairs = iter(_words(affiliated))
    return ListedPaper(
        paper,
        _words(listed),
        _words(authors),
        list(zip(pairs, pairs)),
        per_paper == "1",
        f"{first}\t{last}",
        titles,
        venues,
        tracks,
    )


def papers_of(rows: TwinFiles, institutions: set[str]) -> Iterator[ListedPaper]:
    """The papers that name one of ``institutions``, in the order of the pass."""
    with open(rows.papers, encoding="utf-8") as lines:
        for line in lines:
            if not institutions.isdisjoint(line.split("\t", 2)[1].split(" ")):
                yield listed_paper(line)


def institution_author_lines(rows: TwinFiles, institutions: set[str]) -> Iterator[str]:
    """``institution<TAB>author<TAB>papers`` of each of ``institutions``' authors (of a paper that lists it or
    one of its units), in code-point order."""
    lines = (
        f"{institution}\t{author}\n"
        for paper in papers_of(rows, institutions)
        for institution in institutions.intersection(paper.listed)
        for author in paper.authors
    )
    for institution, authors in grouped_lines(lines, rows.scratch, unique=False):
        yield from (f"{institution}\t{author}\t{n}\n" for author, n in sorted(Counter(authors).items()))


def where_rows(paper: ListedPaper) -> set[tuple[str, str, str]]:
    """``(institution, person, known)`` of one paper, once each: its authors with an affiliation within an
    institution (known "per author"), and where no authorship states one, its creators at each institution it
    lists (known "per paper")."""
    said = {(institution, person, "per author") for institution, person in paper.affiliated}
    if paper.per_paper:
        said.update((institution, person, "per paper") for institution in paper.listed for person in paper.authors)
    return said


def _where_lines(paper: ListedPaper, institutions: set[str]) -> Iterator[str]:
    """``institution<TAB>person<TAB>known<TAB>first year<TAB>last year`` of one paper (:func:`where_rows`), for
    each of ``institutions``."""
    return (
        f"{who}\t{person}\t{known}\t{paper.span}\n" for who, person, known in where_rows(paper) if who in institutions
    )


def authorship_lines(rows: TwinFiles, institutions: set[str]) -> Iterator[str]:
    """``institution<TAB>person<TAB>known<TAB>papers<TAB>first year<TAB>last year`` of each of ``institutions``,
    in code-point order."""
    lines = (line for paper in papers_of(rows, institutions) for line in _where_lines(paper, institutions))
    for institution, found in grouped_lines(lines, rows.scratch, unique=False):
        spans: dict[tuple[str, str], list] = {}
        for row in found:
            person, known, first, last = row.split("\t")
            span = spans.setdefault((person, known), [0, [], []])
            span[0] += 1
            if first:
                span[1].append(first)
                span[2].append(last)
        for (person, known), (papers, firsts, lasts) in sorted(spans.items()):
            first, last = (min(firsts, key=int), max(lasts, key=int)) if firsts else ("", "")
            yield f"{institution}\t{person}\t{known}\t{papers}\t{first}\t{last}\n"


def institution_paper_lines(rows: TwinFiles, institutions: set[str]) -> Iterator[str]:
    """``institution<TAB>paper<TAB>titles<TAB>venues<TAB>tracks`` (as :class:`ListedPaper` has them), a line per
    paper of each of ``institutions`` (that lists it or one of its units), in the order of the pass."""
    for paper in papers_of(rows, institutions):
        facts = f"{paper.paper}\t{paper.titles}\t{paper.venues}\t{paper.tracks}\n"
        yield from (f"{institution}\t{facts}" for institution in institutions.intersection(paper.listed))


def track_name(track: str) -> str:
    """``STRAFTER(STR(?track_iri), "#")``: what follows the first "#", "" without one."""
    return track.partition("#")[2]


def paper_rows(paper: str, titles: str, venues: str, tracks: str) -> Iterator[tuple]:
    """A paper's rows of ``institution-papers``, each with its sort key: every English title, venue and track
    (unbound where it has none; the fields as :class:`~.list_lines.ListedPaper` has them), as the query's
    ``DISTINCT`` gives them."""
    titled = [json.loads(title) for title in titles.split(JSON_SEPARATOR)] if titles else [None]
    named = [tuple(json.loads(venue)) for venue in venues.split(JSON_SEPARATOR)] if venues else [None]
    for title in titled:
        for venue in named:
            for track in [track_name(track) for track in tracks.split(" ")] if tracks else [None]:
                key = ("" if title is None else "\0" + title, paper, _unbound_first(venue), _unbound_first(track))
                yield key, (paper, title, venue, track)


def _unbound_first(value) -> tuple:
    return (0,) if value is None else (1, value)


class ListLines:
    """The files above, opened for one pass (none without ``rows``): :meth:`add` each paper, then :meth:`close`."""

    def __init__(self, store, rows: TwinFiles | None, within: Within, fresh: Callable[[str], Path]):
        self.within, self._files = within, ExitStack()
        self.rows = rows
        if rows is None:
            return
        # the lines of the papers visited, whole files once merged with the others' (.touched_papers)
        self.papers = self._files.enter_context(open(fresh("listed"), "w", encoding="utf-8"))
        self.countries = self._files.enter_context(open(rows.country_papers, "w", encoding="utf-8"))
        self.contributions = self._files.enter_context(open(fresh("contributions"), "w", encoding="utf-8"))
        named: dict[str, set[str]] = {}  # (a name stated by several sources comes once per source)
        for event, name in store.select_terms(_CONFERENCE_NAMES):
            named.setdefault(event.value, set()).add(json.dumps([name.value, name.language or ""]))
        self.venues = {event: sorted(names) for event, names in named.items()}
        self.own_countries: dict[str, set[str]] = {}
        self.countries_of: dict[str, set[str]] = {}
        for organisation, country in store.select_terms(_COUNTRIES):
            self.own_countries.setdefault(organisation.value, set()).add(country.value)
        self.answers = AnswerLines(store, rows.answers, within)
        self.facts = self._files.enter_context(open(fresh("code"), "w", encoding="utf-8"))

    def context(self) -> str:
        """What a paper's lines are made of besides its facts and the units: the conferences' names and the
        organisations' countries (a digest)."""
        if self.rows is None:
            return ""
        countries = sorted((organisation, sorted(them)) for organisation, them in self.own_countries.items())
        made_of = json.dumps([sorted(self.venues.items()), countries])
        return hashlib.sha256(made_of.encode("utf-8")).hexdigest()

    def add(self, paper: str, own: dict[str, set[str]], authors: list[str]) -> None:
        """The paper's line (:func:`papers_of` reads it), if it names an institution, and its countries."""
        if self.rows is None:
            return
        affiliated = [value.split(" ")[1:] for value in own[AFFILIATED]]  # [person, organisation]
        per_paper = bool(own["authorship"]) and not own[AFFILIATION]
        listed = {institution for organisation in own["listed"] for institution in self.within(organisation)}
        within = {
            (institution, person) for person, organisation in affiliated for institution in self.within(organisation)
        }
        if listed or within:
            self.papers.write(self._line(paper, own, authors, listed, within, per_paper))
        there = self._there(affiliated, own["listed"] if per_paper else (), authors)
        self._contribute(paper, listed, own["listed"], there)
        self.facts.write(f"{paper}\t{self._facts(own)}\n")  # code-papers' line, if some code is based on it

    def _contribute(self, paper: str, listed: set[str], organisations: set[str], there: dict[str, set[str]]) -> None:
        """The paper's :func:`contribution_line`, if it adds to any count: ``listed``, the institutions it names;
        ``organisations``, those it lists; ``there``, its authors by country."""
        countries = {country for organisation in organisations for country in self._countries(organisation)}
        if listed or there or countries:
            self.contributions.write(contribution_line(paper, listed, countries, there))

    def _line(self, paper: str, own: dict[str, set[str]], authors: list[str], listed: set[str], within, per_paper):
        """The paper's line (:class:`ListedPaper`)."""
        years = sorted(own[YEAR], key=int)
        fields = (
            paper,
            " ".join(sorted(listed.union(institution for institution, _ in within))),
            " ".join(sorted(listed)),
            " ".join(authors),
            " ".join(value for pair in sorted(within) for value in pair),
            "1" if per_paper else "",
            f"{years[0]}\t{years[-1]}" if years else "\t",
            self._facts(own),
        )
        return "\t".join(fields) + "\n"

    def _facts(self, own: dict[str, set[str]]) -> str:
        """The paper's titles, venues and tracks, as :class:`ListedPaper` has them, each once and in code-point
        order: a paper's line changes only where they do (the lists' kept rows compare lines, :mod:`.list_store`)."""
        venues = {venue for event in own["event"] for venue in self.venues.get(event, ())}
        fields = (
            JSON_SEPARATOR.join(sorted(own["title"])),  # JSON already
            JSON_SEPARATOR.join(sorted(venues)),
            " ".join(sorted(own[KG.track.value])),  # IRIs (:func:`track_name` is made when a list needs it)
        )
        return "\t".join(fields)

    def _countries(self, organisation: str) -> set[str]:
        """An organisation's own countries, else those of the organisations it is a unit of (worked out once)."""
        if organisation not in self.countries_of:
            own = self.own_countries.get(organisation)
            above = (
                self.own_countries.get(parent, ()) for parent in self.within(organisation) if parent != organisation
            )
            self.countries_of[organisation] = own or {country for countries in above for country in countries}
        return self.countries_of[organisation]

    def _there(self, affiliated: list[list[str]], listed: Iterable[str], authors: list[str]) -> dict[str, set[str]]:
        """The paper's countries, each with the authors it has there: those ``affiliated`` there, and every author
        where it ``listed`` an organisation there (given only where no authorship states an affiliation)."""
        there: dict[str, set[str]] = {}
        for person, organisation in affiliated:
            for country in self._countries(organisation):
                there.setdefault(country, set()).add(person)
        for organisation in listed:
            for country in self._countries(organisation):
                there.setdefault(country, set()).update(authors)
        return there

    def flush(self) -> None:
        """The papers' lines and contributions written so far on disk (before they are merged, .touched_papers)."""
        if self.rows is not None:
            self.papers.flush()
            self.contributions.flush()
            self.facts.flush()

    def close(self, totals: ContributionTotals | None) -> None:
        """The countries' and the answers' files, from the totals of every paper's :func:`contribution_line`."""
        if self.rows is not None:
            self.flush()
            self.countries.writelines(totals.country_lines())
            self.answers.close(totals)
        self._files.close()


def contribution_line(paper: str, listed: set[str], countries: set[str], there: dict[str, set[str]]) -> str:
    """``paper<TAB>`` then, as JSON, what the paper adds to the countries' and the answers' counts: the institutions
    it names (with those they are units of), the countries of the organisations it lists, and each country it has
    authors in with those authors (:meth:`ListLines.add`)."""
    people = {country: sorted(authors) for country, authors in sorted(there.items())}
    return f"{paper}\t{json.dumps([sorted(listed), sorted(countries), people], ensure_ascii=False)}\n"
