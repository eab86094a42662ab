"""Every rule of kg.orgs.rules reads its example and not its near-miss, with the shipped alias table."""

from __future__ import annotations

import pytest

from kg.orgs import aliases as alias_module
from kg.orgs.institutions import explain_rules, resolve_entries
from kg.orgs.rules import BY_ID, RULES, STEPS


@pytest.fixture(scope="module")
def table():
    return alias_module._load(None)


def rules_used(entry: str, table) -> set[str]:
    return {rule for chain in resolve_entries(entry, None, table) for rules in chain.rules for rule in rules}


@pytest.mark.parametrize("rule", RULES, ids=[rule.id for rule in RULES])
def test_a_rule_reads_its_example(rule, table):
    assert rule.id in rules_used(rule.example, table)


@pytest.mark.parametrize("rule", RULES, ids=[rule.id for rule in RULES])
def test_a_rule_does_not_read_its_near_miss(rule, table):
    assert rule.id not in rules_used(rule.near_miss, table)


def test_rules_have_one_id_each_and_a_known_step():
    assert len(BY_ID) == len(RULES)
    assert {rule.step for rule in RULES} <= set(STEPS)
    assert all(rule.reason and rule.example and rule.near_miss and rule.action for rule in RULES)


def test_every_level_of_a_chain_says_which_rules_placed_it(table):
    [chain] = resolve_entries("Dept. of CS, Stanford University, USA", None, table)
    assert chain.rules == (("unit-before-institution",), ("new-level", "country", "institution"))


def test_explain_names_the_rules_that_reshaped_the_parts(table):
    lines = explain_rules("School of Weaving of Loom University (work done while at Zorblax)", table)
    assert any("unit-of-institution" in line and "bracketed-note-left-out" in line for line in lines)
