"""The kept rows of the lists about an institution (kg/resolve/list_store.py): brought up to date from a run's lines,
they are the rows the twins make from every line (kg/resolve/list_rows.py), in the same order; a database that does
not hold (another run's names, a hand edit, a damaged file, a run killed after its commit) is made again."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from kg.resolve import list_store
from kg.resolve.list_lines import TwinFiles
from kg.resolve.list_rows import INSTITUTION_AUTHORS, INSTITUTION_AUTHORS_PER_AUTHOR, INSTITUTION_PAPERS
from kg.resolve.list_store import kept_lists, remembered_list_rows
from kg.resolve.name_list_memo import NamesChanged

TWINS = (INSTITUTION_AUTHORS, INSTITUTION_AUTHORS_PER_AUTHOR, INSTITUTION_PAPERS)
INSTITUTIONS = [f"http://ex/org/{name}" for name in ("a", "b", "c", "é")]
PEOPLE = [f"http://ex/person/{n}" for n in range(12)]


def paper_line(paper: str, rng: random.Random) -> str:
    """A paper's line as the counts' pass writes it (kg/resolve/list_lines.py, ListedPaper)."""
    listed = sorted(rng.sample(INSTITUTIONS, rng.randint(0, 2)))
    authors = rng.sample(PEOPLE, rng.randint(1, 4))
    within = sorted({(rng.choice(INSTITUTIONS), rng.choice(authors)) for _ in range(rng.randint(0, 2))})
    years = sorted(rng.sample(["1999", "2019", "2021", "2023"], rng.randint(0, 2)), key=int)
    titles = "\x1f".join(json.dumps(title) for title in rng.sample(["Zeta", "alpha", "Émile"], rng.randint(0, 2)))
    venues = "\x1f".join(json.dumps(venue) for venue in rng.sample([["Conf", ""], ["Conf", "en"]], rng.randint(0, 2)))
    tracks = " ".join(rng.sample(["http://ex/t#main", "http://ex/t#demo", "http://ex/t"], rng.randint(0, 2)))
    fields = [
        paper,
        " ".join(sorted(set(listed) | {institution for institution, _ in within})),
        " ".join(listed),
        " ".join(authors),
        " ".join(value for pair in within for value in pair),
        rng.choice(["1", ""]),
        f"{years[0]}\t{years[-1]}" if years else "\t",
        titles,
        venues,
        tracks,
    ]
    return "\t".join(fields) + "\n"


def write_run(folder: Path, papers: dict[str, str], names: dict[str, list[str]]) -> TwinFiles:
    """A run's lines (papers in IRI order) and people's display names."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "papers").write_text("".join(papers[paper] for paper in sorted(papers)), encoding="utf-8")
    shown = "".join(f"{person}\t{json.dumps(name)}\n" for person in sorted(names) for name in names[person])
    (folder / "names").write_text(shown, encoding="utf-8")
    return TwinFiles.in_folder(folder, folder / "names", folder)


def rows_of(rows: TwinFiles) -> list:
    """Every twin's rows of every institution, as RDF terms."""
    return [(entity, list(ranked)) for twin in TWINS for entity, ranked in twin.lists(None, rows, [*INSTITUTIONS, "x"])]


def kept_rows_of(rows: TwinFiles, side: Path, changed: NamesChanged) -> tuple[list, bool]:
    """The rows made from the kept database, and whether it was made from every line."""
    kept = kept_lists(side, changed)
    try:
        made = rows_of(TwinFiles(**{**rows.__dict__, "kept": kept}))
    finally:
        kept.close()
    return made, kept.full


def corpus(seed: int, count: int = 60) -> dict[str, str]:
    rng = random.Random(seed)
    return {f"http://ex/paper/{n:03}": paper_line(f"http://ex/paper/{n:03}", rng) for n in range(count)}


NAMES = {person: [f"Person {n % 5}", f"P{n}"] for n, person in enumerate(PEOPLE[:-1])}  # the last one has none


def test_rows_brought_up_to_date_are_the_twins_rows(tmp_path):
    """Papers changed, gone and added, and names changed, run after run: the rows are those of every line."""
    side = tmp_path / "kg-side"
    side.mkdir()
    papers, names, since, rename = corpus(0), dict(NAMES), None, set()
    for step in range(6):
        rng = random.Random(step)
        rows = write_run(tmp_path / str(step), papers, names)
        made, full = kept_rows_of(rows, side, NamesChanged(since, rename, str(step)))
        assert made == rows_of(rows) and any(ranked for _, ranked in made)
        assert full == (step == 0)
        since = str(step)
        for paper in rng.sample(sorted(papers), 10):
            del papers[paper]
        papers.update(corpus(100 + step, 70))  # some papers changed, others added
        rename = set(rng.sample(PEOPLE, 3))
        names = {**names, **{person: [f"Renamed {step}"] for person in rename}}
        names.pop(rng.choice(PEOPLE), None)
        rename.update(set(NAMES) - set(names))


