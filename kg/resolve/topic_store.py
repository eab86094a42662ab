"""The rows of the lists of ``topic-papers`` (its twin, :mod:`.topic_rows`), kept between runs in a side SQLite
database, so that a change of sources costs the papers it changes, not every topic assignment of the store.

Made whole, the twin reads every assignment of the listed topics from the topic detail graphs (the engine's join
of four patterns over every source) and sorts each topic's rows again. The database in the store's folder of kept
rows (:mod:`.kept_rows`, ``topic-rows.CODE.memo``) holds each listed topic's rows (a paper with an assignment of it
or of a topic below it, with each of its display titles: its largest weight and its matched words), indexed in the
query's ``ORDER BY`` (the weight as a number: :func:`exact` says when that is the decimal's order; a title by its
UTF-8 bytes, code-point order, one without first as SQL's NULL), so a topic's first 1,000 rows and its number of
rows are one indexed query each. Beside them it keeps what says which rows a run must make again: the papers with
an assignment in each graph (``sourced``), the stamp of each detail graph (:func:`.topic_rows.graph_stamps`), the
papers the paper merges name (they are renamed in a graph no source change touches) and each paper's display
titles as the counts' pass wrote them. The twin makes again the rows of the papers of the graphs whose stamp
changed or that went, of the merges' papers (this run's and the last one's) and of the papers whose display
titles changed, from the engine's join for those papers alone, over every graph.

A run writes its changes in one transaction (a new database is made beside and put in place whole), so a run
killed while writing leaves the last run's. The database is used only when it is what this code wrote (its name
holds the code's fingerprint), was written last by a run of this code (its stamp beside: the file's change counter
after that run's commit) and was made for the same topics and scheme (``state``); otherwise it is made again
from every assignment.
"""

from __future__ import annotations

import json
import sqlite3
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..cache import fingerprint
from .list_store import KeptRanked, Listed
from .side_database import kept_database, put_in_place, stamp, unstamped

_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE sourced (graph TEXT, paper TEXT, PRIMARY KEY (graph, paper)) WITHOUT ROWID;
CREATE TABLE titles (paper TEXT PRIMARY KEY, titles TEXT) WITHOUT ROWID;
CREATE TABLE topic_rows (topic TEXT, weight REAL, title TEXT, paper TEXT, seq INTEGER, language TEXT,
    weight_value TEXT, weight_type TEXT, words TEXT);
