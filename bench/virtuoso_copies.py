"""N disjoint copies of one store: a corpus N times its size without N times its ingest, bulk-loaded into
Virtuoso and into an embedded Oxigraph store, every library query's first page timed on both in one run.

    .venv/bin/python bench/virtuoso.py --from-store DIR --copies 10 --scratch S --json F [--query-seconds 300]
    make bench-copies STORE=DIR COPIES=10

The store (``kg ingest`` of ``kg synth``) is exported once (``kg export --per-graph``). Copy K rewrites every
IRI kg minted under its base (``https://kg.example.org/id/`` becomes ``…/id/cK/``, in IRIs and in the name
index's prefix literals) but those of SHARED: the topic scheme, whose concepts the copies' papers share as
papers of ten conferences would, and the graphs a store holds one of (the index, the resolution, the ranked
lists, the topic scheme). So each source graph and its topic detail come N times under new names, the
shared graphs once with every copy's quads in them, and a quad the rewrite leaves as it is (the ontology,
the topic scheme, a topic's look-up keys) once. The dataset description (LEFT_OUT) counts one copy, so it is
left out: ``kg stats`` then counts the stores themselves. The copies are gzipped N-Quads, which Virtuoso's
loader and ``kg check-load`` read as they are.

Then two lanes run side by side. Virtuoso loads the files with ``scripts/virtuoso_load.sh`` (``kg
check-load`` compares every graph's quads); an embedded store is bulk-loaded from the same files in chunks
(as kg loads: :data:`CHUNK_BYTES` a call) and its quads per graph compared the same way. Each lane then
times every library query, each in a child process killed after ``--query-seconds`` (Oxigraph cannot be
interrupted inside a query; Virtuoso, which would go on computing, is restarted), and runs ``kg stats``,
which must give the same counts on both. Timing: one run, cold, when it takes over :data:`SLOW_MS`; else
the median of three after it.
"""

from __future__ import annotations

import gzip
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from itertools import islice
from pathlib import Path

import pyoxigraph as ox

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))
from query_timing import library, page_size, resolve_bindings, to_terms  # noqa: E402 (bench/query_timing.py)
from virtuoso import DEADLINE, KG, LOAD_SCRIPT, cpu_ms_of, machine, peak_of, progress, timed  # noqa: E402

# Suffixes of the IRIs under the base that every copy shares; each ends where the IRI ends or goes on.
SHARED = ("topic/", "topics>", "graph/topics>", "graph/index>", "graph/resolved>", "graph/rankings>")
LEFT_OUT = "graph/description"
CHUNK_BYTES = 32 << 20  # kg.stores.loading.CHUNK_BYTES: what one bulk-load call takes, and a rewrite's read
SLOW_MS = 10_000  # a first run slower than this is the query's one timed run
BUFFERS_MAX = 1_000_000  # Virtuoso's pages (8 KiB): 7.6 GiB, beside the other lane on a 23 GiB machine


class Rewrite:
    """Copy ``copy``'s bytes: every IRI (``<``) and IRI literal (``"``) under ``base`` moved to ``base``cK/,
    those of :data:`SHARED` left as they are."""

    def __init__(self, base: str, copy: int):
        moved = f"{base}c{copy}/"
        self.pairs = [(f"{quote}{base}".encode(), f"{quote}{moved}".encode()) for quote in '<"']
        self.pairs += [
            (f"{quote}{moved}{kept}".encode(), f"{quote}{base}{kept}".encode()) for quote in '<"' for kept in SHARED
        ]

    def __call__(self, data: bytes) -> bytes:
        for old, new in self.pairs:
            data = data.replace(old, new)
        return data

    def iri(self, value: str) -> str:
        return self(f"<{value}>".encode()).decode()[1:-1]


def graph_of(path: Path) -> str:
    """The graph of a ``kg export --per-graph`` file (one graph a file): its first quad's."""
    with open(path, "rb") as handle:
        return next(iter(ox.parse(handle.readline(), ox.RdfFormat.N_QUADS))).graph_name.value


def write_copy(source: Path, target: Path, rewrite: Rewrite, every_line: bool) -> int:
    """Source's lines rewritten into a gzipped file; the lines the rewrite leaves alone only if ``every_line``
    (copy 0: they are every copy's). The lines written; no file when none."""
    written = 0
    with open(source, "rb") as handle, gzip.open(target, "wb", compresslevel=1) as out:
        while lines := handle.readlines(CHUNK_BYTES):
            moved = rewrite(b"".join(lines)).splitlines(keepends=True)
            kept = moved if every_line else [new for new, old in zip(moved, lines) if new != old]
            out.write(b"".join(kept))
            written += len(kept)
    if not written:
        target.unlink()
    return written


