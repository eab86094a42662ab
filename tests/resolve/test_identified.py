"""Whether anyone is identified, from the side rows (kg/resolve/identified.py): the store's answer, kept beside
kept rows while their header holds, and the graphs without rows asked."""

from __future__ import annotations

from pathlib import Path

from kg.resolve import identified
from kg.resolve.identified import SUFFIX, anyone_identified
from kg.resolve.identity import _ANY_IDENTIFIED
from kg.resolve.staged_rows import StagedRows
from kg.stores.embedded import KGStore

NAMED, IDENTIFIED = "http://ex/author/ada-lovelace", "http://ex/author/ada-lovelace1--openreview"


def rows(folder: Path, person: str, stamp: str | None) -> StagedRows:
    path = folder / "source.side"
    path.write_text(f'F\tp:1\tauthor\t{person}\nN\t{person}\t\t"Ada Lovelace"\tp:1#1\n', encoding="utf-8")
    if stamp is not None:
        path.with_suffix(".stamp").write_text(stamp, encoding="utf-8")
    return StagedRows(files={"http://ex/source/s": path})


def test_the_rows_say_whether_anyone_is_identified_and_kept_rows_keep_the_answer(tmp_path, monkeypatch):
    store = KGStore("memory")
    assert anyone_identified(store, rows(tmp_path, NAMED, None)) is False
    assert anyone_identified(store, rows(tmp_path, IDENTIFIED, None)) is True
    assert not (tmp_path / f"source{SUFFIX}").exists()  # rows not kept: nothing beside them
    staged = rows(tmp_path, IDENTIFIED, "stamp-1")
    assert anyone_identified(store, staged) is True
    monkeypatch.setattr(identified, "_read", lambda path: 1 / 0)
    assert anyone_identified(store, staged) is True  # the kept answer, the rows not read
    monkeypatch.undo()
    staged = rows(tmp_path, NAMED, "stamp-2")  # another stamp: the answer made again
    assert anyone_identified(store, staged) is False


def test_a_graph_without_rows_is_asked_as_the_store_would_be(tmp_path):
    store = KGStore("memory")
    staged = rows(tmp_path, NAMED, "stamp-1")
    assert anyone_identified(store, staged) is store.query(_ANY_IDENTIFIED).askAnswer is False
    store.update(f"INSERT DATA {{ GRAPH <http://ex/other> {{ <{IDENTIFIED}> a <http://xmlns.com/foaf/0.1/Person> }} }}")
    assert anyone_identified(store, staged) is store.query(_ANY_IDENTIFIED).askAnswer is True
