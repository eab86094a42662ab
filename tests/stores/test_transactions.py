"""All-or-nothing commands and concurrent use of one embedded store, with real kg processes where a test is
about processes (killed, side by side, a lock another holds), kg_here for the commands around them."""

from __future__ import annotations

import fcntl
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import KG_BIN, LISTING, kg_here, run_kg

DATA = Path(__file__).resolve().parents[1] / "data"


def stats(cwd: Path) -> dict:
    return json.loads(kg_here("stats", "--format", "json", cwd=cwd).stdout)


def kg_process(*args: str, cwd: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KG_")}
    return subprocess.Popen([str(KG_BIN), *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def one_line_error(result, code: int) -> str:
    lines = result.stderr.decode().splitlines()
    assert result.returncode == code, result.stderr.decode()
    assert len(lines) == 1 and lines[0].startswith("kg: error: "), lines
    return lines[0]


@pytest.mark.slow
@pytest.mark.usefixtures("built_here")  # tmp_path as kg build leaves it
def test_a_failed_build_leaves_the_previous_graph(tmp_path):
    before = stats(tmp_path)
    assert before["sources"] == 2
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    (tmp_path / "all-rejected.txt").write_text(
        "ICML 2026 Papers\n\n"
        + "\n\n".join(f"A Title Without An Author Line {n}\n\n机构 * Some University 纠错" for n in range(3))
        + "\n",
        encoding="utf-8",
    )
    failures = [
        (("build", "/nonexistent.txt"), 2),
        (("build", "--strict", str(DATA / "hostile_listing.txt")), 1),
        (("build", str(tmp_path / "empty.txt")), 1),
        (("build", "--format", "listing", str(tmp_path / "all-rejected.txt")), 1),
        (("ingest", str(LISTING), "/nonexistent.txt"), 2),  # the good file before the bad one is not applied either
    ]
    for args, code in failures:
        result = kg_here(*args, cwd=tmp_path, check=False)
        assert result.returncode == code, (args, result.stderr.decode())
        assert "kg: error: " in result.stderr.decode().splitlines()[-1]
        assert stats(tmp_path) == before, args


@pytest.mark.slow
@pytest.mark.usefixtures("built_here")  # tmp_path as kg build leaves it
def test_kill_9_during_build_leaves_the_old_or_the_new_graph(tmp_path):
    old = stats(tmp_path)
    kg_here("synth", "--papers", "150", "--seed", "7", "--out", "synth.txt", cwd=tmp_path)
    rng = random.Random(14)  # seeded: the same kill points every run
    seen = []
    for _ in range(3):
        process = kg_process("build", "synth.txt", "--out", "killed", cwd=tmp_path)
        time.sleep(rng.uniform(0.5, 4.0))
        process.send_signal(signal.SIGKILL)
        process.wait()
        seen.append(stats(tmp_path))
        if seen[-1] != old:
            kg_here("build", "--replace", cwd=tmp_path)  # the samples back in place of synth.txt
    kg_here("build", "synth.txt", "--out", "whole", cwd=tmp_path)
    new = stats(tmp_path)
    assert new != old and all(after in (old, new) for after in seen), seen


@pytest.mark.slow
@pytest.mark.usefixtures("built_here")  # tmp_path as kg build leaves it
def test_readers_beside_a_writer_and_two_writers(tmp_path):
    kg_here("synth", "--papers", "200", "--seed", "3", "--out", "more.txt", cwd=tmp_path)
    writer = kg_process("ingest", "more.txt", cwd=tmp_path)
    readers = [
        kg_process("query", "top-institutions", "-p", "limit=3", "--format", "csv", cwd=tmp_path) for _ in range(20)
    ]
    for process in [writer, *readers]:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err.decode()
        assert b"error" not in err
    for reader in readers:
        assert reader.stdout is not None
    assert stats(tmp_path)["sources"] == 3
    writers = [kg_process("ingest", str(LISTING), cwd=tmp_path), kg_process("ingest", "more.txt", cwd=tmp_path)]
    errors = [process.communicate(timeout=600)[1].decode() for process in writers]
    assert [process.returncode for process in writers] == [0, 0], errors
    assert any("waiting up to" in err for err in errors)  # the second one said it waited


@pytest.mark.slow
@pytest.mark.usefixtures("built_here")  # tmp_path as kg build leaves it
def test_a_writer_waits_only_as_long_as_told(tmp_path):
    before = stats(tmp_path)
    with open(tmp_path / ".kg-store" / "kg-writer.lock", "w") as held:  # another writer, as the OS sees it
        fcntl.flock(held, fcntl.LOCK_EX)
        started = time.monotonic()
        result = run_kg("ingest", str(LISTING), "--wait", "0.5", cwd=tmp_path, check=False)
        waited = time.monotonic() - started
        assert stats(tmp_path) == before  # readers are not held up by a writer
    assert (
        result.stderr.decode().splitlines()[0] == "kg: waiting up to 0.5 s for another kg command writing .kg-store …"
    )
    assert "another kg command is still writing it after 0.5 s" in one_line_error_last(result, 2)
    assert waited < 30  # start-up plus the wait, not the default 300 s
    run_kg("ingest", str(LISTING), "--wait", "0.5", cwd=tmp_path)  # released: the next writer goes ahead


def one_line_error_last(result, code: int) -> str:
    assert result.returncode == code, result.stderr.decode()
    return result.stderr.decode().splitlines()[-1]


@pytest.mark.slow
def test_reading_commands_refuse_a_folder_without_a_store(tmp_path):
    for args in (("stats",), ("query", "top-institutions"), ("graph", "stats"), ("export",)):
        assert "no graph here (.kg-store): run kg build first" in one_line_error(
            kg_here(*args, cwd=tmp_path, check=False), 1
        )
    assert not (tmp_path / ".kg-store").exists()


@pytest.mark.slow
@pytest.mark.usefixtures("built_here")  # tmp_path as kg build leaves it
def test_a_damaged_store_is_refused_and_kept(tmp_path):
    store = tmp_path / ".kg-store"
    (store / "CURRENT").unlink()
    files = sorted(p.name for p in store.iterdir())
    for args in (("stats",), ("stats",), ("ingest", str(LISTING))):
        assert "the store is damaged (its CURRENT file is missing)" in one_line_error(
            kg_here(*args, cwd=tmp_path, check=False), 1
        )
    assert sorted(p.name for p in store.iterdir()) == files


@pytest.mark.slow
@pytest.mark.usefixtures("built_here")  # tmp_path as kg build leaves it
def test_a_fifo_is_refused_at_once_and_an_incomplete_journal_entry_deletes_nothing(tmp_path):
    before = stats(tmp_path)
    os.mkfifo(tmp_path / "pipe")
    result = kg_here("ingest", "pipe", "--wait", "0", cwd=tmp_path, check=False)
    assert "pipe: is not a regular file (a FIFO, socket or device)" in one_line_error(result, 2)
    entry = tmp_path / ".kg-store" / "kg-journal" / "00000000000000000001.commit"
    entry.mkdir()
    (entry / "0.graph").write_text("https://kg.example.org/id/source/001-0af6457a65591eab-txt", encoding="utf-8")
    (entry / "drop").write_text("", encoding="utf-8")  # its 0.nt is missing: applying it would only drop
    assert "is incomplete; nothing was changed" in one_line_error(
        kg_here("ingest", str(LISTING), cwd=tmp_path, check=False), 1
    )
    (tmp_path / "kept").mkdir()
    entry.rename(tmp_path / "kept" / entry.name)
    assert stats(tmp_path) == before


@pytest.mark.slow
def test_kill_9_between_the_merge_rewrite_and_the_derived_graph_keeps_the_merge(tmp_path, built_samples):
    """The resolution step dies after rewriting the merged paper, before its derived graph is written."""
    from conftest import ABSTRACTS
    from pipeline.test_ingest import dump, dump_of_build

    store = tmp_path / "store"
    shutil.copytree(built_samples / "store", store)  # as `kg build --store store` leaves it
    script = textwrap.dedent(f"""
        import os
        from kg.resolve import store_step
        rewrite, calls = store_step._rewrite, []
        def rewrite_then_die(store, moves):
            rewrite(store, moves)
            calls.append(bool(moves))
            if calls.count(True) == 2:  # the first undoes the old merge; the second redoes it
                os._exit(9)
        store_step._rewrite = rewrite_then_die
        from kg.cli import main
        import sys; sys.argv = ["kg", "ingest", {str(LISTING)!r}, "--store", {str(store)!r}]
        main()
    """)
    died = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True)
    assert died.returncode == 9, died.stderr
    assert dump(store, tmp_path) == dump_of_build(tmp_path, "fresh", ABSTRACTS, LISTING)
    merges = kg_here("quality", "--format", "json", "--store", str(store), cwd=tmp_path).stdout
    assert b"MLUBench" in merges
