"""Exports: every fact the docs promise per paper (docs/graph-model.md) is in the exported Turtle,
read by rdflib's parser, and the index graph (counts and look-up keys) is not, nor the topic detail
unless asked for (then its facts are); `kg export --per-graph` splits the N-Quads export at its
graphs, one complete file each."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import rdflib

from kg.exports.rdf import export, export_per_graph
from kg.rdf.iris import Minter

FACTS = Path(__file__).resolve().parents[1] / "data" / "export_facts.tsv"
BASE = Minter().base
# fact -> (SPARQL over one paper ?paper, the number of values it takes); values are bound as ?v1, ?v2, …
ASKS = {
    "title": ('ASK { ?paper dcterms:title ?t FILTER(str(?t) = ?v1 && lang(?t) = "en") }', 1),
    "title@zh": ('ASK { ?paper dcterms:title ?t FILTER(str(?t) = ?v1 && lang(?t) = "zh") }', 1),
    "authorship": ("ASK { ?paper kg:authorship ?a . ?a kg:position ?v1 ; kg:nameAsWritten ?v2 ; kg:author ?v3 }", 3),
    "creator": ("ASK { ?paper dcterms:creator ?v1 }", 1),
    "sourceOrganization": ("ASK { ?paper schema:sourceOrganization ?v1 . ?v1 a org:Organization }", 1),
    "organisationWritten": (
        "ASK { ?paper schema:sourceOrganization ?o . ?o kg:nameAsWritten ?w FILTER(str(?w) = ?v1) }",
        1,
    ),
    "unitOf": ("ASK { ?paper schema:sourceOrganization/org:subOrganizationOf+ ?v1 }", 1),
    "presentedAt": ("ASK { ?paper bibo:presentedAt ?v1 . ?v1 a bibo:Conference }", 1),
    "subject": ("ASK { ?paper dcterms:subject ?v1 }", 1),
    "derivedFrom": ("ASK { ?paper prov:wasDerivedFrom ?v1 }", 1),
    "record": ("ASK { ?paper prov:wasDerivedFrom ?r . ?r kg:line ?v1 ; prov:wasDerivedFrom ?v2 }", 2),
    # what the paper links to is named once, by skos:prefLabel (docs/graph-model.md, Names)
    "name": (
        "ASK { ?paper dcterms:creator|schema:sourceOrganization|bibo:presentedAt|dcterms:subject ?v1 . "
        "?v1 skos:prefLabel ?n FILTER(str(?n) = ?v2) FILTER NOT EXISTS { ?v1 rdfs:label|foaf:name|schema:name ?o } }",
        2,
    ),
    "topicAssignment": (
        "ASK { ?paper kg:topicAssignment ?a . ?a kg:topic ?v1 ; kg:matchedLabel ?v2 ; kg:weight ?w ; kg:foundIn ?s }",
        2,
    ),
}
DETAIL = {"topicAssignment"}  # facts of the topic detail graphs: exported only when asked for
PREFIXES = {
    "dcterms": "http://purl.org/dc/terms/",
    "kg": "https://kg.example.org/ontology#",
    "schema": "https://schema.org/",
    "org": "http://www.w3.org/ns/org#",
    "bibo": "http://purl.org/ontology/bibo/",
    "prov": "http://www.w3.org/ns/prov#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "foaf": "http://xmlns.com/foaf/0.1/",
}


def rows() -> list[tuple[str, str, list[str]]]:
    lines = FACTS.read_text(encoding="utf-8").splitlines()
    return [
        (title, fact, values)
        for title, fact, *values in (line.split("\t") for line in lines if line and not line.startswith("#"))
    ]


def exported_turtle(store, folder: Path, including: tuple[str, ...] = ()) -> rdflib.Graph:
    path = folder / "kg.ttl"
    export(store, "turtle", path, BASE, including=including)
    return rdflib.Graph().parse(path, format="turtle")


@pytest.fixture(scope="module")
def exported(sample_store, tmp_path_factory) -> rdflib.Graph:
    return exported_turtle(sample_store, tmp_path_factory.mktemp("export"))


@pytest.fixture(scope="module")
def exported_with_detail(sample_store, tmp_path_factory) -> rdflib.Graph:
    return exported_turtle(sample_store, tmp_path_factory.mktemp("export-detail"), ("topic-detail",))


def term(value: str) -> rdflib.term.Identifier:
    """A value of the table: a whole number, an IRI (a local name under the base), else a string."""
    if value.isdigit():
        return rdflib.Literal(int(value))
    if "/" in value and " " not in value:
        return rdflib.URIRef(BASE + value)
    return rdflib.Literal(value)


def holds(graph: rdflib.Graph, title: str, fact: str, values: list[str]) -> bool:
    papers = list(graph.subjects(rdflib.URIRef(PREFIXES["dcterms"] + "title"), rdflib.Literal(title, lang="en")))
    assert len(papers) == 1, f"one paper titled {title!r} in the export"
    ask, arity = ASKS[fact]
    assert len(values) == arity
    bindings = {"paper": papers[0], **{f"v{number}": term(value) for number, value in enumerate(values, start=1)}}
    return graph.query(ask, initNs=PREFIXES, initBindings=bindings).askAnswer


@pytest.mark.parametrize("title, fact, values", rows(), ids=lambda value: str(value)[:40])
def test_promised_fact_is_exported(exported, exported_with_detail, title, fact, values):
    if fact in DETAIL:
        assert not holds(exported, title, fact, values), f"{fact} of {title!r} only with the topic detail"
        assert holds(exported_with_detail, title, fact, values), f"{fact} {values} of {title!r} (--with-topic-detail)"
    else:
        assert holds(exported, title, fact, values), f"{fact} {values} of {title!r}"


def test_every_paper_has_its_byline_in_the_export(exported):
    """Every authorship has a position, a name as written and an author; every paper a title or abstract."""
    missing = exported.query(
        """
        SELECT ?paper WHERE { ?paper a schema:ScholarlyArticle
          FILTER(NOT EXISTS { ?paper dcterms:title|dcterms:abstract ?text }
                 || EXISTS { ?paper kg:authorship ?a
                             FILTER NOT EXISTS { ?a kg:position ?p ; kg:nameAsWritten ?w ; kg:author ?x } })
        }""",
        initNs=PREFIXES,
    )
    assert list(missing) == []


def test_the_index_graph_is_not_exported(exported, sample_store):
    counted = {str(p) for p in exported.predicates()} & {
        PREFIXES["kg"] + name
        for name in (
            "matchKey",
            "matchKeyLines",
            "paperCount",
            "sharedPapers",
            "withinInstitution",
            "bylineLength",
            "authorNames",
        )
    }
    assert counted == set()
    # ... while the query library reads it in the union
    assert sample_store.scalar(f"SELECT (COUNT(*) AS ?n) WHERE {{ ?e <{PREFIXES['kg']}matchKey> ?k }}") > 0


def test_per_graph_files_hold_the_nquads_export_graph_by_graph(sample_store, tmp_path):
    whole = io.BytesIO()
    export(sample_store, "nquads", whole, "https://kg.example.org/id/", including=("index", "topic-detail"))
    files = export_per_graph(sample_store, tmp_path / "dump")
    assert b"".join(path.read_bytes() for path in files) == whole.getvalue()  # sorted by graph: the same bytes
    assert [path.name for path in files] == sorted(path.name for path in (tmp_path / "dump").iterdir())
    assert files[-1].name == "0010-https-kg.example.org-ontology.nq"  # the index, rankings and topic detail graphs too
    for path in files:
        graphs = {line.rsplit(b" ", 2)[-2] for line in path.read_bytes().splitlines()}
        assert len(graphs) == 1  # one graph a file
