"""kg.orgs.org_names: what is an organisation's acronym (a case table, acronym_cases.tsv)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.orgs.org_names import is_organisation_acronym

CASES = Path(__file__).with_name("acronym_cases.tsv")


def _cases() -> list:
    rows = [line.split("\t") for line in CASES.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    return [pytest.param(word, expected == "yes", id=f"{word}|{why}") for word, expected, why in rows]


@pytest.mark.parametrize("word, expected", _cases())
def test_is_organisation_acronym(word: str, expected: bool) -> None:
    assert is_organisation_acronym(word) is expected