def write_copies(export: Path, dump: Path, copies: int, base: str) -> dict[str, int]:
    """Every file of the export, N times rewritten into ``dump``; quads written per graph."""
    dump.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for path in sorted(export.glob("*.nq")):
        graph = graph_of(path)
        if graph == f"{base}{LEFT_OUT}":
            continue
        for copy in range(copies):
            rewrite = Rewrite(base, copy)
            written = write_copy(path, dump / f"c{copy:02d}-{path.name}.gz", rewrite, copy == 0)
            if written:
                counts[rewrite.iri(graph)] = counts.get(rewrite.iri(graph), 0) + written
        progress(f"  {path.name}: {copies} copies")
    return counts


def load_embedded(dump: Path, store_dir: Path) -> None:
    """Child: the dump's files into a new Oxigraph store by its bulk loader, a chunk of lines a call."""
    store = ox.Store(str(store_dir))
    for path in sorted(dump.glob("*.nq.gz")):
        with gzip.open(path, "rb") as handle:
            while chunk := handle.read(CHUNK_BYTES):
                store.bulk_load(input=chunk + handle.readline(), format=ox.RdfFormat.N_QUADS)
    store.flush()


def count_embedded(store_dir: Path) -> None:
    """Child: quads per graph of the embedded store, as JSON."""
    store = ox.Store.read_only(str(store_dir))
    rows = store.query("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g")
    print(json.dumps({row[0].value: int(row[1].value) for row in rows}))


def time_query(spec: str, plan_file: Path, name: str) -> None:
    """Child: one query's first page on the store ``spec``, as JSON [ms, rows, CPU ms, runs timed, peak MiB]."""
    from kg.stores.embedded import KGStore

    plan = json.loads(plan_file.read_text(encoding="utf-8"))
    text, params = plan["queries"][name]
    terms, page = to_terms(plan["bindings"].get(name, {})), page_size(params)
    store = KGStore(spec) if spec.startswith("http") else KGStore(spec, read_only=True)
    samples, cpu, rows = [], [], 0
    for attempt in range(4):
        started, started_cpu = time.perf_counter(), time.process_time()
        answer = store.query(text, terms)
        rows = sum(1 for _ in islice(getattr(answer, "terms", answer), page))  # read as kg query reads them
        samples.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        if attempt == 0 and samples[0] > SLOW_MS:
            break
    counted = slice(0, 1) if len(samples) == 1 else slice(1, None)  # the first run alone, or the runs after it
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures = [statistics.median(samples[counted]), rows, statistics.median(cpu[counted]), len(samples[counted])]
    print(json.dumps([*figures, peak]))


def in_child(*args, timeout: float) -> str | None:
    """This file run as a child with ARGS, its standard output; None when it ran past ``timeout`` (killed)."""
    command = [sys.executable, str(HERE), *map(str, args)]
    env = {**os.environ, "KG_STORE_TIMEOUT": str(int(timeout) + 60)}  # the child is killed before it gives up
    try:
        return subprocess.run(command, capture_output=True, check=True, timeout=timeout, env=env).stdout.decode()
    except subprocess.TimeoutExpired:
        return None
    except subprocess.CalledProcessError as failed:
        return json.dumps(f"failed: {failed.stderr.decode(errors='replace').strip()[-300:]}")


class Lanes:
    """The run's figures, shared by the two lanes and saved after every step."""

    def __init__(self, result: dict, save):
        self.result, self._save, self._lock = result, save, threading.Lock()

    def step(self, lane: str, name: str, seconds: float, peak_mb: float | None = None, **more) -> None:
        with self._lock:
            figures = {"s": round(seconds, 1), "peak_mb": peak_mb and round(peak_mb), "load": os.getloadavg()}
            self.result["steps"][f"{lane}: {name}"] = {**figures, **more}
            self._save(self.result)
        progress(f"  {lane}: {name}: {seconds:.1f} s" + (f", peak {peak_mb:,.0f} MiB" if peak_mb else ""))

    def record(self, key: str, name: str, value) -> None:
        with self._lock:
            self.result.setdefault(key, {})[name] = value
            self._save(self.result)

    def run(self, lane: str, work, *args) -> threading.Thread:
        """WORK(self, *ARGS) in a thread; what stops it (the run's deadline, a failed step) is recorded."""

        def guarded() -> None:
            try:
                work(self, *args)
            except (Exception, SystemExit) as stopped:
                self.record("stopped", lane, str(stopped)[-500:])
                progress(f"  {lane}: stopped: {str(stopped)[-500:]}")

        thread = threading.Thread(target=guarded, name=lane)
        thread.start()
        return thread


