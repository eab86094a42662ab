"""Identity from identifiers: one person per OpenReview profile, namesakes with different ids
apart, name-only mentions joined only where one identified person fits, and the same paper
from a listing and from the JSON one paper with both sources."""

from __future__ import annotations

import json

import pyoxigraph as ox
import pytest
from structured_sources import bylines, realdata, truth

from kg.pipeline import ingest
from kg.quality.report import quality_report
from kg.rdf.iris import Minter
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue


def _entry(title, authors, ids, affs=None):
    return {
        "title": title,
        "author": ";".join(authors),
        "authorids": ";".join(ids),
        "aff": ";".join(affs or [""] * len(authors)),
        "status": "Poster",
        "track": "main",
    }


PAPERS = [
    _entry(
        "Learning to Rank Bandits",
        ["Yang Liu", "Ada Byron"],
        ["~Yang_Liu3", "~Ada_Byron1"],
        ["UC Santa Cruz", "Imperial College London"],
    ),
    _entry("Causal Graphs at Scale", ["Yang Liu", "Jia LI"], ["~Yang_Liu91", "~Jia_Li1"]),
    _entry("Kernel Tests Revisited", ["Jia Li", "Ada Byron"], ["~Jia_Li2", "~Ada_Byron1"]),
    _entry("Sparse Coding Again", ["Jia LI", "Bo Chen"], ["~Jia_Li1", "bo.chen@example.org"]),
]
LISTING = """conf 2025

Learning to Rank Bandits

Learning to Rank Bandits

Yang Liu, Ada Byron

Causal Graphs at Scale

Causal Graphs at Scale

Yang Liu, Jia Li

A Paper Only the Listing Has

A Paper Only the Listing Has

Ada Byron, Yang Liu, Carl Gauss
"""


def _people(store):
    rows = store.query(sparql_prologue() + "SELECT ?p ?name WHERE { ?p a foaf:Person ; skos:prefLabel ?name }")
    return {str(p).rsplit("/", 1)[-1]: str(name) for p, name in rows}


def _authors_of(store, title):
    rows = store.query(
        sparql_prologue()
        + f"""SELECT ?position ?person WHERE {{
        ?paper dcterms:title "{title}"@en ; kg:authorship ?a . ?a kg:position ?position ; kg:author ?person }}"""
    )
    return {int(position): str(person).rsplit("/", 1)[-1] for position, person in rows}


@pytest.fixture()
def files(tmp_path):
    json_path = tmp_path / "conf2025.json"
    json_path.write_text(json.dumps(PAPERS, indent=2), encoding="utf-8")
    listing = tmp_path / "conf2025_listing.txt"
    listing.write_text(LISTING, encoding="utf-8")
    return json_path, listing


def test_one_node_per_profile_and_namesakes_apart(files):
    store = KGStore("memory")
    ingest([files[0]], store, Minter())
    people = _people(store)
    assert {
        "yang-liu3--openreview",
        "yang-liu91--openreview",
        "jia-li1--openreview",
        "jia-li2--openreview",
        "ada-byron1--openreview",
    } <= set(people)
    assert sum(name == "Yang Liu" for name in people.values()) == 2
    assert sum(name.casefold() == "jia li" for name in people.values()) == 2  # "Jia LI" / "Jia Li": two profiles
    assert _authors_of(store, "Kernel Tests Revisited")[2] == _authors_of(store, "Learning to Rank Bandits")[2]
    # an e-mail id is a person of its own, and the address is not published
    email_people = [iri for iri in people if iri.endswith("--email")]
    assert len(email_people) == 1 and "example" not in email_people[0]
    leaks = store.query(
        "SELECT ?s WHERE { ?s ?p ?o FILTER(CONTAINS(STR(?s), 'bo.chen') || CONTAINS(STR(?o), 'bo.chen')) }"
    )
    assert not list(leaks)


