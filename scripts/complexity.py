"""Fail on any function whose cyclomatic complexity, as radon counts it, is over the limit.

    python scripts/complexity.py [--max 15] PATH ...

ruff's C901 (mccabe) counts branches only; radon also counts each boolean operator, comprehension
and ``except``, so a chain of ``and``/``or`` conditions cannot hide a function's paths. Prints one
line a function over the limit (``path:line name complexity``) and exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from radon.complexity import cc_visit


def blocks_over(path: Path, limit: int) -> list[tuple[int, str, int]]:
    """(line, name, complexity) of every function and method of a file over ``limit``, nested ones
    too (radon lists the methods beside the functions, and a class's total is its methods')."""
    found = []
    pending = [block for block in cc_visit(path.read_text(encoding="utf-8")) if not hasattr(block, "methods")]
    while pending:
        block = pending.pop()
        if block.complexity > limit:
            found.append((block.lineno, block.fullname, block.complexity))
        pending += block.closures
    return sorted(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--max", type=int, default=15, help="the highest complexity allowed (default 15)")
    args = parser.parse_args(argv)
    files = sorted({file for path in args.paths for file in ([path] if path.is_file() else path.rglob("*.py"))})
    failed = False
    for file in files:
        for line, name, complexity in blocks_over(file, args.max):
            failed = True
            print(f"{file}:{line} {name} {complexity}")
    if failed:
        print(f"complexity: functions over {args.max} (radon cc); split them along their seams", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
