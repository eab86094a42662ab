"""N synthetic papers into Virtuoso through the bulk path, every library query timed there beside the embedded store.

    .venv/bin/python bench/virtuoso.py --papers 10000 [--json out.json]

One run: a synthetic corpus (kg/ingest/synth.py) ingested into an embedded store (`kg ingest`), exported
as N-Quads, one file per graph (`kg export --per-graph`), loaded into a private Virtuoso on 127.0.0.1 by
scripts/virtuoso_load.sh (ld_dir + rdf_loader_run(), then `kg stats` of both compared), then every library
query run on both stores (median of 3 after a warm-up, as bench/run.py) and their rows compared. Needs
Debian's virtuoso-opensource (make system-deps).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from run import library, resolve_bindings, time_queries, to_terms  # noqa: E402 (bench/run.py, beside this file)
from virtuoso_server import Virtuoso  # noqa: E402 (tests/virtuoso_server.py)

KG = Path(sys.executable).with_name("kg")
LOAD_SCRIPT = HERE.parent / "scripts" / "virtuoso_load.sh"


def timed(command: list[str], **kwargs) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    kwargs.setdefault("stdout", subprocess.PIPE)
    result = subprocess.run(command, stderr=subprocess.PIPE, check=False, **kwargs)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, command))} failed: {result.stderr.decode(errors='replace')[-2000:]}")
    return time.perf_counter() - start, result


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


def bench(papers: int, scratch: Path) -> dict:
    from kg import QUERIES_DIR
    from kg.ingest.synth import write_corpus
    from kg.stores.embedded import KGStore
    from kg.stores.http import RemoteError

    corpus = scratch / f"synth-{papers}.txt"
    with open(corpus, "w", encoding="utf-8") as handle:
        write_corpus(handle, papers, 7)
    store, dump = scratch / "store", scratch / "virtuoso" / "dump"
    dump.mkdir(parents=True)
    print(f"{papers:,} papers: kg ingest", file=sys.stderr)
    ingest_s, _ = timed([KG, "ingest", corpus, "--store", store], cwd=scratch)
    print("  kg export --per-graph", file=sys.stderr)
    export_s, _ = timed([KG, "export", "--per-graph", dump, "--store", store], cwd=scratch)
    quads = sum(1 for path in dump.glob("*.nq") for _ in open(path, "rb"))
    print("  Virtuoso: start, bulk load, counts", file=sys.stderr)
    server = Virtuoso(scratch / "virtuoso", buffers=170_000)  # about 1.3 GB of pages
    try:
        load_s, loaded = timed(
            [LOAD_SCRIPT, dump, f"127.0.0.1:{server.sql_port}", server.sparql, store],
            env={**os.environ, "KG": str(KG)},
            cwd=scratch,
        )
        local, remote = KGStore(str(store), read_only=True), KGStore(server.sparql)
        queries = library(QUERIES_DIR)
        bindings = resolve_bindings(local, queries)
        print("  queries: embedded", file=sys.stderr)
        embedded = time_queries(local.query, queries, bindings)
        print("  queries: Virtuoso", file=sys.stderr)
        refused: set[str] = set()

        def on_server(text, terms):
            try:
                return remote.query(text, terms)
            except RemoteError:
                refused.add(text)
                return []

        on_virtuoso = time_queries(on_server, queries, bindings)
        rows = {
            name: how_rows_differ(local, remote, text, to_terms(bindings.get(name, {})))
            for name, (text, _) in queries.items()
        }
    finally:
        server.stop()
    return {
        "papers": papers,
        "quads": quads,
        "machine": machine(),
        "ingest_s": ingest_s,
        "export_s": export_s,
        "load_s": load_s,
        "load_output": loaded.stdout.decode(errors="replace").strip(),
        "embedded": embedded,
        "virtuoso": on_virtuoso,
        "rows": rows,
    }


def report(result: dict) -> None:
    print(f"{result['papers']:,} papers, {result['quads']:,} quads; {result['machine']}")
    print(
        f"kg ingest (embedded): {result['ingest_s']:.1f} s; kg export --per-graph: {result['export_s']:.1f} s; "
        f"scripts/virtuoso_load.sh (clear, ld_dir, rdf_loader_run, checkpoint, kg stats x2): {result['load_s']:.1f} s"
    )
    print("\n".join(line[:200] for line in result["load_output"].splitlines()))
    print("| query | rows | embedded ms | Virtuoso ms | Virtuoso's rows |\n| --- | ---: | ---: | ---: | --- |")
    for name, (ms, rows) in result["embedded"].items():
        theirs = result["virtuoso"][name][0]
        how = result["rows"][name]
        print(f"| {name} | {rows} | {ms:.1f} | {'-' if how == 'refused' else f'{theirs:.1f}'} | {how} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--json", type=Path, help="Also write the figures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kg-bench-virtuoso-") as scratch:
        result = bench(args.papers, Path(scratch))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    report(result)


if __name__ == "__main__":
    main()
