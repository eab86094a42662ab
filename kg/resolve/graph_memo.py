"""A derived graph that only the resolution step writes (the index graph) changed by its difference from the
last run's, without reading the graph back.

:meth:`~kg.stores.embedded.EmbeddedStore.set_graph_triples` writes only the difference too, but finds it by
dumping the graph and sorting it (about 730,000 statements at 100,000 papers, at every change of sources). An
on-disk store remembers instead, in its folder of kept rows (:mod:`.kept_rows`), a folder of the graph as the
last run wrote it, stamped with the graph's quad count once written:

- ``lines``: the statements given as triples (the counts' totals, the name index …), sorted N-Triples lines; the
  next run sorts what it makes and merges it with them;
- a file per :class:`Section` (the match keys, the name lists, the papers' display titles and bylines): a line
  per key (an entity, a paper) in code-point order of key, from which that key's statements are made
  (:attr:`Section.triples`). A section's producer writes the lines of every key (cheap text), and only the keys
  whose line is not the remembered one have their statements made, the remembered line's removed and the new
  one's added: an unchanged entity's statements are neither made, nor written, nor sorted.

A section's statements are its own (no other part of the graph states them). Without a remembered folder, when the
graph's count is not the stamp (a run killed while writing, another kg, a hand edit), or a section damaged (keys
out of order, a line cut short or whose statements cannot be made), the graph is compared whole as before, and
remembered for the next run. After a difference the new stamp is the count less the statements removed plus those
added (not counted again). The folder is set aside (``.old``) while a run writes and the new one (made as ``.new``)
put in place once the graph is written: a run killed in between leaves none.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Callable, Iterable, Iterator

import pyoxigraph as ox

from ..stores.embedded import KGStore, sorted_difference  # the store's own comparison
from ..stores.loading import load_file
from ..stores.ordering import sorted_lines
from .kept_rows import side_folder

FORMAT = "2"  # in the folder's name: one of another layout (another kg) is never read
_REMOVE_BATCH = 100_000  # stale statements parsed and removed at a time
_LINES = "lines"  # the remembered folder's sorted N-Triples lines


@dataclass(frozen=True)
class Section:
    """Statements of the graph kept as a line per key: ``lines`` writes every key's line (the key before the first
    tab, keys in code-point order, each once) to the file it is given, once the graph's other triples are made;
    ``triples`` gives a line's statements."""

    name: str
    lines: Callable[[Path], None]
    triples: Callable[[str], Iterable[ox.Triple]]


def remembered_graph(store: KGStore, name: str) -> Path | None:
    """The folder of a graph's statements as written, in the store's folder of kept rows; None without one."""
    folder = side_folder(store)
    return None if folder is None or not folder.is_dir() else folder / f"graph-{name}.v{FORMAT}.memo"


def graph_count(store: KGStore, graph: ox.NamedNode) -> int:
    return store.scalar(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} }}")


def _stamp(count: int) -> str:
    return f"{FORMAT}\t{count}\n"


def _held(path: Path, count: int) -> Path | None:
    """The remembered folder, set aside, if its stamp is the graph's ``count`` now."""
    aside = path.with_suffix(".old")
    shutil.rmtree(aside, ignore_errors=True)  # a killed run's
    if not path.is_dir():
        return None
    os.replace(path, aside)
    stamp = aside / "stamp"
    return aside if stamp.is_file() and stamp.read_text(encoding="utf-8") == _stamp(count) else None


def _section_triples(sections: Iterable[Section], folder: Path) -> Iterator[ox.Triple]:
    """Every statement of the sections, from their lines in ``folder``."""
    for section in sections:
        with open(folder / section.name, encoding="utf-8") as lines:
            for line in lines:
                yield from section.triples(line)


def _made(sections: Iterable[Section], folder: Path) -> Iterator[ox.Triple]:
    """The sections' lines written to ``folder``, then every statement of them."""
    sections = list(sections)
    for section in sections:
        section.lines(folder / section.name)
    yield from _section_triples(sections, folder)


