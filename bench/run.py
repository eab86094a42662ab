"""Benchmark: kg's ingest and library queries beside the naive route and the engine's limit.

    python bench/run.py [--sizes 10000,100000] [--seed 1] [--queries DIR] [--naive-max N] [--no-build]
                        [--baseline DIR]

For each size, a synthetic listing (``kg synth``) is ingested three ways, each in its own
process so that peak memory (``ru_maxrss``) belongs to that route alone:

- **kg**: the pipeline into the default on-disk embedded store (staged N-Triples file, bulk
  loader, journaled commit), then every library query in ``queries/``;
- **naive**: what a user would write: the same records and triples, ``Graph.add`` per triple
  into rdflib's in-memory store, then the same queries through rdflib's SPARQL engine;
- **engine**: pyoxigraph bulk-loading kg's own N-Quads output (parsing and mapping done):
  the fastest the store itself can take the data;
- **build**: ``kg build`` end to end (ingest, Turtle export, network pages) as a user runs it;
- **baseline**: with ``--baseline DIR`` (a worktree of the baseline release with its own ``.venv``,
  made by ``make bench``), the kg and build routes again with that release's code, on the same
  listing in the same run, so every change shows as a ratio.

A query's time is its first page: the rows up to its ``limit`` parameter's default (or
:data:`query_timing.PAGE` rows), which is what ``kg query`` shows.

Every route reports wall and CPU seconds (the machine may be shared: CPU time and the ratios of
one run are what compare) and its peak memory. The naive route is skipped above
``--naive-max`` papers: rdflib's in-memory graph took 10.3 GB at 100,000 papers, so 1,000,000
would need over 20 GB.

Query parameters get defaults: ``author``/``institution``/``topic`` the most frequent
entities (the prolific author is the slow case), others their declared default.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_report import NAIVE_QUERY_TIMEOUT_S, load, report, targets
from query_timing import PROJECT, kg_runner, library, resolve_bindings, time_queries

NAIVE_MAX = 300_000  # papers; above, the naive route would not fit in memory (see the docstring)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu_seconds() -> float:
    """User + system time of this process and the children it waited for (kg's worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# ---------------------------------------------------------------------- children


def child_kg(corpus: Path, store_dir: Path, nquads: Path, queries_dir: Path, bindings_out: Path) -> dict:
    import pyoxigraph as ox

    from kg.pipeline import ingest
    from kg.processes import default_jobs
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore

    store = KGStore(str(store_dir))
    start = time.perf_counter()
    report = ingest([corpus], store, Minter())
    seconds, cpu = time.perf_counter() - start, cpu_seconds()
    memory = peak_mb()
    # The mapping's worker processes, reaped when the stager closed: alive only while the listing is read.
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    stored = store.scalar("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }")
    # The engine's input: what `kg export --format nquads` writes, unsorted (the export sorts, which is slow at this
    # size).
    exported = [ox.Quad(s, p, o, g) for g, s, p, o in store.select_terms(exported_quads_query(store))]
    ox.serialize(exported, str(nquads), ox.RdfFormat.N_QUADS)
    triples = len(exported)
    del exported
    # The naive route's queries run over all kg holds (the index graph the queries read included).
    store.oxigraph.dump(str(whole_store(nquads)), format=ox.RdfFormat.N_QUADS)
    queries = library(queries_dir)
    bindings = resolve_bindings(store, queries)
    bindings_out.write_text(json.dumps(bindings), encoding="utf-8")
    latencies = time_queries(kg_runner(store, queries_dir), queries, bindings)
    return {
        "papers": report.ingested,
        "triples": triples,
        "stored": stored,
        "seconds": seconds,
        "cpu": cpu,
        "peak_mb": memory,
        "worker_peak_mb": workers,
        "jobs": default_jobs(),
        "queries": latencies,
    }


def whole_store(nquads: Path) -> Path:
    """Where the kg route dumps every quad of its store, beside the export ``nquads``."""
    return nquads.with_suffix(".store.nq")


def exported_quads_query(store) -> str:
    """The SELECT of every quad an export writes, as the running release makes it."""
    if hasattr(store, "_exported_quads"):
        return store._exported_quads()  # the index graphs left out
    from kg.stores.embedded import QUADS_QUERY  # the baseline release: the name index's predicates left out

    return QUADS_QUERY


def child_engine(nquads: Path, store_dir: Path) -> dict:
    import pyoxigraph as ox

    store = ox.Store(str(store_dir))
    start = time.perf_counter()
    store.bulk_load(path=str(nquads), format=ox.RdfFormat.N_QUADS)
    store.flush()
    return {"seconds": time.perf_counter() - start, "cpu": cpu_seconds(), "peak_mb": peak_mb(), "triples": len(store)}


def child_build(corpus: Path, store_dir: Path, out: Path) -> dict:
    """``kg build`` as a user runs it, in its own process: wall and CPU time and peak memory from wait4."""
    start = time.perf_counter()
    done = subprocess.run(
        [str(Path(sys.executable).with_name("kg")), "build", str(corpus), "--store", str(store_dir), "--out", str(out)],
        stdout=subprocess.DEVNULL,
        check=True,
        cwd=PROJECT,
    )
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "seconds": time.perf_counter() - start,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,
        "exit": done.returncode,
    }


