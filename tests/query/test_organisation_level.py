"""Institution queries at the organisation level by default: units rolled up, no pair inside one organisation."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.pipeline import ingest
from kg.query.library import library, run
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore

FIXTURE = Path(__file__).parent.parent / "data" / "unit_and_parent.txt"
CMU = "https://kg.example.org/id/institution/carnegie-mellon-university"
GOOGLE = "https://kg.example.org/id/institution/google"


@pytest.fixture(scope="module")
def store() -> KGStore:
    """Three papers: CMU with its own School of Computer Science; that school with Google; CMU, its
    Robotics Institute and Google."""
    store = KGStore("memory")
    ingest([FIXTURE], store, Minter())
    return store


def pairs(store, **values) -> dict[tuple[str, str], int]:
    result = run(store, library()["institution-collaborations"], values)
    column = {name: index for index, name in enumerate(result.variables)}
    return {
        (str(row[column["institution"]]), str(row[column["partner"]])): int(row[column["shared_papers"]])
        for row in result.rows
    }


def test_collaborations_roll_units_up_to_their_organisation_by_default(store):
    assert pairs(store) == {(CMU, GOOGLE): 2}  # each paper counted once, however many CMU units it lists


def test_units_on_request_but_never_two_units_of_one_organisation(store):
    found = pairs(store, level="unit")
    assert len(found) == 3 and all(partner == GOOGLE for _, partner in found)
    assert found[(CMU, GOOGLE)] == 1


@pytest.mark.parametrize("query", ["top-institutions", "track-breakdown"])
def test_rankings_list_organisations_unless_units_are_asked_for(store, query):
    def listed(**values) -> set[str]:
        result = run(store, library()[query], values)
        return {str(row[result.variables.index("institution")]) for row in result.rows}

    assert listed() == {CMU, GOOGLE}
    assert len(listed(level="unit")) == 4