def set_graph_remembered(
    store: KGStore, graph: ox.NamedNode, triples: Iterable[ox.Triple], name: str, sections: Iterable[Section] = ()
) -> None:
    """Make ``graph`` hold exactly ``triples`` and the ``sections``' statements (all read before the graph changes,
    the sections' lines made after ``triples``), by the difference from the remembered folder where it holds
    (above); ``name``: the remembered folder's."""
    path = remembered_graph(store, name)
    if path is None:
        with tempfile.TemporaryDirectory(prefix="kg-derived-", dir=store.scratch_dir) as folder:
            store.set_graph_triples(graph, chain(triples, _made(sections, Path(folder))))
        return
    sections = list(sections)
    count = graph_count(store, graph)
    held = _held(path, count)
    written = path.with_suffix(".new")
    shutil.rmtree(written, ignore_errors=True)
    written.mkdir()
    with tempfile.TemporaryDirectory(prefix="kg-derived-", dir=store.scratch_dir) as folder:
        wanted = Path(folder) / "wanted.nt"
        ox.serialize(triples, str(wanted), ox.RdfFormat.N_TRIPLES)
        with open(wanted, encoding="utf-8") as lines, open(written / _LINES, "w", encoding="utf-8") as memo:
            memo.writelines(sorted_lines(lines, Path(folder)))
        for section in sections:
            section.lines(written / section.name)
        changed = None if held is None else _section_difference(sections, written, held)
        if changed is not None:  # the count follows: a line removed that the graph did not hold shows next run
            count += _apply_difference(store, graph, written, held, Path(folder), changed)
        elif not count:  # a first resolution: every triple is new
            load_file(store.oxigraph, wanted, graph)
            _load(store, graph, _section_triples(sections, written), Path(folder))
        else:
            every = ox.parse(path=str(wanted), format=ox.RdfFormat.N_TRIPLES)
            store.set_graph_triples(graph, chain(every, _section_triples(sections, written)))
    store.oxigraph.flush()
    with open(written / "stamp", "w", encoding="utf-8") as stamp:
        stamp.write(_stamp(count if changed is not None else graph_count(store, graph)))
        stamp.flush()
        os.fsync(stamp.fileno())
    os.replace(written, path)
    shutil.rmtree(path.with_suffix(".old"), ignore_errors=True)
    for other in path.parent.glob(f"graph-{name}.*.memo"):  # of another layout (an earlier kg's file)
        if other != path and other.is_file():
            other.unlink()


def _keyed(path: Path) -> Iterator[tuple[str, str]]:
    """(key, line) of a section's file; a key not above the one before it, or a line cut short, raises
    :class:`_Damaged`."""
    before = None
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            key = line[:-1].partition("\t")[0]
            if (before is not None and key <= before) or not line.endswith("\n"):
                raise _Damaged(path)
            before = key
            yield key, line


class _Damaged(Exception):
    """A section's keys out of order (or repeated) or its last line cut short: its lines cannot be compared by
    key."""


def _changed_lines(new: Path, old: Path) -> Iterator[tuple[str | None, str | None]]:
    """(remembered line or None, new line or None) of each key whose line is not the remembered one."""
    sentinel = ("", None)
    made, kept = _keyed(new), _keyed(old)
    (a, line), (b, was) = next(made, sentinel), next(kept, sentinel)
    while line is not None or was is not None:
        if was is None or (line is not None and a < b):
            yield None, line
            a, line = next(made, sentinel)
        elif line is None or b < a:
            yield was, None
            b, was = next(kept, sentinel)
        else:
            if line != was:
                yield was, line
            (a, line), (b, was) = next(made, sentinel), next(kept, sentinel)


def _section_difference(
    sections: list[Section], new: Path, old: Path
) -> tuple[list[ox.Triple], list[ox.Triple]] | None:
    """The sections' statements only in the remembered lines and those only in the new ones; None where a file is
    missing or damaged (the graph is then compared whole)."""
    removed: list[ox.Triple] = []
    added: list[ox.Triple] = []
    try:
        for section in sections:
            if not (old / section.name).is_file():
                return None
            for was, line in _changed_lines(new / section.name, old / section.name):
                before = set(section.triples(was)) if was is not None else set()
                after = set(section.triples(line)) if line is not None else set()
                removed.extend(before - after)
                added.extend(after - before)
    except (_Damaged, ValueError):  # a line whose statements cannot be made (not JSON, not an IRI)
        return None
    return removed, added


def _body(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8") as lines:
        yield from lines


def _apply_difference(
    store: KGStore,
    graph: ox.NamedNode,
    new: Path,
    old: Path,
    folder: Path,
    sections: tuple[list[ox.Triple], list[ox.Triple]],
) -> int:
    """Remove the lines only in ``old``'s sorted lines and add those only in ``new``'s (both sorted, distinct), and
    the sections' statements removed and added (:func:`_section_difference`); returns how many more statements
    the graph holds (fewer: below 0)."""
    added, stale = folder / "added.nt", []
    removed, made = sections
    change = len(made) - len(removed)
    with open(added, "w", encoding="utf-8") as out:
        for line, side in sorted_difference(_body(new / _LINES), _body(old / _LINES)):
            change += 1 if side == "new" else -1
            if side == "new":
                out.write(line)
                continue
            stale.append(line)
            if len(stale) == _REMOVE_BATCH:
                remove_lines(store, graph, stale)
    remove_lines(store, graph, stale)
    for triple in removed:
        store.oxigraph.remove(ox.Quad(*triple, graph))
    load_file(store.oxigraph, added, graph)
    _load(store, graph, made, folder)
    return change


def _load(store: KGStore, graph: ox.NamedNode, triples: Iterable[ox.Triple], folder: Path) -> None:
    """Add these statements to the graph, written to a file in ``folder`` and bulk-loaded."""
    made = folder / "sections.nt"
    ox.serialize(triples, str(made), ox.RdfFormat.N_TRIPLES)
    load_file(store.oxigraph, made, graph)


def remove_lines(store: KGStore, graph: ox.NamedNode, lines: list[str]) -> None:
    """Remove these N-Triples statements from the graph, and empty the list."""
    for triple in ox.parse("".join(lines), format=ox.RdfFormat.N_TRIPLES):
        store.oxigraph.remove(ox.Quad(triple.subject, triple.predicate, triple.object, graph))
    lines.clear()
