"""CPU seconds of the parts of the resolution's index stage ("co-author pairs, counts, name look-up keys and name
lists") inside a real ``kg ingest``, beside ``bench/stages.py``'s table of stages.

    .venv/bin/python bench/index_stage_parts.py LISTING STORE [--jobs 1]   # as bench/stages.py LISTING STORE

The stage streams one chain of triples into the index graph's comparison with its remembered lines
(kg/resolve/graph_memo.py): the counts' pass over every paper's facts, the name index, then the lines of the match
keys and name lists, whose changed lines' statements the comparison makes. Each part
is timed by the CPU spent inside its own steps (a generator's ``next`` or a call), so nested parts are counted in
their parent too; what the comparison spends outside the parts (serialising, sorting and writing the remembered
lines) is its total less theirs. Run with ``--jobs 1``: with a reader process the counts are made there, out of
this process's clock. The timers cost a little (about a microsecond a step).
"""

from __future__ import annotations

import atexit
import sys
import time
from collections import defaultdict
from functools import wraps
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import stages  # noqa: E402 (bench/ is no package: found beside this file)

from kg.resolve import aggregates, graph_memo, index_parts, store_step  # noqa: E402

SPENT: dict[str, float] = defaultdict(float)


def timed_steps(name: str, make):
    """``make`` (which returns an iterable), with the CPU spent making each item added to ``name``."""

    @wraps(make)
    def wrapper(*args, **kwargs):
        items = iter(make(*args, **kwargs))
        while True:
            started = time.process_time()
            try:
                item = next(items)
            except StopIteration:
                return
            finally:
                SPENT[name] += time.process_time() - started
            yield item

    return wrapper


def timed_call(name: str, function):
    @wraps(function)
    def wrapper(*args, **kwargs):
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            SPENT[name] += time.process_time() - started

    return wrapper


# (label, module or class where the caller looks the function up, its name, timer): a label's indent is its parent's
PARTS = [
    ("the counts' pass (over the touched papers, or every paper's facts)", store_step, "_counts", timed_steps),
    ("  facts read and grouped by paper (every paper)", aggregates, "grouped_facts", timed_steps),
    ("  the touched papers' facts searched", aggregates, "touched_facts", timed_steps),
    ("  the remembered lines merged with the new", aggregates.PassMemo, "put", timed_call),
    ("  the counts' ledger: each paper compared, a changed one counted", aggregates.CountLedger, "add", timed_call),
    ("  the counts' ledger: totals brought up to date or made", aggregates.CountLedger, "close", timed_call),
    ("  lists' lines (ListLines.add)", aggregates.ListLines, "add", timed_call),
    ("  lists' lines closed (countries, answers' files)", aggregates.ListLines, "close", timed_call),
    ("  artifacts' lines (TwinLines.add)", aggregates.TwinLines, "add", timed_call),
    ("  the counts' triples read from the ledger", aggregates.CountLedger, "triples", timed_steps),
    ("match keys' lines (a line per entity)", index_parts, "key_lines", timed_call),
    ("name index", store_step, "name_index_of_kinds", timed_steps),
    ("  of it, the keys of every entity read", index_parts, "entity_keys", timed_steps),
    ("name lists' lines (a line per paper)", index_parts, "kept_name_lists", timed_call),
    ("the index graph's comparison, all of the above included", store_step, "set_graph_remembered", timed_call),
    ("  of it, the graph's quads counted", graph_memo, "graph_count", timed_call),
    ("  of it, the changed lines' statements made", graph_memo, "_section_difference", timed_call),
    ("  of it, the difference written", graph_memo, "_apply_difference", timed_call),
]


def install() -> None:
    """Each part's function replaced, where its caller looks it up, by its timed self."""
    for label, owner, attribute, timer in PARTS:
        setattr(owner, attribute, timer(label, getattr(owner, attribute)))


@atexit.register
def report() -> None:
    if SPENT:
        print(f"\n{'part of the index stage':<66}{'CPU':>11}")
    for label, *_ in PARTS:
        print(f"{label:<66}{SPENT.get(label, 0.0):>9.1f} s")


if __name__ == "__main__":
    install()
    stages.main()
