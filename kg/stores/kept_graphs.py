"""The last lines written to a graph that only :meth:`~kg.stores.embedded.EmbeddedStore.set_graph_triples`
writes (the index graph), kept beside an on-disk store so that the next write takes them as what the graph
holds instead of dumping it.

Writing only a graph's difference needs what it holds; dumping the index graph (its name index is in
literals of about a million characters) cost 0.66 s of CPU at 11,000 papers, two thirds of finding the
difference. So the lines written are kept in ``kg-derived/``, one file per graph, with a **stamp**: the
graph's quad count right after the write. The next write takes the file only while the graph's count is
the same (one indexed count), and forgets it before the graph changes, so a write killed half-way leaves no
file that holds; a graph written by anything else (an older kg, a hand-made update) with another count is
dumped. As with the sources' kept rows (:mod:`kg.resolve.kept_rows`), a change that keeps the count is not
seen: after one, remove ``kg-derived/``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Callable

FOLDER = "kg-derived"


def _named(folder: Path, graph: str) -> Path:
    return folder / f"{hashlib.sha256(graph.encode('utf-8')).hexdigest()[:32]}.nt"


def taken(folder: Path | None, graph: str, count: Callable[[], int]) -> Path | None:
    """The lines last written to ``graph`` if they still hold (their stamp is the graph's ``count()`` now),
    else None; either way no stamp is left, for the graph is about to change."""
    if folder is None:
        return None
    lines, stamp = _named(folder, graph), _named(folder, graph).with_suffix(".stamp")
    if not (lines.is_file() and stamp.is_file()):
        return None
    holds = stamp.read_text(encoding="utf-8") == str(count())
    stamp.unlink()
    return lines if holds else None


def keep(folder: Path | None, graph: str, written: Path, count: int) -> None:
    """Keep the lines just written to ``graph`` (moved from ``written``), stamped with its quad count now."""
    if folder is None:
        return
    folder.mkdir(exist_ok=True)
    lines = _named(folder, graph)
    with open(written, "rb") as text:
        os.fsync(text.fileno())  # on disk before the stamp that vouches for it
    os.replace(written, lines)  # the scratch folder and this one share the store's file system
    stamp = lines.with_suffix(".new")
    with open(stamp, "w", encoding="utf-8") as out:
        out.write(str(count))
        out.flush()
        os.fsync(out.fileno())
    os.replace(stamp, lines.with_suffix(".stamp"))
