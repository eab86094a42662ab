"""`kg build` without PATH never replaces other sources silently, and a full disk is one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
from conftest import KG_BIN, kg_here

from kg.ingest.synth import write_corpus


def synthetic(path: Path, papers: int) -> Path:
    with open(path, "w", encoding="utf-8") as out:
        write_corpus(out, papers, 3)
    return path


@pytest.mark.slow
def test_a_bare_build_refuses_to_replace_other_sources(tmp_path):
    kg_here("build", "--out", "out", str(synthetic(tmp_path / "mine.txt", 20)), cwd=tmp_path)
    refused = kg_here("build", "--out", "out", cwd=tmp_path, check=False)
    assert refused.returncode == 2
    message = refused.stderr.decode()
    assert message.count("\n") == 1 and "1 other source (mine-txt)" in message and "--replace" in message
    assert json.loads(kg_here("stats", "--format", "json", cwd=tmp_path).stdout)["papers"] == 20  # untouched
    kg_here("build", "--out", "out", "--replace", cwd=tmp_path)
    kg_here("build", "--out", "out", cwd=tmp_path)  # the store holds the samples alone now: nothing to refuse


@pytest.fixture
def small_disk(tmp_path):
    """A 3 MB tmpfs, where this process may mount one."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root and the mount command")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", f"kg-test-{uuid.uuid4().hex[:8]}", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode:
        pytest.skip(f"this machine does not let the tests mount a tmpfs ({done.stderr.strip()})")
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


@pytest.mark.slow
@pytest.mark.parametrize("debug", [False, True])
def test_a_full_disk_is_one_line_and_a_traceback_with_kg_debug(tmp_path, small_disk, debug):
    listing = synthetic(tmp_path / "big.txt", 300)
    env = {key: value for key, value in os.environ.items() if not key.startswith("KG_")}
    env |= {"KG_STORE": str(small_disk / "store"), **({"KG_DEBUG": "1"} if debug else {})}
    done = subprocess.run(
        [str(KG_BIN), "build", "--out", str(small_disk / "out"), str(listing)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode != 0
    if debug:
        assert "Traceback" in done.stderr and "No space left on device" in done.stderr
    else:
        assert done.stderr.startswith("kg: error: no space left on device") and done.stderr.count("\n") == 1, (
            done.stderr
        )
