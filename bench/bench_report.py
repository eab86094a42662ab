"""What ``bench/run.py`` prints: each size's routes and queries, this release beside the baseline
release, and the issue's targets with their verdicts."""

from __future__ import annotations

import os

NAIVE_QUERY_TIMEOUT_S = int(os.environ.get("KG_BENCH_NAIVE_TIMEOUT", "60"))  # seconds a naive query may take


def fmt_ms(value: float | None) -> str:
    return f">{NAIVE_QUERY_TIMEOUT_S * 1000:,} ms" if value is None else f"{value:,.1f} ms"


def load() -> str:
    return "load average " + " ".join(f"{value:.1f}" for value in os.getloadavg())


def report(result: dict) -> None:
    papers, kg, engine, naive = result["papers"], result["kg"], result["engine"], result["naive"]
    print(
        (
            f"\n== {papers:,} papers ({result['corpus_mb']:.1f} MB listing, {kg['triples']:,} triples; "
            f"{result['load']} after)"
        )
    )
    print(f"{'route':<28}{'papers/s':>12}{'triples/s':>14}{'seconds':>10}{'CPU s':>10}{'peak MB':>10}")
    for label, run in (
        ("kg ingest (pipeline + load)", kg),
        ("naive (rdflib Graph.add)", naive),
        ("engine (bulk-load N-Quads)", engine),
        ("kg build (end to end)", result["build"]),
    ):
        if run is None:
            skipped = f"above {result['naive_max']:,} papers: would need > 20 GB" if "naive" in label else "--no-build"
            print(f"{label:<28}{'skipped (' + skipped + ')':>56}")
            continue
        print(
            f"{label:<28}{papers / run['seconds']:>12,.0f}{run.get('triples', kg['triples']) / run['seconds']:>14,.0f}"
            f"{run['seconds']:>10.1f}{run['cpu']:>10.1f}{run['peak_mb']:>10,.0f}"
        )
    print(
        (
            f"  (kg's child processes — {kg['jobs']} mapping the listing, then the resolution's "
            f"readers: {kg['worker_peak_mb']:,.0f} MB each at most)"
        )
    )
    engine_share, naive_factor = ingest_ratios(kg, engine, naive)
    print(
        f"kg / engine time: {1 / engine_share:.2f} (throughput {engine_share:.2f})   "
        f"kg / naive throughput: {'-' if naive_factor is None else f'{naive_factor:.1f}x'}"
    )
    if not kg["queries"]:
        print("(no library queries found)")
        return
    print(f"{'query':<28}{'rows':>8}{'kg':>14}{'naive':>16}{'naive / kg':>12}")
    disagree = False
    for name, (ms, rows, *_) in kg["queries"].items():
        slow, naive_rows, *_ = (naive["queries"] if naive else {}).get(name, [None, None])
        ratio = (
            "-"
            if not ms
            else f"{slow / ms:,.0f}x"
            if slow is not None
            else f">{NAIVE_QUERY_TIMEOUT_S * 1000 / ms:,.0f}x"
        )
        mark = "" if naive_rows in (None, rows) else f" *{naive_rows}"
        disagree |= bool(mark)
        if naive is None:
            slow_text, ratio = "-", "-"
        else:
            slow_text = fmt_ms(slow)
        print(f"{name:<28}{rows:>8,}{fmt_ms(ms):>14}{slow_text:>16}{ratio:>12}{mark}")
    if disagree:
        print("* rdflib returned a different number of rows (shown)")
    if result["baseline"]:
        report_baseline(result)


