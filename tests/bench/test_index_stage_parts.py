"""bench/index_stage_parts.py times the index stage's parts where their callers look them up: a part renamed or
moved fails here, not on the day someone needs the figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parents[2] / "bench"
# Each part installed; a timed generator and call counted; what is left printed as the report does.
INSTALLED = """
import sys
sys.path.insert(0, sys.argv[1])
import index_stage_parts as parts
originals = [getattr(owner, attribute) for _, owner, attribute, _ in parts.PARTS]
parts.install()
for (label, owner, attribute, _), original in zip(parts.PARTS, originals):
    assert getattr(owner, attribute).__wrapped__ is original, label
steps = parts.timed_steps("steps", lambda n: (sum(range(200_000)) for _ in range(n)))
assert list(steps(3)) == [sum(range(200_000))] * 3
assert parts.timed_call("call", max)(2, 5) == 5
assert parts.SPENT["steps"] > 0 and set(parts.SPENT) == {"steps", "call"}
print(len(parts.PARTS))
"""


def test_every_part_is_timed_where_its_caller_finds_it():
    result = subprocess.run([sys.executable, "-c", INSTALLED, str(BENCH)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    count, report = result.stdout.split("\n", 1)
    assert "part of the index stage" in report  # the report at exit, every part on its line
    assert report.count(" s\n") == int(count) > 10
