"""Compacted JSON-LD: one ``@graph`` of node objects under an ``@context`` of the graph's prefixes.

Written as a stream from triples sorted by subject, so it takes no more memory than one node.
IRIs under a prefix become compact IRIs (``paper:…``, ``dcterms:title``), ``rdf:type`` becomes
``@type``, plain strings stay strings and every other literal keeps its language or datatype,
so JSON-LD processors (pyld, rdflib, Jena) read back exactly the triples of the N-Triples export.
"""

from __future__ import annotations

import io
import itertools
import json
from typing import BinaryIO, Collection, Iterable, Mapping, TextIO

import pyoxigraph as ox

from ..vocab import RDF, XSD, data_prefixes

_TYPE = RDF.type
_STRING = XSD.string


class Compactor:
    """Shortens IRIs with the longest matching prefix, only where a processor expands them back."""

    def __init__(self, prefixes: Mapping[str, str]):
        self._prefixes = sorted(prefixes.items(), key=lambda item: (-len(item[1]), item[0]))

    def iri(self, value: str) -> str:
        for name, namespace in self._prefixes:
            local = value[len(namespace) :]
            # A local part starting with // would be read back as an absolute IRI.
            if value.startswith(namespace) and local and not local.startswith("//"):
                return f"{name}:{local}"
        return value

    def node(self, term: ox.NamedNode | ox.BlankNode) -> str:
        return f"_:{term.value}" if isinstance(term, ox.BlankNode) else self.iri(term.value)

    def value(self, term: ox.NamedNode | ox.BlankNode | ox.Literal) -> dict | str:
        if not isinstance(term, ox.Literal):
            return {"@id": self.node(term)}
        if term.language:
            return {"@value": term.value, "@language": term.language}
        if term.datatype == _STRING:
            return term.value
        return {"@value": term.value, "@type": self.iri(term.datatype.value)}


def node_object(subject, triples: Iterable[ox.Triple], compact: Compactor) -> dict:
    """The node object of one subject from its triples (sorted by predicate)."""
    node: dict = {"@id": compact.node(subject)}
    for predicate, group in itertools.groupby(triples, key=lambda triple: triple.predicate):
        objects = [triple.object for triple in group]
        if predicate == _TYPE and all(isinstance(o, ox.NamedNode) for o in objects):
            values = [compact.iri(o.value) for o in objects]
            key = "@type"
        else:
            values = [compact.value(o) for o in objects]
            key = compact.iri(predicate.value)
        node[key] = values[0] if len(values) == 1 else values
    return node


def write_jsonld(triples: Iterable[ox.Triple], handle: TextIO, prefixes: Mapping[str, str]) -> None:
    """Write sorted ``triples`` as one compacted JSON-LD document (one node object per line)."""
    compact = Compactor(prefixes)
    context = json.dumps(dict(sorted(prefixes.items())), ensure_ascii=False, sort_keys=True)
    handle.write('{"@context": ' + context + ',\n "@graph": [')
    for number, (subject, group) in enumerate(itertools.groupby(triples, key=lambda triple: triple.subject)):
        handle.write(",\n  " if number else "\n  ")
        handle.write(json.dumps(node_object(subject, group, compact), ensure_ascii=False))
    handle.write("\n]}\n")


class JsonLdExport:
    """The ``jsonld`` export: the union of the store's graphs, compacted under the data prefixes."""

    def write(self, store, handle: BinaryIO, base: str, on_progress=None, including: Collection[str] = ()) -> None:
        text = io.TextIOWrapper(handle, encoding="utf-8", newline="\n", write_through=True)
        write_jsonld(store.distinct_triples(on_progress, including), text, data_prefixes(base))
        text.detach()


JSONLD = JsonLdExport()
