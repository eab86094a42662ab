"""The one answer of ``artifacts`` (its twin, :class:`.artifact_rows.Artifacts`), kept between runs in a side SQLite
database, so that a change of sources costs the papers it changes, not every introduced artifact's rows.

Made whole, the twin makes and sorts every row of the answer at every run. The database in the store's folder of
kept rows (:mod:`.kept_rows`, ``artifact-rows.CODE.memo``) holds the answer's rows, indexed in the query's
``ORDER BY`` (text by its UTF-8 bytes: code-point order, as SPARQL and Python compare plain strings; a paper
without a display title first, as SQL's NULL), so the first 1,000 rows and their number are one indexed query
each; and what each row was made of: each paper's artifacts, display titles and name lists and each artifact's
names and classes, as the counts' pass and the name lists wrote them. A run compares them with its own and makes
again the rows of the papers whose line changed or went away and of those that introduce an artifact whose names
or classes changed (a paper's rows are its own: :func:`~.artifact_rows.paper_rows`).

A run writes its changes in one transaction (a new database is made beside and put in place whole), so a run
killed while writing leaves the last run's. The database is used only when it is what this code wrote (its name
holds the code's fingerprint) and was written last by a run of this code (its stamp beside: the file's change
counter after that run's commit); otherwise it is made again from every line.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Iterator

from ..cache import fingerprint
from ..rdf.terms import literal, minted
from . import artifact_rows
from .artifact_rows import ARTIFACTS, _labels, paper_lines, paper_rows, parsed_paper
from .kept_rows import side_folder
from .list_lines import TwinFiles
from .list_store import KeptRanked, Listed
from .side_database import kept_database, put_in_place, stamp

_TABLES = """
CREATE TABLE papers (paper TEXT PRIMARY KEY, line TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE labels (artifact TEXT PRIMARY KEY, line TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE answer (type TEXT, lowered TEXT, title TEXT, artifact TEXT, paper TEXT, name TEXT, language TEXT,
    authors TEXT, institutions TEXT, name_language TEXT);
"""
_INDEXES = """
CREATE INDEX answer_ranked ON answer (type, lowered, title, artifact, paper, name, language, authors, institutions);
CREATE INDEX answer_paper ON answer (paper);
"""
# The answer's rows in the query's order (a total order): its one parameter, 1, reads them all.
_ROWS = Listed(
    "SELECT artifact, name, name_language, type, paper, title, language, authors, institutions FROM answer "
    "WHERE ? ORDER BY type, lowered, title, artifact, paper, name, language, authors, institutions",
    "SELECT COUNT(*) FROM answer WHERE ?",
    None,
)


def remembered_artifact_rows(folder: Path | None) -> Path | None:
    """The database in a store's folder of kept rows, named by the code that writes it and the twin's."""
    if folder is None or not folder.is_dir():
        return None
    return folder / f"artifact-rows.{fingerprint([Path(__file__), Path(artifact_rows.__file__)])}.memo"


def _label_lines(rows: TwinFiles) -> dict[str, str]:
    """Each artifact -> its lines of names and classes, as the counts' pass wrote them."""
    found: dict[str, str] = {}
    with open(rows.artifact_names, encoding="utf-8") as lines:
        for line in lines:
            artifact = line.partition("\t")[0]
            found[artifact] = found.get(artifact, "") + line
    return found


def _table_rows(papers: Iterator[tuple], labels: dict) -> Iterator[tuple]:
    """The table's rows of ``papers`` (:func:`~.artifact_rows._papers`' tuples)."""
    for paper in papers:
        for key, (_, name, _, _, title, _, _) in paper_rows(paper, labels).items():
            kind, lowered, _, artifact, iri, text, language, authors, institutions = key
            shown = None if title is None else title[0]
            yield kind, lowered, shown, artifact, iri, text, language, authors, institutions, name.language or ""


def _differing(now: dict[str, str], kept: dict[str, str]) -> set[str]:
    """The keys whose value is not the kept one (new, changed or gone)."""
    return {key for key in now.keys() | kept.keys() if now.get(key) != kept.get(key)}


def _brought(database: sqlite3.Connection, full: bool, rows: TwinFiles) -> None:
    """Make again the rows of the papers whose line changed or went away or whose artifacts' names changed."""
    labels, lines = _label_lines(rows), {paper: (line, named) for paper, line, named in paper_lines(rows)}
    read = (lambda sql: {}) if full else (lambda sql: dict(database.execute(sql)))
    changed = _differing(labels, read("SELECT artifact, line FROM labels"))
    touched = _differing(
        {paper: line + named for paper, (line, named) in lines.items()}, read("SELECT paper, line FROM papers")
    )
    if changed:
        touched.update(
            paper for paper, (line, _) in lines.items() if not changed.isdisjoint(line.split("\t")[1].split(" "))
        )
    made = [paper for paper in sorted(touched) if paper in lines]
    with database:
        gone = [(paper,) for paper in sorted(touched)]
        database.executemany("DELETE FROM answer WHERE paper = ?", gone)
        database.executemany("DELETE FROM papers WHERE paper = ?", gone)
        database.executemany("DELETE FROM labels WHERE artifact = ?", [(artifact,) for artifact in sorted(changed)])
        database.executemany("INSERT INTO papers VALUES (?, ?)", ((paper, "".join(lines[paper])) for paper in made))
        database.executemany(
            "INSERT INTO labels VALUES (?, ?)",
            ((artifact, labels[artifact]) for artifact in sorted(changed & labels.keys())),
        )
        database.executemany(
            "INSERT INTO answer VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            _table_rows((parsed_paper(*lines[paper]) for paper in made), _labels(rows)),
        )


class KeptArtifacts:
    """The twin of ``queries/artifacts.rq`` (:class:`.artifact_rows.Artifacts`), its rows kept (above) on an
    on-disk store."""

    digest = ARTIFACTS.digest
    variables = ARTIFACTS.variables

    def answer(self, store, rows: TwinFiles):
        """The query's rows, in its order (read from the database as they are read: it closes with them)."""
        path = remembered_artifact_rows(side_folder(store))
        if path is None:
            return ARTIFACTS.answer(store, rows)
        database, held = kept_database(path, _TABLES)
        _brought(database, not held, rows)
        if not held:  # made beside, put in place whole
            database = put_in_place(database, path, _INDEXES)
        stamp(path)
        return KeptRanked(database, _ROWS, 1, _kept_texts)


def _kept_texts(row: tuple) -> tuple[str | None, ...]:
    """A row of the database: artifact, name, its language, type, paper, title, its language, name lists."""
    artifact, name, name_language, kind, paper, title, language, authors, institutions = row
    shown = None if title is None else literal(title, language)
    return (
        minted(artifact),
        literal(name, name_language),
        literal(kind),
        minted(paper),
        shown,
        *map(literal, (authors, institutions)),
    )


ARTIFACTS_KEPT = KeptArtifacts()
