"""kg.cache: an entry is built once and loaded after; a changed input, a bad file or a folder that
cannot be written costs a build, never an error; processes that build at once both get the value."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kg.cache import KEPT, cache_dir, cached, use_folder


@pytest.fixture
def kept_in():
    """``kept_in(folder)`` names the cache folder for the test; the one before is named again after."""
    before = cache_dir()
    yield use_folder
    use_folder(before)


@pytest.fixture
def folder(tmp_path, kept_in):
    kept_in(tmp_path / "cache")
    return tmp_path / "cache"


def counting_build(builds: list, value: object):
    def build():
        builds.append(value)
        return value

    return build


def test_an_entry_is_built_once_then_loaded(folder, tmp_path):
    table = tmp_path / "table.tsv"
    table.write_text("a\tb\n")
    builds: list = []
    assert cached("table", [table], counting_build(builds, {"a": "b"})) == {"a": "b"}
    assert cached("table", [table], counting_build(builds, "not built")) == {"a": "b"}
    assert builds == [{"a": "b"}]
    assert [path.suffix for path in folder.iterdir()] == [".pickle"]  # no temporary file left


def test_a_changed_input_builds_afresh_and_old_entries_go(folder, tmp_path):
    table = tmp_path / "table.tsv"
    for version in range(KEPT + 2):
        table.write_text(f"a\t{version}\n")
        assert cached("table", [table], counting_build([], version)) == version
    assert len(list(folder.glob("table-*.pickle"))) == KEPT


def test_a_bad_entry_is_rebuilt(folder):
    cached("value", [], lambda: 1)
    (entry,) = folder.glob("value-*.pickle")
    entry.write_bytes(b"\x80\x05not a pickle")
    assert cached("value", [], lambda: 2) == 2
    assert cached("value", [], lambda: 3) == 2  # the rebuilt one was stored


@pytest.mark.parametrize("where", ["under a file", "read-only file system"])
def test_a_folder_that_cannot_be_written_builds_in_memory(tmp_path, kept_in, where):
    if where == "under a file":
        (tmp_path / "file").write_text("")
        folder = tmp_path / "file" / "cache"
    else:
        folder = Path("/proc/kg-cache")  # no one, not even root, makes a folder there
        if not Path("/proc/self").exists():
            pytest.skip("no /proc file system here")
    kept_in(folder)
    builds: list = []
    assert cached("value", [], counting_build(builds, 1)) == 1
    assert cached("value", [], counting_build(builds, 1)) == 1
    assert builds == [1, 1]


def test_processes_that_build_at_once_both_get_the_value(folder):
    script = (
        f"import time; from kg.cache import cached, use_folder; use_folder({str(folder)!r}); "
        "print(cached('slow', [], lambda: time.sleep(0.5) or list(range(100_000)))[-1])"
    )
    processes = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE) for _ in range(2)]
    outputs = [process.communicate(timeout=60)[0] for process in processes]
    assert outputs == [b"99999\n", b"99999\n"]
    assert [path.name.startswith("slow-") for path in folder.iterdir()] == [True]


def test_none_keeps_nothing(tmp_path, monkeypatch, kept_in):
    kept_in(None)
    monkeypatch.chdir(tmp_path)
    builds: list = []
    assert [cached("value", [], counting_build(builds, 1)) for _ in range(2)] == [1, 1]
    assert builds == [1, 1] and list(tmp_path.iterdir()) == []
