"""Readers read a published snapshot of the on-disk store, never the store a writer is changing.

A writer changes the store in many steps (graphs dropped then loaded, the resolution step's
derived graph, the description rewritten), and its background compaction deletes the data files
it has merged. A reader that opened the store itself could therefore see a graph half-written
(`kg stats` answered from a store without its description) or lose a data file it had yet to
read ("Corruption: … No such file or directory: …/000973.sst"). So readers never open the
store the writer holds:

- a writer, when it closes (its work complete, the store consistent, its lock still held),
  *publishes* the store: Oxigraph's backup (a RocksDB checkpoint: hard links to the immutable
  data files, a few ms) made in ``DIR/kg-readers/.publishing-*`` and renamed to
  ``published-<time>`` — the rename is the moment readers see the new graph;
- a reader takes the newest published snapshot under a shared flock on its ``published.lock``,
  makes its own snapshot of it (another backup, into ``reader-*``) and lets the shared lock go;
  a published snapshot is immutable, so nothing a writer does can break that copy;
- a writer removes an older published snapshot only when it can take its lock exclusively (no
  reader copying it); a reader that finds the one it chose removed (its lock file unlinked)
  chooses again.

A store written before snapshots were published has none: the first reader that finds no
writer at work publishes one (under the writer lock, so nothing changes meanwhile); beside a
writer it reads the store itself, as before. Each reader's own snapshot holds an flock on its
lock file while in use; the OS releases it when its process ends, killed or not, so whoever
opens the store next removes every reader snapshot whose lock it can take. A store whose folder
cannot be written (a read-only mount) is read directly.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pyoxigraph as ox

READERS = "kg-readers"
WRITER_LOCK = "kg-writer.lock"
_LOCK = "in-use.lock"
_PUBLISHED = "published-"
_PUBLISHED_LOCK = "published.lock"
_PUBLISHING = ".publishing-"
_ATTEMPTS = 20  # a data file compacted away between the opening and its links: try again (unpublished store only)


class Snapshot:
    """A snapshot folder in use by this process; :meth:`remove` when done."""

    def __init__(self, folder: Path, lock: int):
        self.folder, self._lock = folder, lock  # the lock None once removed

    @property
    def path(self) -> Path:
        """The snapshot's database, which ``ox.Store.read_only`` opens."""
        return self.folder / "store"

    def remove(self) -> None:
        if self._lock is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            os.close(self._lock)
            self._lock = None


def take_snapshot(source: ox.Store, store_path: Path) -> Snapshot:
    """A snapshot of ``source`` (the store at ``store_path``, opened for writing or reading) as it is now."""
    readers = store_path / READERS
    readers.mkdir(exist_ok=True)
    clear_stale(store_path)
    folder = Path(tempfile.mkdtemp(prefix="reader-", dir=readers))
    # Locked before it has its name, so no one clearing stale snapshots ever finds it free.
    lock = os.open(folder / "lock.new", os.O_CREAT | os.O_RDWR, 0o644)
    fcntl.flock(lock, fcntl.LOCK_EX)
    os.rename(folder / "lock.new", folder / _LOCK)
    snapshot = Snapshot(folder, lock)
    try:
        source.backup(str(snapshot.path))
    except BaseException:
        snapshot.remove()
        raise
    return snapshot


def publish(source: ox.Store, store_path: Path) -> None:
    """Make the store as ``source`` (its writer, still holding the writer lock) holds it now what
    readers open from now on, and remove the older published snapshots no reader is copying."""
    readers = store_path / READERS
    readers.mkdir(exist_ok=True)
    for leftover in readers.glob(f"{_PUBLISHING}*"):  # a writer killed while publishing (only writers publish)
        shutil.rmtree(leftover, ignore_errors=True)
    folder = Path(tempfile.mkdtemp(prefix=_PUBLISHING, dir=readers))
    source.backup(str(folder / "store"))
    (folder / _PUBLISHED_LOCK).touch()
    os.rename(folder, readers / f"{_PUBLISHED}{time.time_ns():020d}")
    for older in _published(store_path)[:-1]:
        _remove_unused(older)


def _published(store_path: Path) -> list[Path]:
    """The published snapshots, oldest first (their names sort by time)."""
    readers = store_path / READERS
    return sorted(readers.glob(f"{_PUBLISHED}*")) if readers.is_dir() else []


def _remove_unused(folder: Path) -> None:
    try:
        lock = os.open(folder / _PUBLISHED_LOCK, os.O_RDWR)
    except OSError:
        return
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.unlink(folder / _PUBLISHED_LOCK)  # unlinked first: a reader that locks it afterwards sees it gone
        shutil.rmtree(folder, ignore_errors=True)
    except BlockingIOError:
        pass  # a reader is copying it: the next publication removes it
    finally:
        os.close(lock)


@contextlib.contextmanager
def _newest_published(store_path: Path) -> Iterator[Path | None]:
    """The newest published snapshot's database, held (shared flock) until the block ends; None when there is none."""
    while True:
        published = _published(store_path)
        if not published:
            yield None
            return
        try:
            lock = os.open(published[-1] / _PUBLISHED_LOCK, os.O_RDONLY)
        except FileNotFoundError:
            continue  # removed after it was listed: a newer one exists
        try:
            fcntl.flock(lock, fcntl.LOCK_SH)
            if os.fstat(lock).st_nlink:  # not removed between the opening and the lock
                yield published[-1] / "store"
                return
        finally:
            os.close(lock)


@contextlib.contextmanager
def _writer_lock_if_free(store_path: Path) -> Iterator[bool]:
    """The store's writer lock for the block when no writer holds it (True), else nothing (False)."""
    handle = os.open(store_path / WRITER_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(handle)


def open_snapshot(store_path: Path) -> tuple[ox.Store, Snapshot | None]:
    """The store at ``store_path`` for reading, through a snapshot where its folder can be written."""
    if not os.access(store_path, os.W_OK):
        return ox.Store.read_only(str(store_path)), None
    with _newest_published(store_path) as published:
        if published is not None:
            snapshot = take_snapshot(ox.Store.read_only(str(published)), store_path)
            return ox.Store.read_only(str(snapshot.path)), snapshot
    with _writer_lock_if_free(store_path) as unwritten:
        if unwritten:  # a store from before publication: publish it now, as its writer would have
            publish(ox.Store.read_only(str(store_path)), store_path)
    if unwritten:
        return open_snapshot(store_path)
    return _snapshot_beside_writer(store_path)


def _snapshot_beside_writer(store_path: Path) -> tuple[ox.Store, Snapshot]:
    """A snapshot of the store itself while a writer that has never published changes it."""
    attempts = _ATTEMPTS
    while True:
        try:
            snapshot = take_snapshot(ox.Store.read_only(str(store_path)), store_path)
            return ox.Store.read_only(str(snapshot.path)), snapshot
        except (OSError, RuntimeError):  # a data file the writer deleted meanwhile ("Corruption: … No such file")
            attempts -= 1
            if not attempts:
                raise
            time.sleep(0.05)


def clear_stale(store_path: Path) -> None:
    """Remove the reader snapshots no live process uses (their lock free), as a killed reader left them."""
    readers = store_path / READERS
    for folder in sorted(readers.iterdir()) if readers.is_dir() else ():
        try:
            lock = os.open(folder / _LOCK, os.O_RDWR)
        except OSError:  # being made right now (no lock file yet), published, or not a snapshot
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # in use
        finally:
            os.close(lock)
        shutil.rmtree(folder, ignore_errors=True)
