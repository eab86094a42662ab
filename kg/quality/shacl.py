"""SHACL validation of the graph (``ontology/shapes.ttl``) with pySHACL, as a readable report."""

from __future__ import annotations

from dataclasses import dataclass, field

import pyoxigraph as ox
import rdflib
from pyshacl import validate
from rdflib.namespace import SH

from .. import ONTOLOGY_DIR
from ..stores.embedded import KGStore

SHAPES = ONTOLOGY_DIR / "shapes.ttl"


@dataclass(frozen=True, order=True)
class Violation:
    focus: str
    path: str
    message: str
    value: str
    severity: str

    def __str__(self) -> str:
        where = f"{self.focus} {self.path}".strip()
        value = f" (value: {self.value})" if self.value else ""
        return f"{self.severity}: {where}: {self.message}{value}"


@dataclass
class ValidationReport:
    conforms: bool
    nodes: int
    violations: list[Violation] = field(default_factory=list)


def store_graph(store: KGStore) -> rdflib.Graph:
    """The union of the store's graphs as an rdflib graph (each triple once), the topic detail
    included (its assignments have a shape), the index not."""
    graph = rdflib.Graph()
    triples = store.distinct_triples(including=("topic-detail",))
    graph.parse(data=ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES), format="nt")
    return graph


def _short(term, graph: rdflib.Graph) -> str:
    if term is None:
        return ""
    if isinstance(term, rdflib.URIRef):
        try:
            return graph.namespace_manager.normalizeUri(term)
        except Exception:  # noqa: BLE001 - an IRI with no prefix is written in full
            return f"<{term}>"
    if isinstance(term, rdflib.BNode):
        return ""  # a path or shape without a name: the message says what it is
    return str(term)


def validate_graph(data: rdflib.Graph, prefixes: dict[str, str] | None = None) -> ValidationReport:
    shapes = rdflib.Graph().parse(SHAPES)
    conforms, results, _ = validate(data, shacl_graph=shapes, inference="none", abort_on_first=False)
    for prefix, namespace in (prefixes or {}).items():
        results.bind(prefix, namespace, override=True)
    violations = sorted(
        Violation(
            focus=_short(results.value(result, SH.focusNode), results),
            path=_short(results.value(result, SH.resultPath), results),
            message=str(results.value(result, SH.resultMessage) or ""),
            value=_short(results.value(result, SH.value), results),
            severity=_short(results.value(result, SH.resultSeverity), results).removeprefix("sh:"),
        )
        for result in results.subjects(rdflib.RDF.type, SH.ValidationResult)
    )
    nodes = len(set(data.subjects()))
    return ValidationReport(bool(conforms), nodes, violations)
