"""What each precomputed list (kg/query/rankings.py) costs an ingest: its query's whole answer and its triples.

    .venv/bin/python bench/lists.py STORE
    .venv/bin/python bench/lists.py --only NAME,NAME STORE   # only these lists
    .venv/bin/python bench/lists.py --twins STORE            # the lists with a twin, made by it

CPU seconds of each list as ``kg ingest`` computes it (the query run whole with its defaults, every row made
into the list's triples; the write into the store left out), and the triples it makes. With ``--twins``, each
list that has a twin (kg/resolve/list_rows.py) is made by the twin, as ``kg ingest`` makes it, from the rows
the resolution step's counts' pass writes for it; that pass is run first over the store's facts (as a run that
staged nothing reads them), and what the rows cost it is printed too: the pass with them, and without.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import pyoxigraph as ox


def _pass_seconds(store, lists, introducing=None) -> float:
    """The counts' pass over every paper's facts (kg/resolve/aggregates.py), writing ``lists`` or none."""
    from kg.rdf.iris import Minter
    from kg.resolve.aggregates import aggregate_triples
    from kg.vocab import ORG

    units = list(store.oxigraph.quads_for_pattern(None, ORG.subOrganizationOf, None))  # the last run's placed too
    started = time.process_time()
    for _ in aggregate_triples(store, Minter(), [quad.triple for quad in units], None, None, introducing, lists):
        pass
    return time.process_time() - started


def _twin_rows(store, folder: Path):
    """The rows the resolution step leaves for the twins, made again from the store."""
    from kg.resolve.artifact_rows import kept_name_lists
    from kg.resolve.list_rows import TwinFiles
    from kg.resolve.name_lists import institution_names, name_lists
    from kg.resolve.person_labels import person_label_triples
    from kg.resolve.written_forms import form_groups

    names = folder / "names"
    with open(folder / "keys", "w", encoding="utf-8") as keys, open(names, "w", encoding="utf-8") as named:
        for _ in person_label_triples(form_groups(store), keys, named):
            pass
    rows = TwinFiles.in_folder(folder, names, None)
    introducing = folder / "introducing"  # written by the pass in every run
    without, with_rows = _pass_seconds(store, None, introducing), _pass_seconds(store, rows, introducing)
    # the name lists, as the resolution step writes them
    kept_name_lists(name_lists(introducing, names, institution_names(store), None), folder / "name-lists", rows)
    print(f"{'counts pass, without / with rows':<32}{without:>8.2f} s CPU{with_rows:>8.2f} s CPU", flush=True)
    return rows


def main() -> None:
    from kg.query.library import library
    from kg.query.precompute import TWINS, query_lists
    from kg.stores.embedded import KGStore

    args = sys.argv[1:]
    only = args[1].split(",") if args[:1] == ["--only"] else None
    twins = args[:1] == ["--twins"]
    if len(args) != 1 + 2 * bool(only) + twins:
        raise SystemExit(__doc__)
    store = KGStore(args[-1], read_only=True)
    total = 0.0
    with tempfile.TemporaryDirectory(prefix="kg-bench-lists-") as folder:
        rows = _twin_rows(store, Path(folder)) if twins else None
        for query in library().values():
            chosen = only or (list(TWINS) if twins else [query.precomputed])
            if query.precomputed and query.precomputed in chosen:
                started = time.process_time()
                count = lists = 0
                ranking = ox.NamedNode("https://kg.example.org/id/ranking/b")
                for made in query_lists(store, query, ranking, rows):
                    count += len(made.lines) + 1
                    lists += 1
                took = time.process_time() - started
                total += took
                print(f"{query.precomputed:<32}{took:>8.2f} s CPU{count:>10} triples{lists:>6} lists", flush=True)
    print(f"{'all':<32}{total:>8.2f} s CPU")


if __name__ == "__main__":
    main()