def report_baseline(result: dict) -> None:
    """This release beside the baseline release, measured on the same listing in the same run."""
    papers, now, before = result["papers"], result, result["baseline"]
    print(f"\n-- {papers:,} papers: this release / baseline release (ratios below 1 are gains)")
    print(f"{'measure':<34}{'this':>14}{'baseline':>14}{'ratio':>9}")

    def row(label: str, this: float, base: float, unit: str) -> None:
        print(f"{label:<34}{this:>12,.1f} {unit:<1}{base:>12,.1f} {unit:<1}{this / base if base else 0:>9.2f}")

    routes = [
        ("kg ingest", now["kg"], before["kg"]),
        ("engine bulk load of kg's N-Quads", now["engine"], before["engine"]),
    ]
    if before.get("build") and now["build"]:
        routes.append(("kg build", now["build"], before["build"]))
    for label, this, base in routes:
        row(f"{label}: wall s", this["seconds"], base["seconds"], "")
        row(f"{label}: CPU s", this["cpu"], base["cpu"], "")
        row(f"{label}: peak MB", this["peak_mb"], base["peak_mb"], "")
    row("quads per paper (kg export)", now["kg"]["triples"] / papers, before["kg"]["triples"] / papers, "")
    row("quads per paper (in the store)", now["kg"]["stored"] / papers, before["kg"].get("stored", 0) / papers, "")
    for label, run in (("this", now), ("baseline", before)):
        print(
            f"kg ingest / engine bulk load, {label}: wall {run['kg']['seconds'] / run['engine']['seconds']:.2f}, "
            f"CPU {run['kg']['cpu'] / run['engine']['cpu']:.2f}"
        )
    print(
        f"{'first page of (CPU ms, wall ms)':<34}{'this CPU':>10}{'baseline':>10}{'ratio':>7}"
        f"{'this wall':>11}{'baseline':>10}"
    )
    for name, (ms, _, cpu) in now["kg"]["queries"].items():
        base_ms, _, base_cpu = before["kg"]["queries"].get(name, [None, None, None])
        ratio = f"{cpu / base_cpu:.2f}" if cpu is not None and base_cpu else "-"
        print(f"{name:<34}{fmt(cpu):>10}{fmt(base_cpu):>10}{ratio:>7}{fmt(ms):>11}{fmt(base_ms):>10}")


def fmt(ms: float | None) -> str:
    return "-" if ms is None else f"{ms:,.1f}"


def ingest_ratios(kg: dict, engine: dict, naive: dict | None) -> tuple[float, float | None]:
    """kg's share of the engine's triples/s (both load the same quads), and kg's papers/s over
    the naive route's (whose graph lacks kg's derived graphs, so triples would flatter kg)."""
    engine_share = (kg["triples"] / kg["seconds"]) / (engine["triples"] / engine["seconds"])
    return engine_share, None if naive is None else naive["seconds"] / kg["seconds"]


def verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def targets(results: list[dict]) -> None:
    """The issue's targets (issue 37), each with its verdict."""
    print("\nTargets (issue 37):")
    for result in results:
        papers, kg, engine, before = (result[key] for key in ("papers", "kg", "engine", "baseline"))
        parts = []
        if before:
            ratio = kg["seconds"] / before["kg"]["seconds"]
            cpu = kg["cpu"] / before["kg"]["cpu"]
            parts.append(
                f"kg ingest / baseline wall {ratio:.2f}, CPU {cpu:.2f} (target <= 0.5: {verdict(ratio <= 0.5)})"
            )
        parts.append(
            f"kg ingest / engine wall {kg['seconds'] / engine['seconds']:.2f} (target <= 2: "
            f"{verdict(kg['seconds'] <= 2 * engine['seconds'])})"
        )
        per_paper = kg["triples"] / papers
        parts.append(f"exported quads per paper {per_paper:.1f} (target <= 50: {verdict(per_paper <= 50)})")
        latency = {name: ms if ms is not None else float("inf") for name, (ms, *_) in kg["queries"].items()}
        slowest = max(latency.items(), key=lambda item: item[1], default=("-", 0))
        parts.append(
            f"slowest first page {slowest[0]} {slowest[1]:,.1f} ms (target < 100 ms: "
            f"{verdict(all(ms < 100 for ms in latency.values()))})"
        )
        print(f"  {papers:,} papers: " + "; ".join(parts))
