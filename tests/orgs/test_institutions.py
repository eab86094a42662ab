"""The organisation parser on a table of cases: tests/orgs/cases.tsv and tests/orgs/near_misses.tsv.

A row is ``check<TAB>entry<TAB>expected<TAB>table<TAB>case<TAB>why``:
- ``check`` says what is compared (CHECKS below); ``expected`` writes chains smallest level first,
  levels joined by `` < ``, institutions by `` ; ``, ``(none)`` for an entry that names none;
- ``table`` is the alias table the entry is read with: ``shipped``, ``empty`` (the rules alone, as on a
  conference the table does not cover) or a small table of made-up names (TABLES);
- ``case`` groups rows by the behaviour they show, ``why`` says what the row adds.
near_misses.tsv holds the strings that look like a rule's case and must not be read as one.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from kg.orgs import aliases as alias_module
from kg.orgs.aliases import AliasTable
from kg.orgs.canonical_names import resolve_name
from kg.orgs.institutions import resolve_entries, split_groups

HERE = Path(__file__).resolve().parent
TABLES = {
    "shipped": lambda: alias_module._load(None),
    "empty": lambda: AliasTable({}),
    "zorblax": lambda: AliasTable(
        {
            "robotics institute": "The Robotics Institute",
            "ai lab": "Zorblax AI Lab",
            "zorblax institute": "The Zorblax Institute",
            "institute of weaving": "The Institute of Weaving",
            "zorbance": "Zorbance",
            "technology innovation institute": "Technology Innovation Institute",
        },
        {"Zorblax AI Lab": "Zorblax"},
    ),
    "loom_academy": lambda: AliasTable(
        {
            "zorblax institute of technology": "Zorblax Institute of Technology",
            "loom academy of sciences": "Loom Academy of Sciences",
        }
    ),
    "loom_university": lambda: AliasTable(
        {"loom university": "Loom University", "university of loomshire": "University of Loomshire"}
    ),
}
_TABLES: dict[str, AliasTable] = {}


def table(name: str) -> AliasTable:
    if name not in _TABLES:
        _TABLES[name] = TABLES[name]()
    return _TABLES[name]


def institutions(entry: str, aliases: AliasTable) -> list[list[str]]:
    """Each institution an entry names, as its levels (smallest first)."""
    return [[level.display for level in chain.levels] for chain in resolve_entries(entry, None, aliases)]


def written(chains: list[list[str]]) -> str:
    return " ; ".join(" < ".join(chain) for chain in chains) or "(none)"


def _key(name: str, aliases: AliasTable) -> str:
    return resolve_name(name, aliases).key


def _top_keys(entry: str, aliases: AliasTable) -> list[str]:
    return [chain.levels[-1].key for chain in resolve_entries(entry, None, aliases)]


def _unit_key(entry: str, aliases: AliasTable) -> str:
    """The key of the first chain's own (most specific) level."""
    return resolve_entries(entry, None, aliases)[0].levels[0].key


def _top_without_legal_form(entry, expected, aliases):
    [[*_, top]] = institutions(entry, aliases)
    return not {"inc", "ltd"} & set(_key(top, aliases).split())


# check -> (entry, expected, aliases) -> whether the row holds
CHECKS = {
    "chains": lambda entry, expected, aliases: written(institutions(entry, aliases)) == expected,
    "tops": lambda entry, expected, aliases: (
        " ; ".join(chain[-1] for chain in institutions(entry, aliases)) == expected
    ),
    "one_group": lambda entry, expected, aliases: [len(group) for group in split_groups(entry, aliases)] == [1],
    "one_institution": lambda entry, expected, aliases: len(institutions(entry, aliases)) == 1,
    "first_alone": lambda entry, expected, aliases: len(institutions(entry, aliases)[0]) == 1,
    "canonical": lambda entry, expected, aliases: resolve_name(entry, aliases).canonical == expected,
    "same_key": lambda entry, expected, aliases: _key(entry, aliases) == _key(expected, aliases),
    "same_top_keys": lambda entry, expected, aliases: _top_keys(entry, aliases) == _top_keys(expected, aliases),
    "same_unit_key": lambda entry, expected, aliases: _unit_key(entry, aliases) == _unit_key(expected, aliases),
    "top_without_legal_form": _top_without_legal_form,
    "keys_apart": lambda entry, expected, aliases: _key(entry, aliases) != _key(expected, aliases),
    "top_keys_apart": lambda entry, expected, aliases: _top_keys(entry, aliases) != _top_keys(expected, aliases),
    "look_alikes_apart": lambda entry, expected, aliases: (
        _key(entry, aliases) != _key(expected, aliases) and _top_keys(entry, aliases) != _top_keys(expected, aliases)
    ),
    "never_level": lambda entry, expected, aliases: all(
        expected not in chain for chain in institutions(entry, aliases)
    ),
    "no_level_with_all": lambda entry, expected, aliases: (
        not any(
            all(word in level for word in expected.split(" | "))
            for chain in institutions(entry, aliases)
            for level in chain
        )
    ),
}


def rows(name: str) -> list:
    with (HERE / name).open(encoding="utf-8", newline="") as file:
        read = list(csv.DictReader(file, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [pytest.param(row, id=f"{name}:{number}:{row['case']}") for number, row in enumerate(read, start=2)]


@pytest.mark.parametrize("row", rows("cases.tsv") + rows("near_misses.tsv"))
def test_case(row):
    holds = CHECKS[row["check"]](row["entry"], row["expected"], table(row["table"]))
    shown = written(institutions(row["entry"], table(row["table"])))
    assert holds, f"{row['check']} {row['entry']!r} -> {shown!r}, expected {row['expected']!r} ({row['why']})"


def test_every_check_and_table_is_used():
    used = [param.values[0] for param in rows("cases.tsv") + rows("near_misses.tsv")]
    assert {row["check"] for row in used} == set(CHECKS)
    assert {row["table"] for row in used} == set(TABLES)
