"""Each kept source's fact lines sorted once and kept beside its rows, so that the counts' pass merges sorted
streams instead of sorting every paper's facts again at each change of sources.

The counts' pass (:func:`~.aggregates.aggregate_triples`) goes through every paper's facts grouped by paper: at
100,000 papers two million lines, all sorted on disk by each run although one more source brings a few thousand. An
on-disk store keeps, beside each source's kept rows (:mod:`.kept_rows`, ``NAME.side``), the source's fact lines
sorted and distinct (``NAME.facts``), headed by the stamp of the rows they were made from and the rows file's size
and modification time. A run reads them while that header is the rows' now and the run renamed and moved nothing in
the source (its lines are as mapped); where there are none or they are stale it makes them first, one source at a
time (the sort it needs anyway). The largest sources are merged so, up to a bound of open files. What has no such
file is sorted as before and merged in: the sources the run rewrote, the rows of a run that keeps none (a store in
memory), the graphs read from the store. The merged lines are the ones a sort of them all gives. The people's
written names, which the display names are chosen from (:mod:`.written_forms`), are kept sorted so too
(``NAME.forms``).
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from itertools import chain
from pathlib import Path
from typing import Callable, Iterable, Iterator, TextIO

from ..stores.ordering import grouped_sorted, merged_lines, sorted_lines
from .staged_rows import StagedRows

SUFFIX = ".facts"
FORMS = ".forms"  # the people's written names (:mod:`.written_forms`), kept sorted the same way
_STREAMS = 100  # sorted files merged at once, each an open file: further sources are sorted with the rest
Lines = Callable[[str], Iterable[str]]  # one staged source's lines, renames made, by its graph


def sorted_path(rows: Path, suffix: str = SUFFIX) -> Path | None:
    """Where the sorted lines of kept rows (a ``.side`` file with its ``.stamp``) are; None for rows not kept."""
    return rows.with_suffix(suffix) if rows.with_suffix(".stamp").is_file() else None


def grouped_facts(staged: StagedRows, others: Iterable[str], scratch: Path | None) -> Iterator[tuple[str, list[str]]]:
    """Every paper's facts grouped by paper, in code-point order of paper (as :func:`~kg.stores.ordering.
    grouped_lines` groups them): the staged sources' with their renames made, and ``others``, the lines of the
    graphs read from the store."""
    return grouped_kept(staged, others, scratch, SUFFIX, staged.graph_facts)


def grouped_kept(
    staged: StagedRows, others: Iterable[str], scratch: Path | None, suffix: str, lines: Lines
) -> Iterator[tuple[str, list[str]]]:
    """The staged sources' ``lines`` and ``others`` grouped by their first field (:func:`grouped_facts`), each
    source's kept sorted beside its rows (``suffix``): the largest sources' sorted files are merged
    (:data:`_STREAMS` at most), the rest sorted."""
    kept = {
        graph: path
        for graph, rows in staged.files.items()
        if not staged.rewritten(graph) and (path := sorted_path(rows, suffix)) is not None
    }
    merged = sorted(kept, key=lambda graph: (-os.path.getsize(staged.files[graph]), graph))[:_STREAMS]
    with ExitStack() as files:
        streams: list[Iterable[str]] = [
            _sorted_facts(lines(graph), staged.files[graph], kept[graph], scratch, files) for graph in merged
        ]
        rest = (lines(graph) for graph in sorted(staged.files) if graph not in merged)
        streams.append(sorted_lines(chain(others, chain.from_iterable(rest)), scratch))
        yield from grouped_sorted(merged_lines(streams))


def _sorted_facts(lines: Iterable[str], rows: Path, path: Path, scratch: Path | None, files: ExitStack) -> TextIO:
    """A source's sorted lines, read from its file (:func:`_made`)."""
    opened = files.enter_context(open(_made(lines, rows, path, scratch), encoding="utf-8"))
    opened.readline()
    return opened


def _made(lines: Iterable[str], rows: Path, path: Path, scratch: Path | None) -> Path:
    """A source's file of sorted lines, made first from ``lines`` where there is none or its header is not the
    source's ``rows``' now (one source sorted at a time: one run of lines in memory)."""
    header = f"{rows_header(rows)}\n"
    if not path.is_file() or _header(path) != header:
        _write(sorted_lines(lines, scratch), path, header)
    return path


def fresh_sorted_facts(staged: StagedRows, graph: str, scratch: Path | None) -> Path | None:
    """A kept source's sorted facts file (a header line, then its fact lines in code-point order), made first where
    there is none or it is stale; None for a source with none (rows not kept, lines rewritten by this run)."""
    path = sorted_path(staged.files[graph])
    if staged.rewritten(graph) or path is None:
        return None
    return _made(staged.graph_facts(graph), staged.files[graph], path, scratch)


def rows_header(rows: Path) -> str | None:
    """A kept source's rows as they are now: their stamp, size and modification time (a hand edit of the rows is
    not what a file made from them was made of); None where they have no stamp. What every file made from a
    source's rows is headed with."""
    stamp = rows.with_suffix(".stamp")
    if not stamp.is_file():
        return None
    stat = os.stat(rows)
    return f"{stamp.read_text(encoding='utf-8')}\t{stat.st_size}\t{stat.st_mtime_ns}"


def _header(path: Path) -> str:
    with open(path, encoding="utf-8") as lines:
        return lines.readline()


def _write(lines: Iterable[str], path: Path, header: str) -> None:
    """``header`` and ``lines`` written to ``path``, put in place once all are on disk: a run that stops half-way
    leaves none."""
    written = path.with_name(path.name + ".new")
    with open(written, "w", encoding="utf-8") as out:
        out.write(header)
        out.writelines(lines)
        out.flush()
        os.fsync(out.fileno())
    os.replace(written, path)
