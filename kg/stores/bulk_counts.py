"""After a server's bulk loader has read a dump of ``kg export --per-graph``: are all its quads there?

Each file of the dump is one named graph, one distinct quad a line (the export is sorted and holds
every quad once), so a file's line count is its graph's quad count; a graph may be spread over several
files (their counts add up), and a file may be gzipped (``*.nq.gz``, which Virtuoso's loader reads too).
The server is asked for the quad count of each of those graphs in one query; a graph with another
count (a file the loader skipped or cut short, a graph loaded twice into a server that keeps
duplicates, a graph not emptied first) is a mismatch.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox

from ..errors import KgError


@dataclass(frozen=True)
class GraphCount:
    graph: str
    dumped: int
    loaded: int


def dump_counts(folder: Path) -> dict[str, int]:
    """Quads per graph of the dump's ``*.nq`` and ``*.nq.gz`` files (the graph read from each file's first quad)."""
    counts: dict[str, int] = {}
    files = sorted([*folder.glob("*.nq"), *folder.glob("*.nq.gz")])
    if not files:
        raise KgError(f"{folder}: no *.nq or *.nq.gz file (write them with kg export --per-graph {folder})")
    for path in files:
        with gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb") as handle:
            first = handle.readline()
            lines = (1 if first.strip() else 0) + sum(1 for line in handle if line.strip())
        if not lines:
            continue
        try:
            quad = next(iter(ox.parse(first, ox.RdfFormat.N_QUADS)))
        except (SyntaxError, StopIteration) as exc:
            raise KgError(f"{path}:1: not an N-Quads statement ({exc})") from None
        if not isinstance(quad.graph_name, ox.NamedNode):
            raise KgError(f"{path}:1: a quad of the default graph; kg export --per-graph writes named graphs only")
        counts[quad.graph_name.value] = counts.get(quad.graph_name.value, 0) + lines
    return counts


def compared(store, folder: Path) -> list[GraphCount]:
    """Each graph of the dump with its count there and on the server (``store``: a RemoteStore)."""
    dumped = dump_counts(folder)
    loaded = store.quad_counts(sorted(dumped))
    return [GraphCount(graph, count, loaded.get(graph, 0)) for graph, count in sorted(dumped.items())]


def verdict(counts: list[GraphCount]) -> str:
    """One line: the totals when every graph matches; else a :class:`KgError` naming the graphs that differ."""
    wrong = [c for c in counts if c.dumped != c.loaded]
    if wrong:
        shown = "; ".join(f"<{c.graph}> {c.dumped:,} in the dump, {c.loaded:,} on the server" for c in wrong[:3])
        more = f"; and {len(wrong) - 3} more" if len(wrong) > 3 else ""
        raise KgError(
            f"the server's quad counts differ from the dump in {len(wrong)} of {len(counts)} graphs: {shown}{more}"
        )
    return f"counts match: {len(counts)} graphs, {sum(c.dumped for c in counts):,} quads"
