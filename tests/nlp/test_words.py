"""The word lists of the artifact and topic rules are rows of ``ontology/paper-words.tsv`` and
``ontology/sentence-words.tsv``, read by one loader (kg.nlp.words.read_words)."""

import pytest

from kg.errors import KgError
from kg.nlp.words import KINDED_ROLES, KINDS, ROLES, SENTENCE_WORDS_FILE, WORDS_FILE, read_words

FILES = (WORDS_FILE, SENTENCE_WORDS_FILE)


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_every_role_of_a_file_has_rows_there(path):
    by_role = read_words(path)
    assert [role for role in ROLES[path.name] if not by_role[role]] == []
    assert set(by_role) <= set(ROLES[path.name])


def test_the_kinded_roles_give_a_kind_to_every_word():
    by_role = read_words(WORDS_FILE)
    assert all(kind in KINDS for role in KINDED_ROLES for kind in by_role[role].values())
    assert by_role["name-ending"]["bench"] == "benchmark" and by_role["zh-type"]["数据集"] == "dataset"


def test_a_word_may_have_several_roles():
    assert "resulting" in read_words(WORDS_FILE)["resulting"].keys() & read_words(WORDS_FILE)["own-participle"].keys()
    assert {"and", ","} <= read_words(SENTENCE_WORDS_FILE)["clause-end"].keys()


@pytest.mark.parametrize(
    "name,row,error",
    [
        ("paper-words.tsv", "tion\taction-endings\t", "role 'action-endings' with kind ''"),  # no such role
        ("paper-words.tsv", "in\tresult-link\tmethod", "role 'result-link' with kind 'method'"),  # kind: type words
        ("paper-words.tsv", "suite\ttype\tsuite", "role 'type' with kind 'suite'"),  # no such kind
        ("paper-words.tsv", "net\tname-ending\t", "role 'name-ending' with kind ''"),  # a kinded role needs one
        ("sentence-words.tsv", "proposed\town-participle\t", "role 'own-participle' with kind ''"),  # other file's
    ],
)
def test_a_bad_row_is_one_error_naming_file_and_line(tmp_path, name, row, error):
    path = tmp_path / name
    path.write_text(f"# word\trole\tkind\nand\t{ROLES[name][0]}\t\n{row}\n", encoding="utf-8")  # row 2 is good
    with pytest.raises(KgError, match=rf"{name.replace('.', '[.]')}:3: {error}$"):
        read_words(path)
