"""``kg explain``: an entry's chains with the rules that placed each level."""

from click.testing import CliRunner

from kg.cli import cli


def test_explain_prints_each_level_with_its_rules():
    result = CliRunner().invoke(cli, ["explain", "Dept. of CS, Stanford University, USA", "Independent Researcher"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "Dept. of CS, Stanford University, USA",
        "  institution 1:",
        "    Stanford University  [new-level, country, institution]  (alias table, country left out)",
        "      Dept. of CS  [unit-before-institution]  (own name, identity key 'dept of cs')",
        "",
        "Independent Researcher",
        "  no organisation",
    ]


def test_explain_needs_an_entry():
    result = CliRunner().invoke(cli, ["explain"])
    assert result.exit_code == 2 and "ENTRIES" in result.output
