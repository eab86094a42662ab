"""The precomputed lists (:mod:`kg.query.precompute`) written into their graph only where they changed.

Every change of sources makes every list again, but most of the graph they fill is as it was: a list whose
rows are the same is written as it is, and a list with a row more changes only its rows from there on. So an
on-disk store remembers, in its folder of kept rows (:mod:`.kept_rows`), each list's triples as they were
written (N-Triples lines, with a digest of them), stamped with the graph's quad count once written. The next
run compares each list it makes with the remembered one: the same digest, nothing is written; else the
triples no longer in the list are removed and the new ones added. A list no longer made is removed. The new
stamp is the old one and what the run took out and put in, counted as it writes (not the graph's quads counted
again: 0.3 s at 101,000 papers). Without a remembered file, or when the graph's count is not the stamp (a run
killed while writing, another kg, a hand edit), the graph is replaced by comparing it whole
(:meth:`~kg.stores.embedded.EmbeddedStore.set_graph_triples`), and the lists are remembered for the next run.

The remembered file is set aside while a run writes (``.old``) and the new one put in place once the graph is
written: a run killed in between leaves none, so the next compares the graph whole.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from itertools import chain
from pathlib import Path
from typing import Iterable, Iterator

import pyoxigraph as ox

from ..stores.embedded import KGStore
from ..stores.loading import load_file
from ..vocab import KG
from .graph_memo import remove_lines
from .kept_rows import side_folder

FORMAT = "1"  # in the file's name: a file of another layout (another kg) is never read
_HEADER = "#"  # a list's first line (N-Triples lines start with "<"): ``#key<TAB>digest``

Block = tuple[str, list[str]]  # a list's key (its ranking node) and its triples, as N-Triples lines


def remembered_rankings(store: KGStore) -> Path | None:
    """The file of the lists as written, in the store's folder of kept rows; None for a store without one."""
    folder = side_folder(store)
    return None if folder is None or not folder.is_dir() else folder / f"rankings.v{FORMAT}.memo"


def _count(store: KGStore, graph: ox.NamedNode) -> int:
    return store.scalar(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} }}")


class _Remembered:
    """The lists of a remembered file: key -> (digest, where its lines start and end in the file)."""

    def __init__(self, path: Path):
        self.path, self.lists = path, {}
        self.count: int | None = None
        with open(path, "rb") as lines:
            head = lines.readline().decode("utf-8")[:-1].split("\t")
            self.count = int(head[1]) if len(head) == 2 and head[0] == FORMAT and head[1].isdigit() else None
            key, digest, start = None, "", lines.tell()
            while line := lines.readline():
                if line.startswith(_HEADER.encode()):
                    self._close(key, digest, start, lines.tell() - len(line))
                    key, _, digest = line.decode("utf-8")[1:-1].partition("\t")
                    start = lines.tell()
            self._close(key, digest, start, lines.tell())

    def _close(self, key: str | None, digest: str, start: int, end: int) -> None:
        if key is not None:
            self.lists[key] = (digest, start, end)

    def lines(self, key: str) -> list[str]:
        _, start, end = self.lists[key]
        with open(self.path, "rb") as lines:
            lines.seek(start)
            return lines.read(end - start).decode("utf-8").splitlines(keepends=True)


def _usable(store: KGStore, graph: ox.NamedNode, path: Path | None) -> _Remembered | None:
    """The remembered lists, set aside (``.old``) while this run writes, if their stamp is the graph's count."""
    if path is None or not path.is_file():
        return None
    aside = path.with_suffix(".old")
    os.replace(path, aside)
    remembered = _Remembered(aside)
    return remembered if remembered.count == _count(store, graph) else None


