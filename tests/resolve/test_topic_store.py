"""The kept rows of ``topic-papers`` (kg/resolve/topic_store.py): brought up to date run after run (a source added,
papers merged across two, a source ingested again changed, one removed), each topic's rows are the ones its twin
makes from every assignment (kg/resolve/topic_rows.py), in the same order; rows that do not hold (a hand edit, a
damaged file, other topics, a weight the table cannot order) are made again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kg.query.lookup import entities_with_papers
from kg.resolve import topic_rows
from kg.resolve.kept_rows import side_folder
from kg.resolve.topic_rows import TOPIC_PAPERS
from kg.resolve.topic_store import Inexact, TopicStore, exact, remembered_topic_rows


def _path(store) -> Path | None:
    return remembered_topic_rows(side_folder(store), Path(topic_rows.__file__))


def _lists(store, rows, topics) -> list:
    return [(topic, list(ranked)) for topic, ranked in TOPIC_PAPERS.lists(store, rows, topics)]


def _checker(runs: list, monkeypatch):
    """Compare each topic's rows from the kept rows with those made whole; note whether the rows were kept before
    the run, and how many there are."""

    def checked(store, rows) -> None:
        topics = entities_with_papers(store, "topic", 1)
        kept_before = _path(store) is not None and _path(store).is_file()
        kept = _lists(store, rows, topics)
        with monkeypatch.context() as patched:
            patched.setattr(topic_rows, "side_folder", lambda store: None)
            assert kept == _lists(store, rows, topics)
        runs.append((kept_before, sum(len(found) for _, found in kept)))

    return checked


@pytest.mark.slow
def test_kept_rows_follow_each_change_as_made_whole(changing_sources, monkeypatch):
    runs: list = []
    changing_sources(_checker(runs, monkeypatch))
    assert [before for before, _ in runs] == [False, True, True, True]
    assert all(n > 100 for _, n in runs)


def _edit(store) -> None:
    database = sqlite3.connect(_path(store))
    with database:  # the stamp no longer holds: the rows are made again
        database.execute("UPDATE topic_rows SET words = 'edited'")
    database.close()


def test_rows_that_do_not_hold_are_made_again(edited_sources, monkeypatch, tmp_path):
    runs: list = []
    edited_sources(_checker(runs, monkeypatch), _edit, lambda store: _path(store).write_bytes(b"not a database"))
    assert len(runs) == 3 and all(n for _, n in runs)
    other = TopicStore(tmp_path / "topic-rows.code.memo")
    assert not other.open("some topics")
    other.write(None, [], {}, {"sourced": {}, "graphs": {}, "merged": []})
    other.close()
    assert TopicStore(tmp_path / "topic-rows.code.memo").open("some topics")
    assert not TopicStore(tmp_path / "topic-rows.code.memo").open("other topics")  # made for other topics


def test_the_table_orders_only_weights_it_holds_exactly(tmp_path):
    assert exact("3.0") and exact("0.1") and exact("12.5") and exact("7")
    assert not exact("0.10000000000000000001") and not exact("NaN") and not exact("three")
    kept, decimal = TopicStore(tmp_path / "topic-rows.code.memo"), "http://www.w3.org/2001/XMLSchema#decimal"
    assert not kept.open("some topics")
    with pytest.raises(Inexact):  # nothing written: the twin makes the rows whole
        kept.write(None, [("t", "p", 0.1, "0.10000000000000000001", decimal, [], "w")], {}, {})
    kept.abandon()
    assert sorted(path.name for path in tmp_path.iterdir()) == []


def test_a_source_ingested_again_changed_in_the_same_second_has_its_rows_made_again(tmp_path, monkeypatch):
    """An abstract that names a matched topic label once more changes that assignment's weight, not its detail
    graph's quad count; with the file's modification time kept, the graph's stamp is the same: the rows of a
    source the run loaded are made again all the same."""
    import os
    import shutil

    from kg import SAMPLES_DIR
    from kg.pipeline import ingest
    from kg.rdf.iris import Minter
    from kg.resolve.kept_rows import quad_count
    from kg.stores.embedded import KGStore
    from kg.vocab import KG

    runs: list = []
    monkeypatch.setattr(
        "kg.pipeline.refresh_rankings",
        lambda store, minter, folder=None, rows=None: _checker(runs, monkeypatch)(store, rows),
    )
    source = tmp_path / "listing.txt"
    shutil.copy(SAMPLES_DIR / "000_d46489bfe8e71c68.txt", source)
    text, modified = source.read_text(encoding="utf-8"), source.stat().st_mtime_ns
    store, minter = KGStore(str(tmp_path / "store")), Minter()
    try:
        ingest([source], store, minter)
        found = f"SELECT ?g ?l WHERE {{ GRAPH ?g {{ ?a {KG.matchedLabel} ?l ; {KG.foundIn} {KG.InAbstract} }} }}"
        detail, label = next((graph, word) for graph, word in store.select_terms(found) if text.count(word.value) == 1)
        before = quad_count(store, detail.value)
        source.write_text(text.replace(label.value, f"{label.value}, {label.value}", 1), encoding="utf-8")
        os.utime(source, ns=(modified, modified))
        ingest([source], store, minter)
        assert quad_count(store, detail.value) == before  # the stamp alone would keep the old rows
    finally:
        store.close()
    assert [before for before, _ in runs] == [False, True]
