"""The side rows of every source, kept beside an on-disk store and stamped, so that the next run reads
no source back that they still describe.

The resolution step takes the facts and written names of the sources a run staged from their side rows
(:mod:`.staged_rows`); the other sources it would read back from the store, every quad of them, on each
``kg ingest`` of one more file. So an on-disk embedded store keeps each source's side rows, as mapped, in
``kg-side/`` beside its journal, one file per source graph, with a **stamp**: the graph's quad count and
its source node's statements (file name, format, modification time, venue header), taken right after
the commit, while the graph is as mapped. The resolution step takes a kept file only when its graph's
stamp is the same now (the rewrites of the last resolution undone, the graph is as mapped again), and
removes it otherwise: a graph replaced by anything that keeps no rows (an older kg, a server's
client, a hand-made update) is read back from the store, so kept rows can cost a count but never change
the graph.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Iterable, Iterator

from ..stores.embedded import EmbeddedStore, KGStore
from .sorted_facts import SUFFIX
from .staged_rows import StagedRows

FOLDER = "kg-side"
FORMAT = "4"  # in each file's name: rows of another layout (another kg) are never read


def side_folder(store: KGStore) -> Path | None:
    """The store's folder of kept rows; None for a store in memory, a server or a read-only opening."""
    if not isinstance(store, EmbeddedStore) or store.spec == "memory" or store.read_only:
        return None
    return Path(store.spec) / FOLDER


def remembered_written(path: Path, complete: bool) -> None:
    """End the writing of a remembered file (``NAME.CODE.memo``, written beside as ``.new``): when the run made
    every entry (``complete``) it replaces the file and the files of that NAME another code made (never read
    by this one), else it is dropped and the old file stays."""
    written = path.with_suffix(".new")
    if not complete:
        written.unlink(missing_ok=True)
        return
    for other in path.parent.glob(f"{path.name.split('.', 1)[0]}.*.memo"):
        if other != path:
            other.unlink()
    os.replace(written, path)


def _named(folder: Path, graph: str) -> Path:
    """The kept rows' file of a graph (its stamp beside it, ``.stamp``)."""
    return folder / f"{hashlib.sha256(graph.encode('utf-8')).hexdigest()[:32]}.v{FORMAT}.side"


def quad_count(store: KGStore, graph: str) -> int:
    """A graph's quad count (one indexed count): part of its stamp, and what the dataset description takes
    instead of counting the graph again (:meth:`StagedRows.known_quads`)."""
    return store.scalar(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}")


def stamp(store: KGStore, graph: str, count: int) -> str:
    """What must be the same for a graph's kept rows to hold: the graph, its quad count (``count``, from
    :func:`quad_count`) and its source node's statements (a handful of rows)."""
    node = f"<{graph}>"  # a graph the store names: a checked IRI
    said = sorted(
        f"{p} {o}" for p, o in store.select_terms(f"SELECT ?p ?o WHERE {{ GRAPH {node} {{ {node} ?p ?o }} }}")
    )
    return hashlib.sha256("\n".join([graph, str(count), *said]).encode("utf-8")).hexdigest()


def keep(store: KGStore, staged: StagedRows) -> None:
    """Keep the staged sources' rows, stamped, now that their graphs are committed and as mapped; forget
    the rows of graphs the store no longer holds. ``staged`` then names the kept files and their graphs'
    quad counts."""
    if (folder := side_folder(store)) is None:
        return
    folder.mkdir(exist_ok=True)
    for graph, path in sorted(staged.files.items()):
        kept = _named(folder, graph)
        kept.with_suffix(".stamp").unlink(missing_ok=True)  # no stamp, no use: until both are in place
        kept.with_suffix(SUFFIX).unlink(missing_ok=True)  # the old rows' facts sorted (.sorted_facts)
        with open(path, "rb") as rows:
            os.fsync(rows.fileno())
        os.replace(path, kept)  # the journal and this folder share the store's file system
        staged.quads[graph] = quad_count(store, graph)
        _write_stamp(kept.with_suffix(".stamp"), stamp(store, graph, staged.quads[graph]))
        staged.files[graph] = kept
    held = {_named(folder, graph).name for graph in store.graphs()}
    for path in folder.iterdir():
        if not path.suffix.startswith(".memo") and path.with_suffix(".side").name not in held:
            path.unlink()  # (the people's names remembered, kg/resolve/person_labels.py, are no graph's, nor a
            # remembered database's journal and stamp, kg/resolve/list_store.py)


def _write_stamp(path: Path, value: str) -> None:
    written = path.with_suffix(".new")
    with open(written, "w", encoding="utf-8") as out:
        out.write(value)
        out.flush()
        os.fsync(out.fileno())
    os.replace(written, path)


def _kept_files(store: KGStore, graphs: Iterable[str]) -> Iterator[tuple[str, Path, Path]]:
    """(graph, rows, stamp) of the graphs that have kept rows, stamped."""
    if (folder := side_folder(store)) is None or not folder.is_dir():
        return
    for graph in graphs:
        rows = _named(folder, graph)
        stamped = rows.with_suffix(".stamp")
        if rows.is_file() and stamped.is_file():
            yield graph, rows, stamped


def counted(store: KGStore, graphs: Iterable[str]) -> dict[str, int]:
    """The quad counts of those of these graphs that have kept rows (whether their rows still hold or not):
    what :func:`kept` checks the stamps with."""
    return {graph: quad_count(store, graph) for graph, _, _ in _kept_files(store, graphs)}


def kept(store: KGStore, counts: dict[str, int]) -> dict[str, Path]:
    """The kept rows that still hold (their stamp is the graph's now) of the graphs ``counts`` gives the quad
    counts of (:func:`counted`): graph -> file. A file that no longer holds is removed."""
    found: dict[str, Path] = {}
    for graph, rows, stamped in _kept_files(store, counts):
        if stamped.read_text(encoding="utf-8") == stamp(store, graph, counts[graph]):
            found[graph] = rows
        else:
            rows.unlink()
            stamped.unlink()
            rows.with_suffix(SUFFIX).unlink(missing_ok=True)
    return found
