"""A graph only ``set_graph_triples`` writes (the index graph) keeps its last lines beside an on-disk store
(kg/stores/kept_graphs.py): the next write takes them as what the graph holds while its quad count is the
stamp's, and dumps the graph otherwise; either way the graph holds exactly the triples written."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox

from kg.stores import kept_graphs
from kg.stores.embedded import KGStore

GRAPH = ox.NamedNode("http://ex/graph/index")


def triples(*numbers: int) -> list[ox.Triple]:
    return [ox.Triple(ox.NamedNode(f"http://ex/{n}"), ox.NamedNode("http://ex/p"), ox.Literal(str(n))) for n in numbers]


def held(store: KGStore) -> set[ox.Triple]:
    return {quad.triple for quad in store.oxigraph.quads_for_pattern(None, None, None, GRAPH)}


def kept_lines(store: KGStore) -> Path:
    (lines,) = (Path(store.spec) / kept_graphs.FOLDER).glob("*.nt")
    return lines


def test_each_write_leaves_the_graph_as_written(tmp_path):
    store = KGStore(str(tmp_path / "store"))
    try:
        for numbers in ((1, 2, 3), (2, 3, 4, 5), (5,), (), (6, 7, 6)):
            store.set_graph_triples(GRAPH, triples(*numbers), kept=True)
            assert held(store) == set(triples(*numbers))
            assert kept_lines(store).with_suffix(".stamp").read_text(encoding="utf-8") == str(len(set(numbers)))
    finally:
        store.close()


def test_the_kept_lines_are_what_is_taken_while_the_count_holds(tmp_path):
    """Lines that leave out a triple the graph holds, with the count intact: the next write does not see that
    triple (so the lines are read, not the graph); with another count the graph is dumped and the write exact."""
    store = KGStore(str(tmp_path / "store"))
    try:
        store.set_graph_triples(GRAPH, triples(1, 2), kept=True)
        lines = kept_lines(store)
        lines.write_text(ox.serialize(triples(2, 9), format=ox.RdfFormat.N_TRIPLES).decode(), encoding="utf-8")
        store.set_graph_triples(GRAPH, triples(2, 3), kept=True)
        assert held(store) == set(triples(1, 2, 3))  # 1 was not in the lines taken for the graph
        store.oxigraph.add(ox.Quad(*triples(8)[0], GRAPH))  # a write of another kind: another count
        store.set_graph_triples(GRAPH, triples(4), kept=True)
        assert held(store) == set(triples(4))
    finally:
        store.close()


def test_a_store_in_memory_keeps_nothing():
    store = KGStore("memory")
    store.set_graph_triples(GRAPH, triples(1, 2), kept=True)
    store.set_graph_triples(GRAPH, triples(2, 3), kept=True)
    assert held(store) == set(triples(2, 3))
