"""Work on the store in a process of its own, beside the process that holds it.

Where two long parts of a command only read the store (``kg build``'s export and its network
pages; the resolution step's display names and its counts) and each is one core's work, the second
runs in a reader process while the first runs here, so the command takes the longer of the two
instead of their sum.

The writer takes a snapshot of the store for the reader (:mod:`kg.stores.snapshots`: the
writer's compaction cannot delete a file the reader is about to read), so the reader sees the
store as it was when it started: it is started after the writes it must see. The process is
spawned, not forked: this one holds the engine's threads and locks, which a forked child must not
inherit.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import threading
import traceback
from pathlib import Path
from typing import Callable, Iterator

import pyoxigraph as ox

from ..errors import KgError
from .embedded import EmbeddedStore, KGStore
from .snapshots import take_snapshot


def _run(snapshot: str, target: Callable, args: tuple, done, outcome, update: str | None = None) -> None:
    """In the child: ``update`` made to the snapshot, then ``target(reader, *args, on_progress=...)``;
    then None or the error's one line."""
    try:
        if update:  # the snapshot is this process's own copy: the writer's store is untouched
            amended = ox.Store(snapshot)
            amended.update(update)
            amended.flush()
            del amended  # closed: the reader below opens the folder again

        def progress(count: int) -> None:
            done.value = count

        store = EmbeddedStore(snapshot, read_only=True, snapshot=False)  # a snapshot already
        try:
            target(store, *args, on_progress=progress)
        finally:
            store.close()
        outcome.send(None)
    except KgError as exc:
        outcome.send(str(exc))
    except BaseException as exc:  # noqa: BLE001 — one line to the parent, which raises it there
        outcome.send(f"{type(exc).__name__}: {exc} (in {traceback.extract_tb(exc.__traceback__)[-1].name})")


class ReaderProcess:
    """``target(reader, *args, on_progress=…)`` running in its own process on a read-only opening
    of a snapshot of the on-disk store ``store`` (its writer); ``target`` is a module-level function
    and writes its result to files. :meth:`wait` raises :class:`KgError` with the child's error,
    naming ``what``. ``update``: a SPARQL update made to the snapshot before ``target`` reads it
    (what the writer will have changed when the snapshot's view is the store's)."""

    def __init__(
        self,
        store: EmbeddedStore,
        what: str,
        target: Callable,
        *args,
        leaves: tuple[Path, ...] = (),
        update: str | None = None,
    ):
        self.what, self.leaves = what, leaves
        try:
            self._snapshot = take_snapshot(store.oxigraph, Path(store.spec))
        except OSError as exc:
            raise KgError(f"{what}: cannot snapshot the store ({' '.join(str(exc).split())[:300]})") from None
        snapshot = self._snapshot.path
        (snapshot / "kg-journal").mkdir()  # the reader's scratch (sorts, spools), removed with the snapshot
        context = multiprocessing.get_context("spawn")
        self._done = context.Value("q", 0, lock=False)
        self._outcome, sent = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_run, name=f"kg: {what}", daemon=True, args=(str(snapshot), target, args, self._done, sent, update)
        )
        self._process.start()
        sent.close()

    @property
    def done(self) -> int:
        """The last count the target reported to ``on_progress``."""
        return self._done.value

    @property
    def pid(self) -> int:
        return self._process.pid

    def alive(self) -> bool:
        return self._process.is_alive()

    def watch(self, on_progress: Callable[[int], None], every: float = 0.5) -> None:
        """Tell ``on_progress`` the target's count, from a thread, until the process ends."""

        def poll() -> None:
            while self._process.is_alive():
                on_progress(self.done)
                self._process.join(every)
            on_progress(self.done)

        threading.Thread(target=poll, name=f"kg: watching {self.what}", daemon=True).start()

    def wait(self) -> None:
        try:
            error = self._outcome.recv()
        except EOFError:  # the child died without a word (killed, out of memory)
            self._process.join()
            error = f"its process ended with code {self._process.exitcode}"
        self._process.join()
        self._snapshot.remove()
        if error is not None:
            raise KgError(f"{self.what}: {error}")

    def stop(self) -> None:
        """End the work unfinished (the command failed elsewhere) and remove the files it ``leaves``."""
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._snapshot.remove()
        for path in self.leaves:
            path.unlink(missing_ok=True)


def opens_beside(store: KGStore) -> bool:
    """Whether a snapshot of the store can be opened by another process: an on-disk store's writer,
    not one in memory, nor a server (which answers from threads of its own)."""
    return isinstance(store, EmbeddedStore) and store.spec != "memory" and not store.read_only


def reader_process(
    store: KGStore, what: str, target: Callable, *args, leaves: tuple[Path, ...] = (), update: str | None = None
) -> ReaderProcess | None:
    """The work started in a reader process, or None where no other process can open the store:
    the caller then does it in place (``update`` as for :class:`ReaderProcess`)."""
    return ReaderProcess(store, what, target, *args, leaves=leaves, update=update) if opens_beside(store) else None


def _write_triples(
    store: KGStore, produce: Callable, args: tuple, output: str, on_progress: Callable[[int], None]
) -> None:
    ox.serialize(produce(store, *args), output, ox.RdfFormat.N_TRIPLES)


class TriplesBeside:
    """The triples ``produce(store, *args)`` makes, made from now on by a reader process where asked
    (``beside``) and one can open the store (into an N-Triples file in the store's journal folder)
    while this process goes on; iterating waits for them and reads them back. Elsewhere iterating
    makes them in place. ``produce`` is a module-level function; the file is removed once read, or
    by :meth:`stop`."""

    def __init__(self, store: KGStore, beside: bool, what: str, produce: Callable, *args):
        self._store, self._produce, self._args = store, produce, args
        self._process = None
        if beside and opens_beside(store):
            handle, name = tempfile.mkstemp(prefix="kg-triples-", suffix=".nt", dir=store.scratch_dir)
            os.close(handle)
            self._file = Path(name)
            self._process = ReaderProcess(store, what, _write_triples, produce, args, name, leaves=(self._file,))

    def __iter__(self) -> Iterator[ox.Triple]:
        if self._process is None:
            yield from self._produce(self._store, *self._args)
            return
        try:
            self._process.wait()
            yield from ox.parse(path=str(self._file), format=ox.RdfFormat.N_TRIPLES)
        finally:
            self.stop()

    def stop(self) -> None:
        """End the reader process if it still runs, and remove its files."""
        if self._process is not None:
            self._process.stop()
