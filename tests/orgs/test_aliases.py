"""The shipped alias table: every line says why it is there, and no line repeats what another gives."""

from collections import Counter
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.orgs.aliases import AliasTable, active_aliases, read_alias_file, use_alias_file
from kg.orgs.canonical_names import resolve_name
from kg.orgs.institutions import resolve_entries
from kg.orgs.keys import institution_key
from kg.orgs.name_keys import name_key
from kg.orgs.registry_table import load_registry

SHIPPED = Path(__file__).resolve().parents[2] / "ontology" / "institution-aliases.tsv"


def _lines() -> list[tuple[int, list[str], str]]:
    """(line number, fields, why) of each alias line of this checkout's table."""
    found = []
    for number, line in enumerate(SHIPPED.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            body, _, why = line.partition("\t#")
            found.append((number, [field.strip() for field in body.split("\t")], why.strip()))
    return found


def test_every_alias_line_says_why_it_is_there():
    assert [number for number, _, why in _lines() if len(why) < 10] == []


def test_no_alias_line_repeats_a_name_key_or_a_declared_canonical_name():
    lines = _lines()
    keys = Counter(institution_key(fields[0]) for _, fields, _ in lines)
    assert [number for number, fields, _ in lines if keys[institution_key(fields[0])] > 1] == []
    # "name<TAB>name" declares a canonical name that has no other line; with variants it is implied
    named = Counter(fields[1] for _, fields, _ in lines)
    assert [
        number for number, fields, _ in lines if fields[0] == fields[1] and len(fields) == 2 and named[fields[1]] > 1
    ] == []


def test_the_why_field_is_not_read_as_a_parent(tmp_path):
    with_why = tmp_path / "with.tsv"
    with_why.write_text(
        "Google DeepMind\tGoogle DeepMind\tGoogle\t# lab of Google\nGDM\tGoogle DeepMind\t# acronym\n", encoding="utf-8"
    )
    without = tmp_path / "without.tsv"
    without.write_text("Google DeepMind\tGoogle DeepMind\tGoogle\nGDM\tGoogle DeepMind\n", encoding="utf-8")
    assert read_alias_file(with_why) == read_alias_file(without)


def test_a_registry_name_reaches_the_tables_canonical_name_of_its_record():
    declared = {institution_key("California Institute of Technology"): "California Institute of Technology"}
    with_registry = AliasTable(declared, registry=load_registry())
    assert with_registry.canonical(institution_key("Caltech")) == "California Institute of Technology"
    assert institution_key("Caltech") in with_registry
    # near-miss: without the registry, or for a record the table names no canonical name of, nothing
    assert AliasTable(declared).canonical(institution_key("Caltech")) is None
    assert with_registry.canonical(institution_key("Stanford University")) is None


def test_no_alias_line_says_only_what_the_registry_look_up_gives():
    table = active_aliases()
    registry = load_registry()
    lines = _lines()
    named = Counter(fields[1] for _, fields, _ in lines)
    redundant = []
    for number, fields, _ in lines:
        if len(fields) != 2 or fields[0] == fields[1] or named[fields[1]] < 2:
            continue  # the only line naming a canonical name declares it
        records = registry.exact(name_key(fields[0]))
        if len(records) == 1 and table._record_canonicals.get(records[0].id) == fields[1]:
            redundant.append(number)
    assert redundant == []


@pytest.fixture
def user_file(tmp_path):
    """A user's alias file, named as the command line names it; the shipped table alone after the test."""
    user = tmp_path / "mine.tsv"
    use_alias_file(user)
    yield user
    use_alias_file(None)


def test_user_alias_file_extends_the_shipped_table(user_file):
    user_file.write_text(
        "# my lab\nIDSIA\tDalle Molle Institute for Artificial Intelligence\nMIT\tMy Institute of Things\n",
        encoding="utf-8",
    )
    table = active_aliases()
    assert resolve_name("idsia", table).canonical == "Dalle Molle Institute for Artificial Intelligence"
    assert resolve_name("MIT", table).canonical == "My Institute of Things"  # the user's line wins
    assert resolve_name("KAIST", table).canonical == "Korea Advanced Institute of Science and Technology"


def test_a_user_file_edited_in_the_process_is_read_again(user_file):
    """The table is kept by the file's path, modification time and size: an edit is seen, no edit reads nothing."""
    user_file.write_text("IDSIA\tDalle Molle Institute\n", encoding="utf-8")
    before = active_aliases()
    assert before is active_aliases() and resolve_name("idsia", before).canonical == "Dalle Molle Institute"
    user_file.write_text("IDSIA\tIstituto Dalle Molle di Studi sull'Intelligenza Artificiale\n", encoding="utf-8")
    after = resolve_name("idsia", active_aliases()).canonical
    assert after == "Istituto Dalle Molle di Studi sull'Intelligenza Artificiale"


def test_bad_alias_file_is_one_error_naming_file_and_line(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("UIUC\tUniversity of Illinois Urbana-Champaign\nno tab here\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.tsv:2: expected"):
        read_alias_file(bad)


def test_ip_paris_is_no_other_name_of_ecole_polytechnique():
    # IP Paris groups École Polytechnique with four other schools: an institution of its own. The
    # table is read from this checkout: an editable install may point the package at another one's
    checkout = AliasTable(
        *read_alias_file(Path(__file__).resolve().parents[2] / "ontology" / "institution-aliases.tsv")
    )
    assert [
        [level.display for level in chain.levels]
        for chain in resolve_entries(
            "Laboratoire d'Informatique (LIX), École Polytechnique, CNRS, Institut Polytechnique de Paris, "
            "Palaiseau, France",
            None,
            checkout,
        )
    ] == [["Laboratoire d'Informatique (LIX)", "École Polytechnique"], ["CNRS"], ["Institut Polytechnique de Paris"]]
    assert resolve_name("IP Paris", checkout).key != resolve_name("Ecole Polytechnique", checkout).key
