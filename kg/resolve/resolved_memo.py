"""The derived graph (``{base}graph/resolved``) changed by its difference from the last run's, without dumping
and sorting it.

Most of the graph is the people's display names (``skos:prefLabel``, ``skos:altLabel``), and the people's names
remembered beside the store (:mod:`.person_labels`) are the ones it holds. So an on-disk store remembers, in its
folder of kept rows (:mod:`.kept_rows`), the graph's other labels (the institutions') as sorted N-Triples lines,
headed by the graph's count of labels once written and the generation of the people's names remembered with
it. The next run, where that holds (the graph's labels are as many as the header says and the people's names are
that generation, every line of them read), removes the remembered labels of the people chosen afresh or no longer
named and adds their new ones, changes the institutions' labels by their difference from the remembered lines,
and the rest of the graph (merges, moves, units: a few thousand statements) by its difference from the graph's
own, read by one query. Otherwise (nothing remembered, a damaged line, a count that is not the header's: a run
killed while writing, another kg, a hand edit that changes how many labels there are) the graph is compared whole
(:meth:`~kg.stores.embedded.EmbeddedStore.set_graph_triples`) and remembered again. A hand edit that replaces
one person's label by another keeps the count and is not seen (as the index graph's remembered lines,
:mod:`.graph_memo`); a store in memory or on a server is compared whole. The file is set aside (``.old``)
while a run writes and the new one put in place once the graph is written: a run killed in between leaves none.
"""

from __future__ import annotations

import os
import tempfile
from itertools import chain
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pyoxigraph as ox

from ..stores.embedded import KGStore, sorted_difference
from ..stores.loading import load_file
from ..stores.ordering import sorted_lines
from ..vocab import SKOS
from .graph_memo import remove_lines
from .kept_rows import side_folder
from .person_labels import HeldLabels, every_label

FORMAT = "1"  # in the file's name: a file of another layout (another kg) is never read
NT = ox.RdfFormat.N_TRIPLES
LABELS = (SKOS.prefLabel, SKOS.altLabel)
_REMOVE_BATCH = 100_000  # stale statements removed at a time
Labels = Callable[[HeldLabels | None], Iterator[ox.Triple]]  # the people's labels: all, or the changed ones


def remembered_labels(store: KGStore) -> Path | None:
    """The file of the graph's remembered labels in the store's folder of kept rows; None without one."""
    folder = side_folder(store)
    return None if folder is None or not folder.is_dir() else folder / f"graph-resolved.v{FORMAT}.memo"


def _header(count: int, generation: str) -> str:
    return f"{FORMAT}\t{count:0>20}\t{generation:<32}"  # one length whatever they are: written over a placeholder


def _label_count(store: KGStore, graph: ox.NamedNode) -> int:
    return store.scalar(
        f"SELECT (COUNT(*) AS ?n) WHERE {{ VALUES ?p {{ {' '.join(map(str, LABELS))} }} GRAPH {graph} {{ ?s ?p ?o }} }}"
    )


def _header_of(path: Path | None) -> str:
    """A file's first line (the people's names': their generation), "" without the file."""
    if path is None or not path.is_file():
        return ""
    with open(path, encoding="utf-8") as lines:
        return lines.readline().rstrip("\n")


def _held(store: KGStore, graph: ox.NamedNode, path: Path, names: Path | None) -> Path | None:
    """The remembered lines, set aside while the graph is written, if they and the people's names are what the
    graph holds (above)."""
    aside = path.with_suffix(".old")
    aside.unlink(missing_ok=True)  # a killed run's: not known to be what the graph holds
    if path.is_file():
        os.replace(path, aside)
    generation = _header_of(names)
    return aside if generation and _header_of(aside) == _header(_label_count(store, graph), generation) else None


