"""Write the graph out: Turtle, N-Triples or JSON-LD of the union of sources, or TriG and
N-Quads of the dataset with one named graph per source, sorted.

Output is byte-identical for the same store content: triples are sorted (graph, subject,
predicate, object) before serialisation and no blank nodes are minted anywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

import io

import pyoxigraph as ox

from ..errors import KgError
from .jsonld import write_jsonld
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


def export(store: KGStore, format_name: str, output: Path | BinaryIO, base: str) -> None:
    """Serialise every triple of the store in ``format_name`` to a path or binary stream."""
    if format_name not in FORMATS:
        raise KgError(f"unknown export format {format_name!r}; choose one of {', '.join(FORMATS)}")
    rdf_format, _ = FORMATS[format_name]
    line_based = rdf_format in (ox.RdfFormat.N_TRIPLES, ox.RdfFormat.N_QUADS)
    prefixes = None if line_based else data_prefixes(base)
    statements = store.quads() if format_name in DATASET_FORMATS else store.distinct_triples()
    if isinstance(output, Path):
        output.parent.mkdir(parents=True, exist_ok=True)
        partial = output.with_name(output.name + ".partial")
        with open(partial, "wb") as handle:
            _serialize(statements, handle, rdf_format, prefixes)
        partial.replace(output)  # readers never see a half-written export
    else:
        _serialize(statements, output, rdf_format, prefixes)


def _serialize(statements, handle: BinaryIO, rdf_format: ox.RdfFormat, prefixes: dict[str, str] | None) -> None:
    if rdf_format == ox.RdfFormat.JSON_LD:  # compacted with a @context, which Oxigraph does not write
        text = io.TextIOWrapper(handle, encoding="utf-8", newline="\n", write_through=True)
        write_jsonld(statements, text, prefixes)
        text.detach()
    else:
        ox.serialize(statements, handle, rdf_format, prefixes=prefixes)
