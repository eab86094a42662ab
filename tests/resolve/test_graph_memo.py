"""The index graph changed by its difference from the remembered one (kg/resolve/graph_memo.py): the folder is used
only while its stamp is the graph's quad count and its sections' keys are in order; else the graph is compared
whole. Only the keys whose line changed have their statements made. (After ingests, a removal and a changed
source, quad for quad the graph made afresh: tests/resolve/test_person_labels.py.)"""

from __future__ import annotations

import os

import pytest
from conftest import ABSTRACTS, LISTING, counted_calls

from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.resolve import graph_memo, index_parts, ranked_memo
from kg.resolve.graph_memo import FORMAT, _changed_lines, graph_count, remembered_graph
from kg.resolve.ranked_memo import remembered_rankings
from kg.resolve.store_step import index_graph, resolution_suspended
from kg.stores.embedded import KGStore

SECTIONS = ("keys", "name-lists", "papers")
LINE_TRIPLES = ("key_line_triples", "name_list_line_triples", "paper_line_triples")


def held(store: KGStore) -> list[str]:
    return sorted(str(quad) for quad in store.oxigraph.quads_for_pattern(None, None, None, index_graph(Minter())))


def keys(path) -> list[str]:
    return [line.split("\t", 1)[0].rstrip("\n") for line in path.read_text(encoding="utf-8").splitlines(True)]


def test_changed_lines_are_the_keys_whose_line_is_not_the_remembered_one(tmp_path):
    new, old = tmp_path / "new", tmp_path / "old"
    new.write_text("a\t1\nb\t2\nd\t4\ne\n", encoding="utf-8")
    old.write_text("b\t2\nc\t3\nd\t5\ne\n", encoding="utf-8")
    assert list(_changed_lines(new, old)) == [(None, "a\t1\n"), ("c\t3\n", None), ("d\t5\n", "d\t4\n")]
    new.write_text("b\t2\na\t1\n", encoding="utf-8")
    with pytest.raises(graph_memo._Damaged):
        list(_changed_lines(new, old))
    new.write_text("a\t1\nb\t", encoding="utf-8")  # cut short
    with pytest.raises(graph_memo._Damaged):
        list(_changed_lines(new, old))


@pytest.mark.slow  # on-disk stores
def test_the_remembered_folder_is_the_graph_and_its_stamp(store):
    ingest([LISTING], store, Minter())
    path = remembered_graph(store, "index")
    assert path.name == f"graph-index.v{FORMAT}.memo"
    assert (path / "stamp").read_text(encoding="utf-8") == f"{FORMAT}\t{graph_count(store, index_graph(Minter()))}\n"
    lines = (path / "lines").read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines == sorted(set(lines))
    made = [
        triple
        for name, triples in zip(SECTIONS, (getattr(index_parts, function) for function in LINE_TRIPLES))
        for line in (path / name).read_text(encoding="utf-8").splitlines(keepends=True)
        for triple in triples(line)
    ]
    for name in SECTIONS:
        assert keys(path / name) == sorted(set(keys(path / name))) and keys(path / name)
    assert len(lines) + len(set(made)) == len(held(store)) and not set(made) & set(lines)


@pytest.mark.slow
def test_only_the_changed_keys_statements_are_made(store, monkeypatch):
    """A second source makes the statements of its entities' and papers' keys; a resolution that changes nothing
    makes none of the sections' statements."""
    ingest([LISTING], store, Minter())
    made = [0]
    for name in LINE_TRIPLES:
        function = getattr(index_parts, name)
        monkeypatch.setattr(index_parts, name, lambda line, f=function: made.__setitem__(0, made[0] + 1) or f(line))
    calls = counted_calls(monkeypatch, graph_memo, "_apply_difference")
    with resolution_suspended(store, Minter()):
        pass
    assert calls == [1] and made == [0]
    ingest([ABSTRACTS], store, Minter())
    path = remembered_graph(store, "index")
    every = sum(len(keys(path / name)) for name in SECTIONS)
    assert calls == [2] and 0 < made[0] < every
    assert (path / "stamp").read_text(encoding="utf-8") == f"{FORMAT}\t{graph_count(store, index_graph(Minter()))}\n"


@pytest.mark.slow
def test_a_graph_changed_by_hand_is_compared_whole(store, monkeypatch):
    ingest([LISTING], store, Minter())
    made = held(store)
    store.oxigraph.remove(next(store.oxigraph.quads_for_pattern(None, None, None, index_graph(Minter()))))
    calls = counted_calls(monkeypatch, graph_memo, "_apply_difference")
    with resolution_suspended(store, Minter()):
        pass
    assert calls == [0] and held(store) == made
    ingest([ABSTRACTS], store, Minter())  # remembered again, and used
    assert calls == [1]


def _unordered(path):
    lines = (path / "keys").read_text(encoding="utf-8").splitlines(keepends=True)
    (path / "keys").write_text("".join(reversed(lines)), encoding="utf-8")


def _not_json(path):
    lines = (path / "name-lists").read_text(encoding="utf-8").splitlines(keepends=True)
    lines[0] = lines[0].split("\t", 1)[0] + '\t[not JSON\t""\n'
    (path / "name-lists").write_text("".join(lines), encoding="utf-8")


def _not_a_count(path):
    lines = (path / "papers").read_text(encoding="utf-8").splitlines(keepends=True)
    lines[0] = lines[0].split("\t", 1)[0] + "\tmany\t1\ttitle\t\n"
    (path / "papers").write_text("".join(lines), encoding="utf-8")


def _killed(path):
    os.replace(path, path.with_suffix(".old"))  # as a run killed while it writes leaves it


@pytest.mark.slow
@pytest.mark.parametrize(
    "damage",
    [_unordered, _not_json, _not_a_count, lambda path: (path / "name-lists").unlink(), _killed],
    ids=["unordered", "not JSON", "not a count", "gone", "killed"],
)
def test_a_damaged_folder_is_compared_whole(store, monkeypatch, damage):
    """A section whose keys are out of order, with a line that is not JSON or not a count, or whose file is gone, or
    a run killed while writing: the graph is compared whole, is the one made before, and is remembered again."""
    ingest([LISTING], store, Minter())
    made = held(store)
    damage(remembered_graph(store, "index"))
    calls = counted_calls(monkeypatch, graph_memo, "_apply_difference")
    with resolution_suspended(store, Minter()):
        pass
    assert calls == [0] and held(store) == made
    with resolution_suspended(store, Minter()):
        pass
    assert calls == [1] and held(store) == made


@pytest.mark.slow
def test_a_store_in_memory_remembers_nothing(monkeypatch):
    """Neither the index graph nor the ranked lists (kg/resolve/ranked_memo.py)."""
    store = KGStore("memory")
    calls = [
        counted_calls(monkeypatch, graph_memo, "_apply_difference"),
        counted_calls(monkeypatch, ranked_memo, "_changed"),
    ]
    ingest([LISTING], store, Minter())
    ingest([ABSTRACTS], store, Minter())
    assert calls == [[0], [0]] and held(store)
    assert remembered_graph(store, "index") is None and remembered_rankings(store) is None
