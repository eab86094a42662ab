"""`kg build` on the bundled samples: the facts issue #2 names, checked in the graph."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import run_kg


def test_build_writes_turtle_that_rapper_parses(tmp_path):
    result = run_kg("build", "--out", str(tmp_path / "out"), cwd=tmp_path)
    summary = result.stdout.decode()
    assert "Read 44 records from 2 files (1 as abstracts, 1 as listing): 44 ingested, 0 rejected." in summary
    assert "43 papers, 135 authors" in summary  # MLUBench from both sources is one paper
    ttl = tmp_path / "out" / "kg.ttl"
    assert ttl.stat().st_size > 0
    if not shutil.which("rapper"):
        pytest.skip("rapper (raptor2-utils) is not installed")
    parsed = subprocess.run(["rapper", "-i", "turtle", "-c", str(ttl)], capture_output=True, text=True)
    assert parsed.returncode == 0, parsed.stderr
    assert "returned" in parsed.stderr and " 0 triples" not in parsed.stderr
