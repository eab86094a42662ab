"""The store-level step on the samples: merged papers, units, labels, order independence,
idempotent re-ingest, removal, SHACL and the quality report."""

from __future__ import annotations

import json
import shutil

import pytest
import rdflib
from conftest import ABSTRACTS, LISTING, run_kg

from kg.pipeline import ingest
from kg.quality.report import quality_report
from kg.quality.shacl import store_graph, validate_graph
from kg.rdf.iris import Minter
from kg.resolve.paper_facts import read_papers
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.vocab import KG_NS, sparql_prologue

ID = "https://kg.example.org/id/"
MLUBENCH = f"<{ID}paper/mlubench-a-benchmark-for-lifelong-unlearning-evaluation-in-mllms-115d4e>"
LMU = f"<{ID}institution/ludwig-maximilian-university-of-munich>"


def count(store: KGStore, where: str) -> int:
    return store.scalar(sparql_prologue() + f"SELECT (COUNT(*) AS ?n) WHERE {{ {where} }}")


def nquads(store: KGStore) -> bytes:
    return b"\n".join(sorted(str(quad).encode() for quad in store.oxigraph.quads_for_pattern(None, None, None)))


def test_samples_done_when(sample_store):
    assert count(sample_store, "SELECT DISTINCT ?p WHERE { ?p a schema:ScholarlyArticle }") == 43
    # MLUBench: one paper with the listing's title, the abstract, and both provenance links
    assert count(sample_store, f"{MLUBENCH} dcterms:abstract ?a") == 1
    sources = {
        str(row[0])
        for row in sample_store.query(
            sparql_prologue()
            + f"SELECT ?file WHERE {{ {MLUBENCH} prov:wasDerivedFrom/prov:wasDerivedFrom/dcterms:title ?file }}"
        )
    }
    assert sources == {LISTING.name, ABSTRACTS.name}
    # LMU Munich has its institute and its department as units
    units = {
        str(row[0])
        for row in sample_store.query(
            sparql_prologue()
            + f"SELECT ?l WHERE {{ ?u org:subOrganizationOf {LMU} ; skos:prefLabel ?l FILTER(lang(?l) = 'en') }}"
        )
    }
    assert units == {
        "Institute of Computer Science, Ludwig Maximilian University of Munich",
        "Department of Mathematics, Ludwig Maximilian University of Munich",
    }
    assert count(sample_store, f'{LMU} skos:altLabel "LMU Munich"@en') == 1
    # USTC with English and Chinese labels; UIUC resolved
    ustc = {
        (str(label), label.language)
        for (label,) in sample_store.query(
            sparql_prologue()
            + f"SELECT ?l WHERE {{ <{ID}institution/university-of-science-and-technology-of-china> skos:prefLabel ?l }}"
        )
    }
    assert ustc == {("University of Science and Technology of China", "en"), ("中国科学技术大学", "zh")}
    assert (
        count(
            sample_store,
            (
                f'<{ID}institution/university-of-illinois-urbana-champaign> skos:prefLabel "University '
                f'of Illinois Urbana-Champaign"@en ; skos:altLabel "UIUC"@en'
            ),
        )
        == 1
    )


def test_no_person_names_among_institutions(sample_store):
    names = [
        "Pengwei Sun",
        "Dmitrii Gavrilev",
        "Sangjun Park",
        "Everett Richards",
        "Zhihui Chen",
        "Ziwei Chen",
        "Ling Shao",
        "Dongwoo Kim",
        "Tae-Kyun Kim",
    ]
    labels = {
        str(row[0])
        for row in sample_store.query(
            sparql_prologue() + "SELECT ?l WHERE { ?o a org:Organization ; skos:prefLabel|kg:nameAsWritten ?l }"
        )
    }
    assert not [name for name in names if any(name in label for label in labels)]
    assert count(sample_store, "?n a kg:RejectedInstitutionEntry") == len(names)


def test_every_person_has_one_display_name(sample_store):
    assert count(sample_store, "SELECT DISTINCT ?p WHERE { ?p a foaf:Person }") == 135
    assert (
        count(
            sample_store, "SELECT ?p WHERE { ?p a foaf:Person ; skos:prefLabel ?n } GROUP BY ?p HAVING (COUNT(?n) = 1)"
        )
        == 135
    )