def time_every_query(lanes: Lanes, lane: str, spec: str, plan: Path, seconds: int, server=None) -> None:
    """Each library query in its own child, given up after ``seconds``; on Virtuoso (``server``), the server's own
    CPU for it from /proc, and the server restarted after a query given up on (it would go on computing it)."""
    for name in json.loads(plan.read_text(encoding="utf-8"))["queries"]:
        if time.monotonic() > DEADLINE[0]:
            lanes.record(lane, name, "not run: the run's deadline")
            continue
        before = cpu_ms_of(server.process.pid) if server else 0
        answer = in_child("--time-query", spec, plan, name, timeout=seconds)
        figures = json.loads(answer) if answer else f"gave up after {seconds} s"
        if server and isinstance(figures, list):
            runs = 1 if figures[3] == 1 else figures[3] + 1  # the first run too
            figures.append((cpu_ms_of(server.process.pid) - before) / runs)
        elif server and answer is None:
            server.restart()
        lanes.record(lane, name, figures)
        progress(f"  {lane}: {name}: {figures}")


def stats_of(lanes: Lanes, lane: str, spec: str) -> None:
    seconds, peak, done = timed([KG, "stats", "--format", "json", "--store", spec])
    lanes.record("stats", lane, json.loads(done.stdout))
    lanes.step(lane, "kg stats", seconds, peak)


def embedded_lane(lanes: Lanes, dump: Path, store: Path, plan: Path, query_seconds: int) -> None:
    from kg.errors import KgError
    from kg.stores.bulk_counts import GraphCount, verdict

    seconds, peak, _ = timed([sys.executable, HERE, "--load-embedded", dump, store])
    size = sum(path.stat().st_size for path in store.rglob("*") if path.is_file())
    lanes.step("embedded", "bulk load", seconds, peak, store_mb=round(size / 2**20))
    seconds, peak, done = timed([sys.executable, HERE, "--count-embedded", store])
    loaded, written = json.loads(done.stdout), lanes.result["written"]
    try:
        lanes.record("counts", "embedded", verdict([GraphCount(g, n, loaded.get(g, 0)) for g, n in written.items()]))
    except KgError as differ:
        lanes.record("counts", "embedded", str(differ))
    lanes.step("embedded", "quads per graph", seconds, peak)
    time_every_query(lanes, "embedded", str(store), plan, query_seconds)
    stats_of(lanes, "embedded", str(store))


def virtuoso_lane(lanes: Lanes, server, dump: Path, plan: Path, query_seconds: int) -> None:
    seconds, _, loaded = timed(
        [LOAD_SCRIPT, dump, f"127.0.0.1:{server.sql_port}", server.sparql], env={**os.environ, "KG": str(KG)}
    )
    lanes.record("counts", "virtuoso", loaded.stdout.decode(errors="replace").strip())
    database_mb = round((server.folder / "virtuoso.db").stat().st_size / 2**20)
    lanes.step("virtuoso", "bulk load", seconds, peak_of(server.process.pid), database_mb=database_mb)
    time_every_query(lanes, "virtuoso", server.sparql, plan, query_seconds, server)
    stats_of(lanes, "virtuoso", server.sparql)
    lanes.step("virtuoso", "after the queries", 0, peak_of(server.process.pid))


def plan_queries(source_store: Path, plan: Path, base: str) -> None:
    """The library and each query's parameters, chosen on the source store and moved into copy 0 (the
    copies tie, and copy 0's IRIs sort first)."""
    from kg import QUERIES_DIR
    from kg.stores.embedded import KGStore

    queries = library(QUERIES_DIR)
    store = KGStore(str(source_store), read_only=True)
    try:
        bindings = resolve_bindings(store, queries)
    finally:
        store.close()
    rewrite = Rewrite(base, 0)
    for values in bindings.values():
        for kind_value in values.values():
            if kind_value[0] == "iri":
                kind_value[1] = rewrite.iri(kind_value[1])
    plan.write_text(json.dumps({"queries": queries, "bindings": bindings}), encoding="utf-8")


