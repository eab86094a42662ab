"""The rows of the lists about an institution (the twins ``institution-authors``, ``institution-authors-per-author``
and ``institution-papers`` of :mod:`.list_rows`), kept between runs in a side SQLite database, so that a change of
sources costs what it changes, not the corpus.

Made whole, each list reads every paper's line (:func:`~.list_lines.listed_paper`) and sorts each institution's
rows again. The database in the store's folder of kept rows (:mod:`.kept_rows`) holds the last run's lines, one
a paper, and each list's rows of every institution with their sort keys and display names, indexed in the
query's ``ORDER BY``; so an institution's first rows and its number of rows are one indexed query each
(BINARY collation compares UTF-8 bytes: code-point order, as SPARQL and Python compare plain strings). The
tables name IRIs by a number, which keeps the database small; the index leaves people of the same papers and
name in their numbers' order, so they are sorted by IRI as they are read. A run
compares this run's lines with the kept ones, takes the contributions of the papers whose line changed or went
away off the rows and adds those of the changed and new ones (a count of papers by subtraction; the first and
last year from the kept multiset of the papers' year spans, which subtraction alone would lose), and gives the
people its choice of names changed (:class:`~.name_list_memo.NamesChanged`) and those it added their smallest
display name again.

The rows follow from the lines and names alone, and a run writes them in one transaction, so a run killed while
writing leaves the last run's (SQLite rolls it back). The database is used only when it is what this code wrote
(its file name holds the code's fingerprint), was written last by a run of this code (its stamp beside: the
file's change counter after that run's commit, so a hand edit or a run killed after its commit shows), and
names the generation of people's names the run compared with; otherwise the rows are made again from every line.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import groupby
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple, Protocol

from ..cache import fingerprint
from ..rdf.terms import term
from . import list_lines
from .list_lines import ListedPaper, listed_paper, paper_rows, where_rows
from .side_database import kept_database, put_in_place, stamp


class NamesChanged(Protocol):
    """What a run's choice of people's names changed (:class:`.name_list_memo.NamesChanged`): the generation it
    compared with (None: any name may have changed), the people chosen afresh or no longer named, and its own."""

    since: str | None
    people: set[str]
    generation: str | None


_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE papers (paper TEXT PRIMARY KEY, line TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE iris (id INTEGER PRIMARY KEY, iri TEXT NOT NULL UNIQUE);
CREATE TABLE authors (entity INTEGER, person INTEGER, papers INTEGER, name TEXT, PRIMARY KEY (entity, person))
    WITHOUT ROWID;
CREATE TABLE authorships (entity INTEGER, person INTEGER, known TEXT, papers INTEGER, first TEXT, last TEXT,
    spans TEXT, name TEXT, PRIMARY KEY (entity, person, known)) WITHOUT ROWID;
CREATE TABLE paper_rows (entity INTEGER, title TEXT, paper TEXT, venue TEXT, language TEXT, track TEXT);
"""
# made once the rows of a new database are in (sorting them once costs less than keeping them sorted)
_INDEXES = """
CREATE INDEX authors_ranked ON authors (entity, papers DESC, name);
CREATE INDEX authors_person ON authors (person);
CREATE INDEX authorships_ranked ON authorships (entity, papers DESC, name);
CREATE INDEX authorships_person ON authorships (person);
CREATE INDEX paper_rows_ranked ON paper_rows (entity, title, paper, venue, language, track);
CREATE INDEX paper_rows_paper ON paper_rows (paper);
"""


class Listed(NamedTuple):
    """How a kept list is read: its rows in the order an index gives (the entity the queries' one parameter), their
    number (without the rows' IRIs: every number the tables name has one), and the rest of the order (None: none)."""

    select: str
    count: str
    key: Callable[[tuple], tuple] | None


