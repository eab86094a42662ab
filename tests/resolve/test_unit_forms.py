"""Other forms of a unit or a lab the corpus names elsewhere (:mod:`kg.resolve.unit_forms`)."""

from __future__ import annotations

import json

import pytest
from structured_sources import paperlists_entry, placed

from kg.pipeline import ingest
from kg.quality.report import quality_report
from kg.quality.shacl import store_graph, validate_graph
from kg.rdf.iris import Minter, slug
from kg.resolve.unit_forms import company_labs, own_lab_name, unit_forms
from kg.stores.embedded import KGStore

BASE = "https://example.org/kg/institution/"


def _key(name: str) -> str:
    return slug(" ".join(name.replace(",", " ").replace("-", " ").replace("'", "").lower().split()))


def _forms(*names: str, units: tuple[tuple[str, str], ...] = (), named: tuple[str, ...] = ()) -> dict[str, str]:
    """Top-level names as written and (unit, parent) pairs the sources write -> {name: the unit or lab it is}."""
    iri = {name: BASE + _key(name) for name in names}
    for _, parent in units:
        iri.setdefault(parent, BASE + _key(parent))
    unit_iri = {(unit, parent): f"{iri[parent]}--{_key(unit)}" for unit, parent in units}
    written = {value: [name] for name, value in iri.items()}
    written.update({value: [f"{unit}, {parent}"] for (unit, parent), value in unit_iri.items()})
    found = unit_forms(
        [(value, name in named) for name, value in iri.items()],
        written,
        {value: iri[parent] for (_, parent), value in unit_iri.items()},
    )
    back = {**{value: name for name, value in iri.items()}, **{value: unit for (unit, _), value in unit_iri.items()}}
    return {back[other]: back[target] for other, (target, _) in found.items()}


def test_a_unit_written_alone_is_the_one_unit_of_that_name():
    assert _forms("ZWS AI Labs", units=(("ZWS AI Labs", "Quillon"),)) == {"ZWS AI Labs": "ZWS AI Labs"}
    assert _forms(
        "Gorble School of Weaving",
        "Brakeport University",
        units=(("Gorble School of Weaving", "Brakeport University"),),
    ) == {"Gorble School of Weaving": "Gorble School of Weaving"}
    # a donor's name before "School of" may end as a subject's does
    assert _forms("Gorbling School of Weaving", units=(("Gorbling School of Weaving", "Brakeport University"),)) == {
        "Gorbling School of Weaving": "Gorbling School of Weaving"
    }


@pytest.mark.parametrize(
    "alone, units",
    [
        # a unit of that name under two parents: which one is not known
        ("ZWS AI Labs", (("ZWS AI Labs", "Quillon"), ("ZWS AI Labs", "Brakeport University"))),
        # names with no word of their own: another unit at every university or company
        ("Department of Computer Science", (("Department of Computer Science", "Quillon University"),)),
        ("Machine Learning Research Lab", (("Machine Learning Research Lab", "Quillon Group"),)),
        ("Data Lab", (("Data Lab", "Quillon Group"),)),
        ("Robotics Institute", (("Robotics Institute", "Quillon University"),)),
        ("National Weaving Lab", (("National Weaving Lab", "Quillon University"),)),
        ("Engineering School of Looms", (("Engineering School of Looms", "Quillon University"),)),
        ("Learning Center for Looms", (("Learning Center for Looms", "Quillon University"),)),
        ("Gorbling Lab", (("Gorbling Lab", "Quillon University"),)),  # before a lab's word, shaped like a subject
        # an institution's name, even where a source writes it as a member of another
        ("Gorble's College Brakeport", (("Gorble's College Brakeport", "University of Brakeport"),)),
        # no lab's or unit's word: a name the corpus writes after another organisation's
        ("Zorblax", (("Zorblax", "Quillon"),)),
    ],
)
def test_a_unit_name_that_is_no_one_units_stays_apart(alone, units):
    assert _forms(alone, units=units) == {}


