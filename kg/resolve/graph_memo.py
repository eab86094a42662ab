"""A derived graph that only the resolution step writes (the index graph) changed by its difference from the
last run's, without reading the graph back.

:meth:`~kg.stores.embedded.EmbeddedStore.set_graph_triples` writes only the difference too, but finds it by
dumping the graph and sorting it (about a million statements at 100,000 papers, at every change of sources). An
on-disk store remembers instead, in its folder of kept rows (:mod:`.kept_rows`), the graph's statements as the
last run wrote them, sorted N-Triples lines, stamped with the graph's quad count once written; the next run
sorts what it makes and merges it with the remembered lines. Without a remembered file, or when the graph's
count is not the stamp (a run killed while writing, another kg, a hand edit), the graph is compared whole as
before, and remembered for the next run. The file is set aside (``.old``) while a run writes and the new one put
in place once the graph is written: a run killed in between leaves none.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..stores.embedded import KGStore, sorted_difference  # the store's own comparison
from ..stores.loading import load_file
from ..stores.ordering import sorted_lines
from .kept_rows import side_folder

FORMAT = "1"  # in the file's name: a file of another layout (another kg) is never read
_REMOVE_BATCH = 100_000  # stale statements parsed and removed at a time


def remembered_graph(store: KGStore, name: str) -> Path | None:
    """The file of a graph's statements as written, in the store's folder of kept rows; None without one."""
    folder = side_folder(store)
    return None if folder is None or not folder.is_dir() else folder / f"graph-{name}.v{FORMAT}.memo"


def graph_count(store: KGStore, graph: ox.NamedNode) -> int:
    return store.scalar(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} }}")


def _stamp(count: int) -> str:
    return f"{FORMAT}\t{count:0>20}\n"  # one length whatever the count: written over its placeholder


def _held(path: Path, count: int) -> Path | None:
    """The remembered lines, set aside, if their stamp is the graph's ``count`` now."""
    if not path.is_file():
        return None
    aside = path.with_suffix(".old")
    os.replace(path, aside)
    with open(aside, encoding="utf-8") as lines:
        stamp = lines.readline()
    return aside if stamp == _stamp(count) else None


def set_graph_remembered(store: KGStore, graph: ox.NamedNode, triples: Iterable[ox.Triple], name: str) -> None:
    """Make ``graph`` hold exactly ``triples`` (all read before the graph changes), by the difference from the
    remembered lines where they hold (above); ``name``: the remembered file's."""
    path = remembered_graph(store, name)
    if path is None:
        store.set_graph_triples(graph, triples)
        return
    count = graph_count(store, graph)
    held = _held(path, count)
    written = path.with_suffix(".new")
    with tempfile.TemporaryDirectory(prefix="kg-derived-", dir=store.scratch_dir) as folder:
        wanted = Path(folder) / "wanted.nt"
        ox.serialize(triples, str(wanted), ox.RdfFormat.N_TRIPLES)
        with open(wanted, encoding="utf-8") as lines, open(written, "w", encoding="utf-8") as memo:
            memo.write(_stamp(0))
            memo.writelines(sorted_lines(lines, Path(folder)))
        if held is None and not count:  # a first resolution: every triple is new
            load_file(store.oxigraph, wanted, graph)
        elif held is None:
            store.set_graph_triples(graph, ox.parse(path=str(wanted), format=ox.RdfFormat.N_TRIPLES))
        else:
            _apply_difference(store, graph, written, held, Path(folder))
    store.oxigraph.flush()
    with open(written, "r+", encoding="utf-8") as memo:
        memo.write(_stamp(graph_count(store, graph)))
        memo.flush()
        os.fsync(memo.fileno())
    os.replace(written, path)
    path.with_suffix(".old").unlink(missing_ok=True)


def _body(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8") as lines:
        lines.readline()  # the stamp
        yield from lines


def _apply_difference(store: KGStore, graph: ox.NamedNode, new: Path, old: Path, folder: Path) -> None:
    """Remove the lines only in ``old`` and add those only in ``new`` (both sorted, distinct, after a stamp)."""
    added, stale = folder / "added.nt", []
    with open(added, "w", encoding="utf-8") as out:
        for line, side in sorted_difference(_body(new), _body(old)):
            if side == "new":
                out.write(line)
                continue
            stale.append(line)
            if len(stale) == _REMOVE_BATCH:
                remove_lines(store, graph, stale)
    remove_lines(store, graph, stale)
    load_file(store.oxigraph, added, graph)


def remove_lines(store: KGStore, graph: ox.NamedNode, lines: list[str]) -> None:
    """Remove these N-Triples statements from the graph, and empty the list."""
    for triple in ox.parse("".join(lines), format=ox.RdfFormat.N_TRIPLES):
        store.oxigraph.remove(ox.Quad(triple.subject, triple.predicate, triple.object, graph))
    lines.clear()