# Each list's rows of an institution (?) in the order its index gives (a person without a display name, no row),
# and of a list of people, the rest of the query's order, which sorts the people of the same papers and name by
# IRI: their rows' key (the index orders by the papers and name alone, a person being a number, :class:`_Iris`).
_LISTS = {
    "authors": Listed(
        "SELECT iris.iri, name, papers FROM authors CROSS JOIN iris ON iris.id = person "
        "WHERE entity = ? AND name IS NOT NULL ORDER BY papers DESC, name",
        "SELECT COUNT(*) FROM authors WHERE entity = ? AND name IS NOT NULL",
        lambda row: (-row[2], row[1], row[0]),
    ),
    "authorships": Listed(
        "SELECT iris.iri, name, known, papers, first, last FROM authorships CROSS JOIN iris ON iris.id = person "
        "WHERE entity = ? AND name IS NOT NULL ORDER BY papers DESC, name",
        "SELECT COUNT(*) FROM authorships WHERE entity = ? AND name IS NOT NULL",
        lambda row: (-row[3], row[1], row[0], row[2]),
    ),
    "paper_rows": Listed(
        "SELECT paper, title, venue, language, track FROM paper_rows WHERE entity = ? "
        "ORDER BY title, paper, venue, language, track",
        "SELECT COUNT(*) FROM paper_rows WHERE entity = ?",
        None,
    ),
}


def remembered_list_rows(folder: Path | None) -> Path | None:
    """The database in a store's folder of kept rows, named by the code that writes it and the lines it reads."""
    if folder is None:
        return None
    return folder / f"list-rows.{fingerprint([Path(__file__), Path(list_lines.__file__)])}.memo"


def kept_lists(folder: Path | None, changed: NamesChanged) -> ListStore | None:
    """The kept rows of a store's folder (None for a store without one), for a run whose choice of names is
    ``changed``."""
    path = remembered_list_rows(folder)
    return None if path is None or not path.parent.is_dir() else ListStore(path, changed)


def smallest_names(person_names: Path, people: set[str] | None) -> dict[str, str]:
    """Each of ``people`` (None: everyone) with a display name -> the smallest of them (``MIN(?label)``)."""
    smallest: dict[str, str] = {}
    with open(person_names, encoding="utf-8") as lines:
        for line in lines:
            person, _, written = line.partition("\t")
            if people is None or person in people:
                name = json.loads(written)
                if person not in smallest or name < smallest[person]:
                    smallest[person] = name
    return smallest


def _paper_rows(paper: ListedPaper) -> set[tuple]:
    """The paper's rows of ``institution-papers`` (:func:`.list_lines.paper_rows`) as the table holds them, for
    every institution it lists (by IRI)."""
    made = set()
    for _, (iri, title, venue, track) in paper_rows(paper.paper, paper.titles, paper.venues, paper.tracks):
        value, language = venue if venue is not None else (None, None)
        made.update((entity, title, iri, value, language, track) for entity in paper.listed)
    return made


class _Change:
    """The contributions of the papers a run takes off (``sign`` -1) and adds (+1)."""

    def __init__(self):
        self.authors: Counter[tuple[str, str]] = Counter()
        self.spans: Counter[tuple[str, str, str, str, str]] = Counter()  # (entity, person, known, first, last)
        self.people: set[str] = set()

    def add(self, paper: ListedPaper, sign: int) -> None:
        for entity in paper.listed:
            for author in paper.authors:
                self.authors[entity, author] += sign
        first, last = paper.span.split("\t")
        for entity, person, known in where_rows(paper):
            self.spans[entity, person, known, first, last] += sign
        if sign > 0:
            self.people.update(paper.authors)
            self.people.update(person for _, person in paper.affiliated)


class _Iris:
    """The IRIs the tables name, each by a number (the tables and their indexes hold it, not the IRI)."""

    def __init__(self, database: sqlite3.Connection):
        self.database = database
        self.ids: dict[str, int] = dict(database.execute("SELECT iri, id FROM iris"))
        self.new: list[tuple[int, str]] = []

    def __call__(self, iri: str) -> int:
        if iri not in self.ids:
            self.ids[iri] = len(self.ids) + 1  # ids 1.. in order, none ever removed
            self.new.append((self.ids[iri], iri))
        return self.ids[iri]

    def write(self) -> None:
        self.database.executemany("INSERT INTO iris VALUES (?, ?)", self.new)
        self.new = []