def set_resolved(
    store: KGStore, graph: ox.NamedNode, rest: Iterable[ox.Triple], labels: Labels, names: Path | None
) -> None:
    """Make ``graph`` hold exactly ``rest`` and the people's labels (``labels``, given a :class:`HeldLabels`
    where the graph holds the remembered ones: only the changed people's), all read before the graph changes,
    by its difference where the remembered lines hold (above); ``names``: the file of the people's names
    remembered (:func:`~.person_labels.remembered_names`)."""
    path = remembered_labels(store)
    if path is None:
        store.set_graph_triples(graph, chain(rest, labels(None)))
        return
    held = _held(store, graph, path, names)
    written = path.with_suffix(".new")
    with tempfile.TemporaryDirectory(prefix="kg-derived-", dir=store.scratch_dir) as name:
        folder = Path(name)
        others, own, added = folder / "others.nt", folder / "labels.nt", folder / "added.nt"
        _split(rest, others, own)
        changed = HeldLabels() if held is not None else None
        ox.serialize(labels(changed), str(added), NT)
        with open(own, encoding="utf-8") as lines, open(written, "w", encoding="utf-8") as memo:
            memo.write(_header(0, "") + "\n")
            memo.writelines(sorted_lines(lines, folder))
        if changed is not None and changed.exact:
            _apply(store, graph, (others, written, held, added), changed.stale, folder)
        else:
            people = ox.parse(path=str(added), format=NT) if changed is None else every_label(names)
            store.set_graph_triples(
                graph, chain(ox.parse(path=str(others), format=NT), ox.parse(path=str(own), format=NT), people)
            )
    store.oxigraph.flush()
    with open(written, "r+", encoding="utf-8") as memo:
        memo.write(_header(_label_count(store, graph), _header_of(names)))
        memo.flush()
        os.fsync(memo.fileno())
    os.replace(written, path)
    path.with_suffix(".old").unlink(missing_ok=True)


def _split(triples: Iterable[ox.Triple], others: Path, labels: Path) -> None:
    """The triples as N-Triples: the labels in one file, the others in the other."""
    with open(others, "wb") as other_lines, open(labels, "wb") as label_lines:
        for triple in triples:
            out = label_lines if triple.predicate in LABELS else other_lines
            ox.serialize([triple], out, NT)


def _body(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8") as lines:
        lines.readline()  # the header
        yield from lines


def _held_others(store: KGStore, graph: ox.NamedNode, folder: Path) -> Iterator[str]:
    """The graph's statements other than labels, as sorted N-Triples lines."""
    path = folder / "held-others.nt"
    not_labels = " && ".join(f"?p != {label}" for label in LABELS)
    rows = store.select_terms(f"SELECT ?s ?p ?o WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} FILTER({not_labels}) }}")
    ox.serialize((ox.Triple(*row) for row in rows), str(path), NT)
    with open(path, encoding="utf-8") as lines:
        yield from sorted_lines(lines, folder)


def _apply(
    store: KGStore, graph: ox.NamedNode, files: tuple[Path, Path, Path, Path], stale: list[ox.Triple], folder: Path
) -> None:
    """Remove the stale people's labels, the institutions' labels and other statements only held, then add the
    new ones (``files``: the other statements wanted, the labels wanted and held, the people's labels added)."""
    others, wanted, held, added = files
    for triple in stale:
        store.oxigraph.remove(ox.Quad(triple.subject, triple.predicate, triple.object, graph))
    with open(others, encoding="utf-8") as lines:
        other_changes = list(sorted_difference(sorted_lines(lines, folder), _held_others(store, graph, folder)))
    new, old = [], []
    for line, side in chain(sorted_difference(_body(wanted), _body(held)), other_changes):
        (new if side == "new" else old).append(line)
        if len(old) == _REMOVE_BATCH:
            remove_lines(store, graph, old)
    remove_lines(store, graph, old)
    with open(added, "a", encoding="utf-8") as out:
        out.writelines(new)
    load_file(store.oxigraph, added, graph)
