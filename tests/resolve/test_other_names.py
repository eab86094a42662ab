"""An acronym the alias table does not know, written alone ("QIST") or before the rest of a name
("UQ Brakeport"), is placed under the one organisation of the corpus it spells out, and under
none where two fit, where it is not written as an acronym, or where it spells out no name."""

from __future__ import annotations

import json

import pyoxigraph as ox
import pytest
from structured_sources import paperlists_entry, placed

from kg.pipeline import ingest
from kg.quality.report import quality_report
from kg.quality.shacl import store_graph, validate_graph
from kg.rdf.iris import Minter, slug
from kg.resolve.other_names import same_institutions
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue

BASE = "https://example.org/kg/institution/"


def _same(*names: str, named: tuple[str, ...] = ()) -> dict[str, str]:
    """Names as written of top-level organisations -> {other name: the name it names}."""
    iri = {name: BASE + slug(" ".join(name.replace(",", " ").replace("-", " ").lower().split())) for name in names}
    found = same_institutions([(iri[name], name in named) for name in names], {iri[name]: [name] for name in names})
    back = {value: name for name, value in iri.items()}
    return {back[other]: back[institution] for other, (institution, _) in found.items()}


def test_an_acronym_written_alone_names_the_one_organisation_whose_initials_it_is():
    assert _same("QIST", "Quillon Institute of Science and Technology", "Brakeport University") == {
        "QIST": "Quillon Institute of Science and Technology"
    }
    # "and", "of", "bin" as words of the name: only the function words are left out
    assert _same("MBZUAI", "Mohamed bin Zayed University of Artificial Intelligence") == {
        "MBZUAI": "Mohamed bin Zayed University of Artificial Intelligence"
    }
    # an acronym a source writes after the name in brackets, or before an institution's name
    assert _same("ZPFL", "ZPF Lausanne (ZPFL)") == {"ZPFL": "ZPF Lausanne (ZPFL)"}
    assert _same("QTH", "QTH Royal Institute of Technology") == {"QTH": "QTH Royal Institute of Technology"}
    # before the name of a lab or a campus, it is that lab's or campus's organisation, not its other name
    for unit in ("QTH Lincoln Laboratory", "QTH Brakeport", "QTH Energy Institute"):
        assert _same("QTH", unit) == {}


def test_an_acronym_that_two_organisations_of_the_corpus_fit_stays_apart():
    assert _same("QIT", "Quillon Institute of Technology", "Quarry Institute of Technology") == {}


def test_near_misses_stay_apart():
    # initials in order but not all of them, or letters of the name that are no initials
    assert _same("QIS", "Quillon Institute of Science and Technology") == {}
    assert _same("QUILL", "Quillon University") == {}
    # not written as an acronym: a word in mixed case, or two letters only
    assert _same("Qist", "Quillon Institute of Science and Technology") == {}
    assert _same("QI", "Quillon Institute") == {}
    # acronyms of several well-known institutions, whichever one the corpus spells out
    assert _same("NTU", "Nanyang Technological University") == {}
    # the alias table's identity is kept
    assert _same("QIST", "Quillon Institute of Science and Technology", named=("QIST",)) == {}


def test_an_acronym_before_a_campus_names_the_spelt_out_name_of_that_campus():
    assert _same("UQ Brakeport", "University of Quillon, Brakeport", "University of Quillon, Irvale") == {
        "UQ Brakeport": "University of Quillon, Brakeport"
    }
    assert _same("SUQ at Irvale", "State University of Quillon at Irvale") == {
        "SUQ at Irvale": "State University of Quillon at Irvale"
    }
    assert _same("UQ-Irvale", "University of Quillon Irvale") == {"UQ-Irvale": "University of Quillon Irvale"}
    # another campus, or two names the acronym spells out with that campus
    assert _same("UQ Harrow", "University of Quillon, Brakeport") == {}
    assert (
        _same(
            "UQ Brakeport",
            "University of Quillon, Brakeport",
            "University College of Quillon Brakeport",
            "Uppsala Quillon Brakeport",
        )
        == {}
    )
    # the acronym must be written in capitals
    assert _same("Uq Brakeport", "University of Quillon, Brakeport") == {}


def test_acronyms_before_campuses_ask_only_the_names_ending_with_their_campus(monkeypatch):
    # each acronym before a campus was asked of every organisation: 200 such names among 2,000
    # organisations made 400,000 checks (20,000 organisations took 7 s, 100,000 would take minutes)
    from kg.resolve import other_names

    asked = []
    expands = other_names._expands
    monkeypatch.setattr(other_names, "_expands", lambda *args: asked.append(args) or expands(*args))
    campuses = [f"Town{i}" for i in range(200)]
    names = [
        *(f"UQ {town}" for town in campuses),
        "University of Quillon, Town7",
        *(f"Loom Works {i}" for i in range(1799)),
    ]
    assert _same(*names) == {"UQ Town7": "University of Quillon, Town7"}
    assert len(asked) < 1000


