"""`kg build` on the bundled samples: the facts issue #2 names, checked in the graph."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import run_kg


def test_build_writes_turtle_that_rapper_parses(built_samples):
    summary = (built_samples / "build.out").read_text(encoding="utf-8")
    assert "Read 44 records from 2 files (1 as abstracts, 1 as listing): 44 ingested, 0 rejected." in summary
    assert "43 papers, 135 authors" in summary  # MLUBench from both sources is one paper
    ttl = built_samples / "exports" / "kg.ttl"
    assert ttl.stat().st_size > 0
    if not shutil.which("rapper"):
        pytest.skip("rapper (raptor2-utils) is not installed")
    parsed = subprocess.run(["rapper", "-i", "turtle", "-c", str(ttl)], capture_output=True, text=True)
    assert parsed.returncode == 0, parsed.stderr
    assert "returned" in parsed.stderr and " 0 triples" not in parsed.stderr


@pytest.mark.slow
def test_build_writes_the_same_files_in_one_process_as_beside_the_pages(tmp_path):
    """--jobs 2: the export and the pages each in a reader process while the ranked lists are made, the
    resolution's reads beside each other; --jobs 1: all in one process. Every file the same bytes, no
    snapshot left."""
    written = {}
    for jobs in ("1", "2"):
        run_kg("build", "--jobs", jobs, "--store", f"store{jobs}", "--out", f"out{jobs}", cwd=tmp_path)
        out = tmp_path / f"out{jobs}"
        written[jobs] = {path.relative_to(out): path.read_bytes() for path in sorted(out.rglob("*")) if path.is_file()}
        assert not list(
            (tmp_path / f"store{jobs}").glob("kg-readers/reader-*")
        )  # the readers' own (the published one stays)
    assert written["1"] == written["2"] and len(written["1"]) >= 5
