"""The rankings graph after ``kg ingest`` of PATHS, as a sorted N-Triples digest: made with the lists' twins
(kg/resolve/list_rows.py), or with the named lists made by running their queries, to compare the two.

    .venv/bin/python bench/twin_digest.py STORE PATH...                        # with the twins
    .venv/bin/python bench/twin_digest.py STORE --queries NAME,NAME PATH...    # these lists by their queries

STORE: a folder that does not exist yet (an on-disk store, made here), or ``memory``. Prints the triples and
the SHA-256 of their sorted N-Triples lines; the same two lines from both runs: the twins make the lists the
queries make.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path


def main() -> None:
    from kg.pipeline import ingest
    from kg.query import precompute
    from kg.rdf.iris import Minter
    from kg.stores.embedded import KGStore

    args = sys.argv[1:]
    if len(args) < 2:
        raise SystemExit(__doc__)
    where, paths = args[0], args[1:]
    by_query: set[str] = set()
    if paths[0] == "--queries":
        by_query, paths = set(paths[1].split(",")), paths[2:]
    twin = precompute._twin
    precompute._twin = lambda query, rows: None if query.precomputed in by_query else twin(query, rows)
    store = KGStore(where)
    ingest([Path(path) for path in paths], store, Minter(), jobs=1)
    quads = store.oxigraph.quads_for_pattern(None, None, None, precompute.rankings_graph(Minter()))
    lines = sorted(f"{quad.subject} {quad.predicate} {quad.object} .\n" for quad in quads)
    digest = hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()
    print(len(lines), digest, "by queries:" if by_query else "by twins", *sorted(by_query))


if __name__ == "__main__":
    main()
