"""Look-ups that always have an answer: identifiers, qualified names, the organisation over its units,
and an ambiguity that lists each candidate in a form the look-up accepts back."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from case_tables import case_rows

from kg.errors import KgError
from kg.pipeline import ingest
from kg.query.lookup import entities_with_papers, find_entity
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue

DATA = Path(__file__).parent.parent / "data"
BASE = "https://kg.example.org/id/"
with open(DATA / "lookup_cases.tsv", encoding="utf-8", newline="") as cases:
    CASES = list(csv.DictReader(cases, delimiter="\t"))


@pytest.fixture(scope="module")
def store() -> KGStore:
    """Two people named Yang Liu (OpenReview ~Yang_Liu19 at NTU, ~Yang_Liu3 at Tsinghua) and a
    department of Tsinghua University."""
    store = KGStore("memory")
    ingest([DATA / "two_yang_lius.json"], store, Minter())
    return store


@pytest.mark.parametrize("case", CASES, ids=[f"{case['kind']}={case['typed']}" for case in CASES])
def test_what_is_typed_finds_the_entity_or_lists_the_candidates(store, case):
    if case["expected"] == "ambiguous":
        with pytest.raises(KgError, match="is ambiguous"):
            find_entity(store, case["kind"], case["typed"])
    else:
        assert str(find_entity(store, case["kind"], case["typed"])) == BASE + case["expected"]


def test_every_value_the_listing_offers_is_accepted_back(store):
    with pytest.raises(KgError) as listing:
        find_entity(store, "author", "Yang Liu")
    message = str(listing.value)
    assert "2 papers" in message and "~Yang_Liu19" in message and BASE + "author/yang-liu3--openreview" in message
    offered = re.findall(r"-p author='([^']+)'", message)
    assert len(offered) == 2
    assert {str(find_entity(store, "author", value)) for value in offered} == {
        BASE + "author/yang-liu19--openreview",
        BASE + "author/yang-liu3--openreview",
    }


SAMPLE_CASES = case_rows(DATA / "sample_lookup_cases.tsv")


@pytest.mark.parametrize("case", SAMPLE_CASES, ids=[f"{case['kind']}={case['typed']}" for case in SAMPLE_CASES])
def test_names_are_found_as_typed_by_name_chinese_name_or_acronym(sample_store, case):
    found = find_entity(sample_store, case["kind"], case["typed"])
    assert str(found).endswith(f"/{case['kind']}/{case['slug']}")


def test_unknown_name_names_the_closest(sample_store):
    with pytest.raises(KgError, match=r"no author matches 'Gerhard Neuman'; closest: Gerhard Neumann"):
        find_entity(sample_store, "author", "Gerhard Neuman")
    with pytest.raises(KgError, match=r"closest: .*Stanford University"):
        find_entity(sample_store, "institution", "Stanfrod University")
    with pytest.raises(KgError, match=r"none of the 135 authors is close"):
        find_entity(sample_store, "author", "qqqq zzzz")


def test_ambiguous_name_lists_candidates(sample_store):
    with pytest.raises(KgError, match=r"(?s)ambiguous: 6 match.*Lei Chen.*Ziwei Chen"):
        find_entity(sample_store, "author", "chen")


def test_an_organisation_beats_its_own_units(sample_store):
    """ "Bielefeld" names the university and two of its units (CITEC ...): the university holds them."""
    assert str(find_entity(sample_store, "institution", "Bielefeld")).endswith("/institution/bielefeld-university")


def test_the_institutions_with_papers_are_organisations_not_their_tallies(sample_store):
    """The topic and partner tallies of an institution count its papers too (kg:paperCount): a list per
    institution (kg/query/precompute.py) for one of them would be the query's work for no answer."""

    def counts(kinds: str) -> dict[str, int]:
        sparql = f"SELECT DISTINCT ?e ?c WHERE {{ VALUES ?kind {{ {kinds} }} ?e a ?kind ; kg:paperCount ?c }}"
        return {str(node): int(count) for node, count in sample_store.query(sparql_prologue() + sparql)}

    organisations, tallies = counts("org:Organization"), counts("kg:InstitutionTopic kg:InstitutionPartner")
    listed = entities_with_papers(sample_store, "institution", min(tallies.values()))
    assert listed
    assert set(listed) <= set(organisations)


def test_empty_store_says_so():
    with pytest.raises(KgError, match="the graph has no authors"):
        find_entity(KGStore("memory"), "author", "Gerhard Neumann")


def test_each_kind_is_counted_with_its_papers(sample_store):
    for kind in ("author", "institution", "topic"):
        counted = entities_with_papers(sample_store, kind, 1, counted=True)
        assert counted and all(papers >= 1 for _, papers in counted)
        for at_least in (1, 2, 3):
            above = [entity for entity, papers in counted if papers >= at_least]
            assert above == entities_with_papers(sample_store, kind, at_least)
