"""N synthetic papers into Virtuoso through the bulk path, every library query timed there beside the embedded store.

    .venv/bin/python bench/virtuoso.py --papers 10000 [--json out.json] [--scratch DIR] [--max-minutes M]
    make bench-virtuoso PAPERS=100000
    .venv/bin/python bench/virtuoso.py --from-store DIR --copies 10 ...: N copies of a store (bench/virtuoso_copies.py)

One run: a synthetic corpus (kg/ingest/synth.py) ingested into an embedded store (`kg ingest`), exported
as N-Quads, one file per graph (`kg export --per-graph`), loaded into a private Virtuoso on 127.0.0.1 by
scripts/virtuoso_load.sh (ld_dir + rdf_loader_run(), then `kg stats` of both compared), then every library
query run on both stores (median of 3 after a warm-up, as bench/run.py) and their rows compared. Needs
Debian's virtuoso-opensource (make system-deps).

Each step's wall time and peak memory (/usr/bin/time's maximum resident set; Virtuoso's own high-water mark
read from /proc) and the load average at its end are printed as it ends and written to the JSON file after
every step, so a run stopped by ``--max-minutes`` still leaves what it measured. Virtuoso's buffers are sized
for the dump (about 100 bytes of database a quad, half as much again for the indexes it builds), within
two thirds of the memory available, with three quarters of them allowed dirty, as Virtuoso's guidance says.
A query's CPU is the client's (kg parsing the answer) and, on Virtuoso, the server process's own (from /proc,
in 10 ms ticks); a query still running after ``--query-seconds`` has no time (the embedded engine is only
interrupted when it returns).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from query_timing import library, resolve_bindings, time_queries, to_terms  # noqa: E402 (beside this file)
from virtuoso_server import Virtuoso  # noqa: E402 (tests/virtuoso_server.py)

KG = Path(sys.executable).with_name("kg")
LOAD_SCRIPT = HERE.parent / "scripts" / "virtuoso_load.sh"


DEADLINE = [float("inf")]  # time.monotonic() past which the run stops (--max-minutes)
QUERY_SECONDS = [600]  # a query's warm-up and runs stop after this long; its time is then None (--query-seconds)
BYTES_PER_QUAD = 100  # Virtuoso's database per loaded quad: 672 MiB for 6.9 million quads
PAGE_BYTES = 8192


def progress(message: str) -> None:
    stamp = time.strftime("%H:%M:%S", time.gmtime())
    print(f"[{stamp} UTC, load {os.getloadavg()[0]:.1f}] {message}", file=sys.stderr, flush=True)


def timed(command: list[str], **kwargs) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall seconds, peak MiB (/usr/bin/time) and the result of COMMAND, stopped at the run's deadline."""
    peak_file = Path(tempfile.mktemp(prefix="kg-bench-peak-"))
    kwargs.setdefault("stdout", subprocess.PIPE)
    start = time.perf_counter()
    try:
        result = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", peak_file, *command],
            stderr=subprocess.PIPE,
            check=False,
            timeout=max(1.0, DEADLINE[0] - time.monotonic()),
            **kwargs,
        )
    except subprocess.TimeoutExpired:
        raise SystemExit(f"{command[1]}: stopped at the run's deadline (--max-minutes)") from None
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, command))} failed: {result.stderr.decode(errors='replace')[-2000:]}")
    peak_kib = int(peak_file.read_text().split()[-1])
    peak_file.unlink()
    return time.perf_counter() - start, peak_kib / 1024, result


