"""The tokenizer: Chinese names aligned to levels, and entries too long to cut by brute force."""

from __future__ import annotations

import pytest

from kg.orgs import aliases as alias_module
from kg.orgs.institutions import resolve_entries


@pytest.fixture(scope="module")
def table():
    return alias_module._load(None)


def chinese_of(name, table, chinese):
    [chain] = resolve_entries(name, chinese, table)
    return list(chain.chinese)


def institutions(name, table):
    """Each institution an entry names, as its levels (smallest first)."""
    return [[level.display for level in chain.levels] for chain in resolve_entries(name, None, table)]


def test_chinese_names_are_aligned_to_chinese_of(table):
    assert chinese_of("College of Artificial Intelligence, Zhejiang University", table, "人工智能学院，浙江大学") == [
        "人工智能学院",
        "浙江大学",
    ]
    # the untranslated acronym ReLER is skipped, the rest pairs from the end
    assert chinese_of(
        "ReLER, The State Key Lab of Brain Machine Intelligence, Zhejiang University",
        table,
        "脑机智能国家重点实验室，浙江大学",
    ) == [None, "脑机智能国家重点实验室", "浙江大学"]
    # one Chinese name for a two-level entry belongs to the entry itself, not the parent
    assert chinese_of("Department of Mathematics, LMU Munich", table, "慕尼黑大学数学系") == ["慕尼黑大学数学系", None]


@pytest.mark.slow
def test_institutions_run_together_by_the_hundred_are_cut_without_deep_recursion(table):
    # each cut used to recurse for the rest of the entry: 2,200 cuts passed Python's recursion limit
    entry = ", ".join(f"Alpha{i} University Beta{i} University" for i in range(1100))
    found = institutions(entry, table)
    assert len(found) == 2200 and found[:2] == [["Alpha0 University"], ["Beta0 University"]]


def test_a_comma_part_too_long_to_be_names_run_together_is_not_cut(table):
    # every cut of a part asked the whole name before it (brand_parent, itself quadratic): 1,000
    # capitalised words took minutes; a part longer than LONGEST_RUN_TOGETHER is no run of names
    # (its CPU time beside an ordinary entry's: bench/hostile_inputs.py)
    entry = " ".join(f"Alpha{i} University" if i % 7 == 0 else f"Word{i}" for i in range(1000))
    assert len(institutions(entry, table)) == 1
