"""The word lists of the artifact and topic rules are rows of ``ontology/paper-words.tsv`` (kg.nlp.words)."""

import pytest

from kg.errors import KgError
from kg.nlp.words import ROLES, WORDS_FILE, read_words


def test_every_role_has_rows_in_the_ontology():
    by_role, kinds = read_words()
    assert [role for role in ROLES if not by_role[role]] == []
    assert set(kinds) == by_role["type"]


def test_a_word_may_have_several_roles():
    by_role, _ = read_words()
    assert "resulting" in by_role["resulting"] & by_role["own-participle"]


@pytest.mark.parametrize(
    "row,error",
    [
        ("tion\taction-endings\t", "role 'action-endings' with kind ''"),  # no such role
        ("in\tresult-link\tmethod", "role 'result-link' with kind 'method'"),  # a kind is for type words only
        ("suite\ttype\tsuite", "role 'type' with kind 'suite'"),  # no such kind
    ],
)
def test_a_bad_row_is_one_error_naming_file_and_line(tmp_path, row, error):
    path = tmp_path / WORDS_FILE.name
    path.write_text(f"# word\trole\tkind\nproposed\town-participle\t\n{row}\n", encoding="utf-8")
    with pytest.raises(KgError, match=rf"paper-words\.tsv:3: {error}$"):
        read_words(path)
