"""The dataset description's counts (kg/exports/description.py) take the source graphs' quad counts the
resolution step already has (the kept rows' stamps) instead of counting those graphs again; after every
change of sources they equal a fresh count of the store, and the union's distinct triples as plainly
as SPARQL says them. A store that keeps no rows (in memory) counts every graph."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ABSTRACTS, LISTING

from kg.ingest.synth import write_corpus
from kg.pipeline import finishing, ingest
from kg.query.stats import graph_stats, stored_stats
from kg.rdf.iris import Minter
from kg.rdf.mapping import source_iri
from kg.rdf.topic_triples import detail_graph
from kg.resolve import kept_rows
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import EmbeddedStore, KGStore

HERE = Path(__file__).parent
pytestmark = pytest.mark.slow  # on-disk stores, four changes each


def synthetic(folder: Path) -> list[Path]:
    paths = []
    for papers, seed in ((120, 3), (40, 7)):
        paths.append(folder / f"synth-{papers}-{seed}.txt")
        with open(paths[-1], "w", encoding="utf-8", newline="") as out:
            write_corpus(out, papers, seed=seed)
    return paths


CASES = {
    "samples: one paper from two files": lambda folder: [ABSTRACTS, LISTING],
    "JSON and BibTeX of one conference: ids, moves": lambda folder: [
        HERE.parent / "resolve" / "conf2031.json",
        HERE.parent / "resolve" / "conf2031.bib",
    ],
    "two synthetic listings": synthetic,
}


def plain_triples(store: KGStore) -> int:
    """The union's distinct triples as plainly as SPARQL says them: every graph but those set aside, the
    description included, each triple once."""
    left_out = ", ".join(str(graph) for graph in store.graphs_aside())
    return store.scalar(
        f"SELECT (COUNT(*) AS ?n) WHERE {{ SELECT DISTINCT ?s ?p ?o WHERE {{ GRAPH ?g {{ ?s ?p ?o }} "
        f"FILTER(?g NOT IN ({left_out})) }} }}"
    )


def remove(store: KGStore, path: Path) -> None:
    """``kg remove`` of one source, as the command does it."""
    graph = source_iri(path.name, Minter())
    assert graph.value in store.sources()
    with resolution_suspended(store, Minter(), finish=finishing(store, Minter())):
        store.remove_graph(graph)
        store.remove_graph(detail_graph(graph))


def described_as_counted(store: KGStore) -> None:
    """The counts the description holds are a fresh count's, the triples the plain count's; the description
    itself states how many triples the whole graph holds with it."""
    counted = graph_stats(store)
    assert stored_stats(store) == counted
    assert counted["triples"] == plain_triples(store) > 0


@pytest.fixture
def taken(monkeypatch) -> list[dict[str, int]]:
    """The quad counts each description took instead of counting those graphs."""
    noted: list[dict[str, int]] = []
    counting = EmbeddedStore.graph_sizes

    def noting(self, left_out, known):
        noted.append(dict(known))
        return counting(self, left_out, known)

    monkeypatch.setattr(EmbeddedStore, "graph_sizes", noting)
    return noted


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_description_counts_what_a_fresh_count_does(case, tmp_path, taken):
    first, second = CASES[case](tmp_path)
    store = KGStore(str(tmp_path / "store"))
    try:
        for change in (
            lambda: ingest([first], store, Minter()),
            lambda: ingest([second], store, Minter()),
            lambda: remove(store, first),
            lambda: ingest([first], store, Minter()),
        ):
            taken.clear()
            change()
            described_as_counted(store)
            assert taken[0], "no source graph's count was taken: the test would not tell"
    finally:
        store.close()


def test_a_store_in_memory_counts_every_graph(taken):
    store = KGStore("memory")
    ingest([ABSTRACTS, LISTING], store, Minter())
    assert taken == [{}]
    described_as_counted(store)


@pytest.mark.parametrize("case", sorted(CASES))
def test_counts_kept_beside_the_stamps_across_commands_are_a_fresh_count_s(case, tmp_path, taken, monkeypatch):
    """Each change a command of its own, the store closed and opened again: a source graph nothing else wrote
    is not counted again (kg/resolve/kept_rows.py), its count kept beside its stamp goes to the description,
    which still holds what a fresh count does."""
    first, second = CASES[case](tmp_path)
    counted, not_counted, count_quads = [], set(), kept_rows.quad_count
    monkeypatch.setattr(
        kept_rows, "quad_count", lambda store, graph: counted.append(graph) or count_quads(store, graph)
    )
    changes = (
        lambda store: ingest([first], store, Minter()),
        lambda store: ingest([second], store, Minter()),
        lambda store: ingest([second], store, Minter()),
        lambda store: remove(store, first),
        lambda store: ingest([first], store, Minter()),
    )
    for change in changes:
        store = KGStore(str(tmp_path / "store"))
        try:
            taken.clear(), counted.clear()
            change(store)
            described_as_counted(store)
            assert taken[0], "no source graph's count was taken: the test would not tell"
            not_counted.update(set(taken[0]) - set(counted))
        finally:
            store.close()
    assert not_counted  # some count was the one kept beside a stamp
