"""Write the graph out: Turtle, N-Triples or JSON-LD of the union of sources, sorted.

Output is byte-identical for the same store content: triples are sorted (subject,
predicate, object) before serialisation and no blank nodes are minted anywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

import pyoxigraph as ox

from .errors import KgError
from .store import KGStore
from .vocab import data_prefixes

FORMATS = {
    "turtle": (ox.RdfFormat.TURTLE, ".ttl"),
    "ntriples": (ox.RdfFormat.N_TRIPLES, ".nt"),
    "jsonld": (ox.RdfFormat.JSON_LD, ".jsonld"),
}


def export(store: KGStore, format_name: str, output: Path | BinaryIO, base: str) -> None:
    """Serialise every triple of the store in ``format_name`` to a path or binary stream."""
    if format_name not in FORMATS:
        raise KgError(f"unknown export format {format_name!r}; choose one of {', '.join(FORMATS)}")
    rdf_format, _ = FORMATS[format_name]
    prefixes = data_prefixes(base) if rdf_format is not ox.RdfFormat.N_TRIPLES else None
    if isinstance(output, Path):
        output.parent.mkdir(parents=True, exist_ok=True)
        partial = output.with_name(output.name + ".partial")
        ox.serialize(store.distinct_triples(), str(partial), rdf_format, prefixes=prefixes)
        partial.replace(output)  # readers never see a half-written export
    else:
        ox.serialize(store.distinct_triples(), output, rdf_format, prefixes=prefixes)
