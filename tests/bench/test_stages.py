"""bench/stages.py's per-stage peak: the kernel's high-water mark, started again at each stage."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parents[2] / "bench"
# A stage that holds 300 MB, then one that holds nothing: each line's last figure is its own peak.
STAGES = """
import sys
sys.path.insert(0, sys.argv[1])
from stages import StageClock
clock = StageClock("holding")
held = bytearray(300 * 1024 * 1024)
held[:: 4096] = b"x" * len(held[:: 4096])  # every page touched, so resident
del held
clock("after")
clock.finish()
"""


def _peaks(output: str) -> dict[str, int]:
    return {line.split()[0]: int(line.split()[-2].replace(",", "")) for line in output.splitlines() if " MB" in line}


def test_each_stage_has_its_own_peak():
    result = subprocess.run(
        [sys.executable, "-c", STAGES, str(BENCH)], capture_output=True, text=True, timeout=120, check=True
    )
    peaks = _peaks(result.stdout)
    assert peaks["holding"] >= 300
    assert peaks["after"] < peaks["holding"] - 250  # the first stage's 300 MB are not the second's
    assert peaks["whole"] >= peaks["holding"]
