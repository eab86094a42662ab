"""Readers beside a writer: `kg stats` and `kg query` run again and again while `kg build` rebuilds the store.

Every reader must answer (exit 0) from a complete graph, the old or the new: its paper count is
one of the two corpora's. Prints the builds, the reader runs, the failures (0 expected) and the
reader times; exits 1 on any failure.

    python bench/stress_readers.py                       # 5 builds of 2,000 papers, >= 300 readers
    python bench/stress_readers.py --papers 200 --builds 2 --readers 40
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

KG = [str(Path(sys.executable).with_name("kg"))]  # the kg installed beside this Python
READERS = (["stats", "--format", "json"], ["query", "top-institutions", "-p", "limit=5", "--format", "csv"])


def run(args: list[str], env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([*KG, *args], env=env, capture_output=True, text=True, timeout=timeout)


def corpora(folder: Path, papers: int, env: dict[str, str]) -> list[Path]:
    """Two corpora of the same size, so every build changes every source graph."""
    files = []
    for seed in (1, 2):
        path = folder / f"corpus{seed}" / f"synth{seed}.txt"
        path.parent.mkdir()
        done = run(["synth", "--papers", str(papers), "--seed", str(seed), "--out", str(path)], env)
        if done.returncode:
            sys.exit(f"kg synth failed: {done.stderr}")
        files.append(path)
    return files


def reader_loop(env: dict[str, str], stop: threading.Event, counts: set[int], results: list, limit: int) -> None:
    """Readers one after another (two loops run at once) until told to stop or ``limit`` runs are done."""
    turn = 0
    while not stop.is_set() and len(results) < limit:
        args = READERS[turn % len(READERS)]
        turn += 1
        started = time.monotonic()
        done = run(args, env, timeout=120)
        seconds = time.monotonic() - started
        problem = None
        if done.returncode:
            problem = f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
        elif args[0] == "stats" and json.loads(done.stdout).get("papers") not in counts:
            problem = f"a graph neither old nor new: {done.stdout.strip()[:200]}"
        results.append((args[0], seconds, problem))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=2_000)
    parser.add_argument("--builds", type=int, default=5)
    parser.add_argument("--readers", type=int, default=300, help="reader runs at least (more while builds last)")
    parser.add_argument("--loops", type=int, default=2, help="reader loops running at once")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kg-stress-") as scratch:
        folder = Path(scratch)
        env = {**os.environ, "KG_STORE": str(folder / "store"), "KG_WAIT": "600"}
        files = corpora(folder, options.papers, env)
        counts: set[int] = set()
        for path in files:  # the paper count of each corpus's graph, as `kg stats` reports it
            if run(["build", "--out", str(folder / "out"), str(path)], env).returncode:
                sys.exit("the first builds failed")
            counts.add(json.loads(run(["stats", "--format", "json"], env).stdout)["papers"])
        stop, results = threading.Event(), []
        loops = [
            threading.Thread(target=reader_loop, args=(env, stop, counts, results, 10**9)) for _ in range(options.loops)
        ]
        for loop in loops:
            loop.start()
        started, builds, build_seconds = time.monotonic(), 0, []
        while builds < options.builds or len(results) < options.readers:
            build_start = time.monotonic()
            done = run(["build", "--out", str(folder / "out"), str(files[builds % 2])], env)
            build_seconds.append(time.monotonic() - build_start)
            if done.returncode:
                stop.set()
                sys.exit(f"build {builds + 1} failed: {done.stderr.strip()[-500:]}")
            builds += 1
        stop.set()
        for loop in loops:
            loop.join()
        elapsed = time.monotonic() - started
    failures = [(kind, problem) for kind, _, problem in results if problem]
    times = sorted(seconds for _, seconds, _ in results)
    print(
        f"{builds} builds of {options.papers:,} papers (median {statistics.median(build_seconds):.1f} s) "
        f"in {elapsed:.0f} s; {len(results)} reader runs "
        f"({sum(kind == 'stats' for kind, _, _ in results)} kg stats, "
        f"{sum(kind == 'query' for kind, _, _ in results)} kg query) "
        f"from {options.loops} loops at once"
    )
    print(f"reader time: median {statistics.median(times):.2f} s, max {times[-1]:.2f} s")
    print(f"failures: {len(failures)}")
    for kind, problem in failures[:20]:
        print(f"  kg {kind}: {problem}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