class ListStore:
    """The kept rows (above), brought up to date from a run's lines when a list first reads them."""

    def __init__(self, path: Path, changed: NamesChanged):
        self.path, self.changed = path, changed
        self.database: sqlite3.Connection | None = None
        self.full: bool | None = None  # whether this run made the rows from every line (None: not yet brought)

    def lists(
        self, table: str, rows, entities: Iterable[str], texts: Callable[[tuple], tuple]
    ) -> Iterator[tuple[str, KeptRanked]]:
        """(entity, its rows of the list ``table`` in the query's order, their values' texts made by ``texts``) for
        each of ``entities``, in code-point order of IRI; ``rows``: the run's :class:`~.list_lines.TwinFiles`."""
        database = self._brought(rows)
        for entity in sorted(set(entities)):
            found = database.execute("SELECT id FROM iris WHERE iri = ?", (entity,)).fetchone()
            yield entity, KeptRanked(database, _LISTS[table], found[0] if found else 0, texts)

    def close(self) -> None:
        if self.database is not None:
            self.database.close()
            self.database = None

    def _brought(self, rows) -> sqlite3.Connection:
        if self.database is None:
            database, held = kept_database(self.path, _TABLES, ("names", self.changed.since))
            self.full = not held
            with database:
                self._bring(database, rows)
            if self.full:  # made beside, put in place whole
                database = put_in_place(database, self.path, _INDEXES)
            stamp(self.path)
            self.database = database
        return self.database

    def _bring(self, database: sqlite3.Connection, rows) -> None:
        """Take the changed papers' old contributions off and add their new ones; name the people again."""
        old = dict(database.execute("SELECT paper, line FROM papers"))
        change, written, made_rows = _compared(old, rows.papers)
        if not self.full:
            gone = [(paper,) for paper in old] + [(paper,) for paper, _ in written]
            database.executemany("DELETE FROM papers WHERE paper = ?", gone)
            database.executemany("DELETE FROM paper_rows WHERE paper = ?", gone)
        database.executemany("INSERT INTO papers VALUES (?, ?)", written)
        iris = _Iris(database)
        database.executemany(
            "INSERT INTO paper_rows VALUES (?, ?, ?, ?, ?, ?)",
            ((iris(row[0]), *row[1:]) for made in made_rows for row in made),
        )
        people = None if self.full else change.people | self.changed.people
        names = smallest_names(rows.person_names, people)
        if self.full:
            _write_new(database, change, names, iris)
        else:
            _count_authors(database, change.authors, names, iris)
            _count_spans(database, change.spans, names, iris)
        iris.write()
        if people is not None:
            named = [(names.get(person), iris.ids[person]) for person in sorted(people) if person in iris.ids]
            for table in ("authors", "authorships"):
                database.executemany(f"UPDATE {table} SET name = ? WHERE person = ?", named)
        generation = self.changed.generation or ""
        database.execute("INSERT OR REPLACE INTO meta VALUES ('names', ?)", (generation,))


def _compared(old: dict[str, str], papers: Path) -> tuple[_Change, list[tuple[str, str]], list[set[tuple]]]:
    """The change from the kept lines (``old``, paper -> line; left holding the papers gone) to this run's
    (``papers``): the contributions, the lines to write and the changed papers' rows of ``institution-papers``."""
    change, written, made_rows = _Change(), [], []
    with open(papers, encoding="utf-8") as lines:
        for line in lines:
            paper = line.partition("\t")[0]
            before = old.pop(paper, None)
            if before == line:
                continue
            if before is not None:
                change.add(listed_paper(before), -1)
            made = listed_paper(line)
            change.add(made, +1)
            made_rows.append(_paper_rows(made))
            written.append((paper, line))
    for line in old.values():
        change.add(listed_paper(line), -1)
    return change, written, made_rows


def _count_authors(database: sqlite3.Connection, change: Counter, names: dict[str, str], iris: _Iris) -> None:
    """``institution-authors``: each (institution, author)'s papers, counted up and down; a count of none goes."""
    database.executemany(
        "INSERT INTO authors VALUES (?, ?, ?, ?) "
        "ON CONFLICT (entity, person) DO UPDATE SET papers = papers + excluded.papers",
        ((iris(entity), iris(person), n, names.get(person)) for (entity, person), n in sorted(change.items()) if n),
    )
    database.executemany(
        "DELETE FROM authors WHERE entity = ? AND person = ? AND papers = 0",
        [(iris(entity), iris(person)) for (entity, person), n in change.items() if n < 0],
    )


def _write_new(database: sqlite3.Connection, change: _Change, names: dict[str, str], iris: _Iris) -> None:
    """A new database's rows of both lists of people: every key is new and every paper added, so each key's row is
    inserted once as it comes (no row to count up or down, nor the keys sorted to find one)."""
    database.executemany(
        "INSERT INTO authors VALUES (?, ?, ?, ?)",
        ((iris(entity), iris(person), n, names.get(person)) for (entity, person), n in change.authors.items()),
    )
    spans: defaultdict[tuple[str, str, str], dict[tuple[str, str], int]] = defaultdict(dict)
    for (entity, person, known, first, last), n in change.spans.items():
        spans[entity, person, known][first, last] = n
    database.executemany(
        "INSERT INTO authorships VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (iris(entity), iris(person), known, *_spanned(listed), json.dumps(listed), names.get(person))
            for (entity, person, known), spanned in spans.items()
            for listed in ([[first, last, n] for (first, last), n in sorted(spanned.items())],)
        ),
    )


