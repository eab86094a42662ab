"""The countries' and the answers' totals (kg/resolve/contribution_totals.py): contributions taken off and added give
the totals counted afresh, and the totals read back are the ones written."""

from __future__ import annotations

from kg.resolve.aggregates import _Within
from kg.resolve.contribution_totals import ContributionTotals
from kg.resolve.list_lines import contribution_line

WITHIN = _Within([("http://ex/org/unit", "http://ex/org/a")])
LINES = [
    contribution_line("http://ex/p1", {"http://ex/org/a", "http://ex/org/b"}, {"FR", "DE"}, {"FR": {"http://ex/x"}}),
    contribution_line("http://ex/p2", {"http://ex/org/a", "http://ex/org/unit"}, {"FR"}, {"FR": {"http://ex/x"}}),
    contribution_line("http://ex/p3", {"http://ex/org/b", "http://ex/org/c"}, {"DE", "US"}, {"US": {"http://ex/y"}}),
]


def state(totals: ContributionTotals) -> tuple:
    return (
        list(totals.country_lines()),
        sorted((key, n) for key, n in totals.listed_sets.items() if n),
        sorted((key, n) for key, n in totals.institution_pairs.items() if n),
        sorted((key, n) for key, n in totals.country_pairs.items() if n),
    )


def test_contributions_taken_off_give_the_totals_of_the_rest(tmp_path):
    every = ContributionTotals(WITHIN)
    every.count(LINES)
    assert list(every.country_lines()) == ["FR\t2\t1\n", "US\t1\t1\n"]
    a, b, c = (f"http://ex/org/{name}" for name in "abc")
    assert every.institution_pairs == {(a, b): 1, (b, c): 1}  # the unit is no top institution
    every.write(tmp_path / "totals")
    kept = ContributionTotals(WITHIN).read(tmp_path / "totals")
    assert state(kept) == state(every)
    kept.count(LINES[:1], -1)
    rest = ContributionTotals(WITHIN)
    rest.count(LINES[1:])
    assert state(kept) == state(rest)
