"""How long every ``kg … --help`` takes: each command's help in its own process, the best of a few runs.

    python bench/cli_help.py [--runs 5] [--limit 0.3]

For each command: wall and CPU seconds (user + system) of its best run, and the ratio to the floor
any command pays, the same interpreter starting and importing click, measured in the same run.
Exits 1 when a command's help takes more than ``--limit`` CPU seconds: on a shared machine wall
time waits for other work, CPU time does not (on an idle one they are the same). That a help
imports no engine is a test (tests/cli/test_init.py); how long it takes depends on the machine,
so it is measured here.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

KG = Path(sys.executable).with_name("kg")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_run(argv: list[str], runs: int) -> tuple[float, float]:
    """The shortest wall and CPU seconds of ``runs`` runs of ``argv`` (the least disturbed by other work)."""
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), _children_cpu()
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - start)
        cpus.append(_children_cpu() - cpu)
    return min(walls), min(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per command (the best is kept)")
    parser.add_argument("--limit", type=float, default=0.3, help="seconds a help may take")
    args = parser.parse_args()
    from kg.cli import command_paths

    floor_wall, floor_cpu = best_run([sys.executable, "-c", "import click"], args.runs)
    print(f"{'command':<28} {'wall s':>7} {'CPU s':>7}  CPU ÷ floor")
    print(f"{'python -c ' + repr('import click'):<28} {floor_wall:7.3f} {floor_cpu:7.3f}  (the floor)")
    slow = []
    for path in [(), *command_paths()]:
        wall, cpu = best_run([str(KG), *path, "--help"], args.runs)
        name = " ".join(("kg", *path, "--help"))
        print(f"{name:<28} {wall:7.3f} {cpu:7.3f}  {cpu / max(floor_cpu, 1e-3):.1f}×")
        if cpu > args.limit:
            slow.append(name)
    if slow:
        sys.exit(f"over {args.limit} CPU seconds: {', '.join(slow)}")


if __name__ == "__main__":
    main()
