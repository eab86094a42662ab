"""kg.orgs.registry_table: the registry the cache folder gives is the one read from the tables, and
an edited table is read afresh."""

from __future__ import annotations

import gzip

import pytest

from kg.cache import cache_dir, use_folder
from kg.orgs import registry_table
from kg.orgs.name_keys import DATA_DIR
from kg.orgs.registry_table import TABLE_NAME, load_registry


@pytest.fixture
def cache(tmp_path):
    before = cache_dir()
    use_folder(tmp_path / "cache")
    yield tmp_path / "cache"
    use_folder(before)


@pytest.mark.slow  # the registry read, stored and loaded: about five CPU seconds
def test_the_cached_registry_is_the_one_read_from_the_tables(cache, monkeypatch):
    table = DATA_DIR / TABLE_NAME
    fresh = registry_table._load_registry.__wrapped__(
        table, None
    )  # read from the tables, and stored in the cache folder
    assert len(list(cache.glob("registry-*.pickle"))) == 1

    def unread(table):
        raise AssertionError(f"{table} read again")

    monkeypatch.setattr(registry_table, "_read_shipped", unread)
    loaded = registry_table._load_registry.__wrapped__(table, None)
    assert loaded is not fresh and len(loaded.records) > 50_000
    assert vars(loaded) == vars(fresh)
    assert loaded.match("MIT", "CSAIL, MIT, Cambridge, MA, USA").record.name == "Massachusetts Institute of Technology"


def test_an_edited_table_is_read_afresh(cache, tmp_path):
    """Edited within the process: kept in memory by the file's path, modification time and size, and in
    the cache folder by a hash of its bytes, the table is read again from both."""
    table = tmp_path / TABLE_NAME
    columns = "\t".join(registry_table.TABLE_COLUMNS)
    for name in ("Zorblax University", "Quillon Institute of Technology"):
        with gzip.open(table, "wt", encoding="utf-8") as file:
            file.write(f"# a test table\n{columns}\n")
            file.write(f"0zzzzzz00\t{name}\tCN\tBeijing\teducation\t\t\tactive\t{name.lower()}\t\t\n")
        assert load_registry(table).by_id["0zzzzzz00"].name == name
        assert load_registry(table) is load_registry(table)
    assert len(list(cache.glob("registry-*.pickle"))) == 2
