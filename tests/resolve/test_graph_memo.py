"""The index graph changed by its difference from the remembered one (kg/resolve/graph_memo.py): the file is used
only while its stamp is the graph's quad count; else the graph is compared whole. (After ingests, a removal and a
changed source, quad for quad the graph made afresh: tests/resolve/test_person_labels.py.)"""

from __future__ import annotations

import pytest
from conftest import ABSTRACTS, LISTING, counted_calls

from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.resolve import graph_memo, ranked_memo
from kg.resolve.graph_memo import FORMAT, graph_count, remembered_graph
from kg.resolve.ranked_memo import remembered_rankings
from kg.resolve.store_step import index_graph, resolution_suspended
from kg.stores.embedded import KGStore

pytestmark = pytest.mark.slow  # on-disk stores


def held(store: KGStore) -> list[str]:
    return sorted(str(quad) for quad in store.oxigraph.quads_for_pattern(None, None, None, index_graph(Minter())))


def test_the_remembered_lines_are_the_graph_and_its_stamp(store):
    ingest([LISTING], store, Minter())
    path = remembered_graph(store, "index")
    assert path.name == f"graph-index.v{FORMAT}.memo"
    stamp, *lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert stamp == f"{FORMAT}\t{graph_count(store, index_graph(Minter())):0>20}\n"
    assert lines == sorted(set(lines)) and len(lines) == len(held(store))


def test_a_graph_changed_by_hand_is_compared_whole(store, monkeypatch):
    ingest([LISTING], store, Minter())
    made = held(store)
    store.oxigraph.remove(next(store.oxigraph.quads_for_pattern(None, None, None, index_graph(Minter()))))
    calls = counted_calls(monkeypatch, graph_memo, "_apply_difference")
    with resolution_suspended(store, Minter()):
        pass
    assert calls == [0] and held(store) == made
    ingest([ABSTRACTS], store, Minter())  # remembered again, and used
    assert calls == [1]


def test_a_store_in_memory_remembers_nothing(monkeypatch):
    """Neither the index graph nor the ranked lists (kg/resolve/ranked_memo.py)."""
    store = KGStore("memory")
    calls = [
        counted_calls(monkeypatch, graph_memo, "_apply_difference"),
        counted_calls(monkeypatch, ranked_memo, "_changed"),
    ]
    ingest([LISTING], store, Minter())
    ingest([ABSTRACTS], store, Minter())
    assert calls == [[0], [0]] and held(store)
    assert remembered_graph(store, "index") is None and remembered_rankings(store) is None
