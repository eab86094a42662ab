"""Writing the precomputed lists (kg/query/precompute.py): a kept database of list rows damaged where opening it
does not look is left unused and the lists are made whole, the same as before the damage."""

from __future__ import annotations

from conftest import counted_calls

from kg import SAMPLES_DIR
from kg.pipeline import finishing, ingest
from kg.query import precompute
from kg.query.precompute import rankings_graph
from kg.rdf.iris import Minter
from kg.resolve.kept_rows import side_folder
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore

PAGE = 4096  # SQLite's default page size: the first two pages (the schema, the table of what it was made for) kept


def _rankings(store) -> list[str]:
    graph = rankings_graph(Minter())
    return sorted(str(quad) for quad in store.oxigraph.quads_for_pattern(None, None, None, graph))


def test_a_kept_database_damaged_past_its_first_pages_costs_the_lists_made_whole(tmp_path, monkeypatch):
    store, minter = KGStore(str(tmp_path / "store")), Minter()
    try:
        ingest([SAMPLES_DIR], store, minter)
        before = _rankings(store)
        databases = sorted(side_folder(store).glob("list-rows.*.memo"))
        assert len(databases) == 1 and databases[0].stat().st_size > 4 * PAGE
        with open(databases[0], "r+b") as damaged:
            damaged.seek(2 * PAGE)
            damaged.write(b"\xde\xad\xbe\xef" * (databases[0].stat().st_size // 4))
        forgotten = counted_calls(monkeypatch, precompute, "forget_kept_databases")
        with resolution_suspended(store, minter, finish=finishing(store, minter)):
            pass
        assert forgotten == [1]  # the first attempt met the damage
        assert _rankings(store) == before
        with resolution_suspended(store, minter, finish=finishing(store, minter)):
            pass  # the next run makes the database again
        assert forgotten == [1] and _rankings(store) == before
        assert sorted(side_folder(store).glob("list-rows.*.memo-stamp"))
    finally:
        store.close()
