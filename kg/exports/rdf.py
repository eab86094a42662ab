"""Write the graph out: Turtle, N-Triples or JSON-LD of the union of sources, or TriG and
N-Quads of the dataset with one named graph per source, sorted.

Output is byte-identical for the same store content: statements are sorted (graph first for
datasets; :mod:`kg.stores.ordering`, with bounded memory) before serialisation, which streams,
and no blank nodes are minted anywhere.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Collection

import pyoxigraph as ox

from ..registry import Registry
from ..stores.embedded import ASIDE_GRAPHS, KGStore
from ..vocab import data_prefixes


@dataclass(frozen=True)
class OxigraphExport:
    """A format Oxigraph's serializer writes: of the dataset (one named graph per source) or the union."""

    rdf_format: ox.RdfFormat
    dataset: bool = False

    def write(
        self,
        store: KGStore,
        handle: BinaryIO,
        base: str,
        on_progress: Callable[[int], None] | None = None,
        including: Collection[str] = (),
    ) -> None:
        line_based = self.rdf_format in (ox.RdfFormat.N_TRIPLES, ox.RdfFormat.N_QUADS)
        statements = (
            store.quads(on_progress, including) if self.dataset else store.distinct_triples(on_progress, including)
        )
        ox.serialize(statements, handle, self.rdf_format, prefixes=None if line_based else data_prefixes(base))


TURTLE = OxigraphExport(ox.RdfFormat.TURTLE)
NTRIPLES = OxigraphExport(ox.RdfFormat.N_TRIPLES)
TRIG = OxigraphExport(ox.RdfFormat.TRIG, dataset=True)
NQUADS = OxigraphExport(ox.RdfFormat.N_QUADS, dataset=True)

#: Export formats by name; each has ``write(store, binary_handle, base, on_progress, including)``.
FORMATS = Registry(
    "export format",
    {
        "turtle": "kg.exports.rdf:TURTLE",
        "ntriples": "kg.exports.rdf:NTRIPLES",
        "jsonld": "kg.exports.jsonld:JSONLD",  # compacted with a @context, which Oxigraph does not write
        "trig": "kg.exports.rdf:TRIG",
        "nquads": "kg.exports.rdf:NQUADS",
    },
)


def partial_path(output: Path) -> Path:
    """Where an export is written until it is complete."""
    return output.with_name(output.name + ".partial")


def export(
    store: KGStore,
    format_name: str,
    output: Path | BinaryIO,
    base: str,
    on_progress: Callable[[int], None] | None = None,
    including: Collection[str] = (),
) -> None:
    """Serialise every triple of the store in ``format_name`` to a path or binary stream;
    ``on_progress`` hears how many statements have been read; ``including``: the graphs set aside
    that it names too (``kg.stores.embedded.ASIDE_GRAPHS``: ``index``, what the query library reads, so its
    queries run on the export loaded elsewhere; ``topic-detail``, the topic assignments' weights and evidence)."""
    writer = FORMATS[format_name]
    if isinstance(output, Path):
        output.parent.mkdir(parents=True, exist_ok=True)
        partial = partial_path(output)
        with open(partial, "wb") as handle:
            writer.write(store, handle, base, on_progress, including)
        partial.replace(output)  # readers never see a half-written export
    else:
        writer.write(store, output, base, on_progress, including)


def export_per_graph(store: KGStore, folder: Path, on_progress: Callable[[int], None] | None = None) -> list[Path]:
    """N-Quads, one sorted file per named graph (``0001-<graph IRI made a file name>.nq``): what a
    server's bulk loader takes, several files loaded at once; the graphs set aside too (the index, so the
    query library runs on the server, and the topic detail). Each file is renamed into place complete."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    graphs = itertools.groupby(store.quads(on_progress, including=ASIDE_GRAPHS), key=lambda quad: quad.graph_name)
    for number, (graph, quads) in enumerate(graphs, 1):
        path = folder / f"{number:04d}-{re.sub(r'[^A-Za-z0-9._-]+', '-', graph.value)[-100:].strip('-')}.nq"
        with open(partial_path(path), "wb") as handle:
            ox.serialize(quads, handle, ox.RdfFormat.N_QUADS)
        partial_path(path).replace(path)
        written.append(path)
    return written
