"""The resolution step takes the staged sources' facts and written names from the mapping's side rows
(kg/rdf/side_rows.py): the graph it makes is quad for quad the one it makes reading them back from the
store, through paper merges, people named by one identifier and mentions moved to identified people."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ABSTRACTS, LISTING

from kg.pipeline import ingest
from kg.rdf import staging
from kg.rdf.iris import Minter
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue

HERE = Path(__file__).parent
CASES = {
    "samples: one paper from two files": [ABSTRACTS.parent],
    "JSON and BibTeX of one conference: ids, moves": [HERE / "conf2031.json", HERE / "conf2031.bib"],
}


def nquads(store: KGStore) -> list[str]:
    return sorted(str(quad) for quad in store.oxigraph.quads_for_pattern(None, None, None))


def count(store: KGStore, where: str) -> int:
    return store.scalar(sparql_prologue() + f"SELECT (COUNT(*) AS ?n) WHERE {{ {where} }}")


@pytest.mark.parametrize("case", sorted(CASES))
def test_side_rows_resolve_as_the_store_read_back(case):
    store = KGStore("memory")
    ingest(CASES[case], store, Minter())  # the run's own sources from their side rows
    from_side_rows = nquads(store)
    assert count(store, "?pair a kg:CoauthorPair") > 0 and count(store, "?paper kg:bylineLength ?n") > 0
    with resolution_suspended(store, Minter()):  # merges undone, then resolved with nothing staged:
        pass  # every fact read back from the store
    assert nquads(store) == from_side_rows


def test_the_staged_sources_are_not_read_back(monkeypatch):
    """With side rows that say nothing, nothing is counted for the staged sources: the rows, not the store,
    are what the step reads for them."""
    monkeypatch.setattr(staging, "side_lines", lambda statements: iter(()))
    store = KGStore("memory")
    ingest([LISTING], store, Minter())
    assert count(store, "?paper kg:bylineLength ?n") == 0
    assert count(store, "?person a foaf:Person ; foaf:name ?name") == 0
    with resolution_suspended(store, Minter()):
        pass
    assert count(store, "?paper kg:bylineLength ?n") > 0


def test_a_graph_the_step_rewrites_is_no_longer_as_counted():
    """A source graph's quad count, taken for its kept rows' stamp, is handed on to the description only while
    no rename or move of the step has written that graph since (a rewrite can merge two of its triples)."""
    from kg.resolve.staged_rows import StagedRows

    rows = StagedRows(quads={"g1": 10, "g2": 20, "g3": 30, "g4": 40})
    rows.rename([("g1", "old", "new")])
    rows.move([("g2", "authorship", "old", "new")])
    rows.rename([])
    rows.forget_quads(["g3"])
    assert rows.known_quads() == {"g4": 40}
