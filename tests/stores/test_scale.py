"""Ingest in worker processes and exports sorted from disk give the same bytes as one process in memory."""

from __future__ import annotations

import io

import pytest
from conftest import LISTING

from kg.exports.rdf import export
from kg.ingest.synth import write_corpus
from kg.pipeline import ingest
from kg.rdf import staging
from kg.rdf.iris import Minter
from kg.stores import ordering
from kg.stores.embedded import KGStore


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A synthetic listing of several batches, plus a real sample listing as a second source."""
    path = tmp_path_factory.mktemp("corpus") / "synthetic.txt"
    with open(path, "w", encoding="utf-8") as handle:
        write_corpus(handle, 3 * staging.BATCH + 17, seed=3)
    return [path, LISTING]


def exported(store: KGStore, format_name: str) -> bytes:
    out = io.BytesIO()
    export(store, format_name, out, Minter().base)
    return out.getvalue()


def built(paths, jobs: int) -> KGStore:
    store = KGStore("memory")
    ingest(paths, store, Minter(), jobs=jobs)
    return store


@pytest.mark.slow
def test_worker_processes_change_no_byte_of_the_exports(corpus):
    alone, shared = built(corpus, 1), built(corpus, 2)
    for format_name in ("turtle", "nquads"):
        assert exported(alone, format_name) == exported(shared, format_name)


@pytest.mark.slow
def test_every_source_graph_states_the_shared_entities_it_names(corpus):
    """Repeats are skipped within a source, never across sources: both graphs type the venue."""
    copy = corpus[0].with_name("copy.txt")
    copy.write_bytes(corpus[0].read_bytes())
    store = built([corpus[0], copy], 2)
    rows = list(
        store.select_terms(
            "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s a <http://xmlns.com/foaf/0.1/Person> } } GROUP BY ?g"
        )
    )
    assert len(rows) == 2 and rows[0][1] == rows[1][1]


def test_sorted_runs_merged_from_disk_equal_one_sort_in_memory(corpus, monkeypatch):
    store = built(corpus[1:], 1)
    whole = exported(store, "nquads")
    monkeypatch.setattr(ordering, "RUN", 97)  # dozens of runs, each with repeats across runs
    assert exported(store, "nquads") == whole
    lines = whole.decode().splitlines()
    assert len(lines) == len(set(lines))
    keys = [(line.rsplit(" ", 2)[1].strip("<>"), line.split(" ", 1)[0].strip("<>")) for line in lines]
    assert keys == sorted(keys), "graph, then subject"


def _ntriples(count: int) -> bytes:
    return "".join(
        f'<https://kg.example.org/s{i}> <https://kg.example.org/p> "value {i} é" .\n' for i in range(count)
    ).encode()


def test_a_file_loaded_in_chunks_holds_what_one_load_holds(tmp_path, monkeypatch):
    import pyoxigraph as ox

    from kg.stores import loading

    path = tmp_path / "graph.nt"
    path.write_bytes(_ntriples(2000))
    graph = ox.NamedNode("https://kg.example.org/graph")
    whole, chunked = ox.Store(), ox.Store()
    whole.bulk_load(path=str(path), format=ox.RdfFormat.N_TRIPLES, to_graph=graph)
    monkeypatch.setattr(loading, "CHUNK_BYTES", 1000)  # ~100 chunks, most cut inside a line
    loading.load_file(chunked, path, graph)
    assert len(chunked) == 2000 and set(chunked) == set(whole)


def test_a_small_file_is_loaded_in_one_transaction_and_a_larger_one_bulk_loaded(tmp_path):
    """A bulk load writes sorted files for every index whatever it is given: a few triples cost less in a
    transaction."""
    import pyoxigraph as ox

    from kg.stores import loading

    class Recording:
        def __init__(self):
            self.store, self.calls = ox.Store(), []

        def load(self, **arguments):
            self.calls.append("load")
            self.store.load(**arguments)

        def bulk_load(self, **arguments):
            self.calls.append("bulk_load")
            self.store.bulk_load(**arguments)

    graph, small, large = ox.NamedNode("https://kg.example.org/graph"), tmp_path / "small.nt", tmp_path / "large.nt"
    small.write_bytes(_ntriples(3))
    large.write_bytes(_ntriples(2000))  # above SMALL_BYTES
    for path, call in ((small, "load"), (large, "bulk_load")):
        recording = Recording()
        loading.load_file(recording, path, graph)
        whole = ox.Store()
        whole.bulk_load(path=str(path), format=ox.RdfFormat.N_TRIPLES, to_graph=graph)
        assert recording.calls == [call] and set(recording.store) == set(whole)


def test_the_loader_thread_loads_what_was_written_and_reports_bad_input(tmp_path, monkeypatch):
    import pyoxigraph as ox

    from kg.stores import loading

    monkeypatch.setattr(loading, "CHUNK_BYTES", 1000)
    store, graph = ox.Store(), ox.NamedNode("https://kg.example.org/graph")
    with open(tmp_path / "copy.nt", "wb") as copy:
        loader = loading.ChunkLoader(store)
        sink = loading.TeeSink(copy, loader, graph)
        for line in _ntriples(500).splitlines(True):
            sink.write(line)
        sink.flush()
        loader.close()
    assert len(store) == 500 and (tmp_path / "copy.nt").read_bytes() == _ntriples(500)
    broken = loading.ChunkLoader(ox.Store())
    broken.put(graph, b"<https://kg.example.org/s> not a triple\n")
    with pytest.raises(SyntaxError):
        broken.close()


def test_lines_grouped_from_disk_equal_groups_made_in_memory(tmp_path, monkeypatch):
    import random
    from itertools import groupby

    rng = random.Random(5)
    keys = ["a", "ab", "a b", "b", "é", "z\u00e9", "https://x/1", "https://x/10", "https://x/2"]
    lines = [f"{rng.choice(keys)}\t{rng.choice('xyz')}\t{rng.randint(0, 3)}\n" for _ in range(2000)]  # many repeats
    for unique in (True, False):
        expected = [
            (key, [line.split("\t", 1)[1][:-1] for line in group])
            for key, group in groupby(sorted(set(lines) if unique else lines), key=lambda line: line.split("\t")[0])
        ]
        monkeypatch.setattr(ordering, "RUN", 97)  # about twenty runs merged from disk
        assert list(ordering.grouped_lines(iter(lines), tmp_path, unique)) == expected
        monkeypatch.setattr(ordering, "RUN", 10_000)  # one run, never written
        assert list(ordering.grouped_lines(iter(lines), tmp_path, unique)) == expected
    assert [key for key, _ in expected][:3] == ["a", "a b", "ab"], "a key before the keys it is a prefix of"
    assert not list(tmp_path.iterdir()), "the runs are removed"


def derived_graph(store: KGStore) -> list[str]:
    import pyoxigraph as ox

    graphs = [ox.NamedNode(Minter().iri("graph", name)) for name in ("resolved", "index")]  # the index: pairs, keys
    return sorted(str(quad) for graph in graphs for quad in store.oxigraph.quads_for_pattern(None, None, None, graph))


@pytest.mark.slow
def test_resolution_grouped_in_many_runs_derives_what_one_run_derives(corpus, monkeypatch):
    """The resolution step's papers, people, pairs and keys go through the disk sort: runs of 97
    lines merged from disk give the same derived graph as everything sorted in memory."""
    whole = derived_graph(built(corpus, 1))
    monkeypatch.setattr(ordering, "RUN", 97)
    assert derived_graph(built(corpus, 1)) == whole
    assert any("coauthor-pair" in line for line in whole) and any("matchKeyLines" in line for line in whole)


@pytest.mark.slow
def test_shared_lines_forgotten_and_written_again_make_the_same_store(corpus, monkeypatch):
    """A process remembers the shared-entity lines it wrote for two generations of REMEMBERED lines;
    with tiny generations many are written again, and the store (a set) holds the same."""
    whole = exported(built(corpus, 1), "nquads")
    mapper = staging.BatchMapper(Minter(), {})
    monkeypatch.setattr(staging, "REMEMBERED", 50)
    assert exported(built(corpus, 1), "nquads") == whole
    assert exported(built(corpus, 2), "nquads") == whole
    numbers = [f"{i}\n" for i in range(110)]
    lines = ["a\n", "b\n", *numbers[:60], "a\n", *numbers[60:], "a\n", "b\n"]
    kept = [line for line in lines if mapper._first_time(line)]
    assert kept.count("a\n") == 1, "met again in the last generation: kept into this one"
    assert kept.count("b\n") == 2, "not met for two generations: written again"
    assert len(kept) == 2 + 110 + 1
