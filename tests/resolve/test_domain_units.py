"""Units a structured source names alone ("Department of Computer Science") are told apart by
their authors' e-mail domain and placed in the one institution that domain belongs to."""

from __future__ import annotations

import json

import pyoxigraph as ox
import pytest

from kg.pipeline import ingest
from kg.quality.report import quality_report
from kg.quality.shacl import store_graph, validate_graph
from kg.rdf.iris import Minter
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.text.domains import institutional_domain, registrable_domain
from kg.vocab import sparql_prologue


def _entry(title, people):
    """people: (name, affiliation, e-mail domain)."""
    return {
        "title": title,
        "author": ";".join(p[0] for p in people),
        "authorids": ";".join("~" + p[0].replace(" ", "_") + "1" for p in people),
        "aff": ";".join(p[1] for p in people),
        "aff_domain": ";".join(p[2] for p in people),
        "status": "Poster",
        "track": "main",
    }


PAPERS = [
    _entry(
        "Robots That Fold Laundry",
        [
            ("Ada Byron", "Department of Computer Science", "cs.washington.edu"),
            ("Bo Chen", "University of Washington", "washington.edu"),
        ],
    ),
    _entry(
        "Grasping in Clutter",
        [
            ("Cy Dean", "Department of Computer Science", "cs.toronto.edu"),
            ("Di Egan", "Department of Computer Science, University of Toronto", "cs.toronto.edu"),
        ],
    ),
    # google.com is both Google's and Waymo's: the unit has no one institution
    _entry(
        "Driving Policies",
        [
            ("Ed Fox", "Department of Physics", "google.com"),
            ("Flo Gray", "Google", "google.com"),
            ("Gus Hart", "Waymo", "google.com"),
        ],
    ),
    # a personal mailbox names no institution, even when one institution alone has it
    _entry(
        "Sampling Paths",
        [("Hal Ives", "Department of Mathematics", "gmail.com"), ("Ivy Jones", "Stanford University", "gmail.com")],
    ),
    _entry("Learning Without Labels", [("Jo Kent", "Department of Mathematics", "gmail.com")]),
]


def _units(store) -> dict[str, tuple[str, str | None]]:
    """IRI name -> (label, parent label) of every unit named alone."""
    rows = store.query(
        sparql_prologue()
        + """SELECT DISTINCT ?unit ?label ?parent WHERE {
        ?unit a org:Organization ; skos:prefLabel ?label . FILTER(STRSTARTS(STR(?label), "Department of"))
        FILTER NOT EXISTS { ?unit kg:nameAsWritten ?written FILTER(CONTAINS(STR(?written), ",")) }
        OPTIONAL { ?unit org:subOrganizationOf/skos:prefLabel ?parent } }"""
    )
    return {
        str(unit).rsplit("/", 1)[-1]: (str(label), str(parent) if parent is not None else None)
        for unit, label, parent in rows
    }


@pytest.fixture()
def source(tmp_path):
    path = tmp_path / "conf2025.json"
    path.write_text(json.dumps(PAPERS, indent=2), encoding="utf-8")
    return path


def test_registrable_and_institutional_domains():
    assert [
        registrable_domain(d)
        for d in (
            "cs.washington.edu",
            "mails.tsinghua.edu.cn",
            "robots.ox.ac.uk",
            "connect.ust.hk",
            "is.mpg.de",
            "google.com",
        )
    ] == ["washington.edu", "tsinghua.edu.cn", "ox.ac.uk", "ust.hk", "mpg.de", "google.com"]
    assert institutional_domain("cs.washington.edu") == "washington.edu"
    assert [institutional_domain(d) for d in ("gmail.com", "mail.qq.com", "", None, "localhost")] == [None] * 5


def test_each_domain_its_own_unit_placed_where_the_domain_names_one_institution(source):
    store = KGStore("memory")
    ingest([source], store, Minter())
    assert _units(store) == {
        "department-of-computer-science-at-washington-edu": (
            "Department of Computer Science",
            "University of Washington",
        ),
        "department-of-computer-science-at-toronto-edu": ("Department of Computer Science", "University of Toronto"),
        "department-of-physics-at-google-com": ("Department of Physics", None),  # Google and Waymo share the domain
        "department-of-mathematics": ("Department of Mathematics", None),  # gmail.com: not told apart, not placed
    }
    # the paper's own institutions (schema:sourceOrganization) are the same scoped nodes
    rows = store.query(
        sparql_prologue()
        + """SELECT ?org WHERE {
        ?paper dcterms:title "Robots That Fold Laundry"@en ; schema:sourceOrganization ?org }"""
    )
    assert sorted(str(org).rsplit("/", 1)[-1] for (org,) in rows) == [
        "department-of-computer-science-at-washington-edu",
        "university-of-washington",
    ]
    report = validate_graph(store_graph(store))
    assert report.conforms, report.violations[:5]
    units = quality_report(store)["units_placed_by_domain"]
    assert [(u["unit"], u["domain"], u["institution"]) for u in units] == [
        ("Department of Computer Science", "toronto.edu", "University of Toronto"),
        ("Department of Computer Science", "washington.edu", "University of Washington"),
    ]


def test_the_placing_follows_the_store_as_sources_come_and_go(tmp_path):
    """The parent comes from every source at once: without the paper that says washington.edu
    is the University of Washington's, the unit has no parent; with it back, it has."""
    alone = tmp_path / "alone.json"
    alone.write_text(
        json.dumps(
            [_entry("Robots That Fold Laundry", [("Ada Byron", "Department of Computer Science", "cs.washington.edu")])]
        ),
        encoding="utf-8",
    )
    other = tmp_path / "other.json"
    other.write_text(
        json.dumps([_entry("Folding Again", [("Bo Chen", "University of Washington", "washington.edu")])]),
        encoding="utf-8",
    )
    store, minter = KGStore("memory"), Minter()
    ingest([alone], store, minter)
    assert _units(store)["department-of-computer-science-at-washington-edu"][1] is None
    ingest([other], store, minter)
    assert _units(store)["department-of-computer-science-at-washington-edu"][1] == "University of Washington"
    ingest([other], store, minter)  # again: last run's placing records are no institutions of the domain
    assert _units(store)["department-of-computer-science-at-washington-edu"][1] == "University of Washington"
    with resolution_suspended(store, minter):
        store.remove_graph(ox.NamedNode(next(g for g in store.sources() if g.endswith("other-json"))))
    assert _units(store)["department-of-computer-science-at-washington-edu"][1] is None


def test_institutions_kept_apart_on_one_domain_are_listed_as_look_alikes(source):
    store = KGStore("memory")
    ingest([source], store, Minter())
    alike = {(a["first"], a["second"]): a["why_alike"] for a in quality_report(store)["institutions_alike_kept_apart"]}
    assert alike == {("Google", "Waymo"): "their authors write from one e-mail domain (google.com)"}