def test_a_unit_named_only_by_a_place_the_corpus_writes_stays_apart():
    # "Garchton Graduate School": a place's name, written after a comma elsewhere, says where, not which
    units = (("Garchton Graduate School", "Quillon University"),)
    assert _forms("Garchton Graduate School", units=units) == {"Garchton Graduate School": "Garchton Graduate School"}
    assert _forms("Garchton Graduate School", "Brakeport Institute, Garchton", units=units) == {}
    assert _forms("Brakeport Garchton AI Lab", "Garchton AI Lab", "Zorblax Institute, Garchton") == {}
    # an organisation's name after a comma says which, not where
    assert _forms("Brakeport Gorble AI Lab", "Gorble AI Lab", "Gorble", "Quillon Lab, Gorble") == {
        "Brakeport Gorble AI Lab": "Gorble AI Lab"
    }


def test_a_unit_name_that_has_units_of_its_own_or_the_table_knows_stays_apart():
    units = (("ZWS AI Labs", "Quillon"), ("Vision Team", "ZWS AI Labs"))
    assert _forms("ZWS AI Labs", units=units) == {}
    assert _forms("ZWS AI Labs", units=(("ZWS AI Labs", "Quillon"),), named=("ZWS AI Labs",)) == {}


def test_a_unit_written_with_its_parent_after_it_is_that_unit():
    # "ZWS AI Labs, Quillon" or "ZWS AI Labs (Quillon)", whose key keeps the parent's name
    assert _forms("ZWS AI Labs Quillon", units=(("ZWS AI Labs", "Quillon"),)) == {"ZWS AI Labs Quillon": "ZWS AI Labs"}
    assert _forms("ZWS AI Labs Brakeport", units=(("ZWS AI Labs", "Quillon"),)) == {}


def test_the_short_name_of_a_university_before_its_units_name_is_that_unit():
    units = (("Robotics Institute", "Zorblax Mellon University"),)
    assert _forms("Zorblax Mellon Robotics Institute", units=units) == {
        "Zorblax Mellon Robotics Institute": "Robotics Institute"
    }
    # near-misses: another unit, a place or a kind of university as the short name, another word order
    assert _forms("Zorblax Mellon Weaving Institute", units=units) == {}
    assert _forms("Oregon Robotics Institute", units=(("Robotics Institute", "Oregon University"),)) == {}
    assert (
        _forms("Quillon Technical Robotics Institute", units=(("Robotics Institute", "Quillon Technical University"),))
        == {}
    )
    assert _forms("Zorblax Robotics Institute", units=(("Robotics Institute", "University of Zorblax"),)) == {}


def test_a_place_before_a_labs_own_name_is_that_lab():
    assert _forms("Brakeport Gorble Robot Learning Lab", "Gorble Robot Learning Lab") == {
        "Brakeport Gorble Robot Learning Lab": "Gorble Robot Learning Lab"
    }
    assert _forms("Brakeport ZWS AI Labs", units=(("ZWS AI Labs", "Quillon"),)) == {
        "Brakeport ZWS AI Labs": "ZWS AI Labs"
    }


@pytest.mark.parametrize(
    "longer, shorter",
    [
        ("New Quillon University", "Quillon University"),  # a university is no lab ("New York University")
        ("New Gorble Lab", "Gorble Lab"),  # a kind's word, not a place's
        ("North Gorble Lab", "Gorble Lab"),
        ("Brakeport Vision Lab", "Vision Lab"),  # a lab with no name of its own
        ("Brakeport Lab", "Lab"),
    ],
)
def test_a_word_before_a_name_that_is_no_labs_own_stays_apart(longer, shorter):
    assert _forms(longer, shorter) == {}


def test_a_labs_own_name():
    assert own_lab_name(("aws", "ai", "labs")) and own_lab_name(("whiting", "school", "of", "engineering"))
    assert not own_lab_name(("department", "of", "computer", "science"))
    assert not own_lab_name(("computer", "science", "and", "artificial", "intelligence", "laboratory"))
    assert not own_lab_name(("zorblax",))


