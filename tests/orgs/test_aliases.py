"""The shipped alias table: every line says why it is there, and no line repeats what another gives."""

from collections import Counter
from pathlib import Path

from kg.orgs.aliases import AliasTable, active_aliases, read_alias_file
from kg.orgs.keys import institution_key
from kg.orgs.registry import load_registry, name_key

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