def test_ingest_order_does_not_change_the_graph():
    together, one_by_one = KGStore("memory"), KGStore("memory")
    ingest([ABSTRACTS.parent], together, Minter())
    ingest([ABSTRACTS], one_by_one, Minter())
    ingest([LISTING], one_by_one, Minter())
    assert nquads(together) == nquads(one_by_one)


@pytest.mark.parametrize(
    "jobs, readers",
    [
        (2, ["counting co-author pairs and institutions"]),
        (1, []),  # --jobs 1: everything in one process
    ],
)
@pytest.mark.slow
def test_an_on_disk_store_counts_in_reader_processes_and_resolves_the_same(tmp_path, monkeypatch, jobs, readers):
    """The counts are made by a process of its own on an on-disk store (kg/stores/beside.py), after the
    merge's rewrite (the merged paper counted once); the name lists from what that pass wrote once the
    display names are chosen; the graph is quad for quad the one resolved in one process; their files are
    gone."""
    from kg.stores import beside

    started = []
    opened = beside.ReaderProcess.__init__
    monkeypatch.setattr(
        beside.ReaderProcess,
        "__init__",
        lambda self, store, what, *args, **kw: started.append(what) or opened(self, store, what, *args, **kw),
    )
    in_memory, on_disk = KGStore("memory"), KGStore(str(tmp_path / "store"))
    ingest([ABSTRACTS.parent], in_memory, Minter())
    ingest([ABSTRACTS.parent], on_disk, Minter(), jobs=jobs)
    assert nquads(on_disk) == nquads(in_memory)
    assert count(on_disk, f"{MLUBENCH} kg:bylineLength ?n") == 1
    assert count(on_disk, "?paper kg:authorNames ?names") > 0
    assert started == readers
    assert not list((tmp_path / "store" / "kg-journal").iterdir())
    assert not list((tmp_path / "store").glob("kg-readers/reader-*"))  # the readers' own (the published one stays)


def test_reingest_is_idempotent_and_a_corrected_listing_leaves_nothing_stale(tmp_path):
    store = KGStore("memory")
    ingest([ABSTRACTS.parent], store, Minter())
    first = nquads(store)
    ingest([LISTING], store, Minter())
    assert nquads(store) == first
    corrected = tmp_path / LISTING.name
    corrected.write_text(
        LISTING.read_text(encoding="utf-8").replace(
            "Caltech（加州理工学院） ； UIUC", "Caltech（加州理工学院） ； University of Illinois at Urbana-Champaign"
        ),
        encoding="utf-8",
    )
    ingest([corrected], store, Minter())
    assert count(store, '?o kg:nameAsWritten "UIUC"@en') == 0  # the old spelling is gone
    assert count(store, f"<{ID}institution/university-of-illinois-urbana-champaign> a org:Organization") == 1
    assert count(store, "SELECT DISTINCT ?p WHERE { ?p a schema:ScholarlyArticle }") == 43


def test_removing_the_listing_gives_the_abstract_paper_back_its_own_iri():
    store, minter = KGStore("memory"), Minter()
    ingest([ABSTRACTS.parent], store, minter)
    listing_graph = f"{ID}source/001-0af6457a65591eab-txt"
    with resolution_suspended(store, minter):
        store.update(f"DROP GRAPH <{listing_graph}> ; DROP GRAPH <{ID}graph/topic-detail/001-0af6457a65591eab-txt>")
    assert count(store, "SELECT DISTINCT ?p WHERE { ?p a schema:ScholarlyArticle }") == 14
    assert count(store, f"{MLUBENCH} ?p ?o") == 0
    assert count(store, "?m a kg:PaperMerge") == 0
    ingest([LISTING], store, minter)
    assert count(store, "SELECT DISTINCT ?p WHERE { ?p a schema:ScholarlyArticle }") == 43