def test_other_forms_of_a_unit_in_the_store_are_counted_with_it_and_explained(tmp_path):
    source = tmp_path / "conf2025.json"
    source.write_text(
        json.dumps(
            [
                paperlists_entry("Weaving Fast", [("Ada Byron", "Quillon, ZWS AI Labs"), ("Bo Chen", "ZWS AI Labs")]),
                paperlists_entry(
                    "Weaving Slow",
                    [
                        ("Cy Dean", "Robotics Institute, Zorblax Mellon University"),
                        ("Di Egan", "Zorblax Mellon Robotics Institute, PA, USA"),
                    ],
                ),
                paperlists_entry(
                    "Weaving Far",
                    [("Ed Fox", "Gorble Robot Learning Lab"), ("Flo Gray", "Brakeport Gorble Robot Learning Lab")],
                ),
                paperlists_entry(
                    "Weaving Near",
                    [
                        ("Gil Hart", "ZWS AI Labs (Quillon)"),
                        ("Hal Ives", "QX Group"),
                        ("Ida Jay", "Data Lab, Quillaxon Group"),
                        ("Jo King", "Quillaxon Group"),
                    ],
                ),
                paperlists_entry(
                    "Weaving Deep", [("Kay Lee", "R.V. Zorb Quillon"), ("Lu Moss", "RV Zorb AI Research")]
                ),
            ]
        ),
        encoding="utf-8",
    )
    store = KGStore("memory")
    ingest([source], store, Minter())
    found = placed(store)
    assert found["zws-ai-labs"] == "quillon--zws-ai-labs"
    assert found["zorblax-mellon-robotics-institute"] == "zorblax-mellon-university--robotics-institute"
    assert found["brakeport-gorble-robot-learning-lab"] == "gorble-robot-learning-lab"
    assert found["qx-group"] == "quillaxon-group"
    assert found["rv-zorb-ai-research"] == "rv-zorb-quillon"  # dots in initials are no part of the key

    def root(node: str) -> str:
        return root(found[node]) if node in found else node

    assert root("zws-ai-labs-quillon") == root("zws-ai-labs") == "quillon"  # the parent in brackets
    whys = {item["other_name"]: item["why"] for item in quality_report(store)["institutions_by_other_name"]}
    assert "written alone" in whys["ZWS AI Labs"]
    assert "short name of the parent" in whys["Zorblax Mellon Robotics Institute"]
    assert "name before it" in whys["Brakeport Gorble Robot Learning Lab"]
    assert "'QX' abbreviates" in whys["QX Group"]
    conformance = validate_graph(store_graph(store))
    assert conformance.conforms, conformance.violations[:5]


def _labs(*names: str) -> dict[str, str]:
    iri = {name: BASE + _key(name) for name in names}
    back = {value: name for name, value in iri.items()}
    return {
        back[lab]: back[company] for lab, company in company_labs([(value, False) for value in iri.values()]).items()
    }


def test_a_lab_named_by_a_companys_first_words_is_the_one_company_so_named():
    assert _labs("QX Zorb AI Research", "QX Zorb Quillon") == {"QX Zorb AI Research": "QX Zorb Quillon"}
    assert _labs("Brake Port Labs", "Brake Port Looms", "Gorble") == {"Brake Port Labs": "Brake Port Looms"}


@pytest.mark.parametrize(
    "names",
    [
        ("Zorblax Research", "Zorblax Looms"),  # one word: "Google Research", "Google DeepMind"
        ("QX Zorb AI Research", "QX Zorb Quillon", "QX Zorb Brakeport"),  # two companies so named
        ("QX Zorb Vision Lab", "QX Zorb Quillon"),  # a field's word: no lab's words only
        ("Machine Learning Lab", "Machine Learning Quillon"),  # no name of its own
        ("QX Zorb AI Research", "QX Zorb Research"),  # a lab's word is no company's
    ],
)
def test_a_lab_that_names_no_one_company_stays_apart(names):
    assert _labs(*names) == {}
