"""The registry records of whole chains (kg/orgs/identify.py) on a table of cases,
tests/orgs/identify_cases.tsv, and the rule that one node carries at most one registry record."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from eval.orgs import read_gold
from kg.orgs.aliases import active_aliases
from kg.orgs.identify import identify_chain
from kg.orgs.institutions import resolve_entries
from kg.orgs.registry_table import load_registry

CASES = Path(__file__).with_name("identify_cases.tsv")


def _cases() -> list[tuple[str, str | None, str, str]]:
    rows = [
        line.split("\t")
        for line in CASES.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return [(affiliation, domain or None, expected, why) for affiliation, domain, expected, why in rows]


def _nodes(affiliation: str, domain: str | None) -> list[tuple[str, str]]:
    """(node, ROR id or "-") of each level of each chain the affiliation names, most specific level
    first; a node is named by its level's key and its parents' keys, as its IRI is."""
    found = []
    for chain in resolve_entries(affiliation, None, active_aliases()):
        identified = identify_chain(chain.levels, affiliation, domain, load_registry())
        keys = [level.key for level in chain.levels]
        for index, level in enumerate(identified):
            record = level.match.record.id if level.match else ""
            found.append(("--".join(reversed(keys[index:])), record or "-"))
    return found


@pytest.mark.parametrize(
    "affiliation, domain, expected", [pytest.param(*case[:3], id=f"{case[0]}|{case[3]}") for case in _cases()]
)
def test_case(affiliation, domain, expected):
    assert " ".join(record for _, record in _nodes(affiliation, domain)) == expected


@pytest.mark.slow
def test_no_node_carries_two_registry_records():
    """Every node's occurrences in the case table and the gold file agree on its record: a node is one
    organisation, so two records on it are two organisations merged or one name asked two ways."""
    records: dict[str, set[str]] = defaultdict(set)
    strings = [(affiliation, domain) for affiliation, domain, _, _ in _cases()]
    strings += [(row.affiliation, row.domain) for row in read_gold()]
    for affiliation, domain in strings:
        for node, record in _nodes(affiliation, domain):
            if record != "-":
                records[node].add(record)
    assert {node: found for node, found in records.items() if len(found) > 1} == {}
    assert len(records) > 200  # the check saw the gold file's nodes