def test_a_paper_taken_off_takes_its_years_off(tmp_path):
    """The first and last year survive taking a paper off: the smallest and largest of the papers left."""
    side = tmp_path / "kg-side"
    side.mkdir()
    line = "http://ex/p/{0}\thttp://ex/org/a\thttp://ex/org/a\thttp://ex/person/1\t\t1\t{1}\t{1}\t\t\t\n"
    papers = {f"http://ex/p/{year}": line.format(year, year) for year in ("1999", "2019", "2023")}
    names = {"http://ex/person/1": ["Ada"]}
    kept_rows_of(write_run(tmp_path / "1", papers, names), side, NamesChanged(None, set(), "1"))
    del papers["http://ex/p/2023"], papers["http://ex/p/1999"]
    rows = write_run(tmp_path / "2", papers, names)
    made, full = kept_rows_of(rows, side, NamesChanged("1", set(), "2"))
    assert not full and made == rows_of(rows)
    per_author = dict(made[len(INSTITUTIONS) + 1 : 2 * len(INSTITUTIONS) + 2])
    assert [(row[3].value, row[4].value, row[5].value) for row in per_author["http://ex/org/a"]] == [
        ("1", "2019", "2019")
    ]


def _first_run(tmp_path: Path) -> tuple[Path, TwinFiles, Path]:
    side = tmp_path / "kg-side"
    side.mkdir()
    rows = write_run(tmp_path / "1", corpus(0), NAMES)
    kept_rows_of(rows, side, NamesChanged(None, set(), "1"))
    return side, write_run(tmp_path / "2", corpus(1), NAMES), remembered_list_rows(side)


def _hand_edit(path: Path) -> None:
    with sqlite3.connect(path) as database:
        database.execute("UPDATE authors SET papers = papers + 7")


def _damage(path: Path) -> None:
    path.write_bytes(b"not a database" * 100)


def _unstamp(path: Path) -> None:
    path.with_suffix(".memo-stamp").unlink()


FALLBACKS = {
    "a hand edit": (_hand_edit, "1"),
    "a damaged file": (_damage, "1"),
    "no stamp (a run killed after its commit)": (_unstamp, "1"),
    "another run's names": (lambda path: None, "0"),
    "names not remembered": (lambda path: None, None),
}


@pytest.mark.parametrize("case", sorted(FALLBACKS))
def test_a_database_that_does_not_hold_is_made_again(case, tmp_path):
    side, rows, path = _first_run(tmp_path)
    spoil, since = FALLBACKS[case]
    spoil(path)
    made, full = kept_rows_of(rows, side, NamesChanged(since, set(), "2"))
    assert full and made == rows_of(rows)


def test_a_run_killed_while_writing_leaves_the_last_runs_rows(tmp_path, monkeypatch):
    side, rows, path = _first_run(tmp_path)
    with monkeypatch.context() as patch:
        patch.setattr(list_store, "_count_spans", lambda *args: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            kept_rows_of(rows, side, NamesChanged("1", set(), "2"))
    made, full = kept_rows_of(rows, side, NamesChanged("1", set(), "2"))
    assert not full and made == rows_of(rows)


def test_the_database_of_another_code_goes(tmp_path):
    side = tmp_path / "kg-side"
    side.mkdir()
    other = side / "list-rows.0123.memo"
    other.write_bytes(b"")
    (side / "list-rows.0123.memo-stamp").write_text("0", encoding="utf-8")
    kept_rows_of(write_run(tmp_path / "1", corpus(0), NAMES), side, NamesChanged(None, set(), "1"))
    assert sorted(path.name for path in side.iterdir()) == sorted(
        [remembered_list_rows(side).name, remembered_list_rows(side).with_suffix(".memo-stamp").name]
    )


def test_a_store_without_a_folder_keeps_nothing(tmp_path):
    assert kept_lists(None, NamesChanged()) is None
    assert kept_lists(tmp_path / "none", NamesChanged()) is None


def test_a_person_named_again_is_ranked_by_the_new_name(tmp_path):
    """No paper changed, a person's names chosen again (NamesChanged): the rows re-keyed by the new name."""
    side, _, _ = _first_run(tmp_path)
    renamed = {**NAMES, PEOPLE[0]: ["Aaron"], PEOPLE[1]: ["Zed"]}
    del renamed[PEOPLE[2]]
    rows = write_run(tmp_path / "2", corpus(0), renamed)
    made, full = kept_rows_of(rows, side, NamesChanged("1", set(PEOPLE[:3]), "2"))
    assert not full and made == rows_of(rows) != rows_of(write_run(tmp_path / "3", corpus(0), NAMES))


def test_a_lists_texts_are_its_rows_terms_as_pyoxigraph_writes_them(tmp_path):
    """The kept rows are read as N-Triples texts (what a list's lines are made of, kg/query/rankings.py): the texts
    of the twins' terms, escapes and language tags included, any prefix of them; and counted as many."""
    side = tmp_path / "kg-side"
    side.mkdir()
    names = {**NAMES, PEOPLE[0]: ['Say "hi"\n\\ \x7f\ufffe'], PEOPLE[1]: ["Ädå\tLovelace"]}
    rows = write_run(tmp_path / "1", corpus(3), names)
    kept, made = kept_lists(side, NamesChanged(None, set(), "1")), []
    try:
        for twin in TWINS:
            whole = dict(twin.lists(None, rows, INSTITUTIONS))
            for entity, ranked in twin.lists(None, TwinFiles(**{**rows.__dict__, "kept": kept}), INSTITUTIONS):
                written = [tuple(None if term is None else str(term) for term in row) for row in whole[entity]]
                assert len(ranked) == len(written) and ranked.texts(len(ranked) + 5) == written
                assert ranked.texts(3) == written[:3]
                made += written
    finally:
        kept.close()
    assert any('"Say \\"hi\\"\\n\\\\ \\u007F\\uFFFE"' in row for row in made)
    assert any("@en" in (text or "") for row in made for text in row)
