"""Bulk loads in bounded chunks, and a loader thread that takes N-Triples while they are written.

Oxigraph's bulk loader holds what one call is given in memory while it builds its index
files, so a call per chunk of :data:`CHUNK_BYTES` keeps its memory the same whatever the
size of the source. It releases the GIL while it works, so a thread loading the chunks
already written runs beside the process (and its worker processes) mapping the next ones:
both cores busy instead of mapping first and loading after.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path
from typing import BinaryIO

import pyoxigraph as ox

CHUNK_BYTES = 32 << 20  # N-Triples per bulk-load call: ~250,000 triples
# A file up to this size is loaded in a transaction instead: a bulk load writes sorted files for every index
# whatever it is given (20 to 40 ms of CPU for a few triples, 3 in a transaction), and costs less only from
# about a thousand triples on.
SMALL_BYTES = 64 << 10


def load_file(store: ox.Store, ntriples_file: Path, graph: ox.NamedNode) -> None:
    """Bulk-load an N-Triples file into a graph, a chunk of whole lines at a time (a small file in one
    transaction: :data:`SMALL_BYTES`)."""
    if ntriples_file.stat().st_size <= SMALL_BYTES:
        store.load(path=str(ntriples_file), format=ox.RdfFormat.N_TRIPLES, to_graph=graph)
        return
    with open(ntriples_file, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            chunk += handle.readline()  # up to the end of the line the chunk cut
            store.bulk_load(input=chunk, format=ox.RdfFormat.N_TRIPLES, to_graph=graph)


class ChunkLoader:
    """Loads chunks into their graphs in a thread, in the order given; at most two wait."""

    def __init__(self, store: ox.Store):
        self.store = store
        self.chunks: queue.Queue = queue.Queue(maxsize=2)
        self.failure: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="kg-bulk-load", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while (item := self.chunks.get()) is not None:
            if self.failure is None:  # after a failure the rest is only drained
                try:
                    self.store.bulk_load(input=item[1], format=ox.RdfFormat.N_TRIPLES, to_graph=item[0])
                except BaseException as exc:  # handed to the writing thread by put() or close()
                    self.failure = exc

    def put(self, graph: ox.NamedNode, chunk: bytes) -> None:
        if self.failure is not None:
            raise self.failure
        self.chunks.put((graph, chunk))

    def close(self) -> None:
        """Wait for every chunk to be loaded; raise what the loader met. Safe to repeat."""
        if self.thread.is_alive():
            self.chunks.put(None)
            self.thread.join()
        if self.failure is not None:
            raise self.failure


class TeeSink:
    """A binary file the stager writes, whose bytes also go to the loader in whole-line chunks."""

    def __init__(self, out: BinaryIO, loader: ChunkLoader, graph: ox.NamedNode):
        self.out, self.loader, self.graph = out, loader, graph
        self.pending: list[bytes] = []
        self.size = 0

    def write(self, data: bytes) -> None:
        self.out.write(data)
        self.pending.append(data)
        self.size += len(data)
        if self.size >= CHUNK_BYTES:
            self.flush()

    def flush(self) -> None:
        """Hand over what was written (the stager writes whole lines)."""
        if self.pending:
            self.loader.put(self.graph, b"".join(self.pending))
            self.pending, self.size = [], 0
