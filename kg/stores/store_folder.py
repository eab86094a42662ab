"""An embedded store's folder: the writer lock, opening Oxigraph for reading or writing, and
refusing a folder that is not a store (or a damaged one)."""

from __future__ import annotations

import fcntl
import hashlib
import os
import sys
import time
from pathlib import Path

import pyoxigraph as ox

from ..errors import KgError
from . import DEFAULT_WAIT, WAIT_ENV
from .snapshots import READERS, WRITER_LOCK, Snapshot, open_snapshot


class StoreBusy(KgError):
    """Another kg command is writing the store and did not finish within the wait."""

    exit_code = 2


def default_wait() -> float:
    try:
        return float(os.environ.get(WAIT_ENV) or DEFAULT_WAIT)
    except ValueError:
        raise KgError(f"${WAIT_ENV}={os.environ[WAIT_ENV]!r}: give the wait in seconds") from None


# Files a store folder holds besides Oxigraph's own: kg's journal and lock, and the sources' side rows
# (kg/resolve/kept_rows.py).
_KG_FILES = {"kg-journal", WRITER_LOCK, READERS, "kg-side", "kg-closed"}
CLOSED = "kg-closed"  # Oxigraph's files as kg's last writer left them (:func:`untouched_since_closed`)


def _check_folder(path: Path, spec: str, read_only: bool) -> None:
    """Refuse what is not a store, and never let Oxigraph start afresh over a damaged one
    (RocksDB would create a new database and delete the old data files)."""
    if path.exists() and not path.is_dir():
        raise KgError(f"--store {spec}: is a file, not a store folder")
    if (path / "CURRENT").is_file():
        return
    others = sorted(p.name for p in path.iterdir() if p.name not in _KG_FILES) if path.is_dir() else []
    if others:
        raise KgError(
            f"--store {spec}: the store is damaged (its CURRENT file is missing) and was left as it is; "
            f"restore the folder from a backup, or move it away and run kg build to start afresh"
        )
    if read_only:
        raise KgError(f"no graph here ({spec}): run kg build first, or give --store")


def _cannot_open(spec: str, exc: OSError) -> KgError:
    return KgError(f"--store {spec}: cannot open the store ({' '.join(str(exc).split())[:300]}); nothing was changed")


def _open_reader(spec: str, path: Path, snapshot: bool) -> tuple[ox.Store, Snapshot | None]:
    try:
        return open_snapshot(path) if snapshot else (ox.Store.read_only(str(path)), None)
    except OSError as exc:
        raise _cannot_open(spec, exc) from None


def _open_writer(path: Path, spec: str, wait: float) -> tuple[int, ox.Store, bool]:
    """The writer lock, then the store, and whether it was :func:`untouched_since_closed`. A writer that just
    finished may hold Oxigraph's own lock a moment longer than ours (until its process ends), so that is waited
    for too."""
    deadline = time.monotonic() + wait
    lock = _take_lock(path, spec, wait)
    untouched = untouched_since_closed(path)
    while True:
        try:
            return lock, ox.Store(str(path)), untouched
        except OSError as exc:
            if "lock" not in str(exc).lower() or time.monotonic() >= deadline:
                _close_lock(lock)
                raise _cannot_open(spec, exc) from None
            time.sleep(0.1)


def _take_lock(path: Path, spec: str, wait: float, quiet: bool = False) -> int | None:
    """Wait up to ``wait`` seconds for the store's writer lock (an flock the OS releases when a
    writer exits, even killed); None when ``quiet`` and it is taken."""
    path.mkdir(parents=True, exist_ok=True)
    handle = os.open(path / WRITER_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    deadline, told = time.monotonic() + wait, False
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return handle
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(handle)
                if quiet:
                    return None
                raise StoreBusy(
                    f"--store {spec}: another kg command is still writing it after {wait:g} s; "
                    f"try again later or wait longer (--wait SECONDS)"
                ) from None
            if not told and not quiet:
                print(
                    f"kg: waiting up to {wait:g} s for another kg command writing {spec} …", file=sys.stderr, flush=True
                )
                told = True
            time.sleep(0.1)


def _close_lock(handle: int) -> None:
    os.close(handle)  # closing the descriptor releases the flock


def _committed(journal: Path) -> bool:
    return journal.is_dir() and any(entry.suffix in (".commit", ".loading") for entry in journal.iterdir())


def _fsync(path: Path) -> None:
    """Make a file or a rename durable (POSIX: a directory entry is synced through its folder)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _folder_state(path: Path) -> str | None:
    """Oxigraph's files in a store's folder (name, size, modification time), as a digest: a write to the store,
    by any program, adds or changes one of them (RocksDB's write-ahead log, its manifest, a data file), and so
    does an opening for writing. RocksDB's informational logs (``LOG*``) and kg's own files are left out. None
    when a file goes while the folder is read (a compaction still at work): the folder is changing."""
    files = []
    for entry in os.scandir(path):
        if entry.name.startswith(("LOG", "kg-")):
            continue
        try:
            if entry.is_file():
                info = entry.stat()
                files.append(f"{entry.name}\t{info.st_size}\t{info.st_mtime_ns}")
        except FileNotFoundError:
            return None
    return hashlib.sha256("\n".join(sorted(files)).encode("utf-8")).hexdigest()


def untouched_since_closed(path: Path) -> bool:
    """Whether nothing opened the store for writing since kg's last writer closed it (:func:`note_closed`):
    then every graph is as that writer left it."""
    closed = path / CLOSED
    state = _folder_state(path) if closed.is_file() else None
    return state is not None and closed.read_text(encoding="utf-8") == state


def note_closed(path: Path) -> None:
    """Remember Oxigraph's files as a writer leaves them, once the database is closed (a writer killed before
    leaves the last note, which its own writes no longer match)."""
    state = _folder_state(path)
    if state is None:  # no note that could hold: the next writer counts the graphs
        (path / CLOSED).unlink(missing_ok=True)
        return
    written = path / (CLOSED + ".new")
    written.write_text(state, encoding="utf-8")
    os.replace(written, path / CLOSED)
