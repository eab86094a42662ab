"""An on-disk store keeps each source's side rows, stamped (kg/resolve/kept_rows.py): the next run resolves
the sources it did not stage from them while the stamp holds, and the graph is quad for quad the one it
makes reading them back; rows whose graph was replaced by something that keeps none are never read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import ABSTRACTS, LISTING

from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.rdf.mapping import source_iri
from kg.resolve import kept_rows
from kg.resolve.paper_facts import read_papers
from kg.resolve.staged_rows import StagedRows
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue

HERE = Path(__file__).parent
pytestmark = pytest.mark.slow  # on-disk stores, two or three ingests each
CASES = {
    "samples: one paper from two files": [ABSTRACTS, LISTING],
    "JSON and BibTeX of one conference: ids, moves": [HERE / "conf2031.json", HERE / "conf2031.bib"],
}


def nquads(store: KGStore) -> list[str]:
    return sorted(str(quad) for quad in store.oxigraph.quads_for_pattern(None, None, None))


def count(store: KGStore, where: str) -> int:
    return store.scalar(sparql_prologue() + f"SELECT (COUNT(*) AS ?n) WHERE {{ {where} }}")


def read_back(store: KGStore) -> list[str]:
    """The graph resolved again with no rows kept: every source read back from the store."""
    shutil.rmtree(Path(store.spec) / kept_rows.FOLDER)
    with resolution_suspended(store, Minter()):
        pass
    return nquads(store)


def holding(store: KGStore) -> set[str]:
    """The sources whose kept rows hold, asked as the resolution asks: with its rewrites undone."""
    with resolution_suspended(store, Minter()):
        return set(kept_rows.kept(store, kept_rows.counted(store, store.sources())))


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_second_source_resolves_as_the_store_read_back(case, tmp_path):
    first, second = CASES[case]
    store = KGStore(str(tmp_path / "store"))
    try:
        ingest([first], store, Minter())
        assert holding(store) == set(store.sources())  # the first source's rows, kept
        ingest([second], store, Minter())  # the first source from its kept rows, the second from its own
        assert holding(store) == set(store.sources())  # the stamps hold once the rewrites are undone
        with resolution_suspended(store, Minter()):  # what the merges are decided on: the same from the rows
            rows = StagedRows(files=kept_rows.kept(store, kept_rows.counted(store, store.sources())))
            assert read_papers(store, Minter(), rows) == read_papers(store, Minter())
        assert count(store, "?paper kg:bylineLength ?n") > 0
        assert nquads(store) == read_back(store)
    finally:
        store.close()


def test_kept_rows_are_what_is_read(tmp_path):
    """With the first source's kept rows emptied, the next run counts nothing of it: the rows are read, not
    the store."""
    store = KGStore(str(tmp_path / "store"))
    try:
        ingest([LISTING], store, Minter())
        (rows,) = (Path(store.spec) / kept_rows.FOLDER).glob("*.side")
        rows.write_text("", encoding="utf-8")
        ingest([ABSTRACTS], store, Minter())
        assert count(store, "?paper kg:bylineLength ?n") == 0  # the abstracts state no authors
    finally:
        store.close()


def test_rows_of_a_graph_replaced_without_them_are_not_read(tmp_path, monkeypatch):
    """A source replaced by a kg that keeps no rows (an older one): its kept rows no longer match the graph's
    stamp, so the next run reads the graph back and removes them."""
    listing = tmp_path / LISTING.name
    shutil.copy(LISTING, listing)
    store = KGStore(str(tmp_path / "store"))
    try:
        ingest([listing], store, Minter())
        (rows,) = (Path(store.spec) / kept_rows.FOLDER).glob("*.side")
        rows.write_text("", encoding="utf-8")  # stale rows that would count nothing if read
        shutil.copy(HERE / "conf2031.bib", listing)  # another file under the same name: the same graph
        with monkeypatch.context() as older_kg:
            older_kg.setattr(kept_rows, "keep", lambda store, staged: None)
            ingest([listing], store, Minter(), format_name="bibtex")
        ingest([ABSTRACTS], store, Minter())
        assert not rows.exists()
        assert count(store, "?paper kg:bylineLength ?n") > 0  # the replaced source's authors, read back
        assert nquads(store) == read_back(store)
    finally:
        store.close()


def ingested(folder: Path, files: list[Path]) -> None:
    """``kg ingest`` of the files, as one command: the store opened, written and closed."""
    store = KGStore(str(folder))
    try:
        ingest(files, store, Minter())
    finally:
        store.close()


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_graph_nothing_else_wrote_is_not_counted_again(case, tmp_path, monkeypatch):
    """Each command in a process of its own: the first source's quads are counted for its stamp once; the next
    command, on a store no other program opened, takes the count kept with the stamp (but for a graph the last
    resolution rewrote, whose records it undoes), and the graph is the one read back."""
    first, second = CASES[case]
    folder = tmp_path / "store"
    ingested(folder, [first])
    rewritten = set((folder / kept_rows.FOLDER / kept_rows.REWRITTEN).read_text(encoding="utf-8").splitlines())
    counted, count_quads = [], kept_rows.quad_count
    monkeypatch.setattr(
        kept_rows, "quad_count", lambda store, graph: counted.append(graph) or count_quads(store, graph)
    )
    ingested(folder, [second])
    first_graph = source_iri(first.name, Minter()).value
    assert (first_graph in counted) == (first_graph in rewritten)  # as it left it, unless rewritten
    assert source_iri(second.name, Minter()).value in counted  # the new source's stamp
    store = KGStore(str(folder))
    try:
        assert nquads(store) == read_back(store)
    finally:
        store.close()


def test_a_graph_another_program_wrote_is_counted_and_read_back(tmp_path, monkeypatch):
    """A statement added to a source's graph by another program (Oxigraph opened on the folder): the next command
    counts the graph, finds its stamp no longer holds and reads it back instead of its kept rows."""
    folder = tmp_path / "store"
    ingested(folder, [LISTING])
    graph = source_iri(LISTING.name, Minter())
    other = ox.Store(str(folder))
    other.add(
        ox.Quad(ox.NamedNode("http://example.org/x"), ox.NamedNode("http://example.org/y"), ox.Literal("z"), graph)
    )
    del other
    counted, count_quads = [], kept_rows.quad_count
    monkeypatch.setattr(
        kept_rows, "quad_count", lambda store, graph: counted.append(graph) or count_quads(store, graph)
    )
    ingested(folder, [ABSTRACTS])
    assert graph.value in counted
    assert not kept_rows._named(folder / kept_rows.FOLDER, graph.value).exists()  # the listing's rows: dropped
    store = KGStore(str(folder))
    try:
        assert nquads(store) == read_back(store)
    finally:
        store.close()
