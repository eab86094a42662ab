"""Score kg on the real conferences in ``../shared/realdata/`` against their ``*_truth.json``.

    python -m eval.realdata                 # every set found, listing alone and listing + abstracts
    python -m eval.realdata --json          # the scorecards as JSON
    KG_REALDATA=/elsewhere python -m eval.realdata

Each set is built the way ``kg build`` builds it (kg.pipeline.ingest into a throwaway store)
and then read back from the store with SPARQL, so the scores are those of the graph, not of
an intermediate step. A paper of the truth is found in the graph by the file and line its
title is on (``listing_line``), an abstract by ``abstract_line``; nothing is matched on text.
The data is third-party and never copied into the repository (its README says why).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys
import time
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

from kg.pipeline import IngestReport, ingest
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue

INSTITUTION_SCORER = "eval.real_institutions"  # scores institutions (another part of issue 10)


def realdata_dir() -> Path:
    """``$KG_REALDATA``, else ``../shared/realdata`` beside the repository."""
    return Path(os.environ.get("KG_REALDATA") or Path(__file__).resolve().parents[1] / ".." / "shared" / "realdata")


def truth_sets(folder: Path | None = None) -> list[tuple[Path, dict]]:
    folder = folder or realdata_dir()
    if not folder.is_dir():
        return []
    return [(path, json.loads(path.read_text(encoding="utf-8"))) for path in sorted(folder.glob("*_truth.json"))]


def _rows(store: KGStore, body: str) -> list[tuple[str, ...]]:
    return [tuple(getattr(term, "value", None) for term in row) for row in store.select_terms(sparql_prologue() + body)]


def _papers_by_line(store: KGStore, source_name: str) -> dict[int, str]:
    """Line of a source's record -> the paper IRI read from it (not a note on the record, such as a
    rejected institution entry, which is derived from the same record)."""
    rows = _rows(
        store,
        f"""SELECT ?line ?paper WHERE {{
        ?paper a schema:ScholarlyArticle ; prov:wasDerivedFrom ?record .
        ?record kg:line ?line ; prov:wasDerivedFrom ?source .
        ?source dcterms:title {json.dumps(source_name)} }}""",
    )
    return {int(line): paper for line, paper in rows}


def _bylines(store: KGStore) -> dict[str, list[tuple[str, str]]]:
    """Paper IRI -> [(name as written, person IRI)] in byline order."""
    rows = _rows(
        store,
        """SELECT ?paper ?position ?written ?person WHERE {
        ?paper kg:authorship ?a . ?a kg:position ?position ; kg:nameAsWritten ?written ; kg:author ?person }""",
    )
    found: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
    for paper, position, written, person in rows:
        found[paper].append((int(position), written, person))
    return {paper: [(w, p) for _, w, p in sorted(entries)] for paper, entries in found.items()}


def _dated(store: KGStore) -> set[str]:
    """Papers presented at a conference with a year."""
    return {
        row[0]
        for row in _rows(
            store, "SELECT DISTINCT ?paper WHERE { ?paper bibo:presentedAt ?event . ?event schema:startDate ?year }"
        )
    }


def _pair_recall(
    truth: dict, papers: list[dict], by_line: dict[int, str], bylines: dict[str, list[tuple[str, str]]]
) -> float | None:
    """Share of the truth's co-author pairs with >= 2 shared papers that the graph's people share as often."""
    wanted = [(a, b, n) for a, b, n in truth["coauthor_pairs"] if n >= 2]
    if not wanted:
        return None
    person_of: dict[str, set[str]] = defaultdict(set)
    for paper in papers:
        found = bylines.get(by_line.get(paper["listing_line"], ""), [])
        for name, (_, person) in zip(paper["authors"], found):
            person_of[name].add(person)
    shared: Counter = Counter()
    for entries in bylines.values():
        for first, second in combinations(sorted({person for _, person in entries}), 2):
            shared[first, second] += 1

    def together(a: str, b: str) -> int:
        return max((shared[tuple(sorted((pa, pb)))] for pa in person_of[a] for pb in person_of[b]), default=0)

    return sum(together(a, b) >= n for a, b, n in wanted) / len(wanted)


def _abstract_merges(store: KGStore, truth: dict, listing: str, abstracts: str) -> tuple[int, int]:
    """(right, wrong): abstracts that ended on their own listing paper / on another listing paper."""
    listing_papers = _papers_by_line(store, listing)
    abstract_papers = _papers_by_line(store, abstracts)
    line_of_listing_paper = {paper: line for line, paper in listing_papers.items()}
    right = wrong = 0
    for paper in truth["papers"]:
        merged_into = abstract_papers.get(paper.get("abstract_line") or -1)
        if merged_into not in line_of_listing_paper:
            continue
        if line_of_listing_paper[merged_into] == paper["listing_line"]:
            right += 1
        else:
            wrong += 1
    return right, wrong


def _institution_scores(store: KGStore, truth: dict) -> dict:
    if importlib.util.find_spec(INSTITUTION_SCORER) is None:
        return {"institution spelling pairs on one node": "n/a", "nodes merging two institutions": "n/a"}
    scores = importlib.import_module(INSTITUTION_SCORER).institution_scores(store, truth)
    # the examples behind these figures: python -m eval.real_institutions -v
    return {
        "institution spelling pairs on one node": scores["spelling_pairs_together"],
        "institution spelling pairs": scores["pairs"],
        "nodes merging two institutions": scores["merging_nodes"],
    }


def has_abstracts(truth: dict) -> bool:
    """Whether the provider's file gave any abstract (CVF and some ICML / NeurIPS lists give none,
    and their abstracts file is a header alone, which no reader takes for a listing)."""
    return any(paper.get("abstract_line") for paper in truth["papers"])


def builds(sets: list[tuple[Path, dict]]) -> list[tuple[Path, dict, bool]]:
    """(truth path, truth, with abstracts): the listing alone, and listing + abstracts where there are any."""
    return [
        (path, truth, with_abstracts)
        for path, truth in sets
        for with_abstracts in (False, True)
        if not with_abstracts or has_abstracts(truth)
    ]


def score(truth_path: Path, truth: dict, with_abstracts: bool) -> dict:
    """Build one set into a throwaway store and score the graph."""
    folder = truth_path.parent
    listing, abstracts = truth["files"]["listing"], truth["files"]["abstracts"]
    files = [folder / listing] + ([folder / abstracts] if with_abstracts else [])
    store = KGStore("memory")
    started = time.perf_counter()
    report: IngestReport = ingest(files, store, Minter())
    seconds = time.perf_counter() - started
    papers = truth["papers"]
    by_line = _papers_by_line(store, listing)
    bylines = _bylines(store)
    dated = _dated(store)
    found = [by_line.get(paper["listing_line"]) for paper in papers]
    exact = sum(
        iri is not None and [w for w, _ in bylines.get(iri, [])] == paper["authors"]
        for iri, paper in zip(found, papers)
    )
    listing_report = report.sources[0]
    card = {
        "set": truth["set"],
        "input": "listing + abstracts" if with_abstracts else "listing",
        "papers in file": len(papers),
        "papers in graph": len(set(by_line.values())),
        "records read": listing_report.read,
        "records rejected": len(listing_report.rejections),
        "exact bylines": exact / len(papers),
        "co-author pair recall (>= 2 papers)": _pair_recall(truth, papers, by_line, bylines),
        **_institution_scores(store, truth),
        "papers with venue and year": sum(iri in dated for iri in found if iri) / len(papers),
    }
    if with_abstracts:
        right, wrong = _abstract_merges(store, truth, listing, abstracts)
        with_abstract = sum(bool(paper.get("abstract_line")) for paper in papers)
        card["abstracts merged right"] = right / with_abstract if with_abstract else None
        card["abstracts merged wrong"] = wrong
    card["run time (s)"] = round(seconds, 1)
    store.close()
    return card


def _shown(row: str, value) -> str:
    if isinstance(value, float):
        return f"{value:.1f}" if row.startswith("run time") else f"{value:.3f}"
    return "n/a" if value is None else str(value)


def scorecard(cards: list[dict]) -> str:
    """One column per build, one row per measure."""
    rows = [key for key in max(cards, key=len) if key not in ("set", "input")]
    heads = [f"{card['set']} {'+abs' if card['input'] != 'listing' else 'listing'}" for card in cards]
    width = max(map(len, rows))
    cell = max(12, *map(len, heads))
    lines = [" " * width + "".join(f"  {head:>{cell}}" for head in heads)]
    for row in rows:
        lines.append(
            f"{row:<{width}}" + "".join(f"  {_shown(row, card[row]) if row in card else '':>{cell}}" for card in cards)
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the scorecards as JSON")
    args = parser.parse_args(argv)
    sets = truth_sets()
    if not sets:
        print(f"no real data in {realdata_dir()} (set KG_REALDATA); nothing to score", file=sys.stderr)
        return 0
    cards = [score(path, truth, with_abstracts) for path, truth, with_abstracts in builds(sets)]
    print(json.dumps(cards, indent=2) if args.json else scorecard(cards))
    return 0


if __name__ == "__main__":
    sys.exit(main())
