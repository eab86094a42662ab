"""Labs, divisions and campuses the alias table does not know are placed under the organisation
of the corpus whose name begins theirs ("Zorblax Labs" under "Zorblax"), never merged with it,
and never under a name that only shares their first words."""

from __future__ import annotations

import json

import pyoxigraph as ox
import pytest
from structured_sources import paperlists_entry, placed

from kg.pipeline import ingest
from kg.quality.report import quality_report
from kg.quality.shacl import store_graph, validate_graph
from kg.rdf.iris import Minter, slug
from kg.resolve.name_units import added_words_make_unit, name_parents, written_apart
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore

BASE = "https://example.org/kg/institution/"


def _parents(*names: str, named: tuple[str, ...] = (), written: dict[str, list[str]] | None = None) -> dict[str, str]:
    """Names of top-level organisations -> {unit name: parent name}, as the store step decides."""
    iri = {name: BASE + slug(name) for name in names}
    forms = {iri[name]: list(found) for name, found in (written or {}).items()}
    parents = name_parents([(iri[name], name in named) for name in names], forms)
    back = {value: name for name, value in iri.items()}
    return {back[unit]: back[parent] for unit, parent in parents.items()}


def test_a_company_name_with_lab_or_division_words_is_a_unit_of_the_company():
    assert _parents("Zorblax", "Zorblax Labs", "Zorblax Web Services", "Zorblax Labs Montreal") == {
        "Zorblax Labs": "Zorblax",
        "Zorblax Web Services": "Zorblax",
        "Zorblax Labs Montreal": "Zorblax Labs",
    }  # the longest name that begins it
    # the same names without the company written alone: nothing to place them under
    assert _parents("Zorblax Labs", "Zorblax Web Services") == {}


def test_words_of_an_institution_of_its_own_or_joining_words_make_no_unit():
    assert (
        _parents(
            "Toyvo",
            "Toyvo Technological Institute at Brakeport",
            "Penn",
            "Penn State University",
            "National University",
            "National University of Quillon",
            "Quillon University",
            "Quillon University of Science",
            "Allen Institute",
            "Allen Institute for AI",
        )
        == {}
    )
    assert not added_words_make_unit(("of", "quillon"))
    assert not added_words_make_unit(("research", "institute"))
    assert not added_words_make_unit(())
    assert added_words_make_unit(("deepmind", "robotics"))


def test_words_of_a_person_make_no_unit():
    # aistats2025 writes both "Independent" and "Independent Researcher": no organisation either
    assert _parents("Independent", "Independent Researcher", "Zorblax", "Zorblax Research Scientist") == {}


def test_look_alikes_that_are_not_prefixes_stay_apart():
    # public names of different institutions: neither begins the other's name (and "in …" is a
    # joining word, so not even the long form of one name is placed under its short form)
    assert _parents("University of Washington", "Washington University", "Washington University in St Louis") == {}
    assert _parents("Peking University", "Peking Union Medical College") == {}
    # a country written alone is no company's parent
    assert _parents("China", "China Zorblax Labs") == {}


def test_an_academic_name_takes_campuses_only_written_apart():
    names = (
        "University of Quillon",
        "University of Quillon, Brakeport",
        "University of Quillon, Irvale",
        "University of Quillon, College Park",
        "University of Quillon College",
        "Quill Federal Institute of Technology",
        "Quill Federal Institute of Technology Brakeport",
    )
    written = {
        "University of Quillon, Brakeport": ["University of Quillon, Brakeport"],
        "University of Quillon, Irvale": ["University of Quillon - Irvale"],
        "University of Quillon, College Park": ["University of Quillon, College Park"],
        "University of Quillon College": ["University of Quillon College"],
        "Quill Federal Institute of Technology Brakeport": ["Quill Federal Institute of Technology Brakeport"],
    }
    # campuses of one university: units of it, never one node; a town named like an
    # organisation is a campus written apart, a college run on is a college
    assert _parents(*names, written=written) == {
        "University of Quillon, Brakeport": "University of Quillon",
        "University of Quillon, Irvale": "University of Quillon",
        "University of Quillon, College Park": "University of Quillon",
    }
    assert written_apart(("state", "university", "of", "quillon"), ["State University of Quillon at Brakeport"])
    assert not written_apart(("university", "of", "quillon"), ["University of Quillon Brakeport"])


def test_a_company_never_written_alone_takes_its_labs_under_its_name_with_technologies_or_group():
    assert _parents("Zorblax Technologies", "Zorblax Vision Lab", "Quillon Group", "Quillon AI Research") == {
        "Zorblax Vision Lab": "Zorblax Technologies",
        "Quillon AI Research": "Quillon Group",
    }
    assert _parents("Weft Systems", "Weft Research") == {"Weft Research": "Weft Systems"}
    # a lab's subject, not a company's name: "Systems" after words that name no company
    assert _parents("Weft Institute for Intelligent Systems", "Weft Institute for Intelligent Research") == {}
    # the bare name, where the corpus writes it, is the parent
    assert _parents("Zorblax", "Zorblax Technologies", "Zorblax Vision Lab") == {
        "Zorblax Technologies": "Zorblax",
        "Zorblax Vision Lab": "Zorblax",
    }
    # words of an institution of its own, or a name that only shares the company's first word
    assert _parents("Quillon Technologies", "Quillon State University", "Quillon Technological Institute") == {}
    assert _parents("Zorblax Vision Lab", "Zorblax Robotics") == {}


