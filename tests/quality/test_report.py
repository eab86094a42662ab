"""The quality report on a store built from a listing: merged spellings, look-alikes kept apart, and a
company's papers counted with its labs'."""

from __future__ import annotations

import pytest

LISTING_OF_LABS = """ICML 2026

Paper One

Paper One

Ada Lovelace, Alan Turing

机构 * Google Brain ； Peking University, Tsinghua University 纠错

Paper Two

Paper Two

Grace Hopper

机构 * Research, Google ； Cerebras Systems, Inc. ； KDDI Research, Inc. 纠错

Paper Three

Paper Three

Edsger Dijkstra

机构 * Google ； Tsinghua University 纠错
"""


@pytest.fixture(scope="module")
def labs_store(tmp_path_factory):
    from kg.pipeline import ingest
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore

    listing = tmp_path_factory.mktemp("labs") / "labs.txt"
    listing.write_text(LISTING_OF_LABS, encoding="utf-8")
    store = KGStore("memory")
    ingest([listing], store, Minter())
    return store


def _papers_of(store, slug):
    from kg.vocab import sparql_prologue

    rows = store.query(
        sparql_prologue()
        + f"""SELECT DISTINCT ?title WHERE {{
        ?listed org:subOrganizationOf* <https://kg.example.org/id/institution/{slug}> .
        ?paper schema:sourceOrganization ?listed ; dcterms:title ?title }}"""
    )
    return sorted(str(title) for (title,) in rows)


def test_a_question_about_a_company_includes_its_labs(labs_store):
    assert _papers_of(labs_store, "google") == ["Paper One", "Paper Three", "Paper Two"]
    assert _papers_of(labs_store, "tsinghua-university") == [
        "Paper One",
        "Paper Three",
    ]  # two institutions in one entry
    assert _papers_of(labs_store, "peking-university") == ["Paper One"]
    assert _papers_of(labs_store, "inc") == []  # a legal form is no node


def test_quality_explains_merged_spellings_and_look_alikes(labs_store):
    from kg.quality.report import quality_report

    report = quality_report(labs_store)
    merged = {item["name"]: item["forms"] for item in report["institutions_merged"]}
    tsinghua = {form["written"]: form["how"] for form in merged["Tsinghua University"]}
    assert set(tsinghua) == {"Peking University, Tsinghua University", "Tsinghua University"}
    assert all("alias table" in how for how in tsinghua.values())
    assert report["counts"]["institutions_merged"] == len(report["institutions_merged"])


def test_quality_says_why_look_alikes_were_kept_apart():
    from kg.quality.report import lookalike_institutions

    pairs = lookalike_institutions(
        {"a": "University of Miami", "b": "Miami University", "c": "Foo University", "d": "University of Foo"}
    )
    why = {(pair["first"], pair["second"]): pair["why_apart"] for pair in pairs}
    assert "alias table lists both" in why[("University of Miami", "Miami University")]
    assert "another order" in why[("Foo University", "University of Foo")]
