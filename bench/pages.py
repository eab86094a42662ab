"""Every library query's first page, CPU and wall milliseconds, on one store or two side by side.

    .venv/bin/python bench/pages.py STORE [OTHER_STORE]
    .venv/bin/python bench/pages.py --real STORE   # beside each list's page, the real query's
    .venv/bin/python bench/pages.py --only QUERY,QUERY STORE   # only these queries

The two stores are asked in turn, query by query in one process, so a shared machine's load falls
on both alike; parameters are bound as ``bench/run.py`` binds them (from the first store), and a
page is the rows up to the query's ``limit`` default; a query that declares a precomputed list is asked through
kg's query runner, which reads the page from the list. Each figure is the median of three runs after one
(a run over 2 s of CPU is the figure itself).

A query about an author, institution or topic is asked about the one with the most papers (its name alone),
then about a mid-size one (``@mid``: the papers nearest the square root of the most) and a small one
(``@small``: nearest 2 papers); a query about two authors about the two nearest that size.
"""

from __future__ import annotations

import statistics
import sys
import time
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import query_timing as bench  # noqa: E402  (bench/query_timing.py: the library, the bindings, the page size)

SLOW_MS = 2000  # CPU of a run after which one run will do: at 100,000 papers a slow query takes minutes
_COUNTED = {  # every entity of a kind with its papers: an institution's own and its units' (kg:paperCount)
    "author": "SELECT ?x (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p dcterms:creator ?x } GROUP BY ?x",
    "institution": "SELECT ?x (MAX(?c) AS ?n) WHERE { ?x a org:Organization ; kg:paperCount ?c } GROUP BY ?x",
    "topic": "SELECT ?x (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p dcterms:subject ?x } GROUP BY ?x",
}


def entity_sizes(store) -> dict[str, dict[str, list[str]]]:
    """Per kind, the two entities nearest each size (``mid``, ``small``), by papers then IRI."""
    sizes: dict[str, dict[str, list[str]]] = {}
    for kind, sparql in _COUNTED.items():
        counted = [(int(row[1]), str(row[0])) for row in store.query(bench.sparql_prologue() + sparql)]
        most = max(papers for papers, _ in counted)
        targets = {"mid": round(most**0.5), "small": 2}
        sizes[kind] = {
            size: sorted((abs(papers - target), papers, iri) for papers, iri in counted)[:2]
            for size, target in targets.items()
        }
        for size, picked in sizes[kind].items():
            named = ", ".join(f"{iri} ({papers} papers)" for _, papers, iri in picked)
            print(f"{kind} @{size}: {named}", file=sys.stderr)
            sizes[kind][size] = [iri for _, _, iri in picked]
    return sizes


def sized(queries, bindings, sizes):
    """Each query under its name with the largest entities, then ``NAME @SIZE`` with the other sizes."""
    for name, (text, params) in queries.items():
        yield name, text, params, bindings.get(name, {})
        kinds = [kind for _, kind, _ in params if kind in sizes]
        for size in ("mid", "small") if kinds else ():
            values, used = dict(bindings.get(name, {})), {}
            for pname, kind, _ in params:
                if kind in sizes:
                    values[pname] = ["iri", sizes[kind][size][used.setdefault(kind, 0)]]
                    used[kind] += 1
            yield f"{name} @{size}", text, params, values


def first_page(run, text: str, terms, page: int) -> tuple[float, float, int]:
    """Median (CPU ms, wall ms) of the first page, and its rows."""
    cpu, wall, rows = [], [], 0
    for attempt in range(bench.QUERY_RUNS + 1):
        started, started_cpu = time.perf_counter(), time.process_time()
        answer = run(text, terms)
        rows = sum(1 for _ in islice(getattr(answer, "terms", answer), page))
        took = (time.process_time() - started_cpu) * 1000
        if attempt or took > SLOW_MS:
            cpu.append(took)
            wall.append((time.perf_counter() - started) * 1000)
        if took > SLOW_MS:
            break
    return statistics.median(cpu), statistics.median(wall), rows


def main() -> None:
    from kg.stores.embedded import KGStore

    args = sys.argv[1:]
    real = args[:1] == ["--real"]
    only = args[real + 1].split(",") if args[real : real + 1] == ["--only"] else None
    stores = [KGStore(path, read_only=True) for path in args[real + 2 * bool(only) :][:2]]
    if not stores:
        raise SystemExit(__doc__)
    queries = {
        name: query for name, query in bench.library(bench.PROJECT / "queries").items() if name in (only or [name])
    }
    runners = [bench.kg_runner(store, bench.PROJECT / "queries") for store in stores]
    bindings = bench.resolve_bindings(stores[0], queries)
    sizes = entity_sizes(stores[0])
    print(f"{'query':<32}" + "".join(f"{'CPU ms':>10}{'wall ms':>10}{'rows':>6}" for _ in stores + [real] * real))
    lists = {
        bench.sparql_prologue() + q.sparql for q in bench.runner_library(bench.PROJECT / "queries") if q.precomputed
    }
    for name, text, params, values in sized(queries, bindings, sizes):
        terms, page = bench.to_terms(values), bench.page_size(params)
        cells = [first_page(run, text, terms, page) for run in runners]
        if real:  # the query itself, where a list serves it; the same figure again where none does
            cells.append(first_page(stores[0].query, text, terms, page) if text in lists else cells[0])
        print(f"{name:<32}" + "".join(f"{cpu:>10.1f}{wall:>10.1f}{rows:>6}" for cpu, wall, rows in cells), flush=True)


if __name__ == "__main__":
    main()