"""
_INDEXES = """
CREATE INDEX topic_rows_ranked ON topic_rows (topic, weight DESC, title, paper, seq);
CREATE INDEX topic_rows_paper ON topic_rows (paper);
"""
# A topic's rows in the query's order: strongest first, then by title (none first), IRI, and the order of the
# paper's titles where two have the same text (a total order: no tie is left to sort in Python).
_ROWS = Listed(
    "SELECT paper, title, language, weight_value, weight_type, words FROM topic_rows WHERE topic = ? "
    "ORDER BY weight DESC, title, paper, seq",
    "SELECT COUNT(*) FROM topic_rows WHERE topic = ?",
    None,
)
# (topic, paper, weight as a number, its lexical form and datatype, display titles ([text, language]), words)
Made = tuple[str, str, float, str, str, list, str]


def remembered_topic_rows(folder: Path | None, twin: Path) -> Path | None:
    """The database in a store's folder of kept rows, named by the code that writes it and the twin's (``twin``)."""
    if folder is None or not folder.is_dir():
        return None
    return folder / f"topic-rows.{fingerprint([Path(__file__), twin])}.memo"


def exact(value: str) -> bool:
    """Whether a decimal is its double's shortest form: then doubles order such decimals as the decimals (no two
    of them share one), and the table can sort by weight."""
    try:
        return Decimal(repr(float(value))) == Decimal(value)
    except (ValueError, InvalidOperation):
        return False


class Inexact(ValueError):
    """A weight the table cannot order (:func:`exact`)."""


def _table_rows(made: Iterable[Made], papers: set[str]) -> Iterator[tuple]:
    """The table's rows of ``made`` (their papers added to ``papers``): one for each display title of the paper
    (one, its title NULL, without)."""
    for topic, paper, number, value, kind, shown, words in made:
        if not exact(value):
            raise Inexact(value)
        papers.add(paper)
        for seq, (title, language) in enumerate(shown or [(None, None)]):
            yield topic, number, title, paper, seq, language, value, kind, words


class TopicStore:
    """The kept rows (above) of one run: :meth:`open`, :meth:`write` the changed papers' rows, :meth:`lists`."""

    def __init__(self, path: Path):
        self.path = path
        self.database: sqlite3.Connection | None = None
        self.full = True  # whether the database is made from every assignment this run

    def open(self, state: str) -> bool:
        """Open the database for a run whose topics and scheme are ``state``: True when the kept rows hold (above),
        else a new database is made beside, to put in place once written."""
        self.database, held = kept_database(self.path, _TABLES, ("state", state))
        self.full = not held
        if self.full:
            self.database.execute("INSERT INTO meta VALUES ('state', ?)", (state,))
        return held

    def _meta(self, key: str, default):
        found = self.database.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return default if found is None else json.loads(found[0])

    def graphs(self) -> dict[str, str]:
        """Each graph's stamp as the last run took it, and the graphs papers had assignments in (stamp "")."""
        stamps = {graph: "" for (graph,) in self.database.execute("SELECT DISTINCT graph FROM sourced")}
        return stamps | self._meta("graphs", {})

    def merged(self) -> set[str]:
        return set(self._meta("merged", []))

    def papers_in(self, graphs: Iterable[str]) -> set[str]:
        """The papers the last run found an assignment of in ``graphs``."""
        read = "SELECT paper FROM sourced WHERE graph = ?"
        return {paper for graph in graphs for (paper,) in self.database.execute(read, (graph,))}

    def titles(self) -> dict[str, str]:
        """Each paper with rows -> its display titles as the counts' pass wrote them, when its rows were made."""
        return dict(self.database.execute("SELECT paper, titles FROM titles"))

    def write(self, papers: set[str] | None, made: Iterable[Made], titles: dict[str, str], kept: dict) -> None:
        """Replace the rows of ``papers`` (None: every paper, a new database) with ``made``, and their titles
        (:class:`Inexact` where a weight is one the table cannot order: nothing is written);
        ``kept``: ``sourced`` (graph -> its papers now, of the graphs read again), ``graphs`` (the stamps) and
        ``merged`` (the merges' papers)."""
        database = self.database
        with database:
            if papers is not None:
                gone = [(paper,) for paper in sorted(papers)]
                database.executemany("DELETE FROM topic_rows WHERE paper = ?", gone)
                database.executemany("DELETE FROM titles WHERE paper = ?", gone)
                database.executemany("DELETE FROM sourced WHERE graph = ?", [(graph,) for graph in kept["sourced"]])
            with_rows: set[str] = set()
            database.executemany(
                "INSERT INTO topic_rows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", _table_rows(made, with_rows)
            )
            database.executemany(
                "INSERT INTO titles VALUES (?, ?)", ((paper, titles.get(paper, "")) for paper in sorted(with_rows))
            )
            database.executemany(
                "INSERT INTO sourced VALUES (?, ?)",
                ((graph, paper) for graph, found in sorted(kept["sourced"].items()) for paper in sorted(found)),
            )
            for key in ("graphs", "merged"):
                database.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(kept[key])))
        if self.full:  # made beside, put in place whole
            self.database = put_in_place(database, self.path, _INDEXES)
        stamp(self.path)

    def lists(self, topics: list[str], texts: Callable[[tuple], tuple]) -> Iterator[tuple[str, KeptRanked]]:
        """(topic, its rows in the query's order, their values' texts made by ``texts``) for each of ``topics``."""
        for topic in topics:
            yield topic, KeptRanked(self.database, _ROWS, topic, texts)

    def abandon(self) -> None:
        """Leave the kept rows unused (a weight the table cannot order): the next run makes them again."""
        self.close()
        unstamped(self.path)

    def close(self) -> None:
        if self.database is not None:
            self.database.close()
            self.database = None
