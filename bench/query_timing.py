"""The library's queries as the benchmarks ask them: read by kg's own parser, their parameters bound
to the most frequent entities (the prolific author is the slow case) or their declared defaults, and
timed to their first page: the rows up to the query's ``limit`` default (or :data:`PAGE` rows), which
is what ``kg query`` shows (bench/run.py, bench/pages.py, bench/virtuoso.py, bench/query_rows.py).
"""

from __future__ import annotations

import signal
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
QUERY_RUNS = 3
PAGE = 50  # rows of a first page when a query declares no limit
_RANKING = {
    "author": "SELECT ?x (COUNT(*) AS ?n) WHERE { ?p dcterms:creator ?x } GROUP BY ?x ORDER BY DESC(?n) ?x LIMIT 5",
    "institution": (
        "SELECT ?x (COUNT(*) AS ?n) WHERE { ?p schema:sourceOrganization ?x } GROUP BY ?x ORDER BY DESC(?n) ?x LIMIT 5"
    ),
    "topic": "SELECT ?x (COUNT(*) AS ?n) WHERE { ?p dcterms:subject ?x } GROUP BY ?x ORDER BY DESC(?n) ?x LIMIT 5",
}


def sparql_prologue() -> str:
    """kg's PREFIX lines, from wherever the running release keeps its vocabulary."""
    try:
        from kg.vocab import sparql_prologue as prologue
    except ImportError:  # the baseline release: kg.rdf.vocab
        from kg.rdf.vocab import sparql_prologue as prologue
    return prologue()


def library(folder: Path) -> dict[str, tuple[str, list[list[str]]]]:
    """name -> (SPARQL with prefixes, params as [name, kind, default or ""]), read by kg's own parser."""
    from kg.query.library import library as read_library

    return {
        name: (sparql_prologue() + query.sparql, [[p.name, p.kind, p.default or ""] for p in query.params])
        for name, query in read_library(folder).items()
    }


def resolve_bindings(store, queries) -> dict[str, dict[str, list[str]]]:
    """Per query, each parameter as [kind, lexical value] (JSON, so the naive child can reuse it)."""
    ranked = {kind: [str(row[0]) for row in store.query(sparql_prologue() + q)] for kind, q in _RANKING.items()}
    resolved = {}
    for name, (_, params) in queries.items():
        used: dict[str, int] = {}
        values = {}
        for param in params:
            pname, kind = param[0], param[1]
            if pname in ("limit", "offset"):
                continue  # applied by the runner to rows, not part of the query's work
            if kind in ranked:
                index = used.get(kind, 0)
                used[kind] = index + 1
                if index < len(ranked[kind]):
                    values[pname] = ["iri", ranked[kind][index]]
            elif param[2]:
                values[pname] = [kind, param[2]]
        resolved[name] = values
    return resolved


def to_terms(values: dict[str, list[str]]):
    """The [kind, lexical value] pairs as RDF terms, made the way kg's query runner makes them."""
    from kg.query.library import Param, to_term

    return {name: to_term(Param(name, kind, ""), value, None) for name, (kind, value) in values.items()}


def page_size(params: list[list[str]]) -> int:
    """The rows of a query's first page: its ``limit`` parameter's default, else :data:`PAGE`."""
    return next((int(default) for name, _, default in params if name == "limit" and default), PAGE)


def runner_library(queries_dir: Path) -> list:
    """kg's own reading of the library's queries."""
    from kg.query.library import library as read_library

    return list(read_library(queries_dir).values())


def kg_runner(store, queries_dir: Path):
    """``store.query``, but a query whose header declares a precomputed list is asked through kg's query
    runner, which reads its first page from the list by rank (kg/query/rankings.py), as ``kg query`` does."""
    from kg.query import library as runner

    by_text = {sparql_prologue() + query.sparql: query for query in runner_library(queries_dir)}

    def run(text, terms):
        query = by_text.get(text)
        if query is None or not getattr(query, "precomputed", None):  # the baseline release has no lists
            return store.query(text, terms)
        page = page_size([[p.name, p.kind, p.default or ""] for p in query.params])
        return runner.execute(store, query, terms, runner.Page(page)).rows

    return run


def time_queries(run, queries, bindings, timeout: int | None = None) -> dict[str, list]:
    """[median milliseconds to the first page of QUERY_RUNS runs after one warm-up (None: timed out),
    rows of that page, median CPU milliseconds (the machine may be shared: this is what compares)]."""
    latencies = {}
    for name, (text, params) in queries.items():
        terms, page = to_terms(bindings.get(name, {})), page_size(params)
        rows = None
        try:
            if timeout:
                signal.alarm(timeout)
            samples, cpu = [], []
            for attempt in range(QUERY_RUNS + 1):
                start, started_cpu = time.perf_counter(), time.process_time()
                answer = run(text, terms)
                # kg's stores keep rows as pyoxigraph terms (kg/stores/answers.py) and `kg query` reads them so,
                # converting only the rows it shows: read every row as it does; rdflib's rows are rdflib's terms.
                rows = sum(1 for _ in islice(getattr(answer, "terms", answer), page))
                if attempt:
                    samples.append((time.perf_counter() - start) * 1000)
                    cpu.append((time.process_time() - started_cpu) * 1000)
                if timeout and sum(samples) > timeout * 1000 / 2:
                    break  # slow enough: one sample will do
            latencies[name] = [
                statistics.median(samples) if samples else None,
                rows,
                statistics.median(cpu) if cpu else None,
            ]
        except TimeoutError:
            latencies[name] = [None, None, None]
        finally:
            if timeout:
                signal.alarm(0)
        print(f"    {name}: {latencies[name]} (ms, rows)", file=sys.stderr)
    return latencies
