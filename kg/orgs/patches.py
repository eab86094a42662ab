"""Reviewed corrections of the registry's names (``data/registry-patches.tsv``), applied as the table is
read, so a patch needs no rebuild; and reviewed additions (``data/registry-supplement.tsv``):
organisations the table's source lacks, which give a country only (they have no ROR id)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..errors import InputError
from .name_keys import name_key
from .records import Record

ACTIONS = ("drop-name", "add-name", "drop-acronym", "add-acronym")


def read_patches(path: Path) -> dict[str, list[tuple[str, str]]]:
    """``ror id<TAB>action<TAB>name<TAB>reason`` lines -> {id: [(action, key)]}; actions
    drop-name, add-name, drop-acronym, add-acronym; the names as :func:`.name_keys.name_key`'s keys.

    >>> from kg.orgs.name_keys import DATA_DIR
    >>> read_patches(DATA_DIR / "registry-patches.tsv")["00cfam450"]  # Helmholtz Munich's current name
    [('add-name', 'helmholtz munich')]
    """
    patches: dict[str, list[tuple[str, str]]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or fields[1] not in ACTIONS or not fields[3]:
            raise InputError(
                path, "expected 'ror id<TAB>drop-name|add-name|drop-acronym|add-acronym<TAB>name<TAB>why'", number
            )
        patches.setdefault(fields[0], []).append((fields[1], name_key(fields[2])))
    return patches


def patched(record: Record, patches: list[tuple[str, str]]) -> Record:
    """The record with its names dropped and added as the patches say (a dropped name also as a branch name).

    >>> from kg.orgs.registry_table import load_registry
    >>> mit = patched(load_registry().by_id["042nb2s44"], [("drop-acronym", "mit"), ("add-name", "mit csail")])
    >>> mit.acronyms, mit.keys[-1]
    ((), 'mit csail')
    """
    keys, branches, acronyms = list(record.keys), list(record.branch_keys), list(record.acronyms)
    for action, key in patches:
        target = acronyms if action.endswith("acronym") else keys
        if action.startswith("drop"):
            target[:] = [existing for existing in target if existing != key]
            branches = [existing for existing in branches if existing != key]
        elif key not in target:
            target.append(key)
    return replace(record, keys=tuple(keys), branch_keys=tuple(branches), acronyms=tuple(acronyms))


SUPPLEMENT_COLUMNS = 6  # name, other names, country, types, domains, why


def read_supplement(path: Path) -> list[Record]:
    """``name<TAB>other names (|)<TAB>country<TAB>types (,)<TAB>domains (,)<TAB>why`` lines -> records
    with no ROR id: organisations the registry's source lacks, each with where its country is stated.

    >>> from kg.orgs.name_keys import DATA_DIR
    >>> jpmorgan = next(r for r in read_supplement(DATA_DIR / "registry-supplement.tsv") if r.name == "JPMorgan Chase")
    >>> jpmorgan.id, jpmorgan.country, jpmorgan.keys
    ('', 'US', ('jpmorgan chase', 'jp morgan chase', 'jp morgan'))
    """
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != SUPPLEMENT_COLUMNS or not fields[0] or len(fields[2]) != 2 or not fields[5]:
            raise InputError(path, "expected 'name<TAB>other names<TAB>country<TAB>types<TAB>domains<TAB>why'", number)
        name, others, country, types, domains, _why = fields
        names = [name, *filter(None, others.split("|"))]
        keys = tuple(dict.fromkeys(name_key(written) for written in names))
        split = [tuple(filter(None, value.split(","))) for value in (types, domains)]
        records.append(Record("", name, country, "", split[0], (), split[1], True, keys, (), ()))
    return records
