"""The rules that settle per-author id lists out of step with the byline (kg.ingest.id_majority):
each rule's example and near-miss from ``id_majority_cases.tsv``, and a shifted list read from a
real JSON file through ingest, reported by ``kg quality``."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from kg.ingest.id_majority import RULES, IdOwners, pairings
from kg.pipeline import ingest
from kg.quality.identifiers import identifier_counts, identifier_report
from kg.rdf.iris import Minter
from kg.records import AuthorDetail
from kg.stores.embedded import KGStore

CASES = Path(__file__).with_name("id_majority_cases.tsv")


def _cases() -> list[dict]:
    lines = [line for line in CASES.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def _paper(written: str) -> tuple[list[str], list[AuthorDetail], list[str]]:
    names, ids = (part.split(", ") for part in written.split(" :: "))
    people = [name.split("~") for name in names]
    ids = [None if value == "-" else value for value in ids]
    if len(ids) != len(names):  # an unaligned list: nobody is paired, its ids are placed by the rules
        return (
            [p[0] for p in people],
            [AuthorDetail(openreview=f"~{p[1]}" if len(p) > 1 else None) for p in people],
            ids,
        )
    details = [AuthorDetail(openreview=f"~{p[1]}" if len(p) > 1 else None, dblp=value) for p, value in zip(people, ids)]
    return [p[0] for p in people], details, []


@pytest.mark.parametrize("case", _cases(), ids=lambda case: f"{case['rule']}-{case['case']}")
def test_rule_case(case):
    papers = [_paper(written) for written in case["papers"].split(" | ")]
    owners = IdOwners(
        pairing
        for number, (names, details, unplaced) in enumerate(papers)
        if not unplaced
        for pairing in pairings(number, names, details)
    )
    settled, aside = [], 0
    for names, details, unplaced in papers:
        held, set_aside = owners.settle(names, details, [("dblp", value) for value in unplaced if value])
        settled.append(", ".join(detail.dblp or "-" for detail in held))
        aside += len(set_aside)
        assert all(note.reason.split(":")[0] in RULES for note in set_aside)
    assert " | ".join(settled) == case["expected"]
    assert aside == int(case["set_aside"])


def test_every_rule_has_an_example_and_a_near_miss():
    kinds = {(case["rule"], case["case"]) for case in _cases()}
    assert {rule for rule, _ in kinds} == set(RULES)
    assert all((rule, kind) in kinds for rule in RULES for kind in ("example", "near-miss"))


def _entry(title: str, people: list[tuple[str, str]]) -> dict:
    return {
        "title": title,
        "author": ";".join(name for name, _ in people),
        "authorids": ";".join(f"~{name.replace(' ', '_')}1" for name, _ in people),
        "dblp": ";".join(pid for _, pid in people),
        "aff": ";".join("Loom University" for _ in people),
        "status": "Poster",
    }


@pytest.mark.slow
def test_a_shifted_list_gives_nobody_two_ids_and_is_reported(tmp_path):
    """The third paper's dblp list is out of step (as CoRL 2024's list is in places): read by
    position, everyone would hold two pids and two pids name two people. Ada's and Ming's pids go
    back to them; the pid only that paper gives Ada is set aside."""
    papers = [
        _entry("Weaving Robots", [("Ada Byron", "11/1"), ("Ming Liu", "22/2")]),
        _entry("Loom Control", [("Ada Byron", "11/1"), ("Zoe Li", "33/3")]),
        _entry("Soft Shuttles", [("Ming Liu", "11/1"), ("Zoe Li", "22/2"), ("Ada Byron", "44/4")]),
    ]
    path = tmp_path / "conf2031.json"
    path.write_text(json.dumps(papers), encoding="utf-8")
    store = KGStore("memory")
    ingest([path], store, Minter())
    counts = identifier_counts(store)
    assert counts["persons_with_two_ids_of_one_scheme"] == 0 and counts["ids_on_several_persons"] == 0
    assert counts["ids"] == 6  # three OpenReview profiles, and each one's dblp pid
    report = identifier_report(store)
    assert [(item["author"], item["id"]) for item in report["ids_set_aside"]] == [
        ("Ada Byron", "https://dblp.org/pid/44/4")
    ]
