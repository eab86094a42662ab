"""Paper merges from the side index (kg/resolve/merge_memo.py): the decisions of a whole comparison after every step
of sources added, changed and removed, and a damaged or foreign database never read."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from kg.rdf.iris import Minter
from kg.rdf.side_rows import PAPER, fact_line
from kg.resolve import merge_memo
from kg.resolve.merge_memo import _headers, _Index, decided_merges, merge_index
from kg.resolve.paper_facts import PaperFacts, staged_papers
from kg.resolve.papers import find_merges
from kg.resolve.staged_rows import StagedRows
from kg.stores.embedded import KGStore

from .test_abstract_join import VENUE, venue_papers

LISTING, ABSTRACTS, MORE = (f"http://ex/source/{name}" for name in ("listing", "abstracts", "more"))


def more_papers(version: int) -> list[PaperFacts]:
    """A third source: a paper of a DOI the listing gives, an abstract near one of the abstracts file's, a coined
    name another source's abstract introduces, and (version 2) a second candidate for the DOI (ambiguous)."""
    titled, untitled = venue_papers()
    papers = [
        PaperFacts("p:doi", MORE, title="Another Title", urls={"https://doi.org/10.1145/3597503"}, venues=set(VENUE)),
        PaperFacts("p:near", MORE, abstract=untitled[3].abstract + " Code is released.", venues=set(VENUE), line=2),
        PaperFacts("p:mlu", MORE, title="MLUBench: A Benchmark for Machine Learning Units", line=3),
    ]
    if version == 2:
        papers.append(PaperFacts("p:doi2", MORE, abstract="An abstract.", urls={"https://doi.org/10.1145/3597503"}))
    return papers


def sources(step: int) -> dict[str, list[PaperFacts]]:
    """The sources of each step: added, a third added, the abstracts removed, the third changed, the abstracts back
    with two papers fewer."""
    titled, untitled = venue_papers()
    titled = [*titled, PaperFacts("p:t-doi", LISTING, title="Doi Paper", urls={"https://doi.org/10.1145/3597503"})]
    untitled.append(
        PaperFacts("p:mlu-a", ABSTRACTS, abstract="We introduce MLUBench, a benchmark for machine learning units.")
    )
    steps = [
        {LISTING: titled, ABSTRACTS: untitled},
        {LISTING: titled, ABSTRACTS: untitled, MORE: more_papers(1)},
        {LISTING: titled, MORE: more_papers(1)},
        {LISTING: titled, MORE: more_papers(2)},
        {LISTING: titled, ABSTRACTS: untitled[2:], MORE: more_papers(2)},
    ]
    return steps[step]


def written(folder: Path, step: int) -> StagedRows:
    """The step's sources as kept rows (paper lines) with a stamp each, as kg/resolve/kept_rows.py keeps them."""
    files = {}
    for graph, papers in sources(step).items():
        rows = folder / f"{graph.rsplit('/', 1)[-1]}.side"
        lines = []
        for paper in papers:
            lines.append(fact_line(paper.iri, "paper", ""))
            lines += [fact_line(paper.iri, kind, json.dumps(getattr(paper, kind))) for kind in ("title", "abstract")]
            lines += [fact_line(paper.iri, "url", url) for url in sorted(paper.urls)]
            lines += [fact_line(paper.iri, "venue", venue) for venue in sorted(paper.venues)]
            lines += [fact_line(paper.iri, "line", str(paper.line))] if paper.line is not None else []
        text = "".join(PAPER + line for line in lines if "\tnull\n" not in line)
        if not rows.is_file() or rows.read_text(encoding="utf-8") != text:
            rows.write_text(text, encoding="utf-8")
            rows.with_suffix(".stamp").write_text(f"{graph} {len(text)}", encoding="utf-8")
        files[graph] = rows
    return StagedRows(files=files)


def whole(staged: StagedRows):
    papers = staged_papers(staged)
    return find_merges([papers[key] for key in sorted(papers)])


def test_the_index_decides_as_a_whole_comparison_at_every_step(tmp_path):
    database = tmp_path / "paper-merges.memo"
    kinds = set()
    for step in range(5):
        staged = written(tmp_path, step)
        with _Index(database) as index:
            decisions = index.decisions(staged, _headers(staged))
        assert decisions == whole(staged)
        kinds |= {kind for merge in decisions.merges for kind in merge.evidence}
        assert (step >= 3) == bool(decisions.ambiguous)  # a paper of one DOI with a paper it absorbs
    # every kind of evidence was met, so the pairs and the venue's joins were kept and made again
    assert {"title-abstract", "same-doi", "text-similarity", "coined-name"} <= kinds


def test_an_unchanged_step_reads_no_rows_again(tmp_path, monkeypatch):
    database = tmp_path / "paper-merges.memo"
    staged = written(tmp_path, 1)
    with _Index(database) as index:
        first = index.decisions(staged, _headers(staged))
    monkeypatch.setattr(merge_memo, "staged_papers", lambda staged, graphs: {} if not graphs else 1 / 0)
    with _Index(database) as index:
        assert index.decisions(staged, _headers(staged)) == first


def test_a_run_that_fails_leaves_the_last_runs_index(tmp_path, monkeypatch):
    database = tmp_path / "paper-merges.memo"
    staged = written(tmp_path, 0)
    with _Index(database) as index:
        index.decisions(staged, _headers(staged))
    monkeypatch.setattr(merge_memo, "found_pair", lambda key, first, second: 1 / 0)
    staged = written(tmp_path, 2)
    try:
        with _Index(database) as index:
            index.decisions(staged, _headers(staged))
    except ZeroDivisionError:
        pass
    with sqlite3.connect(database) as kept:
        assert sorted(graph for (graph,) in kept.execute("SELECT graph FROM graphs")) == [ABSTRACTS, LISTING]


def test_a_damaged_database_is_made_again_and_a_source_without_stamp_compares_all(tmp_path):
    store = KGStore(str(tmp_path / "store"))
    (tmp_path / "store" / "kg-side").mkdir()
    staged = written(tmp_path, 1)
    path = merge_index(tmp_path / "store" / "kg-side")
    path.write_text("not a database", encoding="utf-8")
    (path.parent / "paper-merges.another-code.memo").write_text("", encoding="utf-8")
    minter = Minter("http://ex/")
    assert decided_merges(store, minter, staged) == whole(staged)
    assert list(path.parent.iterdir()) == []  # the damaged one and another code's are gone
    assert decided_merges(store, minter, staged) == whole(staged)
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM graphs").fetchone() == (3,)
    staged.files[MORE].with_suffix(".stamp").unlink()
    assert _headers(staged) is None
    assert decided_merges(store, minter, staged) == whole(staged)


def test_a_graph_without_rows_that_states_a_paper_has_every_paper_compared(tmp_path):
    store = KGStore(str(tmp_path / "store"))
    (tmp_path / "store" / "kg-side").mkdir()
    staged = written(tmp_path, 1)
    store.update("INSERT DATA { GRAPH <http://ex/source/other> { <p:x> a <https://schema.org/ScholarlyArticle> } }")
    assert decided_merges(store, Minter("http://ex/"), staged) == whole(staged)
    assert merge_index(tmp_path / "store" / "kg-side").is_file() is False
