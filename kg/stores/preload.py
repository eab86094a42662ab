"""The graphs a run bulk-loads while it stages them (:meth:`kg.stores.embedded.EmbeddedStore.preloading`)."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

import pyoxigraph as ox

from .loading import ChunkLoader, TeeSink


class Preload:
    """The graphs a run loads while it stages them (:meth:`~kg.stores.embedded.EmbeddedStore.preloading`)."""

    def __init__(self, store: ox.Store, graphs: set[str], marker: Path | None):
        self.graphs, self.marker = graphs, marker
        self.loader = ChunkLoader(store)

    def sink(self, graph: ox.NamedNode, out: BinaryIO) -> BinaryIO:
        """Where the stager writes a graph's N-Triples: ``out``, and the loader for a graph loaded early."""
        return TeeSink(out, self.loader, graph) if graph.value in self.graphs else out

    def finish(self) -> None:
        self.loader.close()

    def abandon(self) -> None:
        try:
            self.loader.close()
        except Exception:  # the run failed already; its loaded graphs are dropped next
            pass
