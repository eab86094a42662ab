"""A store on disk for each test of what is remembered beside one (kg/resolve/kept_rows.py's folder)."""

from __future__ import annotations

import pytest

from kg.stores.embedded import KGStore


@pytest.fixture
def store(tmp_path):
    opened = KGStore(str(tmp_path / "store"))
    yield opened
    opened.close()


@pytest.fixture
def changing_sources(tmp_path, monkeypatch):
    """Run ``checked`` where each change of a disk store's sources makes the ranked lists (``checked(store,
    rows=TwinFiles)``): a listing added, a structured source added (papers merged across the two), that source
    ingested again changed, the listing removed."""
    from kg.ingest.synth import write_corpus
    from kg.pipeline import ingest
    from kg.rdf.iris import Minter
    from kg.rdf.mapping import source_iri
    from kg.rdf.topic_triples import detail_graph
    from kg.resolve.store_step import resolution_suspended

    def synth(path, papers: int, seed: int, format_name: str):
        with open(path, "w", encoding="utf-8") as out:
            write_corpus(out, papers, seed, format_name)
        return path

    def run(checked) -> None:
        listing = synth(tmp_path / "listing.txt", 600, 1, "listing")
        papers = synth(tmp_path / "papers.json", 200, 2, "paperlists")
        monkeypatch.setattr(
            "kg.pipeline.refresh_rankings", lambda store, minter, folder=None, rows=None: checked(store, rows)
        )
        store, minter = KGStore(str(tmp_path / "store")), Minter()
        try:
            ingest([listing], store, minter)
            ingest([papers], store, minter)
            ingest([synth(papers, 150, 3, "paperlists")], store, minter)
            graph = source_iri(listing.name, minter)
            with resolution_suspended(store, minter, finish=lambda rows, known_quads: checked(store, rows)):
                store.remove_graph(graph)
                store.remove_graph(detail_graph(graph))
        finally:
            store.close()

    return run


@pytest.fixture
def edited_sources(tmp_path, monkeypatch):
    """Run ``checked`` (as above) after an ingest of the samples into a disk store, then after the resolution again
    once ``edit(store)`` has edited a kept database by hand, and once more after ``damage(store)``."""
    from kg import SAMPLES_DIR
    from kg.pipeline import ingest
    from kg.rdf.iris import Minter
    from kg.resolve.store_step import resolution_suspended

    def run(checked, edit, damage) -> None:
        monkeypatch.setattr(
            "kg.pipeline.refresh_rankings", lambda store, minter, folder=None, rows=None: checked(store, rows)
        )
        store, minter = KGStore(str(tmp_path / "store")), Minter()
        try:
            ingest([SAMPLES_DIR], store, minter)
            for change in (edit, damage):
                change(store)
                with resolution_suspended(store, minter, finish=lambda rows, known_quads: checked(store, rows)):
                    pass
        finally:
            store.close()

    return run
