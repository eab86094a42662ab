"""Identity from every identifier a source gives: IEEE author numbers as IROS / ICRA lists write them,
Semantic Scholar, Google Scholar and ACL Anthology pages; one node per id, namesakes apart."""

from __future__ import annotations

import json

import pytest

from kg.ingest.identifiers import other_person_id
from kg.pipeline import ingest
from kg.quality.identifiers import identifier_counts
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue


@pytest.mark.parametrize(
    "written, expected",
    [
        ("/37088688308", ("ieee", "37088688308")),
        ("https://ieeexplore.ieee.org/author/37088688308", ("ieee", "37088688308")),
        ("https://www.semanticscholar.org/author/Ada-Lovelace/2267414", ("semanticscholar", "2267414")),
        ("https://scholar.google.com/citations?user=kX0KaeUAAAAJ&hl=en", ("googlescholar", "kX0KaeUAAAAJ")),
        ("https://aclanthology.org/people/a/ada-lovelace/", ("acl", "ada-lovelace")),
        # near misses: a bare number says not whose id it is; an OpenReview profile is read elsewhere
        ("37088688308", None),
        ("~Ada_Lovelace1", None),
        ("https://example.org/author/37088688308", None),
    ],
)
def test_a_person_id_is_read_by_its_form(written, expected):
    assert other_person_id(written) == expected


def _ieee_entry(title, people):
    """An IEEE Xplore entry of a paperlists file: byline and author numbers written twice."""
    names, ids = [name for name, _ in people], [f"/{number}" for _, number in people]
    return {
        "title": title,
        "author": ";".join(names * 2),
        "authorids": ";".join(ids * 2),
        "aff": ";".join(["Loom University"] * len(people)),
        "status": "Poster",
        "track": "main",
        "site": "https://ieeexplore.ieee.org/document/9981519/",
    }


PAPERS = [
    _ieee_entry("Weaving Robots", [("Ming Liu", "37085398677"), ("Ada Byron", "37000000001")]),
    _ieee_entry("Loom Control", [("Ming Liu", "37089999999"), ("Clark B. Teeple", "37088000001")]),
    _ieee_entry("Soft Shuttles", [("Clark Teeple", "37088000001"), ("Ada Byron", "37000000001")]),
]


@pytest.mark.slow
def test_ieee_author_numbers_keep_namesakes_apart_and_join_spellings(tmp_path):
    path = tmp_path / "iros2031.json"
    path.write_text(json.dumps(PAPERS), encoding="utf-8")
    store = KGStore("memory")
    ingest([path], store, Minter())
    rows = store.query(
        sparql_prologue()
        + """SELECT ?person (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
        ?paper a schema:ScholarlyArticle ; dcterms:creator ?person } GROUP BY ?person ORDER BY ?person"""
    )
    papers = {str(person).rsplit("/", 1)[-1]: int(count.value) for person, count in rows}
    assert papers == {"37085398677--ieee": 1, "37089999999--ieee": 1, "37088000001--ieee": 2, "37000000001--ieee": 2}
    assert identifier_counts(store) == {
        "identified_persons": 4,
        "ids": 4,
        "persons_with_two_ids_of_one_scheme": 0,
        "ids_on_several_persons": 0,
    }
