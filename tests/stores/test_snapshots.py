"""Readers read a snapshot of the store (kg/stores/snapshots.py): the writer's compaction cannot
break them, and a killed reader's snapshot is cleared by whoever opens the store next."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.stores.embedded import KGStore
from kg.stores.snapshots import READERS

EX = "http://example.org/"


def triples(first: int, count: int) -> bytes:
    return "".join(f'<{EX}s{i}> <{EX}p> "value {i} {"x" * 40}" .\n' for i in range(first, first + count)).encode()


GRAPHS = 30  # one bulk load each: 141 data files, more than a reader's table cache holds at 100 descriptors


@pytest.fixture
def store_path(tmp_path) -> Path:
    path = tmp_path / "store"
    writer = KGStore(str(path))
    for graph in range(GRAPHS):
        writer.oxigraph.bulk_load(
            triples(graph * 10_000, 5_000), format=ox.RdfFormat.N_TRIPLES, to_graph=ox.NamedNode(f"{EX}g{graph}")
        )
    writer.close()
    return path


def snapshots(path: Path) -> list[Path]:
    """The readers' own snapshots (the published one the writers keep aside)."""
    return sorted((path / READERS).glob("reader-*")) if (path / READERS).is_dir() else []


@pytest.mark.slow
@pytest.mark.parametrize("through_snapshot", [True, False])
def test_a_reader_keeps_reading_what_it_opened_while_the_writer_compacts(store_path, through_snapshot):
    """A reader with 100 file descriptors (Oxigraph keeps 52 data files open, the rest it opens when
    a query needs them) opens the store; the writer then drops every graph, loads another and compacts,
    deleting every data file the reader's opening listed; the reader then reads every statement."""
    reader = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_NOFILE, (100, 100))
        from kg.stores.embedded import EmbeddedStore
        store = EmbeddedStore({str(store_path)!r}, read_only=True, snapshot={through_snapshot})
        print("open", flush=True)
        sys.stdin.readline()
        print(sum(1 for _ in store.oxigraph.quads_for_pattern(None, None, None, None)), flush=True)
        store.close()
    """),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert reader.stdout.readline() == "open\n"
    assert len(snapshots(store_path)) == through_snapshot
    writer = KGStore(str(store_path))
    for graph in range(GRAPHS):
        writer.oxigraph.remove_graph(ox.NamedNode(f"{EX}g{graph}"))
    writer.oxigraph.bulk_load(triples(10**7, 5_000), format=ox.RdfFormat.N_TRIPLES, to_graph=ox.NamedNode(EX + "new"))
    writer.oxigraph.optimize()
    assert len(snapshots(store_path)) == through_snapshot  # the writer left the reader's snapshot alone
    out, err = reader.communicate("go\n", timeout=120)
    writer.close()
    if through_snapshot:
        assert out == f"{GRAPHS * 5_000}\n", err  # every statement as it was opened
        assert snapshots(store_path) == []
    else:  # what the snapshot is for
        assert "No such file or directory" in err


@pytest.mark.slow
@pytest.mark.parametrize("next_opener", ["reader", "writer"])
def test_a_killed_reader_s_snapshot_is_cleared_by_the_next_opening(store_path, next_opener):
    script = textwrap.dedent(f"""
        import os, signal
        from kg.stores.embedded import KGStore
        store = KGStore({str(store_path)!r}, read_only=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    assert subprocess.run([sys.executable, "-c", script]).returncode == -9
    assert len(snapshots(store_path)) == 1  # left behind: its process never closed it
    opened = KGStore(str(store_path), read_only=next_opener == "reader")
    assert len(snapshots(store_path)) == (1 if next_opener == "reader" else 0)  # the reader's own, only
    opened.close()
    assert snapshots(store_path) == []


@pytest.mark.slow
def test_a_reader_s_scratch_outlives_a_writer_that_opens_beside_it(store_path):
    """An export's sort runs are written in the reader's snapshot folder: a writer opening meanwhile
    clears its journal of what killed runs left, and must not take them."""
    reader = KGStore(str(store_path), read_only=True)
    assert reader.scratch_dir.parent == store_path / READERS
    runs = reader.scratch_dir / "kg-sort-run"
    runs.mkdir()
    KGStore(str(store_path)).close()  # a writer's opening: its recovery clears the journal
    assert runs.is_dir()
    assert sum(1 for _ in reader.distinct_triples()) == GRAPHS * 5_000
    reader.close()
    assert snapshots(store_path) == []