def test_an_acronym_that_fits_a_name_and_its_own_campus_form_fits_one_organisation():
    names = ("ZPFL", "ZPF Lausanne", "Zurbon Polytechnique Federale Lausanne")
    assert _same(*names) == {
        "ZPF Lausanne": "Zurbon Polytechnique Federale Lausanne",
        "ZPFL": "Zurbon Polytechnique Federale Lausanne",
    }
    assert _same(*reversed(names)) == _same(*names)


PAPERS = [
    paperlists_entry("Folding Laundry With Few Demonstrations", [("Ada Byron", "QIST"), ("Bo Chen", "UX Brakeport")]),
    paperlists_entry(
        "Sampling Paths Quickly",
        [("Cy Dean", "Quillon Institute of Science and Technology"), ("Di Egan", "University of Xylo, Brakeport")],
    ),
    paperlists_entry(
        "Grasping in Clutter",
        [
            ("Ed Fox", "QIT"),
            ("Flo Gray", "Quarry Institute of Technology"),
            ("Gus Hart", "Quillon Institute of Technology"),
        ],
    ),
]


def test_other_names_in_the_store_counted_with_their_institution_explained_and_valid(tmp_path):
    source = tmp_path / "conf2025.json"
    source.write_text(json.dumps(PAPERS), encoding="utf-8")
    store = KGStore("memory")
    ingest([source], store, Minter())
    assert placed(store) == {
        "qist": "quillon-institute-of-science-and-technology",
        "ux-brakeport": "university-of-xylo-brakeport",
    }
    papers = store.query(
        sparql_prologue()
        + """SELECT (COUNT(DISTINCT ?paper) AS ?n) WHERE {
        ?paper schema:sourceOrganization/org:subOrganizationOf* ?institution .
        ?institution skos:prefLabel "Quillon Institute of Science and Technology"@en }"""
    )
    assert int(next(iter(papers))[0].value) == 2  # the paper that writes "QIST" counts
    report = quality_report(store)
    assert report["counts"]["institutions_by_other_name"] == 2
    assert ("QIST", "Quillon Institute of Science and Technology") in {
        (item["other_name"], item["institution"]) for item in report["institutions_by_other_name"]
    }
    conformance = validate_graph(store_graph(store))
    assert conformance.conforms, conformance.violations[:5]


def test_a_name_placed_as_a_unit_keeps_that_one_place(tmp_path):
    # "UX Brakeport" begins with "UX", which the corpus writes alone: a unit of it by name, so
    # not also another name of "University of Xylo, Brakeport" (one parent per organisation)
    source = tmp_path / "conf2025.json"
    source.write_text(json.dumps([*PAPERS, paperlists_entry("Alone", [("Hal Ives", "UX")])]), encoding="utf-8")
    store = KGStore("memory")
    ingest([source], store, Minter())
    assert placed(store)["ux-brakeport"] == "ux"
    conformance = validate_graph(store_graph(store))
    assert conformance.conforms, conformance.violations[:5]


def test_the_placing_follows_the_store_as_sources_come_and_go(tmp_path):
    acronym, name = tmp_path / "acronym.json", tmp_path / "name.json"
    acronym.write_text(json.dumps([paperlists_entry("Acronym Alone", [("Ada Byron", "QIST")])]), encoding="utf-8")
    name.write_text(
        json.dumps([paperlists_entry("Name Alone", [("Bo Chen", "Quillon Institute of Science and Technology")])]),
        encoding="utf-8",
    )
    store, minter = KGStore("memory"), Minter()
    ingest([acronym], store, minter)
    assert placed(store) == {}
    ingest([name], store, minter)
    assert placed(store) == {"qist": "quillon-institute-of-science-and-technology"}
    with resolution_suspended(store, minter):
        store.remove_graph(ox.NamedNode(next(g for g in store.sources() if g.endswith("name-json"))))
    assert placed(store) == {}


def test_a_university_written_in_the_other_word_order_is_the_one_of_the_corpus():
    assert _same("Quillon University", "University of Quillon") == {"Quillon University": "University of Quillon"}
    assert _same("Brake Port University", "University of Brake Port") == {
        "Brake Port University": "University of Brake Port"
    }
    # near-misses: the pairs that are two institutions, a name of three words or of a kind of university,
    # a name only the other order is written of, and the alias table's identity
    assert _same("Washington University", "University of Washington") == {}
    for place in ("Miami", "Newcastle", "York", "Victoria"):
        assert _same(f"{place} University", f"University of {place}") == {}
    assert _same("Brake Port Quillon University", "University of Brake Port Quillon") == {}
    assert _same("Technical University", "University of Technical") == {}
    assert _same("Quillon State University", "University of Quillon") == {}
    assert _same("Quillon University", "University of Quillon", named=("Quillon University",)) == {}


