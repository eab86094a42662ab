"""Readers read a snapshot of the on-disk store, not the store.

A read-only opening of Oxigraph's database reads the data files its writer lists at that moment,
some of them only when a query first needs them; the writer's background compaction deletes files
it has merged, so a long reader beside a writer that loads a lot failed with "No such file or
directory: …/000451.sst" (measured at 100,000 papers). A snapshot is Oxigraph's backup (a RocksDB
checkpoint: hard links to the immutable data files, 2–3 ms at 100,000 papers) in
``DIR/kg-readers/``, whose links keep the files for as long as the reader lives.

Each snapshot holds an flock on its own lock file while it is in use; the OS releases it when its
process ends, killed or not, so whoever opens the store next removes every snapshot whose lock it
can take. A store whose folder cannot be written (a read-only mount) is read directly, as before.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from pathlib import Path

import pyoxigraph as ox

READERS = "kg-readers"
_LOCK = "in-use.lock"
_ATTEMPTS = 3  # a file compacted away between the opening and its links: try again


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


def open_snapshot(store_path: Path) -> tuple[ox.Store, Snapshot | None]:
    """The store at ``store_path`` for reading, through a snapshot where its folder can be written."""
    if not os.access(store_path, os.W_OK):
        return ox.Store.read_only(str(store_path)), None
    attempts = _ATTEMPTS
    while True:
        direct = ox.Store.read_only(str(store_path))
        try:
            snapshot = take_snapshot(direct, store_path)
            break
        except OSError:  # a data file the writer deleted meanwhile
            attempts -= 1
            if not attempts:
                raise
    del direct
    return ox.Store.read_only(str(snapshot.path)), snapshot


def clear_stale(store_path: Path) -> None:
    """Remove the snapshots no live process uses (their lock free), as a killed reader left them."""
    readers = store_path / READERS
    for folder in sorted(readers.iterdir()) if readers.is_dir() else ():
        try:
            lock = os.open(folder / _LOCK, os.O_RDWR)
        except OSError:  # being made right now (no lock file yet), or not a snapshot
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # in use
        finally:
            os.close(lock)
        shutil.rmtree(folder, ignore_errors=True)
