"""Each kept source's fact lines sorted once and kept beside its rows, so that the counts' pass merges sorted
streams instead of sorting every paper's facts again at each change of sources.

The counts' pass (:func:`~.aggregates.aggregate_triples`) goes through every paper's facts grouped by paper: at
100,000 papers two million lines, all sorted on disk by each run although one more source brings a few thousand. An
on-disk store keeps, beside each source's kept rows (:mod:`.kept_rows`, ``NAME.side``), the source's fact lines
sorted and distinct (``NAME.facts``), headed by the stamp of the rows they were made from and the rows file's size
and modification time. A run reads them while that header is the rows' now and the run renamed and moved nothing in
the source (its lines are as mapped); where there are none or they are stale it makes them, writing the sort it
needs anyway as it reads it. What has no such file is sorted as before and merged in: the sources the run rewrote,
the rows of a run that keeps none (a store in memory), the graphs read from the store. The merged lines are the
ones a sort of them all gives.
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from itertools import chain
from pathlib import Path
from typing import Iterable, Iterator

from ..stores.ordering import grouped_sorted, merged_lines, sorted_lines
from .staged_rows import StagedRows

SUFFIX = ".facts"
_BATCH = 10_000  # lines written at a time while they are passed on


def sorted_path(rows: Path) -> Path | None:
    """Where the sorted facts of kept rows (a ``.side`` file with its ``.stamp``) are; None for rows not kept."""
    return rows.with_suffix(SUFFIX) if rows.with_suffix(".stamp").is_file() else None


def grouped_facts(staged: StagedRows, others: Iterable[str], scratch: Path | None) -> Iterator[tuple[str, list[str]]]:
    """Every paper's facts grouped by paper, in code-point order of paper (as :func:`~kg.stores.ordering.
    grouped_lines` groups them): the staged sources' with their renames made, and ``others``, the lines of the
    graphs read from the store."""
    with ExitStack() as files:
        streams: list[Iterable[str]] = []
        unsorted: list[Iterable[str]] = [others]
        for graph in sorted(staged.files):
            path = None if staged.rewritten(graph) else sorted_path(staged.files[graph])
            if path is None:
                unsorted.append(staged.graph_facts(graph))
            else:
                streams.append(_sorted_facts(staged, graph, path, scratch, files))
        streams.append(sorted_lines(chain.from_iterable(unsorted), scratch))
        yield from grouped_sorted(merged_lines(streams))


def _sorted_facts(staged: StagedRows, graph: str, path: Path, scratch: Path | None, files: ExitStack):
    """The graph's sorted fact lines: the file's while its header is the rows' now, else made and written."""
    rows = os.stat(staged.files[graph])  # the rows as written: a hand edit of them is not what was sorted
    header = f"{path.with_suffix('.stamp').read_text(encoding='utf-8')}\t{rows.st_size}\t{rows.st_mtime_ns}\n"
    if path.is_file():
        lines = files.enter_context(open(path, encoding="utf-8"))
        if lines.readline() == header:
            return lines
    return _written(sorted_lines(staged.graph_facts(graph), scratch), path, header)


def _written(lines: Iterable[str], path: Path, header: str) -> Iterator[str]:
    """``lines`` passed on and written to ``path`` after ``header``; the file is put in place once every line is
    written (and on disk), so a pass that stops half-way leaves none."""
    written = path.with_name(path.name + ".new")
    with open(written, "w", encoding="utf-8") as out:
        out.write(header)
        batch: list[str] = []
        for line in lines:
            batch.append(line)
            if len(batch) == _BATCH:
                out.writelines(batch)
                batch.clear()
            yield line
        out.writelines(batch)
        out.flush()
        os.fsync(out.fileno())
    os.replace(written, path)
