"""Benchmark of the network measures and the site at scale: `kg graph stats` and `kg site`.

For each size: a synthetic listing (`kg synth`, seed 1) built into an on-disk store with
`kg ingest` (not timed here: bench/run.py measures ingest), then, each as its own process
so that time, CPU time (user + sys) and peak memory (``ru_maxrss``, all from ``wait4``) are
that command's own: `kg graph stats` for the three networks and `kg site`. The machine is
shared, so CPU time is the figure to compare; the load average is printed beside it.

    .venv/bin/python bench/graphs.py --sizes 20000 100000 [--scratch DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KG = Path(sys.executable).with_name("kg")


def timed(*args: str) -> tuple[float, float, float, str]:
    """(seconds, CPU seconds, peak MB, output) of one kg command in its own process."""
    started = time.perf_counter()
    process = subprocess.Popen([str(KG), *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = process.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"kg {' '.join(args)} failed:\n{output}")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, output


def bench(papers: int, scratch: Path) -> None:
    corpus, store, site = scratch / f"synth-{papers}.txt", scratch / f"store-{papers}", scratch / f"site-{papers}"
    if not store.exists():
        print(f"  {papers:,} papers: writing and ingesting the corpus (not timed)", file=sys.stderr)
        subprocess.run([str(KG), "synth", "--papers", str(papers), "--seed", "1", "--out", str(corpus)], check=True)
        subprocess.run([str(KG), "ingest", str(corpus), "--store", str(store)], check=True, stdout=subprocess.DEVNULL)
    print(f"\n== {papers:,} papers (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(f"{'command':<30}{'wall s':>8}{'CPU s':>8}{'peak MB':>9}  first lines")
    for name in ("coauthors", "institutions", "topics"):
        seconds, cpu, peak, output = timed("graph", "stats", name, "--store", str(store))
        lines = output.splitlines()
        print(f"{'kg graph stats ' + name:<30}{seconds:>8.1f}{cpu:>8.1f}{peak:>9,.0f}  {lines[0] if lines else ''}")
        print(f"{'':<57}{lines[1] if len(lines) > 1 else ''}")
    seconds, cpu, peak, output = timed("site", "--store", str(store), "--out", str(site))
    files = sum(1 for _ in site.rglob("*.html"))
    size = sum(path.stat().st_size for path in site.rglob("*") if path.is_file()) / 2**20
    print(f"{'kg site':<30}{seconds:>8.1f}{cpu:>8.1f}{peak:>9,.0f}  {files:,} pages, {size:,.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 100_000])
    parser.add_argument("--scratch", type=Path, default=None, help="Keep corpora and stores here (reused if present).")
    args = parser.parse_args()
    print(f"kg graph benchmark: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory(prefix="kg-bench-graphs-") as temporary:
        scratch = args.scratch or Path(temporary)
        scratch.mkdir(parents=True, exist_ok=True)
        for papers in args.sizes:
            bench(papers, scratch)


if __name__ == "__main__":
    main()
