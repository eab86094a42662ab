"""People's display names chosen again only where their written forms changed (kg/resolve/person_labels.py),
papers' name lists made again only where they may have changed (kg/resolve/name_list_memo.py) and the ranked
lists written only where they changed (kg/resolve/ranked_memo.py): after an ingest, a second source, a source
merging papers with another, a changed source re-ingested and a source removed, the store (the index graph's
counts and the rankings graph included) is quad for quad the one a resolution that remembers nothing makes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import ABSTRACTS, LISTING

from kg.ingest.synth import write_corpus
from kg.pipeline import finishing, ingest
from kg.rdf.iris import Minter
from kg.rdf.mapping import source_iri
from kg.rdf.topic_triples import detail_graph
from kg.resolve import graph_memo, kept_rows, list_store, name_list_memo, person_labels, ranked_memo, resolved_memo
from kg.resolve.graph_memo import remembered_graph
from kg.resolve.list_store import remembered_list_rows
from kg.resolve.name_list_memo import remembered_lists
from kg.resolve.person_labels import remembered_names
from kg.resolve.ranked_memo import remembered_rankings
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.vocab import KG, SKOS

HERE = Path(__file__).parent
pytestmark = pytest.mark.slow  # on-disk stores, four ingests and as many resolutions again per case


def nquads(store: KGStore) -> list[str]:
    return sorted(str(quad) for quad in store.oxigraph.quads_for_pattern(None, None, None))


def memo(store: KGStore) -> Path:
    return remembered_names(kept_rows.side_folder(store))


def resolved(store: KGStore):
    """A change of sources as kg ingest and kg remove make it: resolved, then the ranked lists and the description."""
    return resolution_suspended(store, Minter(), finish=finishing(store, Minter()))


def resolved_afresh(store: KGStore) -> list[str]:
    """The store resolved again remembering nothing; what this step's run remembered is put back, so the next
    step starts from it."""
    remembered = [
        memo(store),
        remembered_lists(kept_rows.side_folder(store)),
        remembered_rankings(store),
        remembered_graph(store, "index"),
        remembered_list_rows(kept_rows.side_folder(store)),
        remembered_list_rows(kept_rows.side_folder(store)).with_suffix(".memo-stamp"),
        resolved_memo.remembered_labels(store),
    ]
    for path in remembered:
        shutil.move(path, path.with_name(path.name + ".kept"))
    with resolved(store):
        pass
    for path in remembered:
        shutil.move(path.with_name(path.name + ".kept"), path)
    return nquads(store)


def synthetic(path: Path, count: int, seed: int) -> Path:
    with open(path, "w", encoding="utf-8") as out:
        write_corpus(out, count, seed)
    return path


def written_otherwise(folder: Path, source: Path, name: str, other: str) -> Path:
    """The source again under its own name, one author written otherwise once."""
    changed = folder / "changed" / source.name
    changed.parent.mkdir()
    text = source.read_text(encoding="utf-8")
    assert name in text
    changed.write_text(text.replace(name, other, 1), encoding="utf-8")
    return changed


def samples(folder: Path) -> tuple[Path, Path, Path]:
    """The listing, the abstracts that merge with it, and the listing with an author's name written otherwise."""
    return LISTING, ABSTRACTS, written_otherwise(folder, LISTING, "Haoang Chi", "Haoang Chí")


def conference(folder: Path) -> tuple[Path, Path, Path]:
    """JSON and BibTeX of one conference (identifiers, moved mentions); the JSON with a name written otherwise."""
    json_file = HERE / "conf2031.json"
    return json_file, HERE / "conf2031.bib", written_otherwise(folder, json_file, "Ada Lovelace;", "Ada Lovelacé;")


def synthetic_corpus(folder: Path) -> tuple[Path, Path, Path]:
    """2,000 synthetic papers, 400 more of another seed (people in common), and the first file of 1,900."""
    (folder / "changed").mkdir()
    return (
        synthetic(folder / "synth.txt", 2000, 1),
        synthetic(folder / "more.txt", 400, 2),
        synthetic(folder / "changed" / "synth.txt", 1900, 1),
    )


