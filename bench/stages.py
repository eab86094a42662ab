"""Where an ingest's time and memory go: wall, CPU and peak memory per stage.

    .venv/bin/python bench/stages.py LISTING STORE [--jobs N]   # kg ingest of LISTING into STORE
    .venv/bin/python bench/stages.py --resolve-only STORE         # the resolution step again, on STORE
    .venv/bin/python bench/stages.py --map-only LISTING           # reading and mapping alone: mapping processes' memory
    .venv/bin/python bench/stages.py --exports STORE OUT           # what kg build does after the ingest, on STORE
    .venv/bin/python bench/stages.py --exports --one-by-one STORE OUT   # the same with the export before the pages

Each stage is one the pipeline reports to the terminal (reading, loading, each part of the
resolution); its peak is the main process's resident high-water mark, which the kernel resets at each
stage's start (no sampling thread: one that made Python objects dropped the engine's query results on a
thread other than theirs, which pyoxigraph refuses with a traceback). The mapping
processes' peak is printed at the end (they are reaped when reading is over); ``--map-only`` maps a
listing with no store and prints their resident memory every minute, to show whether it grows with
the corpus. The machine may be
shared: CPU time and peaks are what compare across runs, the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import threading
import time
from pathlib import Path


def _status_mb(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        return next(int(line.split()[1]) // 1024 for line in status if line.startswith(field + ":"))


def resident_mb() -> int:
    return _status_mb("VmRSS")


def stage_peak_mb() -> int:
    """The resident high-water mark since :func:`reset_peak` (or since the process started)."""
    return _status_mb("VmHWM")


def reset_peak() -> None:
    """Start the high-water mark again from the memory resident now (Linux: ``/proc/PID/clear_refs``)."""
    with open("/proc/self/clear_refs", "w", encoding="ascii") as clear_refs:
        clear_refs.write("5")


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class StageClock:
    """Called with each stage's name as it starts; prints the stage that ended."""

    def __init__(self, first: str):
        self.name, self.started, self.cpu = first, time.perf_counter(), cpu_seconds()
        self.began, self.run_peak = self.started, stage_peak_mb()  # the run's peak: the stages' (reset below)
        reset_peak()

    def __call__(self, name: str) -> None:
        now, cpu, peak = time.perf_counter(), cpu_seconds(), stage_peak_mb()
        self.run_peak = max(self.run_peak, peak)
        print(f"{self.name:<58}{now - self.started:>9.1f} s{cpu - self.cpu:>9.1f} s CPU{peak:>8,} MB", flush=True)
        self.name, self.started, self.cpu = name, now, cpu
        reset_peak()

    def finish(self) -> None:
        self("")
        print(
            f"{'whole run':<58}{time.perf_counter() - self.began:>9.1f} s{cpu_seconds():>9.1f} s CPU"
            f"{self.run_peak:>8,} MB"
        )
        workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
        if workers:
            print(f"child processes (mapping; reading beside the main one): {workers:,} MB each at most")
        print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def _children_mb(parent: int) -> list[int]:
    """The resident memory of the processes ``parent`` started (the mapping processes)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                if stat.read().rsplit(")", 1)[1].split()[1] != str(parent):
                    continue
            with open(f"/proc/{pid}/status", encoding="ascii") as status:
                found.append(next(int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS")))
        except (OSError, StopIteration):
            pass  # gone meanwhile
    return sorted(found)


def map_only(listing: Path, jobs: int | None) -> None:
    """Read and map a listing into nothing, printing every minute the records mapped and the mapping processes'
    memory."""
    from kg.ingest.formats import read_source
    from kg.orgs.aliases import active_aliases
    from kg.pipeline import publication_facts
    from kg.processes import default_jobs
    from kg.rdf.iris import Minter
    from kg.rdf.staging import Stager
    from kg.records import Rejection

    mapped, started = [0], time.perf_counter()

    def report() -> None:
        while True:
            time.sleep(60)
            print(
                f"{mapped[0]:>11,} records  {time.perf_counter() - started:>7.0f} s  "
                f"mapping processes {_children_mb(os.getpid())} MB",
                flush=True,
            )

    def records():
        for item in read_source(listing, listing.name, None, "utf-8")[1]:
            if not isinstance(item, Rejection):
                mapped[0] += 1
                yield item

    threading.Thread(target=report, daemon=True).start()
    with open(os.devnull, "wb") as nowhere, Stager(Minter(), active_aliases(), jobs or default_jobs()) as stager:
        stager.write(listing.name, publication_facts(records()), nowhere, nowhere)
    # the mapping processes were reaped when the stager closed: their peak is the children's
    print(
        f"{mapped[0]:,} records in {time.perf_counter() - started:.0f} s; main process peak "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024:,} MB; mapping processes "
        f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024:,} MB each at most"
    )


def exports(store_path: Path, out_dir: Path, one_by_one: bool) -> StageClock:
    """The stages ``kg build`` runs after its ingest, each network page its own stage: the export in
    its own process while the pages are written, as kg build runs it, or ``one_by_one`` before them."""
    from kg.exports.background import export_beside
    from kg.exports.rdf import export
    from kg.graphs.networks import HEADINGS, KINDS, LINKS, network
    from kg.graphs.render import write_html
    from kg.query.stats import graph_stats, stored_stats
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore

    clock = StageClock("opening the store")
    store = KGStore(str(store_path))
    clock("counting")
    stored_stats(store) or graph_stats(store)
    background = None
    if one_by_one:
        clock("exporting kg.ttl")
        export(store, "turtle", out_dir / "kg.ttl", Minter().base)
    else:
        background = export_beside(store, "turtle", out_dir / "kg.ttl", Minter().base)
    read = {}  # the teams each network reads, shared as kg build's pages share them
    for name in LINKS:
        clock(f"network {name}: reading")
        graph = network(store, name, read=read)
        clock(f"network {name}: writing the page")
        write_html(graph, out_dir / f"{name}.html", HEADINGS[name], KINDS[name])
        del graph  # as kg build's pages let it go (kg/graphs/networks.py: write_page)
    if background is not None:
        clock("waiting for the export")
        background.wait()
    return clock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "paths",
        nargs="+",
        help="LISTING STORE, STORE with --resolve-only, LISTING with --map-only, STORE OUT with --exports",
    )
    parser.add_argument("--resolve-only", action="store_true")
    parser.add_argument("--map-only", action="store_true")
    parser.add_argument("--exports", action="store_true")
    parser.add_argument(
        "--one-by-one", action="store_true", help="with --exports: the export before the pages, not beside them"
    )
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()

    if args.map_only:
        map_only(Path(args.paths[0]), args.jobs)
        return
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore

    print(f"{'stage':<58}{'wall':>11}{'CPU':>15}{'peak':>11}")
    if args.exports:
        clock = exports(Path(args.paths[0]), Path(args.paths[1]), args.one_by_one)
    elif args.resolve_only:
        from kg.resolve.store_step import rebuild

        clock = StageClock("opening the store")
        rebuild(KGStore(args.paths[0]), Minter(), clock)
    else:
        from kg.pipeline import ingest

        listing, store = args.paths
        clock = StageClock("reading and mapping")
        ingest([Path(listing)], KGStore(store), Minter(), jobs=args.jobs, on_stage=clock)
    clock.finish()


if __name__ == "__main__":
    main()
