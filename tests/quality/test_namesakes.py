"""`kg quality` flags a name whose papers form groups with no co-author and no organisation in common."""

from __future__ import annotations

from pathlib import Path

from kg.pipeline import ingest
from kg.quality.namesakes import likely_several_people, paper_groups
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore

DATA = Path(__file__).parent.parent / "data"


def test_a_name_at_two_institutions_with_two_sets_of_co_authors_is_flagged():
    store = KGStore("memory")
    ingest([DATA / "one_name_two_people.txt"], store, Minter())
    flagged = likely_several_people(store)
    assert [(entry["name"], entry["groups"], entry["papers_per_group"]) for entry in flagged] == [
        ("Alex Kim", 2, [2, 1])
    ]
    # Min Park's two papers share Seoul National University: one person, not flagged


def test_papers_without_any_evidence_are_no_second_person():
    evidence = {"p1": {"a"}, "p2": {"a", "b"}, "p3": set()}
    assert paper_groups(["p1", "p2", "p3"], evidence) == [{"p1", "p2"}]
    assert len(paper_groups(["p1", "p2"], {"p1": {"a"}, "p2": {"b"}})) == 2
