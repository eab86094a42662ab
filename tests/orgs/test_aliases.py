"""The shipped alias table: every line says why it is there, and no line repeats what another gives."""

from collections import Counter
from pathlib import Path

from kg.orgs.aliases import read_alias_file
from kg.orgs.keys import institution_key

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
