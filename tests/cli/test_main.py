"""The `kg` command as a user runs it: summaries, exit codes, one-line errors, exports (the commands through
kg's entry point in the test process, kg_here, but for --help and a build on a terminal, in their own)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import rdflib
from conftest import KG_BIN, LISTING, kg_here, run_kg
from pyld import jsonld as jsonld_processor

DATA = Path(__file__).resolve().parents[1] / "data"
HOSTILE = DATA / "hostile_listing.txt"


def rapper_count(path: Path, syntax: str) -> int:
    if not shutil.which("rapper"):
        pytest.skip("rapper (raptor2-utils) is not installed")
    result = subprocess.run(["rapper", "-i", syntax, "-c", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return int(result.stderr.split("returned ")[1].split()[0])


def test_help_documents_every_command(tmp_path):
    out = run_kg("--help", cwd=tmp_path).stdout.decode()
    for command in ("build", "export", "stats"):
        assert command in out
    assert "--strict" in run_kg("build", "--help", cwd=tmp_path).stdout.decode()


@pytest.mark.slow
def test_build_then_stats_share_the_default_store(tmp_path):
    kg_here("build", cwd=tmp_path)
    assert (tmp_path / ".kg-store").is_dir() and (tmp_path / "exports" / "kg.ttl").is_file()
    counts = json.loads(kg_here("stats", "--format", "json", cwd=tmp_path).stdout)
    assert counts["papers"] == 43 and counts["authors"] == 135 and counts["sources"] == 2
    assert counts["triples"] == rapper_count(tmp_path / "exports" / "kg.ttl", "turtle")


@pytest.mark.slow
def test_hostile_listing_counts_add_up_and_rejects_are_reported(tmp_path):
    result = kg_here("build", str(HOSTILE), "--store", "memory", "--out", "out", cwd=tmp_path)
    assert "Read 4 records from 1 file (as listing): 2 ingested, 2 rejected." in result.stdout.decode()
    errors = result.stderr.decode().splitlines()
    assert errors == [
        f"kg: rejected {HOSTILE}:13: block has no author line — A Block Without Any Authors",
        f"kg: rejected {HOSTILE}:29: block has no author line — A Truncated Final Block",
    ]
    rejects = (tmp_path / "out" / "rejects.tsv").read_text(encoding="utf-8").splitlines()
    assert rejects[0] == "file\tline\treason\texcerpt" and len(rejects) == 3
    ttl = tmp_path / "out" / "kg.ttl"
    rapper_count(ttl, "turtle")
    graph = rdflib.Graph().parse(ttl, format="turtle")
    titles = {str(o) for o in graph.objects(None, rdflib.DCTERMS.title)}
    assert 'A Title With <script>alert("x")</script> and "Quotes" & Ampersands' in titles
    names = {str(o) for o in graph.objects(None, rdflib.SKOS.prefLabel)}
    assert 'O\'Brien "Bob" Smith' in names and "Zoë <img src=x onerror=alert(1)> Martín" in names


def test_strict_turns_a_rejection_into_a_failure(tmp_path):
    result = kg_here("build", str(HOSTILE), "--store", "memory", "--strict", cwd=tmp_path, check=False)
    assert result.returncode == 1
    assert result.stderr.decode().splitlines() == [f"kg: error: {HOSTILE}:13: block has no author line (--strict)"]


@pytest.mark.parametrize(
    "make_file, message",
    [
        (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00"), "is a binary file, not a text listing"),
        (lambda p: None, "no such file"),
        (
            lambda p: p.write_bytes(b"ICML 2026 Papers\n\nCaf\xe9 " + b"word " * 30 + b"\n"),
            "3: is not valid utf-8 (byte 0xe9 at column 4)",
        ),
    ],
)
def test_unreadable_input_is_one_line_with_exit_2(tmp_path, make_file, message):
    path = tmp_path / "input.txt"
    make_file(path)
    result = kg_here("build", str(path), "--store", "memory", cwd=tmp_path, check=False)
    assert result.returncode == 2
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"kg: error: {path}") and message in lines[0]
    assert "Traceback" not in result.stderr.decode()


@pytest.mark.slow
def test_encoding_option_reads_latin1(tmp_path):
    result = kg_here(
        "build", str(DATA / "latin1_abstracts.txt"), "--encoding", "latin-1", "--store", "memory", cwd=tmp_path
    )
    assert "1 ingested, 0 rejected" in result.stdout.decode()
    assert "naïve Bayes" in (tmp_path / "exports" / "kg.ttl").read_text(encoding="utf-8")


def test_a_build_with_nothing_to_ingest_fails(tmp_path):
    result = kg_here("build", str(DATA / "empty.txt"), "--store", "memory", cwd=tmp_path, check=False)
    assert result.returncode == 1
    assert result.stderr.decode().splitlines() == ["kg: error: nothing to ingest: no records in 1 file"]


@pytest.mark.slow
def test_turtle_is_byte_identical_across_runs_and_stores(tmp_path, built_samples):
    kg_here("build", "--store", "memory", "--out", "b", cwd=tmp_path)
    other = tmp_path / "elsewhere"
    other.mkdir()
    kg_here("build", str(LISTING.parent), "--out", "c", cwd=other)
    first = (built_samples / "exports" / "kg.ttl").read_bytes()  # an on-disk store
    assert first == (tmp_path / "b" / "kg.ttl").read_bytes() == (other / "c" / "kg.ttl").read_bytes()


@pytest.mark.slow
def test_base_namespace_is_configurable(tmp_path):
    kg_here("build", "--store", "memory", "--base", "http://example.com/my/", cwd=tmp_path)
    text = (tmp_path / "exports" / "kg.ttl").read_text(encoding="utf-8")
    assert "@prefix author: <http://example.com/my/author/> ." in text
    assert "kg.example.org/id/" not in text


@pytest.mark.slow
def test_export_formats_parse_with_independent_parsers(tmp_path, built_samples):
    store = ("--store", str(built_samples / "store"))
    turtle = rapper_count(built_samples / "exports" / "kg.ttl", "turtle")
    nt = tmp_path / "kg.nt"
    kg_here("export", "--format", "ntriples", "--out", str(nt), *store, cwd=tmp_path)
    assert rapper_count(nt, "ntriples") == turtle
    subjects = [line.split(" ", 1)[0].strip("<>") for line in nt.read_text(encoding="utf-8").splitlines()]
    assert subjects == sorted(subjects), "N-Triples come sorted by subject"
    jsonld = kg_here("export", "--format", "jsonld", *store, cwd=tmp_path).stdout
    assert len(jsonld_processor.to_rdf(json.loads(jsonld), {"format": "application/n-quads"}).splitlines()) == turtle


def test_command_table_matches_the_commands_and_help_imports_no_engine():
    """`kg --help` lists every command from kg.cli.COMMANDS without importing spaCy, rdflib or networkx."""
    import importlib

    from kg.cli import COMMANDS

    for name, (module, summary) in COMMANDS.items():
        command = next(c for c in importlib.import_module(f"kg.cli.{module}").COMMANDS if c.name == name)
        assert command.get_short_help_str(limit=1000) == summary
    probe = (
        "import sys; from kg.cli import cli; cli(['--help'], standalone_mode=False); "
        "print(sorted({'spacy', 'rdflib', 'networkx', 'pyoxigraph'} & set(sys.modules)))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip().endswith("[]") and "Commands:" in result.stdout


@pytest.mark.slow
def test_build_on_a_terminal_shows_every_stage(tmp_path):
    """Reading, loading and resolution, counting, the Turtle export and the pages each show on a terminal."""
    import pty

    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [str(KG_BIN), "build", "--store", "memory", "--out", str(tmp_path)],
        stdout=terminal,
        stderr=terminal,
        cwd=tmp_path,
    )
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the command exited and closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    assert process.wait(timeout=600) == 0
    for stage in (
        b"reading",
        b"loading into the store",
        b"resolving: papers",
        b"resolving: display names",
        b"resolving: co-author pairs",
        b"resolving: writing",
        b"name look-up keys",
        b"counting",
        b"exporting",
        b"network pages: ",
        b"coauthors.html",
        b"topics.html",
    ):
        assert stage in shown