def prepare(source_store: Path, copies: int, scratch: Path, lanes: Lanes) -> None:
    """The export, the query plan and the copies, each skipped when a run before left it complete in SCRATCH."""
    from kg.rdf.iris import DEFAULT_BASE

    export, dump, written = scratch / "export", scratch / "virtuoso" / "dump", scratch / "written.json"
    if not export.is_dir():
        progress(f"kg export --per-graph of {source_store}")
        seconds, peak, _ = timed([KG, "export", "--per-graph", export, "--store", source_store])
        lanes.step("source", "kg export --per-graph", seconds, peak)
    if not (scratch / "plan.json").is_file():
        plan_queries(source_store, scratch / "plan.json", DEFAULT_BASE)
    if not written.is_file():
        progress(f"{copies} copies, gzipped, into {dump}")
        started = time.perf_counter()
        written.write_text(json.dumps(write_copies(export, dump, copies, DEFAULT_BASE)), encoding="utf-8")
        lanes.step("source", f"{copies} copies", time.perf_counter() - started)
    lanes.result["written"] = json.loads(written.read_text(encoding="utf-8"))
    lanes.result["quads"] = sum(lanes.result["written"].values())
    lanes.result["dump_mb"] = round(sum(path.stat().st_size for path in dump.glob("*.gz")) / 2**20)


def bench_copies(source_store: Path, copies: int, scratch: Path, save, query_seconds: int, deadline: float) -> dict:
    from virtuoso_server import Virtuoso

    DEADLINE[0] = deadline
    lanes = Lanes({"from_store": str(source_store), "copies": copies, "machine": machine(), "steps": {}}, save)
    prepare(source_store, copies, scratch, lanes)
    buffers = lanes.result["buffers"] = min(BUFFERS_MAX, lanes.result["quads"] * 100 * 3 // 2 // 8192)
    progress(f"two lanes, Virtuoso ({buffers:,} buffers) and embedded, {lanes.result['quads']:,} quads each")
    for folder in (scratch / "virtuoso", scratch / "embedded"):
        for stale in ("virtuoso.db", "virtuoso.trx", "virtuoso-temp.db", "CURRENT"):
            if (folder / stale).exists():
                raise SystemExit(f"{folder}: a store from a run before; remove it first")
    server = Virtuoso(scratch / "virtuoso", buffers=buffers)
    try:
        dump, plan = scratch / "virtuoso" / "dump", scratch / "plan.json"
        threads = [
            lanes.run("virtuoso", virtuoso_lane, server, dump, plan, query_seconds),
            lanes.run("embedded", embedded_lane, dump, scratch / "embedded", plan, query_seconds),
        ]
        for thread in threads:
            thread.join()
    finally:
        server.stop()
    return lanes.result


def shown(figures, column: int) -> str:
    """One column of a query's figures, or what became of it (given up, not run)."""
    if not isinstance(figures, list):
        return figures if column == 0 else ""
    return f"{figures[column]:,.0f}"


def report(result: dict) -> None:
    print(f"{result['copies']} copies of {result['from_store']}: {result.get('quads', 0):,} quads; {result['machine']}")
    for name, figures in result["steps"].items():
        more = ", ".join(f"{key} {value:,}" for key, value in figures.items() if key not in ("s", "peak_mb", "load"))
        peak = f", peak {figures['peak_mb']:,} MiB" if figures["peak_mb"] else ""
        print(f"{name}: {figures['s']:,.1f} s{peak} (load {figures['load'][0]:.1f}){', ' + more if more else ''}")
    for what in ("counts", "stopped"):
        for lane, said in result.get(what, {}).items():
            print(f"{lane}: {what}: {said.splitlines()[-1] if said else ''}")
    stats = result.get("stats", {})
    if len(stats) == 2:
        print("kg stats: " + ("the same on both: " if len(set(map(json.dumps, stats.values()))) == 1 else "DIFFER: "))
        print(json.dumps(stats))
    print("| query | rows | embedded ms | CPU ms | runs | Virtuoso ms | CPU ms (kg + Virtuoso) | runs |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    embedded, virtuoso = result.get("embedded", {}), result.get("virtuoso", {})
    for name in sorted({*embedded, *virtuoso}):
        mine, theirs = embedded.get(name, "-"), virtuoso.get(name, "-")
        # rows: the embedded store's, then Virtuoso's where they differ
        rows = " / ".join(dict.fromkeys(str(figures[1]) for figures in (mine, theirs) if isinstance(figures, list)))
        server = f" + {shown(theirs, 5)}" if isinstance(theirs, list) else ""
        print(
            f"| {name} | {rows} | {shown(mine, 0)} | {shown(mine, 2)} | {shown(mine, 3)} "
            f"| {shown(theirs, 0)} | {shown(theirs, 2)}{server} | {shown(theirs, 3)} |"
        )


CHILDREN = {"--load-embedded": load_embedded, "--count-embedded": count_embedded}


if __name__ == "__main__":
    if sys.argv[1] == "--time-query":
        time_query(sys.argv[2], Path(sys.argv[3]), sys.argv[4])
    else:
        CHILDREN[sys.argv[1]](*map(Path, sys.argv[2:]))