def buffers_for(quads: int) -> int:
    """Virtuoso's NumberOfBuffers for a dump of QUADS: its database and half again, within 2/3 of free memory."""
    available = next(
        int(line.split()[1]) * 1024
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemAvailable")
    )
    wanted = quads * BYTES_PER_QUAD * 3 // 2 // PAGE_BYTES
    return max(170_000, min(wanted, available * 2 // 3 // PAGE_BYTES))


def cpu_ms_of(pid: int) -> float:
    """User + system CPU milliseconds a running process has used (Virtuoso's own work for a query)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def on_alarm(*_) -> None:
    raise TimeoutError


def peak_of(pid: int) -> float:
    """The high-water mark of a running process's resident memory, MiB."""
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    return next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024


def machine() -> str:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    memory = (
        int(
            next(
                line.split()[1]
                for line in Path("/proc/meminfo").read_text().splitlines()
                if line.startswith("MemTotal")
            )
        )
        // 2**20
    )
    return f"{os.cpu_count()} cores ({model}), {memory} GiB, {platform.system()} {platform.release()}"


def how_rows_differ(local, server, text, terms) -> str:
    """same, order (the same rows in another order), values (other rows) or refused (the server's error)."""
    from kg.stores.http import RemoteError

    expected = [tuple(row) for row in local.query(text, terms)]
    try:
        got = [tuple(row) for row in server.query(text, terms)]
    except RemoteError:
        return "refused"
    if got == expected:
        return "same"
    return "order" if Counter(got) == Counter(expected) else "values"


def step(result: dict, save, name: str, seconds: float, peak_mb: float | None = None) -> None:
    result["steps"][name] = {"s": round(seconds, 1), "peak_mb": peak_mb and round(peak_mb), "load": os.getloadavg()}
    save(result)
    progress(f"  {name}: {seconds:.1f} s" + (f", peak {peak_mb:,.0f} MiB" if peak_mb else ""))


def bench(papers: int, scratch: Path, save) -> dict:
    from kg import QUERIES_DIR
    from kg.ingest.synth import write_corpus
    from kg.stores.embedded import KGStore
    from kg.stores.http import RemoteError

    result = {"papers": papers, "machine": machine(), "steps": {}}
    corpus = scratch / f"synth-{papers}.txt"
    progress(f"{papers:,} papers: the synthetic listing")
    started = time.perf_counter()
    with open(corpus, "w", encoding="utf-8") as handle:
        write_corpus(handle, papers, 7)
    step(result, save, "synth", time.perf_counter() - started)
    store, dump = scratch / "store", scratch / "virtuoso" / "dump"
    dump.mkdir(parents=True)
    progress("kg ingest")
    seconds, peak, _ = timed([KG, "ingest", corpus, "--store", store], cwd=scratch)
    step(result, save, "ingest", seconds, peak)
    progress("kg export --per-graph")
    seconds, peak, _ = timed([KG, "export", "--per-graph", dump, "--store", store], cwd=scratch)
    step(result, save, "export", seconds, peak)
    result["quads"] = sum(1 for path in dump.glob("*.nq") for _ in open(path, "rb"))
    result["dump_mb"] = round(sum(path.stat().st_size for path in dump.glob("*.nq")) / 2**20)
    result["buffers"] = buffers_for(result["quads"])
    progress(f"Virtuoso: start ({result['buffers']:,} buffers), bulk load {result['quads']:,} quads, counts")
    server = Virtuoso(scratch / "virtuoso", buffers=result["buffers"])
    try:
        seconds, _, loaded = timed(
            [LOAD_SCRIPT, dump, f"127.0.0.1:{server.sql_port}", server.sparql, store],
            env={**os.environ, "KG": str(KG)},
            cwd=scratch,
        )
        result["load_output"] = loaded.stdout.decode(errors="replace").strip()
        result["database_mb"] = round((scratch / "virtuoso" / "virtuoso.db").stat().st_size / 2**20)
        step(result, save, "load", seconds, peak_of(server.process.pid))
        local, remote = KGStore(str(store), read_only=True), KGStore(server.sparql)
        queries = library(QUERIES_DIR)
        bindings = resolve_bindings(local, queries)
        progress("queries: embedded")
        started = time.perf_counter()
        result["embedded"] = time_queries(local.query, queries, bindings, QUERY_SECONDS[0])
        step(result, save, "queries-embedded", time.perf_counter() - started)
        progress("queries: Virtuoso")

        server_cpu: list[float] = []

        def on_server(text, terms):
            before = cpu_ms_of(server.process.pid)
            try:
                return remote.query(text, terms)
            except RemoteError:
                return []
            finally:
                server_cpu.append(cpu_ms_of(server.process.pid) - before)

        started, result["virtuoso"] = time.perf_counter(), {}
        for name, query in queries.items():
            server_cpu.clear()
            result["virtuoso"].update(time_queries(on_server, {name: query}, bindings, QUERY_SECONDS[0]))
            # Virtuoso's own CPU for the query, beside the client's: median of the runs after the warm-up
            result["virtuoso"][name].append(statistics.median(server_cpu[1:]) if len(server_cpu) > 1 else None)
            save(result)
        step(result, save, "queries-virtuoso", time.perf_counter() - started, peak_of(server.process.pid))
        progress("rows compared")
        result["rows"] = {
            name: how_rows_differ(local, remote, text, to_terms(bindings.get(name, {})))
            for name, (text, _) in queries.items()
        }
        save(result)
    finally:
        server.stop()
    return result


def shown(milliseconds: float | None) -> str:
    return "-" if milliseconds is None else f"{milliseconds:,.0f}"


def report(result: dict) -> None:
    print(f"{result['papers']:,} papers, {result['quads']:,} quads; {result['machine']}")
    for name, figures in result["steps"].items():
        peak = f", peak {figures['peak_mb']:,} MiB" if figures["peak_mb"] else ""
        print(f"{name}: {figures['s']:,.1f} s{peak} (load {figures['load'][0]:.1f})")
    print(
        f"dump {result['dump_mb']:,} MiB; Virtuoso: {result['buffers']:,} buffers, "
        f"database {result['database_mb']:,} MiB"
    )
    print("\n".join(line[:200] for line in result["load_output"].splitlines()))
    print("| query | rows | embedded ms | CPU ms | Virtuoso ms | CPU ms (kg + Virtuoso) | Virtuoso's rows |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, (ms, rows, cpu) in result["embedded"].items():
        theirs, _, client_cpu, server_cpu = result["virtuoso"][name]
        how = result["rows"][name]
        print(
            f"| {name} | {rows} | {shown(ms)} | {shown(cpu)} | {shown(theirs)} "
            f"| {shown(client_cpu)} + {shown(server_cpu)} | {how} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--json", type=Path, help="Also write the figures here (after every step)")
    parser.add_argument("--scratch", type=Path, help="Work here and keep it (default: a temporary folder)")
    parser.add_argument("--max-minutes", type=float, help="Stop the run (and its server) after this long")
    parser.add_argument("--query-seconds", type=int, default=600, help="Give up a query's timing after this long")
    parser.add_argument("--from-store", type=Path, help="Copies of this store instead of a new corpus (--copies)")
    parser.add_argument("--copies", type=int, default=10, help="With --from-store: how many (bench/virtuoso_copies.py)")
    args = parser.parse_args()
    QUERY_SECONDS[0] = args.query_seconds
    signal.signal(signal.SIGALRM, on_alarm)
    if args.max_minutes:
        DEADLINE[0] = time.monotonic() + args.max_minutes * 60

    def save(result: dict) -> None:
        if args.json:
            args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")

    if args.from_store:  # its scratch is kept: an export and copies left there are used again
        import virtuoso_copies

        if not args.scratch:
            parser.error("--from-store needs --scratch DIR (kept: the export and the copies left there are reused)")
        args.scratch.mkdir(parents=True, exist_ok=True)
        result = virtuoso_copies.bench_copies(
            args.from_store.resolve(), args.copies, args.scratch.resolve(), save, args.query_seconds, DEADLINE[0]
        )
        virtuoso_copies.report(result)
        return
    if args.scratch:
        args.scratch.mkdir(parents=True)
        result = bench(args.papers, args.scratch.resolve(), save)
    else:
        with tempfile.TemporaryDirectory(prefix="kg-bench-virtuoso-") as scratch:
            result = bench(args.papers, Path(scratch), save)
    report(result)


if __name__ == "__main__":
    main()
