"""kg/cli/settings.py: the variables a user sets reach the packages, through a real ``kg`` process."""

from __future__ import annotations

import os
import subprocess

import pytest
from conftest import KG_BIN


def kg_with(env: dict[str, str], *args: str, cwd) -> str:
    """``kg ARGS`` run with the environment's ``KG_`` variables replaced by ``env``; its output."""
    environment = {**{k: v for k, v in os.environ.items() if not k.startswith("KG_")}, **env}
    result = subprocess.run([str(KG_BIN), *args], cwd=cwd, capture_output=True, env=environment, timeout=300)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result.stdout.decode()


def test_an_alias_file_named_by_the_variable_changes_the_answer(tmp_path):
    mine = tmp_path / "mine.tsv"
    mine.write_text("Zorblax Lab\tZorblax Institute of Things\n", encoding="utf-8")
    cache = {"KG_CACHE_DIR": str(tmp_path / "cache")}
    assert "Zorblax Institute of Things" not in kg_with(cache, "explain", "Zorblax Lab", cwd=tmp_path)
    answer = kg_with({**cache, "KG_INSTITUTION_ALIASES": str(mine)}, "explain", "Zorblax Lab", cwd=tmp_path)
    assert "Zorblax Institute of Things  [" in answer


@pytest.mark.slow  # the registry built twice: about ten CPU seconds
def test_the_cache_folder_is_the_variables_and_none_keeps_nothing(tmp_path):
    home, xdg, cache = tmp_path / "home", tmp_path / "xdg", tmp_path / "cache"
    home.mkdir()
    entry = ["explain", "Tsinghua Univ., Beijing"]
    kg_with({"KG_CACHE_DIR": str(cache), "HOME": str(home), "XDG_CACHE_HOME": str(xdg)}, *entry, cwd=tmp_path)
    assert [path.name.startswith("registry-") for path in cache.iterdir()] == [True]
    kg_with({"HOME": str(home), "XDG_CACHE_HOME": str(xdg)}, *entry, cwd=tmp_path)
    assert [path.name.startswith("registry-") for path in (xdg / "kg").iterdir()] == [True]
    kg_with({"KG_CACHE_DIR": "none", "HOME": str(home)}, *entry, cwd=tmp_path)
    assert list(home.iterdir()) == []  # neither ~/.cache/kg nor anything else


@pytest.mark.slow  # a build of 900 papers in two processes: about ten CPU seconds
def test_the_mapping_workers_take_the_alias_file_too(tmp_path):
    """--jobs 2: the records past the first batch are mapped in worker processes, with the same table."""
    rows = ["title,authors,affiliations,abstract,venue,year,code"]
    for number in range(900):  # the first batch (kg/rdf/staging.py: BATCH) mapped here, the others in workers
        place = "Zorblax Lab" if number >= 400 else "Quillon College"
        rows.append(f"Study number {number} of sparse graphs,Ada Person{number},{place},,ICML,2026,")
    (tmp_path / "listing.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (tmp_path / "mine.tsv").write_text("Zorblax Lab\tZorblax Institute of Things\n", encoding="utf-8")
    variables = {"KG_INSTITUTION_ALIASES": str(tmp_path / "mine.tsv"), "KG_CACHE_DIR": str(tmp_path / "cache")}
    kg_with(variables, "build", "listing.csv", "--jobs", "2", "--store", "store", "--out", "out", cwd=tmp_path)
    graph = (tmp_path / "out" / "kg.ttl").read_text(encoding="utf-8")
    assert "institution:zorblax-institute-of-things a org:Organization" in graph
    assert "institution:zorblax-lab" not in graph
