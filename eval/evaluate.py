"""Measure the topic tagger and the artifact extractor against the gold set (eval/gold.json).

    python -m eval.evaluate              # held-out part: real papers first, then the synthetic set
    python -m eval.evaluate --split tune # the part the rules were tuned on
    python -m eval.evaluate --split dev  # real papers only: the split for reading errors (dev2 too)
    python -m eval.evaluate --errors     # also list every miss and false hit

Reads the papers through kg's own input formats, so the text is exactly what ``kg build`` sees.
Topic sets are closed under skos:broader before comparing (hierarchical P/R/F1); the flat
numbers compare the gold concepts with the concepts found directly in the text.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from kg.errors import KgError
from kg.ingest.formats import read_source
from kg.nlp import analyse, pipeline
from kg.nlp.scheme import topic_scheme
from kg.records import PaperRecord
from kg.text.names import match_key

from . import real_topics
from .measures import GoldArtifact, Tally

PROJECT_DIR = Path(__file__).resolve().parents[1]  # sample paths in the gold set are relative to the checkout
GOLD = PROJECT_DIR / "eval" / "gold.json"


# The synthetic set has no dev split: dev and dev2 are real papers only.
SYNTHETIC_SPLITS = ("heldout", "tune", "all")


def load_items(split: str) -> list[tuple[dict, PaperRecord]]:
    """Gold items of a split with their records, checked against the text they claim to start with."""
    gold = json.loads(GOLD.read_text(encoding="utf-8"))["items"]
    records: dict[str, list[PaperRecord]] = {}
    chosen = []
    for item in gold:
        if split != "all" and item["split"] != split:
            continue
        path, number = item["key"].rsplit("#", 1)
        if path not in records:
            _, read = read_source(PROJECT_DIR / path, path, None, "utf-8")
            records[path] = [r for r in read if isinstance(r, PaperRecord)]
        record = records[path][int(number) - 1]
        if not (record.title or record.abstract or "").startswith(item["starts"]):
            raise KgError(f"{GOLD}: {item['key']} does not start with {item['starts']!r}")
        chosen.append((item, record))
    return chosen


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def evaluate(split: str, errors: bool = False, repeats: int = 5) -> dict[str, float]:
    scheme = topic_scheme()
    slug_of = {c.label: c.slug for c in scheme.concepts.values()}
    items = load_items(split)
    pipeline()  # built once, outside the timing
    counts = dict.fromkeys(("htp", "hfp", "hfn", "ftp", "ffp", "ffn", "atp", "afp", "afn", "typed"), 0)
    timings = []
    tally = Tally()
    for item, record in items:
        started = time.perf_counter()
        for _ in range(repeats):
            analysis = analyse(record.title, record.abstract, record.summary_zh)
        timings.append((time.perf_counter() - started) / repeats * 1000)
        gold_topics = {slug_of[label] for label in item["topics"]}
        tally.add(item["key"], gold_topics, [GoldArtifact((n,), k) for n, k in item["artifacts"].items()], analysis)
        direct = {t.slug for t in analysis.topics}
        found, expected = scheme.closure({t.slug for t in analysis.topics}), scheme.closure(gold_topics)
        counts["htp"] += len(found & expected)
        counts["hfp"] += len(found - expected)
        counts["hfn"] += len(expected - found)
        counts["ftp"] += len(direct & gold_topics)
        counts["ffp"] += len(direct - gold_topics)
        counts["ffn"] += len(gold_topics - direct)
        gold_artifacts = {match_key(name): (name, kind) for name, kind in item["artifacts"].items()}
        got = {match_key(a.name): (a.name, a.kind) for a in analysis.artifacts}
        for key in got.keys() & gold_artifacts.keys():
            counts["atp"] += 1
            counts["typed"] += got[key][1] == gold_artifacts[key][1]
            if errors and got[key][1] != gold_artifacts[key][1]:
                print(f"{item['key']}: type of {got[key][0]} is {got[key][1]}, gold {gold_artifacts[key][1]}")
        counts["afp"] += len(got.keys() - gold_artifacts.keys())
        counts["afn"] += len(gold_artifacts.keys() - got.keys())
        if errors:
            for slug in sorted(direct - expected):
                print(f"{item['key']}: extra topic {slug}")
            for slug in sorted(gold_topics - direct):
                print(f"{item['key']}: missed topic {slug}")
            for key in sorted(got.keys() - gold_artifacts.keys()):
                print(f"{item['key']}: extra artifact {got[key]}")
            for key in sorted(gold_artifacts.keys() - got.keys()):
                print(f"{item['key']}: missed artifact {gold_artifacts[key]}")
    hp, hr, hf = prf(counts["htp"], counts["hfp"], counts["hfn"])
    fp_, fr, ff = prf(counts["ftp"], counts["ffp"], counts["ffn"])
    ap, ar, af = prf(counts["atp"], counts["afp"], counts["afn"])
    return {
        "papers": len(items),
        "topic_p": hp,
        "topic_r": hr,
        "topic_f1": hf,
        "flat_p": fp_,
        "flat_r": fr,
        "flat_f1": ff,
        "artifact_p": ap,
        "artifact_r": ar,
        "artifact_f1": af,
        "artifacts_found": counts["atp"],
        "type_accuracy": counts["typed"] / counts["atp"] if counts["atp"] else 1.0,
        "ms_median": statistics.median(timings),
        "ms_max": max(timings),
        "tally": tally,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=real_topics.SPLITS, default="heldout")
    parser.add_argument("--errors", action="store_true", help="list every miss and false hit")
    args = parser.parse_args(argv)
    try:
        print("\n".join(real_topics.report(args.split, args.errors)))
        if args.split not in SYNTHETIC_SPLITS:
            return 0
        m = evaluate(args.split, args.errors)
    except KgError as exc:
        print(f"evaluate: error: {exc}", file=sys.stderr)
        return 1
    print(f"\nsynthetic abstracts ({GOLD.name}), split {args.split}: {m['papers']} papers")
    print("\n".join(m["tally"].lines()))
    print(f"topics (hierarchical)   P {m['topic_p']:.2f}  R {m['topic_r']:.2f}  F1 {m['topic_f1']:.2f}")
    print(f"topics (flat, direct)   P {m['flat_p']:.2f}  R {m['flat_r']:.2f}  F1 {m['flat_f1']:.2f}")
    print(f"speed                   {m['ms_median']:.2f} ms per paper (median), {m['ms_max']:.2f} ms max")
    return 0


if __name__ == "__main__":
    sys.exit(main())
