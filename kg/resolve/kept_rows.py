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

Counting a graph's quads is the stamp's cost (2.3 s for a source of 100,000 papers), so a stamp also holds
the count, and a graph is not counted again where it cannot have changed since: when nothing but kg opened
the store for writing since kg's last writer closed it (:func:`kg.stores.store_folder.untouched_since_closed`:
Oxigraph's files are as that writer left them) and the last resolution did not rewrite the graph
(:func:`note_rewritten`), the graph is as that resolution left it, which is as its stamp was checked or taken.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..stores.embedded import EmbeddedStore, KGStore
from ..vocab import KG
from .sorted_facts import FORMS, SUFFIX
from .staged_rows import StagedRows

FOLDER = "kg-side"
FORMAT = "4"  # in each file's name: rows of another layout (another kg) are never read
COUNT = ".count"  # beside a stamp: the quad count it was taken with


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
        kept.with_suffix(COUNT).unlink(missing_ok=True)
        kept.with_suffix(SUFFIX).unlink(missing_ok=True)  # the old rows' facts sorted (.sorted_facts)
        kept.with_suffix(FORMS).unlink(missing_ok=True)
        with open(path, "rb") as rows:
            os.fsync(rows.fileno())
        os.replace(path, kept)  # the journal and this folder share the store's file system
        staged.quads[graph] = quad_count(store, graph)
        _write_stamp(kept.with_suffix(".stamp"), stamp(store, graph, staged.quads[graph]))
        _write_stamp(kept.with_suffix(COUNT), str(staged.quads[graph]))
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


REWRITTEN = "rewritten-graphs.memo"  # the graphs the last resolution rewrote, one a line


def forget_rewritten(store: KGStore) -> None:
    """Before a resolution rewrites anything: no graph is known to be as its stamp until it says which it
    rewrote (:func:`note_rewritten`)."""
    if (folder := side_folder(store)) is not None:
        (folder / REWRITTEN).unlink(missing_ok=True)


def note_rewritten(store: KGStore, resolved: ox.NamedNode) -> None:
    """Once a resolution's rewrites are made: the graphs they may have changed, those its records of papers
    merged, people renamed and mentions moved name (``resolved``: the derived graph that holds them, whose
    records the next resolution undoes)."""
    if (folder := side_folder(store)) is None or not folder.is_dir():
        return
    graphs = {
        row[0].value
        for row in store.select_terms(f"SELECT DISTINCT ?g WHERE {{ GRAPH {resolved} {{ ?m {KG.inGraph} ?g }} }}")
    }
    written = folder / (REWRITTEN + ".new")
    written.write_text("".join(f"{graph}\n" for graph in sorted(graphs)), encoding="utf-8")
    os.replace(written, folder / REWRITTEN)


def _unchanged(store: KGStore) -> set[str] | None:
    """The graphs the last resolution may have rewritten, where every other graph is as it left it (above);
    else None."""
    folder = side_folder(store)
    if folder is None or not getattr(store, "untouched", False) or not (folder / REWRITTEN).is_file():
        return None
    return set((folder / REWRITTEN).read_text(encoding="utf-8").splitlines())


def _stamped_count(stamped: Path) -> int | None:
    """The quad count a stamp was taken with (its ``.count`` file), None without one."""
    path = stamped.with_suffix(COUNT)
    count = path.read_text(encoding="utf-8") if path.is_file() else ""
    return int(count) if count.isdigit() else None


def counted(store: KGStore, graphs: Iterable[str]) -> dict[str, int]:
    """The quad counts of those of these graphs that have kept rows (whether their rows still hold or not):
    what :func:`kept` checks the stamps with; a graph that cannot have changed since its stamp was checked is
    not counted again (above)."""
    found, rewritten = {}, _unchanged(store)
    for graph, _, stamped in _kept_files(store, graphs):
        count = _stamped_count(stamped) if rewritten is not None and graph not in rewritten else None
        found[graph] = quad_count(store, graph) if count is None else count
    return found


def kept(store: KGStore, counts: dict[str, int]) -> dict[str, Path]:
    """The kept rows that still hold (their stamp is the graph's now) of the graphs ``counts`` gives the quad
    counts of (:func:`counted`): graph -> file. A file that no longer holds is removed."""
    found: dict[str, Path] = {}
    for graph, rows, stamped in _kept_files(store, counts):
        if stamped.read_text(encoding="utf-8") == stamp(store, graph, counts[graph]):
            found[graph] = rows
            if _stamped_count(stamped) != counts[graph]:  # a stamp kept by a kg that kept no count
                _write_stamp(stamped.with_suffix(COUNT), str(counts[graph]))
        else:
            rows.unlink()
            stamped.unlink()
            for beside in (SUFFIX, FORMS, COUNT):
                rows.with_suffix(beside).unlink(missing_ok=True)
    return found