CASES = {"samples: one paper from two files": samples, "conference: ids, moves": conference}


def chosen_counter(monkeypatch) -> list[int]:
    """How many people's names are chosen, [0], how many times every paper's name lists are made, [1], how
    many times the ranked lists are written where they changed, [2], the index graph by its difference from
    the remembered one, [3], the kept rows of the lists about an institution made from every paper, [4], or
    brought up to date from the changed ones, [5], and the derived graph changed by the people's labels chosen
    afresh, [6]."""
    calls = [0] * 7
    choose, every_list, changed = person_labels.choose, name_list_memo.name_lists, ranked_memo._changed
    difference = graph_memo._apply_difference

    def chosen(person, forms):
        calls[0] += 1
        return choose(person, forms)

    def made(*args):
        calls[1] += 1
        return every_list(*args)

    def written(*args):
        calls[2] += 1
        return changed(*args)

    monkeypatch.setattr(person_labels, "choose", chosen)
    monkeypatch.setattr(name_list_memo, "name_lists", made)

    def compared(*args):
        calls[3] += 1
        return difference(*args)

    bring = list_store.ListStore._bring

    def brought(kept, *args):
        calls[5 - kept.full] += 1
        return bring(kept, *args)

    monkeypatch.setattr(list_store.ListStore, "_bring", brought)
    monkeypatch.setattr(ranked_memo, "_changed", written)
    monkeypatch.setattr(graph_memo, "_apply_difference", compared)
    apply = resolved_memo._apply

    def changed_labels(*args):
        calls[6] += 1
        return apply(*args)

    monkeypatch.setattr(resolved_memo, "_apply", changed_labels)
    return calls


def steps(store: KGStore, first: Path, second: Path, changed: Path, calls: list[int]) -> list[int]:
    """Ingest, a second source, the first changed, the second removed (as ``kg remove`` does); after each, the
    store is the one resolved afresh. Returns how many people each step's run chose names for; after the
    first, no run makes every paper's name lists again, and each writes only the ranked lists that changed and the
    index graph's difference from the remembered one, brings the kept rows of the lists about an institution
    up to date instead of making them from every paper, and changes the derived graph by the labels of the
    people chosen afresh."""
    chosen = []
    for files in ([first], [second], [changed], None):
        calls[:] = [0] * 7
        if files is None:
            graph = source_iri(second.name, Minter())
            with resolved(store):
                store.remove_graph(graph)
                store.remove_graph(detail_graph(graph))
        else:
            ingest(files, store, Minter())
        chosen.append(calls[0])
        assert calls[1:] == ([1, 0, 0, 1, 0, 0] if files == [first] else [0, 1, 1, 0, 1, 1])
        assert memo(store).is_file()
        assert nquads(store) == resolved_afresh(store), files
    return chosen


@pytest.mark.parametrize("case", sorted(CASES))
def test_names_chosen_again_only_where_forms_changed_are_the_names_chosen_afresh(case, tmp_path, monkeypatch):
    first, second, changed = CASES[case](tmp_path)
    calls = chosen_counter(monkeypatch)
    store = KGStore(str(tmp_path / "store"))
    try:
        steps(store, first, second, changed, calls)
    finally:
        store.close()


def test_a_few_thousand_synthetic_papers(tmp_path, monkeypatch):
    first, second, changed = synthetic_corpus(tmp_path)
    calls = chosen_counter(monkeypatch)
    store = KGStore(str(tmp_path / "store"))
    try:
        chosen = steps(store, first, second, changed, calls)
        people = sum(1 for _ in open(memo(store), encoding="utf-8"))
        assert chosen[1] < people / 2  # the second source: only its people and those whose forms it changed
    finally:
        store.close()