def test_a_lab_written_before_a_comma_and_an_organisation_of_the_corpus_is_its_unit():
    written = {
        "Vision Lab, Zorblax Technologies": ["Vision Lab, Zorblax Technologies"],
        "Brakeport, Zorblax Technologies": ["Brakeport, Zorblax Technologies"],
        "Vision Lab, Irvale": ["Vision Lab, Irvale"],
    }
    assert _parents("Zorblax Technologies", *written, written=written) == {
        "Vision Lab, Zorblax Technologies": "Zorblax Technologies"
    }
    # "X at Y": a lab's or a division's words before "at", not an institution's
    # (the identity key leaves "at" out, so the organisations are named by their keys' words)
    at = {
        "Robotics Zorblax Technologies": ["Robotics at Zorblax Technologies"],
        "Brakeport University Zorblax Technologies": ["Brakeport University at Zorblax Technologies"],
    }
    assert _parents("Zorblax Technologies", *at, written=at) == {
        "Robotics Zorblax Technologies": "Zorblax Technologies"
    }
    # no lab's words before the comma, or no organisation of the corpus after it: nothing to place
    assert (
        _parents(
            "Zorblax",
            "Vision Lab, Zorblax Technologies",
            written={"Vision Lab, Zorblax Technologies": written["Vision Lab, Zorblax Technologies"]},
        )
        == {}
    )


def test_a_name_the_alias_table_knows_keeps_its_place():
    assert _parents("Zorblax", "Zorblax Labs", named=("Zorblax Labs",)) == {}
    assert _parents("Zorblax", "Zorblax Labs", named=("Zorblax",)) == {"Zorblax Labs": "Zorblax"}


PAPERS = [
    paperlists_entry(
        "Folding Laundry With Few Demonstrations", [("Ada Byron", "Zorblax"), ("Bo Chen", "Zorblax Labs")]
    ),
    paperlists_entry(
        "Sampling Paths Quickly", [("Cy Dean", "Zorblax Web Services"), ("Di Egan", "University of Quillon")]
    ),
    paperlists_entry(
        "Grasping in Clutter",
        [("Ed Fox", "University of Quillon, Brakeport"), ("Flo Gray", "University of Quillon, Irvale")],
    ),
    paperlists_entry(
        "Driving Policies",
        [
            ("Gus Hart", "Quill Federal Institute of Technology"),
            ("Hal Ives", "Quill Federal Institute of Technology Brakeport"),
        ],
    ),
]


@pytest.fixture()
def source(tmp_path):
    path = tmp_path / "conf2025.json"
    path.write_text(json.dumps(PAPERS, indent=2), encoding="utf-8")
    return path


@pytest.mark.slow
def test_units_by_name_in_the_store_explained_and_valid(source):
    store = KGStore("memory")
    ingest([source], store, Minter())
    assert placed(store) == {
        "zorblax-labs": "zorblax",
        "zorblax-web-services": "zorblax",
        "university-of-quillon-brakeport": "university-of-quillon",
        "university-of-quillon-irvale": "university-of-quillon",
    }
    report = quality_report(store)
    assert report["counts"]["units_placed_by_name"] == 4
    assert ("Zorblax Labs", "Zorblax") in {(u["unit"], u["institution"]) for u in report["units_placed_by_name"]}
    conformance = validate_graph(store_graph(store))
    assert conformance.conforms, conformance.violations[:5]


def test_the_placing_follows_the_store_as_sources_come_and_go(tmp_path, source):
    alone = tmp_path / "alone.json"
    alone.write_text(json.dumps([paperlists_entry("Folding Again", [("Jo Kent", "Zorblax")])]), encoding="utf-8")
    labs = tmp_path / "labs.json"
    labs.write_text(json.dumps([paperlists_entry("Labs Alone", [("Kim Lee", "Zorblax Labs")])]), encoding="utf-8")
    store, minter = KGStore("memory"), Minter()
    ingest([labs], store, minter)
    assert placed(store) == {}
    ingest([alone], store, minter)
    assert placed(store) == {"zorblax-labs": "zorblax"}
    ingest([alone], store, minter)  # again: the last run's placing is no source's statement
    assert placed(store) == {"zorblax-labs": "zorblax"}
    with resolution_suspended(store, minter):
        store.remove_graph(ox.NamedNode(next(g for g in store.sources() if g.endswith("alone-json"))))
    assert placed(store) == {}
