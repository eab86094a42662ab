"""The vocabularies the graph uses, as pyoxigraph terms, and the prefixes of every export."""

from __future__ import annotations

from functools import lru_cache

from pyoxigraph import Literal, NamedNode

KG_NS = "https://kg.example.org/ontology#"


class Namespace:
    """``NS.term`` -> ``NamedNode(base + "term")`` (cached: the mapping asks for them a lot)."""

    def __init__(self, base: str):
        self._base = base

    def __str__(self) -> str:
        return self._base

    @lru_cache(maxsize=None)  # noqa: B019 - a few module-level namespaces, kept for the whole run
    def __getattr__(self, name: str) -> NamedNode:
        if name.startswith("__"):
            raise AttributeError(name)
        return NamedNode(self._base + name)


KG = Namespace(KG_NS)
RDF = Namespace("http://www.w3.org/1999/02/22-rdf-syntax-ns#")
RDFS = Namespace("http://www.w3.org/2000/01/rdf-schema#")
XSD = Namespace("http://www.w3.org/2001/XMLSchema#")
DCTERMS = Namespace("http://purl.org/dc/terms/")
FOAF = Namespace("http://xmlns.com/foaf/0.1/")
ORG = Namespace("http://www.w3.org/ns/org#")
SKOS = Namespace("http://www.w3.org/2004/02/skos/core#")
SCHEMA = Namespace("https://schema.org/")
BIBO = Namespace("http://purl.org/ontology/bibo/")
PROV = Namespace("http://www.w3.org/ns/prov#")
OWL = Namespace("http://www.w3.org/2002/07/owl#")
FABIO = Namespace("http://purl.org/spar/fabio/")
VANN = Namespace("http://purl.org/vocab/vann/")
VOID = Namespace("http://rdfs.org/ns/void#")
DCAT = Namespace("http://www.w3.org/ns/dcat#")
TRUE, FALSE = (Literal(value, datatype=XSD.boolean) for value in ("true", "false"))

PREFIXES = {
    "kg": KG_NS,
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "xsd": str(XSD),
    "dcterms": str(DCTERMS),
    "foaf": str(FOAF),
    "org": str(ORG),
    "skos": str(SKOS),
    "schema": str(SCHEMA),
    "bibo": str(BIBO),
    "prov": str(PROV),
    "owl": str(OWL),
    "fabio": str(FABIO),
    "vann": str(VANN),
    "void": str(VOID),
    "dcat": str(DCAT),
}


def data_prefixes(base: str) -> dict[str, str]:
    """Prefixes for exports: the vocabularies plus one per kind of data IRI under ``base``."""
    kinds = (
        "paper",
        "authorship",
        "author",
        "institution",
        "venue",
        "workshop",
        "record",
        "source",
        "proceedings",
        "code",
        "dataset",
        "topic",
        "artifact",
        "assignment",
        "merge",
        "note",
        "graph",
    )
    return {**PREFIXES, **{kind: f"{base}{kind}/" for kind in kinds}}


def sparql_prologue() -> str:
    """PREFIX lines for queries written against this vocabulary."""
    return "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in PREFIXES.items())
