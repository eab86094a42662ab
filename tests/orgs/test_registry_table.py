"""kg.orgs.registry_table: the registry the cache folder gives is the one read from the tables, and
an edited table is read afresh."""

from __future__ import annotations

import gzip

import pytest

from kg.orgs import registry_table
from kg.orgs.name_keys import DATA_DIR
from kg.orgs.registry_table import TABLE_NAME, load_registry


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.slow  # the registry read, stored and loaded: about five CPU seconds
def test_the_cached_registry_is_the_one_read_from_the_tables(cache, monkeypatch):
    table = DATA_DIR / TABLE_NAME
    fresh = load_registry.__wrapped__(table)  # read from the tables, and stored in the cache folder
    assert len(list(cache.glob("registry-*.pickle"))) == 1

    def unread(table):
        raise AssertionError(f"{table} read again")

    monkeypatch.setattr(registry_table, "_read_shipped", unread)
    loaded = load_registry.__wrapped__(table)
    assert loaded is not fresh and len(loaded.records) > 50_000
    assert vars(loaded) == vars(fresh)
    assert loaded.match("MIT", "CSAIL, MIT, Cambridge, MA, USA").record.name == "Massachusetts Institute of Technology"


def test_an_edited_table_is_read_afresh(cache, tmp_path):
    table = tmp_path / TABLE_NAME
    columns = "\t".join(registry_table.TABLE_COLUMNS)
    for name in ("Zorblax University", "Quillon University"):
        with gzip.open(table, "wt", encoding="utf-8") as file:
            file.write(f"# a test table\n{columns}\n")
            file.write(f"0zzzzzz00\t{name}\tCN\tBeijing\teducation\t\t\tactive\t{name.lower()}\t\t\n")
        assert load_registry.__wrapped__(table).by_id["0zzzzzz00"].name == name
    assert len(list(cache.glob("registry-*.pickle"))) == 2
