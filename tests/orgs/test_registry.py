"""The registry match on the shipped table: one parametrised test over registry_cases.tsv, and the
table's build, keys and notices."""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.orgs.build_registry import build
from kg.orgs.name_keys import DATA_DIR, name_key
from kg.orgs.patches import read_supplement
from kg.orgs.registry_table import NOTICE_NAME, TABLE_NAME, load_registry, read_table

CASES = Path(__file__).with_name("registry_cases.tsv")


def _cases() -> list:
    rows = [
        line.split("\t")
        for line in CASES.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return [
        pytest.param(name, context, domain or None, expected, id=f"{name}|{domain or context}|{why}")
        for name, context, domain, expected, why in rows
    ]


@pytest.mark.parametrize("name, context, domain, expected", _cases())
def test_match(name: str, context: str, domain: str | None, expected: str) -> None:
    match = load_registry().match(name, context or name, domain)
    assert (match.record.id if match and match.record.id else "-") == expected


def test_shipped_keys_are_the_current_keys() -> None:
    """A change of name_key needs a rebuild of the table (python -m kg.orgs.build_registry)."""
    registry = load_registry()
    for record in registry.records[::97]:
        assert all(key == name_key(key) for key in record.keys), record


def test_notice_names_the_licences_and_versions() -> None:
    notice = (DATA_DIR / NOTICE_NAME).read_text(encoding="utf-8")
    assert "Contains ROR data (CC0); locations from GeoNames (CC BY)." in notice
    assert "MIT License" in notice and "Copyright (c) 2014-2025 Hipo" in notice
    assert load_registry().version.startswith("ROR ")


_RECORD = {
    "id": "https://ror.org/0abcde123",
    "status": "active",
    "types": ["company"],
    "domains": [],
    "names": [
        {"value": "Zorblax (Germany)", "types": ["ror_display", "label"], "lang": "en"},
        {"value": "ZBX", "types": ["acronym"], "lang": None},
    ],
    "links": [{"type": "website", "value": "https://www.zorblax.de/"}],
    "locations": [{"geonames_details": {"country_code": "DE", "country_name": "Germany", "name": "Bonn"}}],
    "relationships": [],
    "admin": {"last_modified": {"date": "2026-01-02"}},
}
_WITHDRAWN = {**_RECORD, "id": "https://ror.org/0zzzzzz99", "status": "withdrawn"}
_UNIVERSITIES = [{"name": "Universität Zorblax", "domains": ["uni-zorblax.de"], "alpha_two_code": "DE"}]


@pytest.mark.parametrize("form", ["jsonl.gz", "zip"])
def test_build_from_either_dump(tmp_path: Path, form: str) -> None:
    if form == "zip":  # ROR's own dump: a zip with the v2 JSON array inside
        ror = tmp_path / "v2.1-2026-01-02-ror-data.zip"
        with zipfile.ZipFile(ror, "w") as archive:
            archive.writestr("v2.1-2026-01-02-ror-data_schema_v2.json", json.dumps([_RECORD, _WITHDRAWN]))
    else:
        ror = tmp_path / "ror.jsonl.gz"
        ror.write_bytes(gzip.compress("\n".join(map(json.dumps, [_RECORD, _WITHDRAWN])).encode()))
    universities = tmp_path / "universities.json"
    universities.write_text(json.dumps(_UNIVERSITIES), encoding="utf-8")
    rows, added = build(ror, universities, tmp_path / "out")
    assert (rows, added) == (2, 1)  # the withdrawn record is left out
    registry = read_table(tmp_path / "out" / TABLE_NAME)
    company = registry.by_id["0abcde123"]
    assert (company.country, company.city, company.domains) == ("DE", "Bonn", ("zorblax.de",))
    assert registry.match("Zorblax", "Zorblax, Bonn", None).record is company  # a branch name with support
    assert registry.match("ZBX", "ZBX", "zorblax.de").record is company
    university = registry.match("Universität Zorblax").record
    assert (university.id, university.country) == ("", "DE")
    first = (tmp_path / "out" / TABLE_NAME).read_bytes()
    build(ror, universities, tmp_path / "out")
    assert (tmp_path / "out" / TABLE_NAME).read_bytes() == first  # deterministic


def test_a_supplement_row_gives_a_country_and_no_ror_id() -> None:
    match = load_registry().match("J.P. Morgan Chase", "J.P. Morgan Chase", "jpmchase.com")
    assert match is not None and (match.record.id, match.record.country) == ("", "US")


def test_a_supplement_row_whose_name_the_table_has_is_not_read(tmp_path: Path) -> None:
    supplement = tmp_path / "supplement.tsv"
    supplement.write_text(
        "Stanford University\t\tGB\teducation\tstanford.edu\ta wrong row, left out\n"
        "Zorblax Robotics\tZorblax\tDE\tcompany\tzorblax.com\ta row the table lacks\n",
        encoding="utf-8",
    )
    registry = read_table(DATA_DIR / TABLE_NAME, supplement=read_supplement(supplement))
    assert {record.country for record in registry.exact(name_key("Stanford University"))} == {"US"}
    assert [record.country for record in registry.exact(name_key("Zorblax"))] == ["DE"]


def test_a_bad_supplement_row_names_its_file_and_line(tmp_path: Path) -> None:
    supplement = tmp_path / "supplement.tsv"
    supplement.write_text("# header\nZorblax\t\tGermany\tcompany\tzorblax.com\twhy\n", encoding="utf-8")
    with pytest.raises(InputError, match="supplement.tsv.*2"):
        read_supplement(supplement)
