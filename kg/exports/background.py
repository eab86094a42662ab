"""An export written by a reader process (:mod:`kg.stores.beside`) while this one goes on:
``kg build`` writes its network pages meanwhile."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..stores.beside import ReaderProcess, reader_process
from ..stores.embedded import KGStore
from .rdf import export, partial_path


def _export(store: KGStore, format_name: str, output: str, base: str, on_progress: Callable[[int], None]) -> None:
    export(store, format_name, Path(output), base, on_progress=on_progress)


def export_beside(
    store: KGStore, format_name: str, output: Path, base: str, update: str | None = None
) -> ReaderProcess | None:
    """The export started in a reader process, counting the statements read; None where the store
    cannot be opened by another process (``update``: made to its snapshot first, as for
    :class:`~kg.stores.beside.ReaderProcess`). Stopped, it leaves no partial file."""
    return reader_process(
        store, str(output), _export, format_name, str(output), base, leaves=(partial_path(output),), update=update
    )
