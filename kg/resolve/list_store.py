"""The rows of the lists about an institution (the twins ``institution-authors``, ``institution-authors-per-author``
and ``institution-papers`` of :mod:`.list_rows`), kept between runs in a side SQLite database, so that a change of
sources costs what it changes, not the corpus.

Made whole, each list reads every paper's line (:func:`~.list_lines.listed_paper`) and sorts each institution's
rows again. The database in the store's folder of kept rows (:mod:`.kept_rows`) holds the last run's lines, one
a paper, and each list's rows of every institution with their sort keys and display names, indexed in the
query's ``ORDER BY``; so an institution's first rows and its number of rows are one indexed query each
(BINARY collation compares UTF-8 bytes: code-point order, as SPARQL and Python compare plain strings). A run
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
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from ..cache import fingerprint
from . import list_lines
from .kept_rows import remembered_written
from .list_lines import ListedPaper, listed_paper, paper_rows, where_rows

if TYPE_CHECKING:
    from .name_list_memo import NamesChanged

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE papers (paper TEXT PRIMARY KEY, line TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE authors (entity TEXT, person TEXT, papers INTEGER, name TEXT, PRIMARY KEY (entity, person))
    WITHOUT ROWID;
CREATE INDEX authors_ranked ON authors (entity, papers DESC, name, person);
CREATE INDEX authors_person ON authors (person);
CREATE TABLE spans (entity TEXT, person TEXT, known TEXT, first TEXT, last TEXT, n INTEGER,
    PRIMARY KEY (entity, person, known, first, last)) WITHOUT ROWID;
CREATE TABLE authorships (entity TEXT, person TEXT, known TEXT, papers INTEGER, first TEXT, last TEXT, name TEXT,
    PRIMARY KEY (entity, person, known)) WITHOUT ROWID;
CREATE INDEX authorships_ranked ON authorships (entity, papers DESC, name, person, known);
CREATE INDEX authorships_person ON authorships (person);
CREATE TABLE paper_rows (entity TEXT, title TEXT, paper TEXT, venue TEXT, language TEXT, track TEXT);
CREATE INDEX paper_rows_ranked ON paper_rows (entity, title, paper, venue, language, track);
CREATE INDEX paper_rows_paper ON paper_rows (paper);
"""
# Each list's rows of an institution, in its query's order (name IS NULL: a person without a display name, no row).
_LISTS = {
    "authors": ("person, name, papers", "name IS NOT NULL", "papers DESC, name, person"),
    "authorships": (
        "person, name, known, papers, first, last",
        "name IS NOT NULL",
        "papers DESC, name, person, known",
    ),
    "paper_rows": ("paper, title, venue, language, track", "1", "title, paper, venue, language, track"),
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


def _change_counter(path: Path) -> str:
    """SQLite's file change counter (the header's bytes 24 to 27), which every write transaction changes."""
    with open(path, "rb") as database:
        database.seek(24)
        return database.read(4).hex()


def _stamp(path: Path) -> Path:
    return path.with_suffix(".memo-stamp")


def _paper_rows(paper: ListedPaper) -> set[tuple]:
    """The paper's rows of ``institution-papers`` (:func:`.list_rows.paper_rows`) as the table holds them, for
    every institution it lists."""
    made = set()
    for _, (iri, title, venue, track) in paper_rows(paper.paper, paper.titles, paper.venues, paper.tracks):
        value, language = venue if venue is not None else (None, None)
        made.update((entity, title, iri, value, language, track) for entity in paper.listed)
    return made


class _Change:
    """The contributions of the papers a run takes off (``sign`` -1) and adds (+1)."""

    def __init__(self):
        self.authors: Counter[tuple[str, str]] = Counter()
        self.spans: Counter[tuple[str, str, str, str, str]] = Counter()
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


class ListStore:
    """The kept rows (above), brought up to date from a run's lines when a list first reads them."""

    def __init__(self, path: Path, changed: NamesChanged):
        self.path, self.changed = path, changed
        self.database: sqlite3.Connection | None = None
        self.full: bool | None = None  # whether this run made the rows from every line (None: not yet brought)

    def lists(
        self, table: str, rows, entities: Iterable[str], terms: Callable[[tuple], tuple]
    ) -> Iterator[tuple[str, KeptRanked]]:
        """(entity, its rows of the list ``table`` in the query's order) for each of ``entities``, in code-point
        order of IRI; ``rows``: the run's :class:`~.list_lines.TwinFiles`."""
        database = self._brought(rows)
        for entity in sorted(set(entities)):
            yield entity, KeptRanked(database, table, entity, terms)

    def close(self) -> None:
        if self.database is not None:
            self.database.close()
            self.database = None

    def _brought(self, rows) -> sqlite3.Connection:
        if self.database is None:
            self.database = self._opened()
            with self.database:
                self._bring(self.database, rows)
            _stamp(self.path).write_text(_change_counter(self.path), encoding="utf-8")
        return self.database

    def _opened(self) -> sqlite3.Connection:
        """The database if it holds (above), else a new one; ``full`` says which."""
        if self.path.is_file() and self.changed.since is not None:
            database = sqlite3.connect(self.path)
            try:
                since = database.execute("SELECT value FROM meta WHERE key = 'names'").fetchone()
                stamped = _stamp(self.path)
                if (
                    since == (self.changed.since,)
                    and stamped.is_file()
                    and stamped.read_text(encoding="utf-8") == _change_counter(self.path)
                ):
                    self.full = False
                    return database
            except sqlite3.Error:
                pass  # a damaged database costs the rows made again, never a wrong row
            database.close()
        self.full = True
        written = self.path.with_suffix(".new")
        written.unlink(missing_ok=True)
        database = sqlite3.connect(written)
        database.executescript(_SCHEMA)
        database.close()
        _stamp(self.path).unlink(missing_ok=True)
        remembered_written(self.path, True)  # the database of another code goes
        for other in self.path.parent.glob(f"{self.path.name.split('.', 1)[0]}.*.memo-stamp"):
            other.unlink()
        return sqlite3.connect(self.path)

    def _bring(self, database: sqlite3.Connection, rows) -> None:
        """Take the changed papers' old contributions off and add their new ones; name the people again."""
        old = dict(database.execute("SELECT paper, line FROM papers"))
        change, written = _Change(), []
        made_rows: list[set[tuple]] = []
        with open(rows.papers, encoding="utf-8") as lines:
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
        if not self.full:
            gone = [(paper,) for paper in old] + [(paper,) for paper, _ in written]
            database.executemany("DELETE FROM papers WHERE paper = ?", gone)
            database.executemany("DELETE FROM paper_rows WHERE paper = ?", gone)
        database.executemany("INSERT INTO papers VALUES (?, ?)", written)
        database.executemany(
            "INSERT INTO paper_rows VALUES (?, ?, ?, ?, ?, ?)", (row for made in made_rows for row in made)
        )
        people = None if self.full else change.people | self.changed.people
        names = smallest_names(rows.person_names, people)
        _count_authors(database, change.authors, names)
        _count_spans(database, change.spans, names, self.full)
        if people is not None:
            for table in ("authors", "authorships"):
                database.executemany(
                    f"UPDATE {table} SET name = ? WHERE person = ?", ((names.get(p), p) for p in sorted(people))
                )
        generation = self.changed.generation or ""
        database.execute("INSERT OR REPLACE INTO meta VALUES ('names', ?)", (generation,))


def _count_authors(database: sqlite3.Connection, change: Counter, names: dict[str, str]) -> None:
    """``institution-authors``: each (institution, author)'s papers, counted up and down; a count of none goes."""
    database.executemany(
        "INSERT INTO authors VALUES (?, ?, ?, ?) "
        "ON CONFLICT (entity, person) DO UPDATE SET papers = papers + excluded.papers",
        ((entity, person, n, names.get(person)) for (entity, person), n in change.items() if n),
    )
    database.executemany(
        "DELETE FROM authors WHERE entity = ? AND person = ? AND papers = 0",
        (key for key, n in change.items() if n < 0),
    )


def _count_spans(database: sqlite3.Connection, change: Counter, names: dict[str, str], full: bool) -> None:
    """``institution-authors-per-author``: the multiset of year spans of each (institution, person, known) counted
    up and down, and of each key it touched, the papers, first and last year made again from it."""
    database.executemany(
        "INSERT INTO spans VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (entity, person, known, first, last) DO UPDATE SET n = n + excluded.n",
        ((*key, n) for key, n in change.items() if n),
    )
    database.executemany(
        "DELETE FROM spans WHERE entity = ? AND person = ? AND known = ? AND first = ? AND last = ? AND n = 0",
        (key for key, n in change.items() if n < 0),
    )
    spans: dict[tuple[str, str, str], list[tuple[str, str, int]]] = {}
    for (entity, person, known, first, last), n in change.items():
        spans.setdefault((entity, person, known), []).append((first, last, n))
    if not full:  # the kept spans, the change among them
        read = "SELECT first, last, n FROM spans WHERE entity = ? AND person = ? AND known = ?"
        spans = {key: database.execute(read, key).fetchall() for key in spans}
    made = [(*key, *_spanned(found), names.get(key[1])) for key, found in spans.items()]
    database.executemany(
        "DELETE FROM authorships WHERE entity = ? AND person = ? AND known = ?",
        (key for key, found in spans.items() if not any(n for _, _, n in found)),
    )
    database.executemany(
        "INSERT INTO authorships VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (entity, person, known) "
        "DO UPDATE SET papers = excluded.papers, first = excluded.first, last = excluded.last",
        (row for row in made if row[3]),
    )


def _spanned(spans: list[tuple[str, str, int]]) -> tuple[int, str, str]:
    """The papers, first and last year of a key's year spans (``first``, ``last``, papers): the smallest first
    and largest last year (compared as numbers, as the query's ``MIN`` and ``MAX``), "" where no paper has one."""
    years = [(first, last) for first, last, n in spans if first and n]
    if not years:
        return sum(n for _, _, n in spans), "", ""
    return sum(n for _, _, n in spans), min((y for y, _ in years), key=int), max((y for _, y in years), key=int)


class KeptRanked(Sequence):
    """An institution's rows of a kept list in the query's order, read when asked for (a list keeps its first
    rows and counts the others: one indexed query each), made into RDF terms by ``terms``."""

    def __init__(self, database: sqlite3.Connection, table: str, entity: str, terms: Callable[[tuple], tuple]):
        self.database, self.table, self.entity, self.terms = database, table, entity, terms
        self._length: int | None = None

    def _select(self) -> str:
        columns, where, order = _LISTS[self.table]
        return f"SELECT {columns} FROM {self.table} WHERE entity = ? AND {where} ORDER BY {order}"

    def __len__(self) -> int:
        if self._length is None:
            _, where, _ = _LISTS[self.table]
            read = f"SELECT COUNT(*) FROM {self.table} WHERE entity = ? AND {where}"
            self._length = self.database.execute(read, (self.entity,)).fetchone()[0]
        return self._length

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            read = self._select() + " LIMIT ? OFFSET ?"
            found = self.database.execute(read, (self.entity, max(stop - start, 0), start)).fetchall()
            return [self.terms(row) for row in found[::step]]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self[index % len(self) : index % len(self) + 1][0]

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # as a list's