def _count_spans(database: sqlite3.Connection, change: Counter, names: dict[str, str], iris: _Iris) -> None:
    """``institution-authors-per-author``: of each (institution, person, known) the change touches, the multiset
    of its papers' year spans (``[first, last, papers]``) counted up and down, and the papers, first and last
    year made again from it; a key with no paper left goes."""
    read = "SELECT spans FROM authorships WHERE entity = ? AND person = ? AND known = ?"
    made, gone = [], []
    for (entity, person, known), changed in groupby(sorted(change.items()), key=lambda item: item[0][:3]):
        key = (iris(entity), iris(person), known)
        spans = Counter({(first, last): n for (*_, first, last), n in changed})
        if (kept := database.execute(read, key).fetchone()) is not None:
            spans = spans + Counter({(first, last): n for first, last, n in json.loads(kept[0])})  # drops n <= 0
        else:
            spans = +spans
        if not spans:
            gone.append(key)
            continue
        listed = [[first, last, n] for (first, last), n in sorted(spans.items())]
        made.append((*key, *_spanned(listed), json.dumps(listed), names.get(person)))
        if len(made) == 10000:  # a batch at a time
            _write_authorships(database, made)
            made = []
    database.executemany("DELETE FROM authorships WHERE entity = ? AND person = ? AND known = ?", gone)
    _write_authorships(database, made)


def _write_authorships(database: sqlite3.Connection, made: list[tuple]) -> None:
    database.executemany(
        "INSERT INTO authorships VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (entity, person, known) "
        "DO UPDATE SET papers = excluded.papers, first = excluded.first, last = excluded.last, spans = excluded.spans",
        made,
    )


def _spanned(spans: list[list]) -> tuple[int, str, str]:
    """The papers, first and last year of a key's year spans (``[first, last, papers]``): the smallest first and
    largest last year (compared as numbers, as the query's ``MIN`` and ``MAX``), "" where no paper has one."""
    papers = sum(n for _, _, n in spans)
    years = [(first, last) for first, last, _ in spans if first]
    if not years:
        return papers, "", ""
    return papers, min((first for first, _ in years), key=int), max((last for _, last in years), key=int)


class KeptRanked(Sequence):
    """An entity's rows of a kept list in the query's order, read when asked for (a list keeps its first rows and
    counts the others: one indexed query each), as their values' N-Triples texts (``texts``: a row of the table ->
    them, None where unbound; :meth:`texts`, what a list's lines are made of, :func:`kg.query.rankings.ranked_list`)
    or as the RDF terms these write. The index orders people by papers and name; those of the same papers and name
    are ordered here by IRI, so a prefix is read on to the end of its last row's tie."""

    def __init__(
        self, database: sqlite3.Connection, listed: Listed, entity: int | str, texts: Callable[[tuple], tuple]
    ):
        self.database, self.listed, self.entity, self.row_texts = database, listed, entity, texts
        self._length: int | None = None

    def __len__(self) -> int:
        if self._length is None:
            self._length = self.database.execute(self.listed.count, (self.entity,)).fetchone()[0]
        return self._length

    def _prefix(self, n: int) -> list[tuple]:
        """The first ``n`` rows, in the query's order."""
        if n <= 0:
            return []
        key = self.listed.key
        cursor = self.database.execute(self.listed.select, (self.entity,))
        rows = cursor.fetchmany(n)
        if key is not None and rows:
            tie = key(rows[-1])[:2]
            while (more := cursor.fetchone()) is not None and key(more)[:2] == tie:
                rows.append(more)
            rows.sort(key=key)
            del rows[n:]
        cursor.close()
        return rows

    def texts(self, n: int) -> list[tuple[str | None, ...]]:
        """The first ``n`` rows' values as N-Triples texts."""
        return [self.row_texts(row) for row in self._prefix(n)]

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            return [tuple(map(term, row)) for row in self.texts(stop)[start:stop:step]]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self[index % len(self) : index % len(self) + 1][0]

    def __iter__(self):
        return iter(self[:])

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # as a list's
