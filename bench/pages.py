"""Every library query's first page, CPU and wall milliseconds, on one store or two side by side.

    .venv/bin/python bench/pages.py STORE [OTHER_STORE]
    .venv/bin/python bench/pages.py --real STORE   # beside each list's page, the real query's

The two stores are asked in turn, query by query in one process, so a shared machine's load falls
on both alike; parameters are bound as ``bench/run.py`` binds them (from the first store), and a
page is the rows up to the query's ``limit`` default; a query that declares a precomputed list is asked through
kg's query runner, which reads the page from the list. Each figure is the median of three runs after one
(a run over 2 s of CPU is the figure itself).
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

    real = sys.argv[1:2] == ["--real"]
    stores = [KGStore(path, read_only=True) for path in sys.argv[1 + real : 3 + real]]
    if not stores:
        raise SystemExit(__doc__)
    queries = bench.library(bench.PROJECT / "queries")
    runners = [bench.kg_runner(store, bench.PROJECT / "queries") for store in stores]
    bindings = bench.resolve_bindings(stores[0], queries)
    print(f"{'query':<32}" + "".join(f"{'CPU ms':>10}{'wall ms':>10}{'rows':>6}" for _ in stores + [real] * real))
    lists = {
        bench.sparql_prologue() + q.sparql for q in bench.runner_library(bench.PROJECT / "queries") if q.precomputed
    }
    for name, (text, params) in queries.items():
        terms, page = bench.to_terms(bindings.get(name, {})), bench.page_size(params)
        cells = [first_page(run, text, terms, page) for run in runners]
        if real:  # the query itself, where a list serves it; the same figure again where none does
            cells.append(first_page(stores[0].query, text, terms, page) if text in lists else cells[0])
        print(f"{name:<32}" + "".join(f"{cpu:>10.1f}{wall:>10.1f}{rows:>6}" for cpu, wall, rows in cells), flush=True)


if __name__ == "__main__":
    main()