def test_a_short_name_is_the_one_organisation_it_names_with_an_institutions_word():
    assert _same("Quillon, Brakeport", "Quillon University", "Quillon University, Irvale") == {
        "Quillon, Brakeport": "Quillon University"
    }
    assert _same("Loom A and M", "Loom A and M University") == {"Loom A and M": "Loom A and M University"}
    assert _same("Loom Planck", "Loom Planck Institute", "Loom Planck Institute for Weaving") == {
        "Loom Planck": "Loom Planck Institute"
    }


def test_a_short_name_that_begins_other_names_or_says_where_stays_apart():
    # another organisation begins with it, two institutions' words fit, or "University of" fits too
    assert _same("Quillon", "Quillon University", "Quillon Business School") == {}
    assert _same("Zorblax", "Zorblax University", "Zorblax Research") == {}
    assert _same("Quillon", "Quillon University", "Quillon College") == {}
    assert _same("Quillon", "Quillon University", "University of Quillon") == {
        "Quillon University": "University of Quillon"
    }
    # a US state or a country alone says where; a lab's word and a kind of university say no name
    assert _same("Washington", "Washington University") == {}
    assert _same("Japan", "Japan University") == {}
    assert _same("Research", "Research Institute") == {}
    assert _same("Technical", "Technical University") == {}
    # a unit's word after the comma: no place, and no short name
    assert _same("Quillon, Weft Lab", "Quillon University") == {}


def test_a_university_cut_before_of_and_a_place_is_the_one_of_the_corpus():
    assert _same("Gurion University", "Gurion University of the Negev") == {
        "Gurion University": "Gurion University of the Negev"
    }
    assert _same("Quillon University", "Quillon University of Brakeport") == {
        "Quillon University": "Quillon University of Brakeport"
    }


@pytest.mark.parametrize(
    "names",
    [
        ("Quillon University", "Quillon University of Science"),  # subjects, not places
        ("Quillon University", "Quillon University of Agriculture"),
        ("Quillon University", "Quillon University of Science and Technology"),
        ("Quillon University", "Quillon University of Finance and Economics"),
        ("Quillon University", "Quillon University of the Arts"),
        ("Quillon University", "Quillon University of Brakeport", "Quillon University of Irvale"),  # two fit
        ("Technical University", "Technical University of Quillon"),  # kinds of university
        ("Free University", "Free University of Quillon"),
        ("National University", "National University of Quillon"),
        ("American University", "American University of Quillon"),
        ("Japan University", "Japan University of Brakeport"),  # a country
    ],
)
def test_a_university_that_only_begins_another_stays_apart(names):
    assert _same(*names) == {}


def test_a_companys_first_word_abbreviated_is_the_one_company_of_the_corpus_so_named():
    assert _same("QX Group", "Quillaxon Group") == {"QX Group": "Quillaxon Group"}
    assert _same("QX Research", "Quillaxon Research", "Quillaxon Group") == {"QX Research": "Quillaxon Research"}


@pytest.mark.parametrize(
    "names",
    [
        ("QX Group", "Quillaxon Group", "Quixote Group"),  # two companies it may abbreviate
        ("QU Group", "Quillon Group"),  # the next letter: the word's beginning, no abbreviation
        ("QX Group", "Quillaxon Holdings"),  # another rest
        ("QX Department", "Quillaxon Department"),  # a unit's word, no company's
        ("QX University", "Quillaxon University"),
        ("XQ Group", "Quillaxon Group"),  # not from the first letter
        ("Qx Group", "Quillaxon Group"),  # not written in capitals
    ],
)
def test_an_abbreviation_that_names_no_one_company_stays_apart(names):
    assert _same(*names) == {}


def test_other_forms_of_a_name_in_the_store_are_counted_with_their_institution_and_explained(tmp_path):
    source = tmp_path / "conf2025.json"
    source.write_text(
        json.dumps(
            [
                paperlists_entry(
                    "Weaving Fast", [("Ada Byron", "Quillon University"), ("Bo Chen", "Brakeland, Irvale")]
                ),
                paperlists_entry(
                    "Weaving Slow",
                    [
                        ("Cy Dean", "University of Quillon"),
                        ("Di Egan", "Brakeland University"),
                        ("Ed Fox", "Gurion University"),
                        ("Flo Gray", "Gurion University of the Negev"),
                    ],
                ),
            ]
        ),
        encoding="utf-8",
    )
    store = KGStore("memory")
    ingest([source], store, Minter())
    assert placed(store) == {
        "quillon-university": "university-of-quillon",
        "brakeland": "brakeland-university",
        "gurion-university": "gurion-university-of-the-negev",
    }
    whys = {item["other_name"]: item["why"] for item in quality_report(store)["institutions_by_other_name"]}
    assert "other order" in whys["Quillon University"] and "'University of Quillon'" in whys["Quillon University"]
    assert "institution's word added" in whys["Brakeland, Irvale"]
    assert "cut before 'of'" in whys["Gurion University"]
    conformance = validate_graph(store_graph(store))
    assert conformance.conforms, conformance.violations[:5]
