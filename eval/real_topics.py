"""Topics and introduced artifacts measured on real papers: the gold set ``eval/gold_real.tsv``.

    python -m eval.real_topics                 # the held-out split
    python -m eval.real_topics --split tune    # the split the rules were tuned on
    python -m eval.real_topics --split dev     # the split for reading errors while changing rules
    python -m eval.real_topics --split dev2    # a second dev split, judged blind after dev's rules
    python -m eval.real_topics --errors        # also every wrong, missing and extra judgment

The gold set holds paper ids and judgments only; the papers themselves are read at evaluation
time from the paperlists JSON files in ``../shared/realdata/`` (``$KG_REALDATA`` overrides),
through kg's own paperlists reader, so the text is what ``kg build`` sees.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kg.errors import KgError
from kg.ingest.formats import read_source
from kg.nlp import analyse
from kg.nlp.scheme import topic_scheme
from kg.records import PaperRecord

from .measures import GoldArtifact, Tally
from .realdata import realdata_dir

GOLD = Path(__file__).resolve().parent / "gold_real.tsv"
SPLITS = ("heldout", "tune", "dev", "dev2", "all")


def gold_rows(path: Path = GOLD) -> list[dict]:
    """The gold set's rows: conference, id, split, topics (slugs), artifacts."""
    slug_of = {c.label: c.slug for c in topic_scheme().concepts.values()}
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 5:
            raise KgError(f"{path}:{number}: {len(fields)} fields, expected 5")
        conference, paper_id, split, topics, artifacts = fields
        unknown = [label for label in _items(topics) if label not in slug_of]
        if unknown:
            raise KgError(f"{path}:{number}: not a topic of the scheme: {', '.join(unknown)}")
        rows.append(
            {
                "conference": conference,
                "id": paper_id,
                "split": split,
                "topics": {slug_of[label] for label in _items(topics)},
                "artifacts": [_artifact(item, path, number) for item in _items(artifacts)],
            }
        )
    return rows


def _items(field: str) -> list[str]:
    return [item.strip() for item in field.split(";") if item.strip()]


def _artifact(item: str, path: Path, number: int) -> GoldArtifact:
    names, _, kind = item.rpartition("=")
    if not names:
        raise KgError(f"{path}:{number}: artifact {item!r} is not NAME=KIND")
    return GoldArtifact(tuple(names.split("|")), kind)


def records(folder: Path, conference: str) -> dict[str, PaperRecord]:
    """A conference's papers by OpenReview id, read by kg's paperlists reader."""
    path = folder / f"{conference}.json"
    _, read = read_source(path, path.name, None, "utf-8")
    return {r.openreview_id: r for r in read if isinstance(r, PaperRecord) and r.openreview_id}


def paper_analysis(record: PaperRecord):
    return analyse(record.title, record.abstract, record.summary_zh, record.keywords)


def evaluate(split: str, folder: Path | None = None) -> Tally | None:
    """The tally of a split, or None when the real data is absent."""
    folder = folder or realdata_dir()
    if not folder.is_dir():
        return None
    tally = Tally()
    by_conference: dict[str, dict[str, PaperRecord]] = {}
    for row in gold_rows():
        if split != "all" and row["split"] != split:
            continue
        papers = by_conference.setdefault(row["conference"], records(folder, row["conference"]))
        if row["id"] not in papers:
            raise KgError(f"{GOLD}: paper {row['id']} is not in {folder / row['conference']}.json")
        tally.add(
            f"{row['conference']}/{row['id']}", row["topics"], row["artifacts"], paper_analysis(papers[row["id"]])
        )
    return tally


def report(split: str, errors: bool = False) -> list[str]:
    tally = evaluate(split)
    if tally is None:
        return [f"real papers: skipped, no real data in {realdata_dir()} (set KG_REALDATA)"]
    lines = [f"real papers ({GOLD.name}), split {split}: {tally.papers} papers", *tally.lines()]
    return lines + (tally.errors if errors else [])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=SPLITS, default="heldout")
    parser.add_argument("--errors", action="store_true", help="list every wrong, missing and extra judgment")
    args = parser.parse_args(argv)
    try:
        print("\n".join(report(args.split, args.errors)))
    except KgError as exc:
        print(f"real_topics: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
