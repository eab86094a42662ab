"""kg/exports/: compacted JSON-LD read back by an independent processor (pyld), deterministically."""

from __future__ import annotations

import io
import json
import os
import signal
import time
from pathlib import Path

import pyoxigraph as ox
import pytest
from pyld import jsonld

from kg.exports.jsonld import Compactor, write_jsonld
from kg.exports.rdf import export
from kg.vocab import data_prefixes

BASE = "https://kg.example.org/id/"


def exported(store, format_name: str) -> bytes:
    out = io.BytesIO()
    export(store, format_name, out, BASE)
    return out.getvalue()


@pytest.mark.slow
def test_jsonld_is_compacted_and_pyld_reads_back_the_ntriples(sample_store):
    document = exported(sample_store, "jsonld")
    assert document == exported(sample_store, "jsonld")  # byte-identical across runs
    parsed = json.loads(document)
    assert parsed["@context"]["dcterms"] == "http://purl.org/dc/terms/"
    paper = next(node for node in parsed["@graph"] if node.get("@type") == "schema:ScholarlyArticle")
    assert paper["@id"].startswith("paper:") and "dcterms:title" in paper
    expected = set(ox.parse(exported(sample_store, "ntriples"), format=ox.RdfFormat.N_TRIPLES))
    quads = jsonld.to_rdf(parsed, {"format": "application/n-quads"})
    assert set(ox.parse(quads.encode("utf-8"), format=ox.RdfFormat.N_TRIPLES)) == expected
    assert len(document) < len(exported(sample_store, "ntriples")) * 0.6  # prefixes are used


@pytest.mark.parametrize(
    "iri, compact",
    [
        ("https://kg.example.org/id/paper/p1", "paper:p1"),
        ("https://kg.example.org/id/paper/", "https://kg.example.org/id/paper/"),  # no local part
        ("https://kg.example.org/id/paper///x", "https://kg.example.org/id/paper///x"),  # would read as an IRI
        ("https://kg.example.org/id/papers/p1", "https://kg.example.org/id/papers/p1"),  # near miss of paper/
        ("http://example.com/x", "http://example.com/x"),
    ],
)
def test_iris_are_compacted_only_where_they_expand_back(iri, compact):
    assert Compactor(data_prefixes(BASE)).iri(iri) == compact