def test_listing_mentions_join_identified_people_and_papers_have_both_sources(files):
    json_path, listing = files
    store = KGStore("memory")
    ingest([listing, json_path], store, Minter())
    # same paper, same position: the JSON's profile, though "Yang Liu" has two profiles
    assert _authors_of(store, "Learning to Rank Bandits") == {1: "yang-liu3--openreview", 2: "ada-byron1--openreview"}
    assert _authors_of(store, "Causal Graphs at Scale") == {1: "yang-liu91--openreview", 2: "jia-li1--openreview"}
    only_listing = _authors_of(store, "A Paper Only the Listing Has")
    assert only_listing[1] == "ada-byron1--openreview"  # the only identified Ada Byron
    assert only_listing[2] == "yang-liu"  # two identified Yang Lius: stays a name-only node …
    assert only_listing[3] == "carl-gauss"  # … as does a name nobody identifies
    apart = quality_report(store)["name_only_authors_with_identified_namesakes"]
    assert [(item["name"], len(item["identified_namesakes"])) for item in apart] == [("Yang Liu", 2)]
    sources = store.query(
        sparql_prologue()
        + """SELECT (COUNT(DISTINCT ?file) AS ?n) WHERE {
        ?paper dcterms:title "Learning to Rank Bandits"@en ; prov:wasDerivedFrom/prov:wasDerivedFrom ?file }"""
    )
    assert int(next(iter(sources))[0]) == 2
    assert len(_people(store)) == len(set(_people(store)))


def test_removing_the_json_gives_the_listing_its_own_people_back(files):
    json_path, listing = files
    store, minter = KGStore("memory"), Minter()
    ingest([listing, json_path], store, minter)
    graph = next(g for g in store.sources() if g.endswith("json"))
    with resolution_suspended(store, minter):
        store.remove_graph(ox.NamedNode(graph))
    assert _authors_of(store, "Learning to Rank Bandits") == {1: "yang-liu", 2: "ada-byron"}
    assert set(_people(store)) == {"yang-liu", "ada-byron", "jia-li", "carl-gauss"}
    ingest([json_path], store, minter)  # and back again: the same decisions
    assert _authors_of(store, "Learning to Rank Bandits") == {1: "yang-liu3--openreview", 2: "ada-byron1--openreview"}


@pytest.mark.realdata
def test_real_listing_and_json_are_one_paper_each_with_both_sources():
    listing, json_path = realdata("aistats2025_listing.txt"), realdata("aistats2025.json")
    store = KGStore("memory")
    report = ingest([listing, json_path], store, Minter())
    expected = truth("aistats2025")["papers"]
    papers = store.query(
        sparql_prologue()
        + """SELECT ?paper (COUNT(DISTINCT ?file) AS ?n) WHERE {
        ?paper a schema:ScholarlyArticle ; prov:wasDerivedFrom/prov:wasDerivedFrom ?file } GROUP BY ?paper"""
    )
    counts = [int(n) for _, n in papers]
    assert len(counts) == len(expected)  # no paper twice
    listed = report.sources[0].ingested
    assert counts.count(2) == listed  # every paper the listing reader kept has both sources
    assert bylines(store) == {p["title"]: p["authors"] for p in expected}
    persons = store.query(sparql_prologue() + "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?a kg:author ?p }")
    profiles = {i for p in expected for i in p["author_ids"]}
    assert int(next(iter(persons))[0]) == len(profiles)  # every listing mention joined its profile


def test_queries_use_the_per_author_affiliation_where_the_source_states_it(files):
    from kg.query.library import library, run

    json_path, listing = files
    store = KGStore("memory")
    ingest([listing, json_path], store, Minter())
    at = run(store, library()["institution-authors-per-author"], {"institution": "Imperial College London"})
    names = [str(row[at.variables.index("name")]) for row in at.rows]
    assert names == ["Ada Byron"]  # not her co-author Yang Liu, who is at UC Santa Cruz
    over_time = run(store, library()["author-institutions-over-time"], {"author": "Ada Byron"})
    rows = {
        (str(r[over_time.variables.index("name")]), str(r[over_time.variables.index("known")])) for r in over_time.rows
    }
    assert rows == {("Imperial College London", "per author")}
    profile = run(store, library()["author-identifiers"], {"author": "Ada Byron"})
    assert [str(r[profile.variables.index("page")]) for r in profile.rows] == [
        "https://openreview.net/profile?id=~Ada_Byron1"
    ]
