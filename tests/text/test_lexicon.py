"""The word lists kept as TSV rows: how they are read, and that every shipped list is used."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.orgs.lexicon import LEXICON
from kg.text.lexicon import TEXT_LEXICON, Lexicon

KG = Path(__file__).resolve().parents[2] / "kg"


def _folder(tmp_path: Path, **files: str) -> Path:
    for name, text in files.items():
        (tmp_path / f"{name}.tsv").write_text(text, encoding="utf-8")
    return tmp_path


def test_rows_read_as_sets_sequences_and_mappings(tmp_path):
    lexicon = Lexicon(_folder(tmp_path, a="list\tword\tvalue\n# why\nform\tltd\nform\tco ltd\nnative\twien\tvienna\n"))
    assert lexicon.words("form") == {"ltd", "co ltd"}
    assert lexicon.ordered("form") == ("ltd", "co ltd")
    assert lexicon.mapping("native") == {"wien": "vienna"}


def test_a_bad_row_names_its_file_and_line(tmp_path):
    lexicon = Lexicon(_folder(tmp_path, a="list\tword\nform\tltd\nform ltd\n"))
    with pytest.raises(InputError, match=r"a\.tsv:3: expected list<TAB>word"):
        lexicon.words("form")


def test_a_list_lives_in_one_file(tmp_path):
    lexicon = Lexicon(_folder(tmp_path, a="form\tltd\n", b="form\tinc\n"))
    with pytest.raises(InputError, match=r"b\.tsv:1: list 'form' is already in a\.tsv"):
        lexicon.words("form")


def test_an_unknown_list_is_an_error(tmp_path):
    with pytest.raises(KeyError, match="no word list 'nothing'"):
        Lexicon(_folder(tmp_path, a="form\tltd\n")).words("nothing")


@pytest.mark.parametrize("lexicon", [LEXICON, TEXT_LEXICON], ids=["orgs", "text"])
def test_every_shipped_list_is_read_by_the_code(lexicon):
    code = "\n".join(path.read_text(encoding="utf-8") for path in KG.rglob("*.py"))
    read = set(re.findall(r"""(?:word_list|word_sequence|word_mapping|\.words)\("(\w+)"\)""", code))
    assert set(lexicon.names()) - read == set()


@pytest.mark.parametrize("lexicon", [LEXICON, TEXT_LEXICON], ids=["orgs", "text"])
def test_no_word_is_listed_twice_in_one_list(lexicon):
    for name in lexicon.names():
        rows = lexicon.ordered(name)
        assert len(rows) == len(set(rows)), name
