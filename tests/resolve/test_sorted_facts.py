"""A kept source's fact lines sorted once (kg/resolve/sorted_facts.py): the counts' pass groups the same lines
as a sort of them all, reads a source's sorted file while its header holds, and makes it again when the rows,
their stamp or this run's renames say otherwise."""

from __future__ import annotations

import shutil
from itertools import chain
from pathlib import Path

import pytest

from kg.ingest.synth import write_corpus
from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.resolve import kept_rows, sorted_facts
from kg.resolve.sorted_facts import grouped_facts
from kg.resolve.staged_rows import StagedRows
from kg.resolve.store_step import resolution_suspended
from kg.stores.embedded import KGStore
from kg.stores.ordering import grouped_lines

KEPT, FRESH = "http://ex/graph/kept", "http://ex/graph/fresh"
# Facts of two sources and of the store, some stated twice (in one source, in two, in a source and the store).
ROWS = {
    KEPT: ["p2\tauthor\tb", "p1\tauthor\ta", "p1\ttopic\tt", "p2\tauthor\tb", "p3\tlisted\ti"],
    FRESH: ["p1\tauthor\ta", "p4\tauthor\tc", "p1\tauthor\tz"],
}
OTHERS = ["p5\ttopic\tu\n", "p3\tlisted\ti\n", "p0\tauthor\ta\n"]


def staged_rows(folder: Path) -> StagedRows:
    """The two sources' rows, the first kept (stamped, as kg/resolve/kept_rows.py keeps them), the second not."""
    files = {}
    for name, graph in (("kept", KEPT), ("fresh", FRESH)):
        files[graph] = folder / f"{name}.side"
        lines = [f"F\t{line}\n" for line in ROWS[graph]] + ['N\tp1\ten\t"A"\tp1#1\n']  # a form: not a fact
        files[graph].write_text("".join(lines), encoding="utf-8")
    (folder / "kept.stamp").write_text("stamp-1", encoding="utf-8")
    return StagedRows(files=files)


def as_sorted(staged: StagedRows, folder: Path) -> list:
    return list(grouped_lines(chain(staged.facts(), OTHERS), folder))


def grouped(staged: StagedRows, folder: Path) -> list:
    return list(grouped_facts(staged, iter(OTHERS), folder))


@pytest.fixture
def made(monkeypatch) -> list[Path]:
    """The sorted files each pass makes."""
    paths: list[Path] = []
    write = sorted_facts._write

    def noted(lines, path, header):
        paths.append(path)
        write(lines, path, header)

    monkeypatch.setattr(sorted_facts, "_write", noted)
    return paths


def test_the_groups_are_a_sort_of_every_line(tmp_path, made):
    staged = staged_rows(tmp_path)
    assert grouped(staged, tmp_path) == as_sorted(staged, tmp_path)
    assert made == [tmp_path / "kept.facts"]  # the kept source's alone: the other has no stamp
    body = (tmp_path / "kept.facts").read_text(encoding="utf-8").splitlines(keepends=True)
    assert body[0].startswith("stamp-1\t") and body[1:] == sorted({f"{line}\n" for line in ROWS[KEPT]})


def test_the_next_pass_reads_the_sorted_file(tmp_path, made):
    staged = staged_rows(tmp_path)
    grouped(staged, tmp_path)
    made.clear()
    assert grouped(staged, tmp_path) == as_sorted(staged, tmp_path)
    assert made == []


@pytest.mark.parametrize("change", ["rows edited", "stamp changed", "header damaged"])
def test_a_stale_sorted_file_is_made_again(tmp_path, made, change):
    staged = staged_rows(tmp_path)
    grouped(staged, tmp_path)
    made.clear()
    if change == "rows edited":
        with open(tmp_path / "kept.side", "a", encoding="utf-8") as rows:
            rows.write("F\tp9\tauthor\tq\n")
    elif change == "stamp changed":
        (tmp_path / "kept.stamp").write_text("stamp-2", encoding="utf-8")
    else:
        facts = tmp_path / "kept.facts"
        facts.write_text("x" + facts.read_text(encoding="utf-8"), encoding="utf-8")
    assert grouped(staged, tmp_path) == as_sorted(staged, tmp_path)
    assert made == [tmp_path / "kept.facts"]
    assert grouped(staged, tmp_path) == as_sorted(staged, tmp_path)  # and read as made


def test_a_source_this_run_rewrote_is_sorted_with_its_renames(tmp_path, made):
    staged = staged_rows(tmp_path)
    grouped(staged, tmp_path)
    made.clear()
    staged.rename([(KEPT, "p1", "p4")])  # a merge: p1 of the kept source is p4 now
    assert grouped(staged, tmp_path) == as_sorted(staged, tmp_path)
    assert ("p4", ["author\ta", "author\tc", "topic\tt"]) in grouped(staged, tmp_path)
    assert made == []  # nor is the file made of the renamed lines


def test_a_pass_stopped_half_way_leaves_no_sorted_file(tmp_path, monkeypatch):
    staged = staged_rows(tmp_path)
    facts = staged.graph_facts

    def failing(graph):
        yield from list(facts(graph))[:2]
        raise OSError("disk full")

    monkeypatch.setattr(staged, "graph_facts", failing)
    with pytest.raises(OSError):
        grouped(staged, tmp_path)
    assert not (tmp_path / "kept.facts").exists()


def test_sources_past_the_bound_are_sorted_with_the_rest(tmp_path, made, monkeypatch):
    """With one file merged at most, the larger source's is (the other has none to merge: not kept), and the
    groups are the same."""
    monkeypatch.setattr(sorted_facts, "_STREAMS", 1)
    staged = staged_rows(tmp_path)
    (tmp_path / "fresh.stamp").write_text("stamp-f", encoding="utf-8")  # both kept now; the fresh rows smaller
    assert grouped(staged, tmp_path) == as_sorted(staged, tmp_path)
    assert made == [tmp_path / "kept.facts"]


def nquads(store: KGStore) -> list[str]:
    return sorted(str(quad) for quad in store.oxigraph.quads_for_pattern(None, None, None))


@pytest.mark.slow  # an on-disk store, two ingests and a resolution
def test_one_more_source_reads_the_first_ones_sorted_facts(tmp_path, made):
    """The first ingest makes its source's sorted facts and written names, the second those of its own source only;
    the graph is the one a resolution that keeps no rows makes (every source read back from the store)."""
    listings = []
    for count, seed in ((300, 1), (60, 2)):
        listings.append(tmp_path / f"synth{seed}.txt")
        with open(listings[-1], "w", encoding="utf-8") as out:
            write_corpus(out, count, seed)
    store = KGStore(str(tmp_path / "store"))
    try:
        ingest([listings[0]], store, Minter())  # the counts in a reader process, which makes the file there
        (first,) = (Path(store.spec) / kept_rows.FOLDER).glob("*.facts")
        assert made == [first.with_suffix(sorted_facts.FORMS)]  # the written names sorted here, by the names' step
        made.clear()
        ingest([listings[1]], store, Minter(), jobs=1)  # here, where the files made are noted
        facts, forms = ([path for path in made if path.suffix == suffix] for suffix in (".facts", sorted_facts.FORMS))
        assert len(facts) == 1 and facts[0] != first and first.is_file()
        assert forms == [facts[0].with_suffix(sorted_facts.FORMS)]  # the second source's alone
        kept = nquads(store)
        shutil.rmtree(Path(store.spec) / kept_rows.FOLDER)
        with resolution_suspended(store, Minter()):
            pass
        assert nquads(store) == kept
    finally:
        store.close()
