"""What each precomputed list (kg/query/rankings.py) costs an ingest: its query's whole answer and its triples.

    .venv/bin/python bench/lists.py STORE
    .venv/bin/python bench/lists.py --only NAME,NAME STORE   # only these lists

CPU seconds of each list as ``kg ingest`` computes it (the query run whole with its defaults, every row made
into the list's triples; the write into the store is left out), and the triples it makes.
"""

from __future__ import annotations

import sys
import time

import pyoxigraph as ox


def main() -> None:
    from kg.query.library import library
    from kg.query.precompute import query_list_triples
    from kg.stores.embedded import KGStore
    from kg.vocab import KG

    args = sys.argv[1:]
    only = args[1].split(",") if args[:1] == ["--only"] else None
    if len(args) != 1 + 2 * bool(only):
        raise SystemExit(__doc__)
    store = KGStore(args[-1], read_only=True)
    total = 0.0
    for query in library().values():
        if query.precomputed and query.precomputed in (only or [query.precomputed]):
            started = time.process_time()
            count = lists = 0
            for triple in query_list_triples(store, query, ox.NamedNode("https://kg.example.org/id/ranking/b")):
                count += 1
                lists += triple.predicate == KG.rankingName
            took = time.process_time() - started
            total += took
            print(f"{query.precomputed:<32}{took:>8.2f} s CPU{count:>10} triples{lists:>6} lists", flush=True)
    print(f"{'all':<32}{total:>8.2f} s CPU")


if __name__ == "__main__":
    main()