def test_remembered_names_are_what_is_written(tmp_path, monkeypatch):
    """A remembered choice whose forms are the same is copied, not chosen again: edited by hand, the edit shows in
    the display names the name lists are made from, and the graph, which holds the remembered names, is not
    written again."""
    store = KGStore(str(tmp_path / "store"))
    try:
        ingest([LISTING], store, Minter())
        lines = memo(store).read_text(encoding="utf-8").splitlines(keepends=True)
        person, digest, chosen = lines[1][:-1].split("\t")  # after the header
        labels, keys = json.loads(chosen)
        labels[0][1] = "Remembered " + labels[0][1]
        lines[1] = "\t".join([person, digest, json.dumps([labels, keys])]) + "\n"
        memo(store).write_text("".join(lines), encoding="utf-8")
        before = nquads(store)
        calls = chosen_counter(monkeypatch)
        written, line = [], person_labels.person_name_line
        monkeypatch.setattr(person_labels, "person_name_line", lambda *named: written.append(named) or line(*named))
        with resolution_suspended(store, Minter()):
            pass
        assert (person, labels[0][1]) in written
        assert calls[0] == 0 and calls[6] == 1  # nothing chosen, the graph changed by its (empty) difference
        assert nquads(store) == before
    finally:
        store.close()


def test_labels_changed_by_hand_compare_the_derived_graph_whole(tmp_path, monkeypatch):
    """A person's label removed from the derived graph by another program: the labels are not as many as
    remembered, so the graph is compared whole and is the one made afresh."""
    store = KGStore(str(tmp_path / "store"))
    try:
        ingest([LISTING], store, Minter())
        graph = ox.NamedNode(Minter().iri("graph", "resolved"))
        label = next(store.oxigraph.quads_for_pattern(None, SKOS.prefLabel, None, graph))
        store.oxigraph.remove(label)
        calls = chosen_counter(monkeypatch)
        with resolution_suspended(store, Minter()):
            pass
        assert calls[6] == 0 and label in store.oxigraph
        assert nquads(store) == resolved_afresh(store)
    finally:
        store.close()


def test_remembered_name_lists_are_what_is_written(tmp_path, monkeypatch):
    """A paper's remembered lists whose lines and names are the same are copied: edited by hand, the edit shows."""
    store = KGStore(str(tmp_path / "store"))
    try:
        ingest([LISTING], store, Minter())
        remembered = remembered_lists(kept_rows.side_folder(store))
        lines = remembered.read_text(encoding="utf-8").splitlines(keepends=True)
        paper, digest, _ = lines[1][:-1].split("\t")  # after the header
        lines[1] = "\t".join([paper, digest, json.dumps(["Remembered Author", "Remembered Institution"])]) + "\n"
        remembered.write_text("".join(lines), encoding="utf-8")
        calls = chosen_counter(monkeypatch)
        with resolution_suspended(store, Minter()):
            pass
        assert calls[:2] == [0, 0]  # nothing changed: no name chosen, no paper's lists made again
        rows = store.query(f"SELECT ?names WHERE {{ <{paper}> <{KG.authorNames.value}> ?names }}")
        assert [str(row[0]) for row in rows] == ["Remembered Author"]
    finally:
        store.close()


def test_a_damaged_memory_costs_time_not_names(tmp_path):
    """Remembered files with lines that are not entries (cut, emptied, not JSON) are passed over: the graph is
    the one made afresh."""
    store = KGStore(str(tmp_path / "store"))
    try:
        ingest([LISTING], store, Minter())
        for path in (memo(store), remembered_lists(kept_rows.side_folder(store))):
            header, first, *rest = path.read_text(encoding="utf-8").splitlines(keepends=True)
            damaged = [first[: len(first) // 2] + "\n", "not an entry\n", first.replace("[", "{", 1), *rest[:-1]]
            path.write_text(header + "".join(damaged) + rest[-1][:-5], encoding="utf-8")
        with resolution_suspended(store, Minter()):
            pass
        assert nquads(store) == resolved_afresh(store)
    finally:
        store.close()
