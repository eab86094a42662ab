"""Write the graph out: Turtle, N-Triples or JSON-LD of the union of sources, or TriG and
N-Quads of the dataset with one named graph per source, sorted.

Output is byte-identical for the same store content: statements are sorted (graph first for
datasets; :mod:`kg.stores.ordering`, with bounded memory) before serialisation, which streams,
and no blank nodes are minted anywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO, Callable

import pyoxigraph as ox

from ..errors import KgError
from ..stores.embedded import KGStore
from ..rdf.vocab import data_prefixes

FORMATS = {
    "turtle": (ox.RdfFormat.TURTLE, ".ttl"),
    "ntriples": (ox.RdfFormat.N_TRIPLES, ".nt"),
    "jsonld": (ox.RdfFormat.JSON_LD, ".jsonld"),
    "trig": (ox.RdfFormat.TRIG, ".trig"),
    "nquads": (ox.RdfFormat.N_QUADS, ".nq"),
}
DATASET_FORMATS = {"trig", "nquads"}  # with one named graph per source; the others write the union


def export(store: KGStore, format_name: str, output: Path | BinaryIO, base: str,
           on_progress: Callable[[int], None] | None = None) -> None:
    """Serialise every triple of the store in ``format_name`` to a path or binary stream;
    ``on_progress`` hears how many statements have been read."""
    if format_name not in FORMATS:
        raise KgError(f"unknown export format {format_name!r}; choose one of {', '.join(FORMATS)}")
    rdf_format, _ = FORMATS[format_name]
    line_based = rdf_format in (ox.RdfFormat.N_TRIPLES, ox.RdfFormat.N_QUADS)
    prefixes = None if line_based else data_prefixes(base)
    statements = store.quads(on_progress) if format_name in DATASET_FORMATS else store.distinct_triples(on_progress)
    if isinstance(output, Path):
        output.parent.mkdir(parents=True, exist_ok=True)
        partial = output.with_name(output.name + ".partial")
        ox.serialize(statements, str(partial), rdf_format, prefixes=prefixes)
        partial.replace(output)  # readers never see a half-written export
    else:
        ox.serialize(statements, output, rdf_format, prefixes=prefixes)
