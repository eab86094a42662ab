"""The side SQLite databases that keep a precomputed list's rows between runs (:mod:`.list_store`,
:mod:`.topic_store`, :mod:`.artifact_store`): when one holds, how a new one is put in place.

A database is used only when it was written last by a run of this code: its name holds the code's fingerprint, and
its stamp beside it (``.memo-stamp``) is its file change counter after that run's commit, which a hand edit or a
run killed after its commit changes; and when what it was made for (a ``meta`` row) is this run's. Otherwise a new
one is made beside (``.new``, without a journal) and put in place whole once written, its indexes made last
(sorting the rows once costs less than keeping them sorted).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from .kept_rows import remembered_written


def change_counter(path: Path) -> str:
    """SQLite's file change counter (the header's bytes 24 to 27), which every write transaction changes."""
    with open(path, "rb") as database:
        database.seek(24)
        return database.read(4).hex()


def _stamp(path: Path) -> Path:
    return path.with_suffix(".memo-stamp")


def kept_database(
    path: Path, tables: str, meta: tuple[str, str | None] | None = None
) -> tuple[sqlite3.Connection, bool]:
    """The database at ``path`` and True if it holds (above; ``meta``: the key and value of what it must have been
    made for, a value None for nothing it can hold), else a new one beside with ``tables``, and False."""
    if path.is_file() and (meta is None or meta[1] is not None):
        database = sqlite3.connect(path)
        try:
            made_for = (
                meta is None
                or database.execute("SELECT value FROM meta WHERE key = ?", meta[:1]).fetchone() == meta[1:]
            )
            stamped = _stamp(path)
            if made_for and stamped.is_file() and stamped.read_text(encoding="utf-8") == change_counter(path):
                database.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # a damaged file fails here
                return database, True
        except sqlite3.Error:
            pass  # a damaged database costs the rows made again, never a wrong row
        database.close()
    _stamp(path).unlink(missing_ok=True)  # the old database is never used again
    written = path.with_suffix(".new")
    written.unlink(missing_ok=True)
    database = sqlite3.connect(written)
    database.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;" + tables)
    return database, False


def put_in_place(database: sqlite3.Connection, path: Path, indexes: str) -> sqlite3.Connection:
    """A new database (made beside by :func:`kept_database`), its ``indexes`` made, in place of the old one and of
    those another code made: opened again."""
    database.executescript(indexes)
    database.close()
    with open(path.with_suffix(".new"), "rb") as written:
        os.fsync(written.fileno())  # written without a journal: on disk before it is put in place
    remembered_written(path, True)  # the database of another code goes
    for other in path.parent.glob(f"{path.name.split('.', 1)[0]}.*.memo-stamp"):
        other.unlink()
    return sqlite3.connect(path)


def stamp(path: Path) -> None:
    """Stamp the database as this run leaves it (after its commit)."""
    _stamp(path).write_text(change_counter(path), encoding="utf-8")


def unstamped(path: Path) -> None:
    """Leave the database unused: the next run makes it again."""
    _stamp(path).unlink(missing_ok=True)
    path.with_suffix(".new").unlink(missing_ok=True)


def forget_kept_databases(folder: Path | None) -> None:
    """Leave every kept database in ``folder`` unused (their stamps gone): the next run makes each again."""
    for stamped in sorted(folder.glob("*.memo-stamp")) if folder is not None and folder.is_dir() else ():
        stamped.unlink(missing_ok=True)
