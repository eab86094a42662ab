"""CPU seconds of each part of the resolution and the description, each run alone on a built store.

    .venv/bin/python bench/resolution_parts.py STORE [--base IRI]

The parts read the store as :func:`kg.resolve.store_step.rebuild` and :func:`kg.exports.description.describe`
do (the people's mentions as a run that staged only some sources reads them); nothing is written. On a
store of one source, the written forms and the counts are also timed from side rows (kg/rdf/side_rows.py), as
the run that staged that source reads them.
CPU time is the process's, the engine's threads included; the machine may be shared, so wall time is
printed beside it.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from functools import partial
from pathlib import Path


def clock(label: str, work) -> None:
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    print(f"{label:<58}{time.process_time() - cpu:>8.2f} s CPU{time.perf_counter() - wall:>8.2f} s wall", flush=True)


def side_rows_of(store, path: Path):
    """The side rows the run that staged the store's one source handed the resolution, made here from the
    store (their lines are what it reads back), so that their reading is timed alone."""
    from kg.rdf.side_rows import FACT, FORM
    from kg.resolve.aggregates import paper_lines
    from kg.resolve.staged_rows import StagedRows
    from kg.resolve.written_forms import _form_lines

    with open(path, "w", encoding="utf-8") as out:
        out.writelines(FACT + line for line in paper_lines(store, StagedRows()))
        out.writelines(FORM + line for line in _form_lines(store, StagedRows()))
    return StagedRows(files={store.sources()[0]: path})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--base", default="https://kg.example.org/id/")
    args = parser.parse_args()

    from kg.index.match_keys import key_lines
    from kg.query.stats import COUNTS, distinct_triples
    from kg.rdf.iris import Minter
    from kg.resolve import kept_rows
    from kg.resolve.aggregates import aggregate_triples
    from kg.resolve.artifact_rows import kept_name_lists
    from kg.resolve.identity import read_mentions
    from kg.resolve.index_parts import name_index_of_kinds
    from kg.resolve.list_lines import TwinFiles
    from kg.resolve.name_lists import institution_names, name_lists
    from kg.resolve.paper_facts import read_papers
    from kg.resolve.person_labels import person_label_triples
    from kg.resolve.written_forms import form_groups, person_forms
    from kg.stores.embedded import KGStore
    from kg.vocab import sparql_prologue

    store, minter = KGStore(str(args.store), read_only=True), Minter(args.base)
    with tempfile.TemporaryDirectory(prefix="kg-bench-") as folder:
        keys, names, introducing = (Path(folder) / name for name in ("person-keys", "person-names", "introducing"))
        clock("papers the merges are decided on, read back", lambda: read_papers(store, minter))
        clock("mentions read back (identity)", lambda: read_mentions(store))
        clock("people's written forms read back", lambda: sum(1 for _ in person_forms(store)))
        with open(keys, "w", encoding="utf-8") as out, open(names, "w", encoding="utf-8") as named:
            clock(
                "people's display names and keys",
                lambda: sum(1 for _ in person_label_triples(form_groups(store), out, named)),
            )
        clock(
            "co-author pairs, institution counts, display titles",
            lambda: sum(1 for _ in aggregate_triples(store, minter, introducing=introducing)),
        )
        lists = TwinFiles.in_folder(Path(folder), names, None)  # what the lists' twins are made of, written too
        clock(
            "the same, writing the precomputed lists' lines",
            lambda: sum(1 for _ in aggregate_triples(store, minter, introducing=introducing, lists=lists)),
        )
        if len(store.sources()) == 1:  # the rows of its one source, as the run that staged it has them
            staged = side_rows_of(store, Path(folder) / "side-rows")
            clock("people's written forms from side rows", lambda: sum(1 for _ in person_forms(store, staged)))
            clock(
                "co-author pairs and institution counts from side rows",
                lambda: sum(1 for _ in aggregate_triples(store, minter, staged=staged)),
            )
        with open(Path(folder) / "key-lines", "w", encoding="utf-8") as out:
            clock("match keys' lines", lambda: key_lines(store, keys, out))
        clock("name index", lambda: sum(1 for _ in name_index_of_kinds(store, keys, minter)))
        made = partial(name_lists, introducing, names, institution_names(store), None)
        clock("name lists", lambda: sum(1 for _ in made()))
        clock(
            "name lists, kept for the twin of artifacts",
            lambda: kept_name_lists(made(), Path(folder) / "name-lists", lists),
        )
    clock("description: the distinct triple count", lambda: distinct_triples(store))
    # The sources' quad counts as the run hands them on (counted for the kept rows' stamps, kg/resolve/kept_rows.py).
    counted = {graph: kept_rows.quad_count(store, graph) for graph in store.sources()}
    clock("description: the distinct triple count, sources known", lambda: distinct_triples(store, None, counted))
    prologue = sparql_prologue()
    clock("description: the other counts", lambda: [store.scalar(prologue + q) for q in COUNTS.values() if q])


if __name__ == "__main__":
    main()
