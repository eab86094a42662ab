"""CPU time of the inputs that once made a reader super-linear, beside ordinary inputs of the same size.

    python bench/hostile_inputs.py [--runs 3] [--max-ratio 50]

Each hostile input (a 20 kB abstract of one repeated token, thousands of links in a comments line,
a thousand capitalised words in one institution entry) is timed beside a baseline: an ordinary
input of about the same length, read by the same function in the same run. The ratio is what
compares across machines. A hostile abstract has about four times the tokens of ordinary prose of
its length (each "X-Y" is three), so a linear reader shows ratios up to about 20; one that turns
quadratic again shows ratios in the hundreds or thousands.
Exits 1 when a ratio is above ``--max-ratio``. The tests (tests/pipeline/test_inputs.py,
tests/orgs/test_tokenizer.py) check what these inputs give; how long they take is measured here.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable

ABSTRACT = (
    "We introduce a benchmark for offline optimization and evaluate twelve methods on it. "
    "Our results show that simple baselines remain strong. "
)
COMMENTS = "Accepted at ICML 2026 (poster). Code: https://github.com/a/b. Project page: https://a.github.io/b. "


def _fill(unit: str, length: int) -> str:
    return (unit * (length // len(unit) + 1))[:length]


def cases() -> list[tuple[str, Callable[[str], object], str, str]]:
    """(name, reader, hostile input, ordinary input of about its length)."""
    from kg.ingest.comments import parse_publication
    from kg.nlp.analysis import analyse
    from kg.orgs.aliases import _load
    from kg.orgs.institutions import resolve_entries

    table = _load(None)
    abstract = lambda text: analyse("A Title", text)  # noqa: E731
    comments = lambda text: parse_publication(text, text, "A Title")  # noqa: E731
    entry = lambda text: resolve_entries(text, None, table)  # noqa: E731
    hostile = [
        ("abstract: 4,900 × 'X-Y'", abstract, "We introduce " + " ".join(["X-Y"] * 4900) + "."),
        ("abstract: 5,000 nested parentheses", abstract, "(" * 5000 + "x" + ")" * 5000),
        ("abstract: 4,500 acronyms", abstract, " ".join(["ABC"] * 4500)),
        ("comments: 2,200 URLs", comments, " ".join(f"http://a.b/{n}" for n in range(2200))),
        (
            "comments: 2,200 cued URLs",
            comments,
            "Project page: " + " code ".join(f"https://x.org/{n}" for n in range(2200)),
        ),
        ("comments: a workshop name of 6,000 colons", comments, "Workshop on " + "a: " * 6000 + "("),
        (
            "institution: 1,000 capitalised words",
            entry,
            " ".join(f"Alpha{i} University" if i % 7 == 0 else f"Word{i}" for i in range(1000)),
        ),
    ]
    ordinary = {abstract: ABSTRACT, comments: COMMENTS, entry: "Department of Computer Science, Stanford University, "}
    return [(name, read, text, _fill(ordinary[read], len(text))) for name, read, text in hostile]


def cpu_seconds(read: Callable[[str], object], text: str, runs: int) -> float:
    """The least CPU time of ``runs`` reads of ``text`` (CPU time: what the input costs, not how busy the machine
    is)."""
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        read(text)
        best = min(best, time.process_time() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per input (the least CPU time is kept)")
    parser.add_argument("--max-ratio", type=float, default=50.0, help="hostile ÷ ordinary CPU time allowed")
    args = parser.parse_args()
    table = cases()
    table[0][1]("warm-up")  # spaCy's pipeline is built once, outside the timings
    print(f"{'input':<44} {'chars':>7} {'hostile s':>10} {'ordinary s':>11} {'ratio':>7}")
    over = []
    for name, read, hostile, ordinary in table:
        slow, usual = cpu_seconds(read, hostile, args.runs), cpu_seconds(read, ordinary, args.runs)
        ratio = slow / max(usual, 1e-3)
        print(f"{name:<44} {len(hostile):>7,} {slow:>10.3f} {usual:>11.3f} {ratio:>6.1f}×")
        if ratio > args.max_ratio:
            over.append(name)
    if over:
        sys.exit(f"above {args.max_ratio}× an ordinary input of the same length: {'; '.join(over)}")


if __name__ == "__main__":
    main()
