"""The ranked lists written only where they changed (kg/resolve/ranked_memo.py): a remembered file is used only
while its stamp is the graph's quad count; else the graph is compared whole, and the lists are what a run that
remembers nothing writes. (After ingests, a removal and a changed source: tests/resolve/test_person_labels.py; a
store in memory: tests/resolve/test_graph_memo.py.)"""

from __future__ import annotations

import pytest
from conftest import ABSTRACTS, LISTING, counted_calls

from kg.pipeline import finishing, ingest
from kg.query.precompute import rankings_graph
from kg.rdf.iris import Minter
from kg.rdf.mapping import source_iri
from kg.resolve import ranked_memo
from kg.resolve.ranked_memo import FORMAT, remembered_rankings
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.vocab import KG

pytestmark = pytest.mark.slow  # on-disk stores


def rankings(store: KGStore) -> list[str]:
    graph = rankings_graph(Minter())
    return sorted(str(quad) for quad in store.oxigraph.quads_for_pattern(None, None, None, graph))


def resolve(store: KGStore) -> None:
    with resolution_suspended(store, Minter(), finish=finishing(store, Minter())):
        pass


def test_a_graph_changed_by_hand_is_compared_whole(store, monkeypatch):
    ingest([LISTING], store, Minter())
    made = rankings(store)
    row = next(store.oxigraph.quads_for_pattern(None, KG.rankIn, None, rankings_graph(Minter())))
    store.oxigraph.remove(row)  # one quad fewer: not the stamp
    calls = counted_calls(monkeypatch, ranked_memo, "_changed")
    resolve(store)
    assert calls == [0] and rankings(store) == made
    resolve(store)  # remembered again, and used
    assert calls == [1] and rankings(store) == made


@pytest.mark.parametrize("damage", ["header", "format"])
def test_a_damaged_or_other_file_is_not_read(store, monkeypatch, damage):
    ingest([LISTING], store, Minter())
    path = remembered_rankings(store)
    assert path.name == f"rankings.v{FORMAT}.memo"
    text = path.read_text(encoding="utf-8")
    path.write_text("not a stamp\n" + text.split("\n", 1)[1] if damage == "header" else "0" + text[1:])
    calls = counted_calls(monkeypatch, ranked_memo, "_changed")
    ingest([ABSTRACTS], store, Minter())
    assert calls == [0]
    after = rankings(store)
    path.unlink()
    resolve(store)
    assert rankings(store) == after


def _stamp(store: KGStore) -> int:
    return int(remembered_rankings(store).read_text(encoding="utf-8").split("\n", 1)[0].split("\t")[1])


def test_the_stamp_is_counted_as_the_lists_are_written(store, monkeypatch):
    """Where a run writes only what changed (a source more, then one removed), the new stamp is the graph's quad
    count, made from the last one and what the run took out and put in: the graph is counted once, to check it."""
    ingest([LISTING], store, Minter())
    changed, counted = (counted_calls(monkeypatch, ranked_memo, name) for name in ("_changed", "_count"))
    ingest([ABSTRACTS], store, Minter())
    with resolution_suspended(store, Minter(), finish=finishing(store, Minter())):
        store.remove_graph(source_iri(LISTING.name, Minter()))
    assert changed == [2] and counted == [2]
    assert _stamp(store) == len(rankings(store))
    resolve(store)  # the stamp holds: the lists compared with the remembered ones again
    assert changed == [3] and counted == [3]