class ListWriter:
    """Writes a graph of lists (above): made before the graph is changed, which its stamp is checked against."""

    def __init__(self, store: KGStore, graph: ox.NamedNode):
        self.store, self.graph, self.path = store, graph, remembered_rankings(store)
        self.remembered = _usable(store, graph, self.path)
        self.count = None if self.remembered is None else self.remembered.count  # the graph's quads, while known

    def withdraw(self) -> None:
        """Take every list's digest out of the graph: a list is served only with its digest, and they come back
        last (:meth:`write`'s ``last``), so a run killed in between leaves no list served."""
        digests = f"GRAPH {self.graph} {{ ?ranking {KG.queryDigest} ?digest }}"
        if self.count is not None:
            self.count -= self.store.scalar(f"SELECT (COUNT(*) AS ?n) WHERE {{ {digests} }}")
        self.store.update(f"DELETE WHERE {{ {digests} }}")

    def write(self, blocks: Iterable[Block], last: list[str]) -> None:
        """Make the graph hold the triples of ``blocks`` (each list's, keys unique), then ``last`` (a list filled
        while the blocks are read, added once they are in place: the lists' digests,
        :func:`kg.query.precompute.refresh_rankings`), writing only what changed where a remembered run holds."""
        store, graph, path = self.store, self.graph, self.path
        if path is None:
            store.set_graph_triples(graph, _triples(lines for _, lines in blocks))
            store.add_graph_triples(graph, _triples([last]))
            return
        written = path.with_suffix(".new")
        with open(written, "w", encoding="utf-8") as memo:
            if self.remembered is None:  # the lines as they are: a first run writes every list
                store.set_graph_lines(graph, chain.from_iterable(_noted(blocks, memo)))
            else:
                self.count += _changed(store, graph, _noted_blocks(blocks, memo), self.remembered)
        store.add_graph_triples(graph, _triples([last]))  # one line a list, each taken out (:meth:`withdraw`)
        self._remember(written, _count(store, graph) if self.remembered is None else self.count + len(last))

    def _remember(self, written: Path, count: int) -> None:
        path = self.path
        with open(written, "r+", encoding="utf-8") as memo:  # the stamp, in place of the header's placeholder
            memo.write(f"{FORMAT}\t{count:0>20}\n")
            memo.flush()
            os.fsync(memo.fileno())
        os.replace(written, path)
        path.with_suffix(".old").unlink(missing_ok=True)


def _note(memo, key: str, lines: list[str]) -> str:
    """Write the list's header (its key and the digest of its lines) and its lines; the digest."""
    text = "".join(lines)
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()
    memo.write(f"{_HEADER}{key}\t{digest}\n")
    memo.write(text)
    return digest


def _placeholder(memo) -> None:
    memo.write(f"{FORMAT}\t{'':0>20}\n")  # as long as the stamp written over it


def _triples(blocks: Iterable[list[str]]) -> Iterator[ox.Triple]:
    """The triples of N-Triples lines, a block at a time."""
    for lines in blocks:
        yield from ox.parse("".join(lines), format=ox.RdfFormat.N_TRIPLES)


def _noted(blocks: Iterable[Block], memo) -> Iterator[list[str]]:
    """The lines of each block, noted in ``memo`` as it passes."""
    _placeholder(memo)
    for key, lines in blocks:
        _note(memo, key, lines)
        yield lines


def _noted_blocks(blocks: Iterable[Block], memo) -> Iterator[tuple[str, str, list[str]]]:
    """(key, digest, lines) of each block, noted in ``memo`` as it passes."""
    _placeholder(memo)
    for key, lines in blocks:
        yield key, _note(memo, key, lines), lines


def _changed(store: KGStore, graph: ox.NamedNode, blocks, remembered: _Remembered) -> int:
    """Remove what the remembered lists held and the new ones do not, add what they did not hold; how many more
    triples the graph holds."""
    made: set[str] = set()
    more = 0
    with tempfile.TemporaryDirectory(prefix="kg-rankings-", dir=store.scratch_dir) as folder:
        added = Path(folder) / "added.nt"
        with open(added, "w", encoding="utf-8") as out:
            for key, digest, lines in blocks:
                made.add(key)
                before = remembered.lists.get(key)
                if before is not None and before[0] == digest:
                    continue
                old, new = set(remembered.lines(key) if before is not None else ()), set(lines)
                gone, put = [line for line in old if line not in new], [line for line in lines if line not in old]
                more += len(put) - len(gone)
                remove_lines(store, graph, gone)
                out.writelines(put)
        for key in sorted(set(remembered.lists) - made):
            gone = remembered.lines(key)
            more -= len(gone)
            remove_lines(store, graph, gone)
        load_file(store.oxigraph, added, graph)
    return more
