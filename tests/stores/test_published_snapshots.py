"""A reader answers from the graph the last writer finished (kg/stores/snapshots.py): never from the
store a writer is changing, and never through a data file a writer deletes."""

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
GRAPH = ox.NamedNode(EX + "g")


def load(store: KGStore, count: int) -> None:
    data = "".join(f'<{EX}s{i}> <{EX}p> "{i}" .\n' for i in range(count)).encode()
    store.oxigraph.remove_graph(GRAPH)
    store.oxigraph.bulk_load(data, format=ox.RdfFormat.N_TRIPLES, to_graph=GRAPH)


def count_in_a_reader(path: Path) -> int:
    """A reader in its own process, as `kg stats` beside a `kg build` is."""
    script = textwrap.dedent(f"""
        from kg.stores.embedded import KGStore
        store = KGStore({str(path)!r}, read_only=True)
        print(sum(1 for _ in store.oxigraph.quads_for_pattern(None, None, None, None)))
        store.close()
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


@pytest.mark.slow
def test_a_reader_beside_a_writer_sees_the_last_finished_graph(tmp_path):
    path = tmp_path / "store"
    writer = KGStore(str(path))
    load(writer, 100)
    writer.close()
    assert count_in_a_reader(path) == 100
    writer = KGStore(str(path))
    load(writer, 7)  # changed, not finished: the writer still holds the store
    writer.oxigraph.flush()
    assert count_in_a_reader(path) == 100
    writer.close()  # finished: published
    assert count_in_a_reader(path) == 7
    published = sorted((path / READERS).glob("published-*"))
    assert len(published) == 1  # the older one, which no reader held, is gone
    assert not list((path / READERS).glob("reader-*"))  # each reader removed its own


def test_a_store_from_before_publication_is_published_by_its_first_reader(tmp_path):
    path = tmp_path / "store"
    store = ox.Store(str(path))
    store.bulk_load(f'<{EX}s> <{EX}p> "o" .\n'.encode(), format=ox.RdfFormat.N_TRIPLES, to_graph=GRAPH)
    store.flush()
    del store
    assert count_in_a_reader(path) == 1
    assert len(list((path / READERS).glob("published-*"))) == 1


@pytest.mark.slow
def test_readers_beside_repeated_builds_never_fail():
    """The stress script, small: every `kg stats` / `kg query` beside two builds exits 0 with the old or the new
    graph."""
    script = Path(__file__).resolve().parents[2] / "bench" / "stress_readers.py"
    done = subprocess.run(
        [sys.executable, str(script), "--papers", "150", "--builds", "2", "--readers", "12"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "failures: 0" in done.stdout
