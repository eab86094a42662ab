"""Incremental ingest: add, replace and remove sources; atomic per source, even when killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pyoxigraph as ox
import pytest
from conftest import ABSTRACTS, KG_BIN, LISTING, kg_here


def dump(store, cwd) -> bytes:
    return kg_here("export", "--format", "nquads", "--store", str(store), cwd=cwd).stdout


def dump_of_build(cwd, name, *paths) -> bytes:
    """The N-Quads of a fresh build of exactly these listings: what an incremental store must equal."""
    kg_here("build", *map(str, paths), "--store", str(cwd / name), "--out", str(cwd / f"{name}-exports"), cwd=cwd)
    return dump(cwd / name, cwd)


@pytest.mark.slow
def test_ingest_adds_sources_and_remove_drops_one(tmp_path):
    store = tmp_path / "store"
    kg_here("ingest", str(LISTING), "--store", str(store), cwd=tmp_path)
    added = kg_here("ingest", str(ABSTRACTS), "--store", str(store), cwd=tmp_path).stdout.decode()
    assert "Graph: 43 papers" in added  # MLUBench from both listings is one paper
    assert dump(store, tmp_path) == dump_of_build(tmp_path, "both", LISTING, ABSTRACTS)
    trig = kg_here("export", "--format", "trig", "--store", str(store), cwd=tmp_path).stdout
    graphs = {
        quad.graph_name.value
        for quad in ox.parse(trig, format=ox.RdfFormat.TRIG)
        if isinstance(quad.graph_name, ox.NamedNode)
    }
    sources = {graph.rsplit("/", 1)[-1] for graph in graphs if "/source/" in graph}
    assert sources == {"000-d46489bfe8e71c68-txt", "001-0af6457a65591eab-txt"}  # one named graph per source
    assert b"Removed" in kg_here("remove", ABSTRACTS.name, "--store", str(store), cwd=tmp_path).stdout
    stats = json.loads(kg_here("stats", "--format", "json", "--store", str(store), cwd=tmp_path).stdout)
    assert (stats["sources"], stats["papers"]) == (1, 30)
    assert dump(store, tmp_path) == dump_of_build(tmp_path, "listing", LISTING)  # nothing of the removed source is left
    missing = kg_here("remove", "nope.txt", "--store", str(store), cwd=tmp_path, check=False)
    assert missing.returncode == 1 and b"no source 'nope.txt'" in missing.stderr


@pytest.mark.slow
def test_a_file_that_fails_half_way_leaves_its_source_as_it_was(tmp_path):
    store = tmp_path / "store"
    kg_here("build", "--store", str(store), cwd=tmp_path)
    before = dump(store, tmp_path)
    broken = tmp_path / LISTING.name  # same source name: would replace the listing's graph
    broken.write_bytes(LISTING.read_bytes().replace(b"Comments EIML@ICML", b"Comments EIML\x00ICML"))
    result = kg_here("ingest", str(broken), "--store", str(store), cwd=tmp_path, check=False)
    assert result.returncode == 2 and b"NUL" in result.stderr
    assert dump(store, tmp_path) == before


@pytest.mark.slow
def test_killed_ingest_leaves_the_store_as_before_and_rerun_finishes(tmp_path):
    store = tmp_path / "store"
    big = tmp_path / "big.txt"
    kg_here("synth", "--papers", "6000", "--seed", "3", "--out", str(big), cwd=tmp_path)
    kg_here("build", "--store", str(store), cwd=tmp_path)
    before = dump(store, tmp_path)
    process = subprocess.Popen(
        [str(KG_BIN), "ingest", str(big), "--store", str(store)],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    staged = store / "kg-journal"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(p.stat().st_size > 200_000 for p in staged.rglob("*.nt")):
        time.sleep(0.02)
    assert process.poll() is None, "ingest finished before it could be interrupted"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert dump(store, tmp_path) == before
    finished = kg_here("ingest", str(big), "--store", str(store), cwd=tmp_path).stdout.decode()
    assert "6,000 ingested" in finished and "6,043 papers" in finished  # 43 sample papers + 6,000 synthetic


@pytest.mark.slow
def test_death_while_applying_a_committed_source_is_finished_on_next_open(tmp_path):
    """The process dies after the commit point, half-way through the bulk load of a replaced
    source (a new source is loaded before the commit: the test below)."""
    store = tmp_path / "store"
    kg_here("build", "--store", str(store), ABSTRACTS, LISTING, cwd=tmp_path)
    script = textwrap.dedent(f"""
        import os, pyoxigraph as ox
        from kg.stores.embedded import EmbeddedStore
        apply = EmbeddedStore._apply
        def half_then_die(self, entry):
            sources = [f for f in sorted(entry.glob("*.graph")) if "/source/" in f.read_text()]
            if not sources:  # the ontology and topic scheme load as usual
                return apply(self, entry)
            graph = ox.NamedNode(sources[0].read_text())
            lines = sources[0].with_suffix(".nt").read_text().splitlines(True)
            self.oxigraph.bulk_load(
                input="".join(lines[: len(lines) // 2]), format=ox.RdfFormat.N_TRIPLES, to_graph=graph
            )
            self.oxigraph.flush()
            os._exit(9)
        EmbeddedStore._apply = half_then_die
        from kg.cli import main
        import sys; sys.argv = ["kg", "ingest", {str(LISTING)!r}, "--store", {str(store)!r}]
        main()
    """)
    died = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True)
    assert died.returncode == 9, died.stderr
    assert list((store / "kg-journal").glob("*.commit"))
    assert dump(store, tmp_path) == dump_of_build(tmp_path, "fresh", ABSTRACTS, LISTING)  # finished, not half
    assert not list((store / "kg-journal").iterdir())


@pytest.mark.slow
def test_death_after_a_new_source_was_loaded_but_not_committed_leaves_the_store_as_before(tmp_path):
    """A new source's graph is bulk-loaded while it is staged, in small chunks here; the process
    dies with all of it loaded but before the commit: the next command drops it again."""
    store = tmp_path / "store"
    kg_here("build", "--store", str(store), ABSTRACTS, cwd=tmp_path)
    before = dump(store, tmp_path)
    script = textwrap.dedent(f"""
        import os
        import kg.pipeline, kg.stores.loading
        kg.stores.loading.CHUNK_BYTES = 4096  # many chunks, all loaded by the time of the commit
        def die(*_):
            assert list(os.scandir({str(store / "kg-journal")!r})), "the loaded graph is named in the journal"
            os._exit(9)
        kg.pipeline.load_vocabularies = die  # the first store write after staging
        from kg.cli import main
        import sys; sys.argv = ["kg", "ingest", {str(LISTING)!r}, "--store", {str(store)!r}]
        main()
    """)
    died = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True)
    assert died.returncode == 9, died.stderr
    assert list((store / "kg-journal").glob("*.loading"))
    assert dump(store, tmp_path) == before
    assert not list((store / "kg-journal").iterdir())
    finished = kg_here("ingest", str(LISTING), "--store", str(store), cwd=tmp_path)
    assert dump(store, tmp_path) == dump_of_build(tmp_path, "fresh", ABSTRACTS, LISTING), finished.stderr


def test_the_exports_may_start_when_the_description_is_written_before_the_ranked_lists():
    """``on_described`` hears when the graph is as the ingest leaves it but for the resolution's mark:
    its description counts what the store holds at the end, the ranked lists (set aside) are still to come."""
    from kg import SAMPLES_DIR
    from kg.pipeline import SUSPENDED_MARK, ingest
    from kg.query.precompute import rankings_graph
    from kg.query.stats import graph_stats, stored_stats
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore
    from kg.vocab import KG

    store = KGStore("memory")
    marks = f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH ?g {{ ?g {KG.resolutionSuspended} true }} }}"
    lists = f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {rankings_graph(Minter())} {{ ?s ?p ?o }} }}"
    seen = []

    def described() -> None:
        seen.append((stored_stats(store), store.scalar(marks), store.scalar(lists)))
        assert "DELETE" in SUSPENDED_MARK

    ingest([SAMPLES_DIR], store, Minter(), on_described=described)
    assert seen == [(graph_stats(store), 1, 0)]
    assert store.scalar(marks) == 0 and store.scalar(lists) > 0


def test_a_change_that_loads_a_large_share_of_the_store_compacts_it_before_the_exports_read_it(tmp_path):
    """The first source compacts the store (before ``on_described``, where kg build's exports start, and again
    after the ranked lists, the command's last write, for the readers after it), a source
    of a few papers into a larger store does not, and the graph is the same as a store never compacted."""
    from kg.ingest.synth import write_corpus
    from kg.pipeline import ingest
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore

    listings = []
    for name, papers, seed in (("large.txt", 60, 1), ("small.txt", 4, 2)):
        with open(tmp_path / name, "w", encoding="utf-8") as out:
            write_corpus(out, papers, seed)
        listings.append(tmp_path / name)
    heard: list[list[str]] = []
    store = KGStore(str(tmp_path / "store"))
    try:
        for listing in listings:
            heard.append([])
            ingest(
                [listing],
                store,
                Minter(),
                jobs=1,
                on_stage=heard[-1].append,
                on_described=lambda: heard[-1].append("described"),
            )
        compacted = store.oxigraph.dump(format=ox.RdfFormat.N_QUADS)
    finally:
        store.close()
    first, second = heard
    assert [stage for stage in first if stage.startswith("compacting")] == [
        "compacting the store (a large share of it newly loaded)",
        "compacting the store again (the ranked lists written since)",
    ]
    assert first.index("described") == first.index("compacting the store (a large share of it newly loaded)") + 1
    # the last write's files compacted too: what the readers after the command read
    assert first[-2:] == [
        "precomputing the ranked lists",
        "compacting the store again (the ranked lists written since)",
    ]
    assert not [stage for stage in second if stage.startswith("compacting")]
    memory = KGStore("memory")  # never compacted
    for listing in listings:
        ingest([listing], memory, Minter(), jobs=1)
    never = memory.oxigraph.dump(format=ox.RdfFormat.N_QUADS)
    assert sorted(compacted.splitlines()) == sorted(never.splitlines())


def test_the_store_is_compacted_when_the_new_sources_are_a_quarter_of_it_or_more():
    from kg.pipeline import compacting

    assert compacting({"new": 100}, {})  # a first source
    assert compacting({"new": 100}, {"new": 100, "old": 300})
    assert not compacting({"new": 100}, {"new": 100, "old": 301})
    assert compacting({"new": 100}, {"old": 300})  # the new source's count as loaded, where the resolution has none
    assert not compacting({}, {"old": 300})  # nothing loaded (kg remove)
