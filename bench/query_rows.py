"""Every library query's whole answer on a store (and its raw form's, ``queries/checks/``), written as
JSON; or two such files compared.

    .venv/bin/python bench/query_rows.py STORE OUT.json      # every query, every row
    .venv/bin/python bench/query_rows.py --compare A.json B.json

Made to show that a change of the graph's shape (the label properties, say) leaves every answer
as it was: run it on a store built before the change and on one built after, then compare. Parameters
are bound as ``bench/run.py`` binds them (the most frequent author, institution and topic; others
their declared default); every row is kept, in the order the query gives, as N-Triples text.
``--compare`` prints one line per query that differs and exits 1 if any does.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import query_timing as bench  # noqa: E402  (bench/query_timing.py: the library and the bindings)


def answers(store_path: str) -> dict[str, list[list[str]]]:
    from kg.stores.embedded import KGStore

    store = KGStore(store_path, read_only=True)
    result = {}
    for prefix, folder in (("", "queries"), ("checks/", "queries/checks")):  # the library, and its raw forms
        queries = bench.library(bench.PROJECT / folder)
        bindings = bench.resolve_bindings(store, queries)
        for name, (text, _) in queries.items():
            rows = store.query(text, bench.to_terms(bindings.get(name, {})))
            result[prefix + name] = [[str(term) if term is not None else "" for term in row] for row in rows.terms]
    return result


def compare(before: dict, after: dict) -> int:
    differing = 0
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name), after.get(name)
        if old != new:
            differing += 1
            print(f"{name}: {len(old or [])} rows before, {len(new or [])} after, not the same")
    rows = sum(len(value) for value in before.values())
    print(f"{len(before)} queries, {rows} rows before; {len(before) - differing} the same, {differing} differ")
    return 1 if differing else 0


def main() -> None:
    if sys.argv[1:2] == ["--compare"] and len(sys.argv) == 4:
        files = [json.loads(Path(path).read_text(encoding="utf-8")) for path in sys.argv[2:4]]
        raise SystemExit(compare(*files))
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    Path(sys.argv[2]).write_text(json.dumps(answers(sys.argv[1]), ensure_ascii=False, indent=0), encoding="utf-8")


if __name__ == "__main__":
    main()
