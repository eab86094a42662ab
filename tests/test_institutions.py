"""Institution rules: units of parents, aliases, normalisation, and the near-misses that must stay apart."""

from __future__ import annotations

import pytest

from kg.errors import InputError
from kg.resolve import aliases as alias_module
from kg.resolve.aliases import ALIASES_ENV, active_aliases, read_alias_file
from kg.resolve.institutions import is_acronym, resolve_entry, resolve_name, split_units


@pytest.fixture(scope="module")
def table():
    return alias_module._load(None)


def levels(name, table, chinese=None):
    chain = resolve_entry(name, chinese, table)
    return [level.display for level in chain.levels], list(chain.chinese)


@pytest.mark.parametrize("entry, expected", [
    ("Department of Mathematics, LMU Munich", ["Department of Mathematics", "Ludwig Maximilian University of Munich"]),
    ("Institute of Computer Science, LMU Munich", ["Institute of Computer Science", "Ludwig Maximilian University of Munich"]),
    ("ReLER, The State Key Lab of Brain Machine Intelligence, Zhejiang University",
     ["ReLER", "The State Key Lab of Brain Machine Intelligence", "Zhejiang University"]),
    ("CITEC, Faculty of Technology, Bielefeld University", ["CITEC", "Faculty of Technology", "Bielefeld University"]),
    ("CFAR, Agency for Science, Technology and Research, Singapore", ["CFAR", "Agency for Science, Technology and Research"]),
    ("Zhejiang University, College of Computer Science", ["College of Computer Science", "Zhejiang University"]),
])
def test_comma_qualified_units_are_split_smallest_first(table, entry, expected):
    assert levels(entry, table)[0] == expected


@pytest.mark.parametrize("entry", [
    "University of California, Berkeley",               # a campus, not a unit
    "University of California, Merced",                 # not in the table: still a place qualifier
    "Agency for Science, Technology and Research, Singapore",  # commas inside the name
    "Massachusetts Institute of Technology, Cambridge, MA",    # city and state code
    "Google Research, Brain Team",                       # no organisation word in the second part
    "German Research Center for Artificial Intelligence (DFKI, DSA)",  # comma inside brackets
])
def test_names_with_commas_that_are_not_units_stay_whole(table, entry):
    assert len(split_units(entry, table)) == 1


def test_chinese_names_are_aligned_to_levels(table):
    assert levels("College of Artificial Intelligence, Zhejiang University", table, "人工智能学院，浙江大学")[1] == ["人工智能学院", "浙江大学"]
    # the untranslated acronym ReLER is skipped, the rest pairs from the end
    assert levels("ReLER, The State Key Lab of Brain Machine Intelligence, Zhejiang University", table,
                  "脑机智能国家重点实验室，浙江大学")[1] == [None, "脑机智能国家重点实验室", "浙江大学"]
    # one Chinese name for a two-level entry belongs to the entry itself, not the parent
    assert levels("Department of Mathematics, LMU Munich", table, "慕尼黑大学数学系")[1] == ["慕尼黑大学数学系", None]


@pytest.mark.parametrize("written, canonical", [
    ("UIUC", "University of Illinois Urbana-Champaign"),
    ("University of Illinois at Urbana-Champaign", "University of Illinois Urbana-Champaign"),
    ("university of illinois urbana champaign", "University of Illinois Urbana-Champaign"),
    ("USTC", "University of Science and Technology of China"),
    ("MIT", "Massachusetts Institute of Technology"),
    ("KAIST", "Korea Advanced Institute of Science and Technology"),
    ("Caltech", "California Institute of Technology"),
    ("LMU", "Ludwig Maximilian University of Munich"),
    ("The Hong Kong University of Science and Technology", "Hong Kong University of Science and Technology"),
    ("Carnegie-Mellon University", "Carnegie Mellon University"),
    ("Tokyo University", "University of Tokyo"),          # swapped order, the table knows only one form
    ("Oxford University", "University of Oxford"),
    ("National Institute of Information and Communications Technology, Japan",
     "National Institute of Information and Communications Technology"),
    ("Munich Center for Machine Learning (MCML)", "Munich Center for Machine Learning"),
])
def test_aliases_and_normalisation_reach_the_canonical_name(table, written, canonical):
    assert resolve_name(written, table).canonical == canonical


@pytest.mark.parametrize("first, second", [
    ("University of Washington", "Washington University"),
    ("University of Miami", "Miami University"),
    ("University of Foo", "Foo University"),              # unknown to the table: word order never merges
    ("University of California, Berkeley", "University of California, Merced"),
    ("Technical University of Munich", "LMU Munich"),
    ("Hong Kong University of Science and Technology", "University of Hong Kong"),
])
def test_near_misses_stay_apart(table, first, second):
    assert resolve_name(first, table).key != resolve_name(second, table).key


def test_acronyms_are_not_hyphenated_given_names_or_places():
    assert is_acronym("CITEC") and is_acronym("ReLER") and is_acronym("VIA-SD") and is_acronym("A*STAR")
    assert not is_acronym("Tae-Kyun") and not is_acronym("McAllister") and not is_acronym("USA") and not is_acronym("MA")


def test_user_alias_file_extends_the_shipped_table(tmp_path, monkeypatch):
    user = tmp_path / "mine.tsv"
    user.write_text("# my lab\nIDSIA\tDalle Molle Institute for Artificial Intelligence\nMIT\tMy Institute of Things\n", encoding="utf-8")
    monkeypatch.setenv(ALIASES_ENV, str(user))
    table = active_aliases()
    assert resolve_name("idsia", table).canonical == "Dalle Molle Institute for Artificial Intelligence"
    assert resolve_name("MIT", table).canonical == "My Institute of Things"   # the user's line wins
    assert resolve_name("KAIST", table).canonical == "Korea Advanced Institute of Science and Technology"


def test_bad_alias_file_is_one_error_naming_file_and_line(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("UIUC\tUniversity of Illinois Urbana-Champaign\nno tab here\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.tsv:2: expected"):
        read_alias_file(bad)
