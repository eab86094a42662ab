"""The counts' pass over the papers a change touches (kg/resolve/touched_papers.py): ingest by ingest (a paper merged
across two sources, a corrected listing ingested again, a source removed), the store holds what a pass over every
paper gives; a sorted facts file is searched for the papers asked, and the remembered lines merged with the new."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.ingest.synth import write_corpus
from kg.pipeline import finishing, ingest
from kg.rdf.iris import Minter
from kg.rdf.mapping import source_iri
from kg.rdf.topic_triples import detail_graph
from kg.resolve import aggregates, touched_papers
from kg.resolve.count_ledger import ledger_path
from kg.resolve.kept_rows import side_folder
from kg.resolve.side_database import forget_kept_databases
from kg.resolve.store_step import resolution_suspended
from kg.resolve.touched_papers import _merge, _searched, pass_memo_path
from kg.stores.embedded import KGStore


def every_graph(store: KGStore) -> dict[str, list[str]]:
    graphs: dict[str, list[str]] = {}
    for quad in store.oxigraph.quads_for_pattern(None, None, None, None):
        graphs.setdefault(str(quad.graph_name), []).append(str(quad.triple))
    return {graph: sorted(triples) for graph, triples in graphs.items()}


def made_whole(store: KGStore, minter: Minter) -> None:
    """The resolution again with nothing remembered of the last pass: every paper visited, every count and list made
    whole."""
    ledger = ledger_path(side_folder(store))
    shutil.rmtree(pass_memo_path(ledger), ignore_errors=True)
    ledger.unlink()
    forget_kept_databases(side_folder(store))
    with resolution_suspended(store, minter, jobs=1, finish=finishing(store, minter)):
        pass


@pytest.fixture(scope="module")
def corpora(tmp_path_factory) -> list[Path]:
    """Two listings and a paperlists JSON (per-author affiliations and identifiers: people renamed in a source)."""
    folder = tmp_path_factory.mktemp("synth")
    files = []
    made = ((21, 300, "listing", "txt"), (22, 80, "listing", "txt"), (23, 80, "paperlists", "json"))
    for seed, papers, form, suffix in made:
        path = folder / f"synth-{seed}.{suffix}"
        with path.open("w", encoding="utf-8") as handle:
            write_corpus(handle, papers, seed=seed, format_name=form)
        files.append(path)
    return files


def test_each_change_gives_what_a_pass_over_every_paper_gives(tmp_path, monkeypatch, corpora):
    store, minter = KGStore(str(tmp_path / "store")), Minter()
    first, second, structured = corpora
    fewer = tmp_path / "fewer" / second.name  # the second listing ingested again, its last records gone
    fewer.parent.mkdir()
    text = second.read_text(encoding="utf-8")
    fewer.write_text(text[: len(text) * 2 // 3].rsplit("\n\n", 1)[0] + "\n", encoding="utf-8")
    visited: list[set[str]] = []
    searched = touched_papers.touched_facts

    def touched_facts(staged, store_lines, touched, scratch):
        visited.append(touched)
        return searched(staged, store_lines, touched, scratch)

    monkeypatch.setattr(aggregates, "touched_facts", touched_facts)

    def removed(source: Path):
        with resolution_suspended(store, minter, jobs=1, finish=finishing(store, minter)):
            graph = ox.NamedNode(source_iri(source.name, minter).value)
            assert store.remove_graph(graph) and store.remove_graph(detail_graph(graph))

    steps = [
        lambda: ingest([first], store, minter, jobs=1),
        lambda: ingest([second], store, minter, jobs=1),
        lambda: ingest([structured], store, minter, jobs=1),
        lambda: ingest([fewer], store, minter, jobs=1),
        lambda: removed(second),
        lambda: ingest([second], store, minter, jobs=1),
    ]
    try:
        for step in steps:
            step()
            kept = every_graph(store)
            made_whole(store, minter)
            assert every_graph(store) == kept
    finally:
        store.close()
    assert len(visited) >= 3 and all(visited)


@pytest.fixture
def facts(tmp_path) -> Path:
    path = tmp_path / "source.facts"
    lines = ["a\tk\t1\n", "a\tk\t2\n", "a-b\tk\t3\n", "ab\tk\t4\n", "b\tk\t5\n", "é\tk\t6\n", "é\tl\t7\n"]
    path.write_text("header\n" + "".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "keys, found",
    [
        (["a"], ["a\tk\t1\n", "a\tk\t2\n"]),
        (["a-b", "b"], ["a-b\tk\t3\n", "b\tk\t5\n"]),
        (["é"], ["é\tk\t6\n", "é\tl\t7\n"]),
        (["0", "aa", "c", "z"], []),  # before the first, between two, past the last
    ],
)
def test_a_sorted_file_is_searched_for_the_keys_asked(facts, keys, found):
    assert list(_searched(facts, keys)) == found


def test_the_remembered_lines_of_the_subjects_not_touched_are_merged_with_the_new(tmp_path):
    old, fresh, whole = tmp_path / "old", tmp_path / "fresh", tmp_path / "whole"
    old.write_text("a\t1\nb\t2\nb\t3\nc\t4\n", encoding="utf-8")
    fresh.write_text("a\t9\nab\t5\nab\t6\n", encoding="utf-8")
    removed: list[str] = []
    _merge(old, fresh, {"a", "ab", "b"}, whole, removed)  # a changed, ab new, b gone, c as it was
    assert whole.read_text(encoding="utf-8") == "a\t9\nab\t5\nab\t6\nc\t4\n"
    assert removed == ["a\t1\n", "b\t2\n", "b\t3\n"]