def test_literals_keep_language_and_datatype_and_types_stay_iris():
    s, p = ox.NamedNode("https://kg.example.org/id/paper/p"), ox.NamedNode("http://purl.org/dc/terms/title")
    triples = sorted(
        [
            ox.Triple(s, p, ox.Literal("Title", language="en")),
            ox.Triple(s, p, ox.Literal("plain")),
            ox.Triple(
                s,
                ox.NamedNode("https://kg.example.org/ontology#position"),
                ox.Literal("3", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")),
            ),
            ox.Triple(
                s,
                ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"),
                ox.NamedNode("https://schema.org/ScholarlyArticle"),
            ),
        ],
        key=lambda triple: triple.predicate.value,
    )  # the writer gets triples sorted by subject, then predicate
    out = io.StringIO()
    write_jsonld(triples, out, data_prefixes(BASE))
    (node,) = json.loads(out.getvalue())["@graph"]
    assert node["@type"] == "schema:ScholarlyArticle"
    assert node["kg:position"] == {"@value": "3", "@type": "xsd:integer"}
    assert sorted(node["dcterms:title"], key=str) == sorted(["plain", {"@value": "Title", "@language": "en"}], key=str)
    round_trip = jsonld.to_rdf(json.loads(out.getvalue()), {"format": "application/n-quads"})
    assert {quad.triple for quad in ox.parse(round_trip.encode(), format=ox.RdfFormat.N_TRIPLES)} == set(triples)


def description(store) -> dict[str, list[str]]:
    rows = store.select_terms("""SELECT ?p ?o WHERE { GRAPH <https://kg.example.org/id/graph/description> {
        <https://kg.example.org/id/dataset/kg> ?p ?o } }""")
    found: dict[str, list[str]] = {}
    for predicate, value in rows:
        found.setdefault(predicate.value.rsplit("/", 1)[-1].rsplit("#", 1)[-1], []).append(value.value)
    return found


def test_the_dataset_describes_itself_from_the_store(sample_store):
    from conftest import ABSTRACTS, LISTING

    from kg.exports.description import file_modified
    from kg.query.stats import graph_stats

    about = description(sample_store)
    stats = graph_stats(sample_store)
    assert about["triples"] == [str(stats["triples"])]  # the count includes the description itself
    assert set(about["type"]) == {"http://rdfs.org/ns/void#Dataset", "http://www.w3.org/ns/dcat#Dataset"}
    assert about["license"] and about["title"]
    assert sorted(about["wasDerivedFrom"]) == sample_store.sources()
    assert about["created"] == [max(file_modified(path.stat().st_mtime).value for path in (LISTING, ABSTRACTS))]
    assert "sparqlEndpoint" not in about  # an embedded store has none
    partitions = dict(
        sample_store.select_terms("""PREFIX void: <http://rdfs.org/ns/void#>
        SELECT ?class ?n WHERE { ?partition void:class ?class ; void:entities ?n }""")
    )
    assert {cls.value: int(n.value) for cls, n in partitions.items()} == {
        "https://schema.org/ScholarlyArticle": stats["papers"],
        "http://xmlns.com/foaf/0.1/Person": stats["authors"],
        "http://www.w3.org/ns/org#Organization": stats["institutions"],
    }


@pytest.mark.parametrize("format_name", ["turtle", "ntriples", "jsonld", "trig", "nquads"])
def test_every_export_holds_the_description(sample_store, format_name):
    assert b"http://rdfs.org/ns/void#" in exported(sample_store, format_name)
    assert b"dataset/kg" in exported(sample_store, format_name) or b"dataset:kg" in exported(sample_store, format_name)


def test_a_server_store_names_its_endpoint():
    from kg.exports.description import description_triples
    from kg.rdf.iris import Minter

    counts = {"triples": 10, "papers": 1, "authors": 2, "institutions": 0}
    triples = description_triples(counts, [], Minter(), endpoint="http://127.0.0.1:7878/query")
    assert (
        ox.Triple(
            ox.NamedNode(BASE + "dataset/kg"),
            ox.NamedNode("http://rdfs.org/ns/void#sparqlEndpoint"),
            ox.NamedNode("http://127.0.0.1:7878/query"),
        )
        in triples
    )
    stated = [t.object.value for t in triples if t.predicate.value.endswith("#triples")]
    assert stated == [str(10 + len(triples))]
    assert not any(t.predicate.value.endswith("created") for t in triples)  # no sources, no date


def test_kg_stats_reads_the_counts_the_description_keeps(sample_store):
    """The description holds every count of graph_stats, equal to counting the store now;
    a store without them (described before they were kept) is counted instead."""
    from kg.exports.description import description_graph
    from kg.query.stats import COUNTS, graph_stats, stored_stats
    from kg.rdf.iris import Minter

    counted = graph_stats(sample_store)
    assert stored_stats(sample_store) == counted and list(counted) == list(COUNTS)
    from kg.stores.embedded import KGStore

    store = KGStore("memory")
    for quad in sample_store.oxigraph.quads_for_pattern(None, None, None, None):
        if quad.graph_name != description_graph(Minter()):
            store.oxigraph.add(quad)
    assert stored_stats(store) is None


def test_the_export_command_offers_every_export_format():
    from kg.cli.inspect import EXPORT_FORMATS
    from kg.exports.rdf import FORMATS

    assert EXPORT_FORMATS == list(FORMATS)


@pytest.fixture(scope="module")
def disk_store(tmp_path_factory):
    """The samples in an on-disk store, held open by this process as kg build's writer holds it."""
    from kg import SAMPLES_DIR
    from kg.pipeline import ingest
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore

    store = KGStore(str(tmp_path_factory.mktemp("disk") / "store"))
    ingest([SAMPLES_DIR], store, Minter())
    yield store
    store.close()


@pytest.mark.slow
@pytest.mark.parametrize("format_name", ["turtle", "nquads"])
def test_an_export_in_its_own_process_beside_the_writer_is_the_same_bytes(disk_store, tmp_path, format_name):
    from kg.exports.background import export_beside

    output = tmp_path / "out" / f"kg.{format_name}"
    background = export_beside(disk_store, format_name, output, BASE)
    assert background is not None and background.pid != os.getpid()
    seen = []
    background.watch(seen.append, every=0.01)
    background.wait()
    assert output.read_bytes() == exported(disk_store, format_name)
    assert not list(output.parent.glob("*.partial"))
    assert not list(Path(disk_store.spec, "kg-readers").glob("reader-*"))  # the reader's snapshot is gone
    assert max(seen) == background.done > 1000  # the count the display shows reached every statement


@pytest.mark.slow
def test_an_export_beside_a_suspended_resolution_leaves_its_mark_out(disk_store, tmp_path):
    """The export started while the ranked lists are made (kg build): the snapshot it reads has the
    resolution's suspended mark, which it takes out of its own copy; the writer's store keeps it."""
    from kg.exports.background import export_beside
    from kg.pipeline import SUSPENDED_MARK
    from kg.vocab import KG

    expected = exported(disk_store, "turtle")
    resolved = ox.NamedNode(BASE + "graph/resolved")
    mark = ox.Quad(resolved, KG.resolutionSuspended, ox.Literal(True), resolved)
    disk_store.oxigraph.add(mark)
    try:
        background = export_beside(disk_store, "turtle", tmp_path / "kg.ttl", BASE, update=SUSPENDED_MARK)
        background.wait()
        assert mark in disk_store.oxigraph and exported(disk_store, "turtle") != expected
    finally:
        disk_store.oxigraph.remove(mark)
    assert (tmp_path / "kg.ttl").read_bytes() == expected


def test_a_store_no_other_process_can_open_is_exported_in_place(sample_store, tmp_path):
    from kg.exports.background import export_beside

    assert export_beside(sample_store, "turtle", tmp_path / "kg.ttl", BASE) is None  # in memory


def test_a_failed_background_export_is_one_error_naming_its_file(disk_store, tmp_path):
    from kg.errors import KgError
    from kg.exports.background import export_beside

    (tmp_path / "taken").write_text("a file where the export's folder would be")
    output = tmp_path / "taken" / "kg.ttl"
    background = export_beside(disk_store, "turtle", output, BASE)
    with pytest.raises(KgError, match=r"taken/kg\.ttl: .*taken") as raised:
        background.wait()
    assert "\n" not in str(raised.value)


def test_a_stopped_background_export_leaves_no_partial_file(disk_store, tmp_path):
    from kg.exports.background import export_beside

    output = tmp_path / "kg.ttl"
    background = export_beside(disk_store, "turtle", output, BASE)
    deadline = time.monotonic() + 60
    while not (tmp_path / "kg.ttl.partial").exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    assert (tmp_path / "kg.ttl.partial").exists()  # the child has begun writing
    os.kill(background.pid, signal.SIGSTOP)  # and stays half-way, however fast it is
    background.stop()
    assert not background.alive()
    assert not output.exists() and not (tmp_path / "kg.ttl.partial").exists()
    assert not list(Path(disk_store.spec, "kg-readers").glob("reader-*"))