def test_written_forms_from_two_sources_give_one_display_name(tmp_path):
    """ "Balazs" in one file and "Balázs" in another: one person named with the diacritics, either order."""
    listing = LISTING.read_text(encoding="utf-8")
    plain = tmp_path / "a.txt"
    plain.write_text(listing.replace("Balázs Gyenes", "Balazs Gyenes"), encoding="utf-8")
    names = []
    for order in ([plain, LISTING], [LISTING, plain]):
        store = KGStore("memory")
        for path in order:
            ingest([path], store, Minter())
        names.append(
            sorted(
                (str(n), str(a))
                for n, a in store.query(
                    sparql_prologue()
                    + f"SELECT ?n ?a WHERE {{ <{ID}author/balazs-gyenes> skos:prefLabel ?n ; skos:altLabel ?a }}"
                )
            )
        )
    assert names[0] == names[1] == [("Balázs Gyenes", "Balazs Gyenes")]


@pytest.mark.slow
def test_sample_graph_conforms_to_the_shapes(sample_store):
    report = validate_graph(store_graph(sample_store))
    assert report.conforms, [str(v) for v in report.violations]


BROKEN = {
    "a gap in byline positions": (
        (
            f"DELETE {{ ?a kg:position 2 }} INSERT {{ ?a kg:position 3 }} WHERE {{ {MLUBENCH} "
            f"kg:authorship ?a . ?a kg:position 2 }}"
        ),
        "positions are not 1..n",
    ),
    "a person without a name": (
        f"DELETE {{ ?p skos:prefLabel ?n }} WHERE {{ <{ID}author/he-li> skos:prefLabel ?n . "
        f"BIND(<{ID}author/he-li> AS ?p) }}",
        "one display name",
    ),
    "a person's name repeated as rdfs:label": (
        f'INSERT DATA {{ <{ID}author/he-li> rdfs:label "He Li" }}',
        "no rdfs:label beside it",
    ),
    "an institution's name repeated as foaf:name": (
        f'INSERT DATA {{ <{ID}institution/bielefeld-university> foaf:name "Bielefeld University" }}',
        "no foaf:name beside it",
    ),
    "a merge without its reason": (
        "DELETE { ?m rdfs:comment ?c } WHERE { ?m a kg:PaperMerge ; rdfs:comment ?c }",
        "every merge says why",
    ),
    "a title without a language": (f'INSERT DATA {{ {MLUBENCH} dcterms:title "untagged" }}', "titles are @en or @zh"),
    "a creator without an authorship": (
        f"INSERT DATA {{ {MLUBENCH} dcterms:creator <{ID}author/gerhard-neumann> }}",
        "dcterms:creator is the author",
    ),
    "a topic assignment without evidence": (
        "DELETE { ?x kg:foundIn ?s } WHERE { ?x kg:foundIn ?s }",
        "where the topic was found",
    ),
    "an artifact without a type": (
        f"DELETE DATA {{ <{ID}artifact/mlubench> a kg:Benchmark }}",
        "an introduced artifact is typed",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(BROKEN))
def test_hand_broken_graphs_do_not_conform(sample_store, case):
    update, message = BROKEN[case]
    graph = store_graph(sample_store)
    graph.update(
        update,
        initNs={
            "kg": "https://kg.example.org/ontology#",
            "foaf": "http://xmlns.com/foaf/0.1/",
            "skos": str(rdflib.SKOS),
            "rdfs": str(rdflib.RDFS),
            "dcterms": str(rdflib.DCTERMS),
        },
    )
    report = validate_graph(graph)
    assert not report.conforms
    assert any(message in violation.message for violation in report.violations), [str(v) for v in report.violations]


def test_quality_report_on_the_samples(sample_store):
    report = quality_report(sample_store)
    [merge] = report["merges"]
    assert (
        merge["evidence"] == ["coined-name"] and "MLUBench" in merge["why"] and merge["from_source"] == ABSTRACTS.name
    )
    assert {item["entry"] for item in report["rejected_institution_entries"]} >= {
        "Pengwei Sun（Sun Pengwei）",
        "Zhihui Chen（陈志辉）",
    }
    assert len(report["papers_without_institutions"]) == 13 + 8
    assert report["counts"]["merges"] == 1


@pytest.mark.slow
def test_quality_and_validate_commands(built_here, built_samples):
    report = json.loads(run_kg("quality", "--format", "json", cwd=built_here).stdout)
    assert report["counts"]["rejected_institution_entries"] == 9
    text = run_kg("quality", cwd=built_here).stdout.decode()
    assert "Papers merged across sources: 1" in text and "Zhirui Chen" in text
    assert run_kg("validate", cwd=built_here).stdout.decode().rstrip().endswith("conforms.")
    broken = built_here / "broken.ttl"
    shutil.copy(built_samples / "exports" / "kg.ttl", broken)
    with open(broken, "a", encoding="utf-8") as handle:
        handle.write(f"\n<{ID}authorship/x--1> a kg:Authorship .\n")
    result = run_kg("validate", str(broken), cwd=built_here, check=False)
    assert result.returncode == 1
    assert "authorship:x--1" in result.stdout.decode() and "does not conform" in result.stdout.decode()


@pytest.mark.slow
def test_a_venue_without_a_year_is_a_series_and_passes_validation(tmp_path):
    listing = tmp_path / "no-year.txt"
    # ICML is named without a year anywhere in the listing; the NeurIPS paper (a near miss) has one.
    listing.write_text(
        "ICML\n\nA Paper Without a Year\n\nAda Lovelace, Alan Turing\n\nComments Accepted at ICML\n\n"
        "A Paper With a Year\n\nGrace Hopper\n\nComments Accepted at NeurIPS 2025\n",
        encoding="utf-8",
    )
    run_kg("build", str(listing), "--out", str(tmp_path / "out"), cwd=tmp_path)
    result = run_kg("validate", cwd=tmp_path)
    assert result.stdout.decode().rstrip().endswith("conforms."), result.stdout.decode()
    graph = rdflib.Graph().parse(tmp_path / "out" / "kg.ttl")
    rows = {
        str(title): (str(kind), year)
        for title, kind, year in graph.query(
            sparql_prologue()
            + """
        SELECT ?title ?kind ?year WHERE { ?paper dcterms:title ?title ; bibo:presentedAt ?venue . ?venue a ?kind
          FILTER (?kind IN (kg:ConferenceSeries, bibo:Conference))
          OPTIONAL { ?venue schema:startDate ?year } }"""
        )
    }
    assert rows["A Paper Without a Year"] == (KG_NS + "ConferenceSeries", None)
    kind, year = rows["A Paper With a Year"]
    assert (
        kind == "http://purl.org/ontology/bibo/Conference" and year.datatype == rdflib.XSD.gYear and str(year) == "2025"
    )


def test_set_graph_triples_writes_the_difference(tmp_path):
    """The derived graph's write: stale statements go, new ones come, the ones kept stay."""
    import pyoxigraph as ox

    store = KGStore(str(tmp_path / "store"))
    graph, s = ox.NamedNode("https://kg.example.org/id/graph/resolved"), ox.NamedNode("https://kg.example.org/id/s")
    p, q = (ox.NamedNode(f"https://kg.example.org/ontology#{name}") for name in ("p", "q"))

    def held():
        return sorted(str(quad.triple) for quad in store.oxigraph.quads_for_pattern(None, None, None, graph))

    def triple(predicate, value):
        return ox.Triple(s, predicate, ox.Literal(value))

    store.set_graph_triples(graph, [triple(p, "a"), triple(p, 'b "quoted"\n'), triple(q, "k1")])
    store.set_graph_triples(graph, [triple(p, "a"), triple(q, "c"), triple(q, "c")])
    assert held() == sorted(str(t) for t in (triple(p, "a"), triple(q, "c")))
    store.close()


def test_resolution_reads_each_paper_s_record_line_in_its_own_source():
    """The abstract join weighs the order of the files, so each paper comes with the line of its record in its graph."""
    store, minter = KGStore("memory"), Minter()
    ingest([ABSTRACTS.parent], store, minter)
    papers = read_papers(store, minter)
    files = {path: path.read_text(encoding="utf-8").splitlines() for path in (ABSTRACTS, LISTING)}
    assert len(papers) > 40 and all(paper.line for paper in papers)
    for paper in papers:
        file = ABSTRACTS if paper.abstract and not paper.title else LISTING
        written = files[file][paper.line - 1]
        assert (paper.title or paper.abstract or "").split()[:3] == written.split()[:3], (paper, written)