def child_naive(corpus: Path, queries_dir: Path, bindings_in: Path, nquads: Path) -> dict:
    import pyoxigraph as ox
    import rdflib
    from oxrdflib._converter import from_ox

    from kg.ingest.formats import read_source
    from kg.orgs.aliases import active_aliases
    from kg.pipeline import publication_facts
    from kg.rdf.iris import Minter
    from kg.rdf.mapping import paper_triples, source_triples
    from kg.rdf.terms import ntriples
    from kg.records import PaperRecord

    graph = rdflib.Graph()
    minter, aliases = Minter(), active_aliases()
    start = time.perf_counter()
    source, items = read_source(corpus, corpus.name)
    records = (item for item in items if isinstance(item, PaperRecord))
    papers = 0
    # the mapping states N-Triples texts: the naive route reads them as pyoxigraph terms for rdflib
    for record, info in publication_facts(records):
        papers += 1
        for quad in ox.parse(ntriples(paper_triples(record, info, minter, aliases)), format=ox.RdfFormat.N_TRIPLES):
            graph.add((from_ox(quad.subject), from_ox(quad.predicate), from_ox(quad.object)))
    said = ntriples(source_triples(corpus.name, source.format, "", minter))
    for quad in ox.parse(said, format=ox.RdfFormat.N_TRIPLES):
        graph.add((from_ox(quad.subject), from_ox(quad.predicate), from_ox(quad.object)))
    seconds, cpu = time.perf_counter() - start, cpu_seconds()
    memory = peak_mb()
    mapped = len(graph)
    # Queries run over exactly what kg holds (its N-Quads: sources, ontology, topic scheme,
    # resolution, index), so both engines answer the same question on the same data.
    graph = rdflib.Dataset(default_union=True)
    graph.parse(str(whole_store(nquads)), format="nquads")

    def on_alarm(*_):
        raise TimeoutError

    signal.signal(signal.SIGALRM, on_alarm)
    bindings = json.loads(bindings_in.read_text(encoding="utf-8"))
    latencies = time_queries(
        lambda text, terms: graph.query(text, initBindings=terms), library(queries_dir), bindings, NAIVE_QUERY_TIMEOUT_S
    )
    return {
        "papers": papers,
        "triples": mapped,
        "seconds": seconds,
        "cpu": cpu,
        "peak_mb": memory,
        "queries": latencies,
    }


CHILDREN = {"kg": child_kg, "engine": child_engine, "naive": child_naive, "build": child_build}


def in_child(mode: str, *args, release: Path | None = None) -> dict:
    """Run one route in a fresh Python process; its JSON answer. With ``release`` (a project folder
    with its own ``.venv``), the route runs that release's kg instead of this one."""
    python = str(release / ".venv" / "bin" / "python") if release else sys.executable
    command = [python, str(Path(__file__).resolve()), "--child", mode, *map(str, args)]
    done = subprocess.run(command, stdout=subprocess.PIPE, check=True, cwd=release or PROJECT)
    return json.loads(done.stdout)


def bench_size(
    papers: int, seed: int, queries_dir: Path, scratch: Path, naive_max: int, build: bool, baseline: Path | None = None
) -> dict:
    from kg.ingest.synth import write_corpus

    corpus = scratch / f"synth-{papers}.txt"
    with open(corpus, "w", encoding="utf-8") as handle:
        write_corpus(handle, papers, seed)
    nquads, bindings = scratch / f"kg-{papers}.nq", scratch / f"bindings-{papers}.json"
    print(f"  {papers:,} papers: kg ingest + queries", file=sys.stderr)
    kg = in_child("kg", corpus, scratch / f"store-{papers}", nquads, queries_dir, bindings)
    print(f"  {papers:,} papers: engine bulk load", file=sys.stderr)
    engine = in_child("engine", nquads, scratch / f"engine-{papers}")
    naive = None
    if papers <= naive_max:
        print(f"  {papers:,} papers: naive rdflib", file=sys.stderr)
        naive = in_child("naive", corpus, queries_dir, bindings, nquads)
    built = None
    if build:
        print(f"  {papers:,} papers: kg build", file=sys.stderr)
        built = in_child("build", corpus, scratch / f"build-{papers}", scratch / f"exports-{papers}")
    before = None
    if baseline is not None:
        print(f"  {papers:,} papers: baseline release {baseline.name}: kg ingest + queries, kg build", file=sys.stderr)
        before = {
            "kg": in_child(
                "kg",
                corpus,
                scratch / f"base-store-{papers}",
                scratch / f"base-{papers}.nq",
                baseline / "queries",
                scratch / f"base-bindings-{papers}.json",
                release=baseline,
            )
        }
        before["engine"] = in_child("engine", scratch / f"base-{papers}.nq", scratch / f"base-engine-{papers}")
        if build:
            before["build"] = in_child(
                "build", corpus, scratch / f"base-build-{papers}", scratch / f"base-exports-{papers}", release=baseline
            )
    return {
        "papers": papers,
        "corpus_mb": corpus.stat().st_size / 2**20,
        "kg": kg,
        "engine": engine,
        "naive": naive,
        "build": built,
        "load": load(),
        "naive_max": naive_max,
        "baseline": before,
    }


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        print(json.dumps(CHILDREN[sys.argv[2]](*map(Path, sys.argv[3:]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated paper counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--queries", type=Path, default=PROJECT / "queries", help="folder of library .rq files")
    parser.add_argument("--naive-max", type=int, default=NAIVE_MAX, help="largest size the naive route runs at")
    parser.add_argument("--no-build", action="store_true", help="leave out kg build end to end")
    parser.add_argument(
        "--baseline",
        type=lambda folder: Path(folder).resolve(),  # its routes run with their own folder as the working one
        default=None,
        help="folder of the baseline release with its own .venv, measured beside this one",
    )
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print(
        f"kg benchmark: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, queries from {args.queries}, {load()} at the start",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="kg-bench-") as scratch:
        results = []
        for papers in sizes:
            results.append(
                bench_size(
                    papers, args.seed, args.queries, Path(scratch), args.naive_max, not args.no_build, args.baseline
                )
            )
            report(results[-1])
        targets(results)


if __name__ == "__main__":
    main()
