"""eval.orgs: the development builds' occurrences are counted from the graph kg writes."""

from __future__ import annotations

from pathlib import Path

from eval.orgs import score_build

DATA = Path(__file__).resolve().parents[1] / "data"


def test_every_stated_affiliation_is_an_occurrence_with_its_registry_id_and_country():
    # three papers, six authorships, each with a stated affiliation of a university ROR knows
    score = score_build(DATA / "two_yang_lius.json")
    assert score["occurrences"] == 6
    assert score["with a registry id"] == 1.0 and score["with a country"] == 1.0
