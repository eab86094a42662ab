"""The package as a user outside the checkout gets it: a built wheel, installed (not editable)
in a fresh virtual environment, runs build, queries, query, graph and validate from any folder."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.packaging, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
#: What a source distribution holds; copied so the build leaves no build/ or egg-info in the checkout.
SOURCE_PARTS = ("pyproject.toml", "setup.py", "README.md", "kg", "ontology", "queries", "samples")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for part in SOURCE_PARTS:
        if (ROOT / part).is_dir():
            shutil.copytree(ROOT / part, source / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / part, source / part)
    dist = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    assert "deprecated" not in built.stderr.lower(), built.stderr  # e.g. the TOML licence table
    (path,) = dist.glob("kg-*.whl")
    return path


@pytest.fixture(scope="module")
def kg_bin(wheel: Path, tmp_path_factory) -> Path:
    """``kg`` of a fresh venv holding the wheel; its dependencies come from this venv (no download)."""
    env = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(env / "bin" / "python"),
            "install",
            "--no-deps",
            "--quiet",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stderr
    site = Path(
        subprocess.run(
            [str(env / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # A plain path line, so this venv's editable finder for the checkout is not loaded there.
    (site / "dependencies-from-test-venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return env / "bin" / "kg"


def test_wheel_holds_the_data_folders(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("ontology", "queries", "samples"):
        shipped = {
            p.relative_to(ROOT).as_posix()
            for p in (ROOT / folder).iterdir()
            if p.suffix in {".ttl", ".tsv", ".rq", ".txt"}
        }
        assert shipped and {f"kg/{name}" for name in shipped} <= names
    registry = {f"kg/orgs/data/{p.name}" for p in (ROOT / "kg" / "orgs" / "data").iterdir() if p.is_file()}
    assert "kg/orgs/data/registry.tsv.gz" in registry and registry <= names  # the organisation registry and its NOTICE
    # the word lists read by kg.text.lexicon, inside the package itself
    lexicons = {
        p.relative_to(ROOT).as_posix()
        for folder in ("kg/orgs/data/lexicon", "kg/text/data")
        for p in (ROOT / folder).glob("*.tsv")
    }
    assert lexicons and lexicons <= names


def test_installed_kg_runs_from_another_folder(kg_bin: Path, tmp_path: Path):
    def kg(*args: str) -> str:
        result = subprocess.run(
            [str(kg_bin), *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            env={"PATH": str(kg_bin.parent) + ":/usr/bin:/bin", "HOME": str(tmp_path)},
        )
        assert result.returncode == 0, f"kg {' '.join(args)}: {result.stderr}"
        return result.stdout

    module = subprocess.run(
        [str(kg_bin.with_name("python")), "-c", "import kg; print(kg.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(kg_bin.parent.parent) in module  # the wheel's copy, not the checkout

    assert "43 papers" in kg("build")
    assert (tmp_path / "exports" / "kg.ttl").stat().st_size > 0
    listed = kg("queries")
    for rq in (ROOT / "queries").glob("*.rq"):
        assert rq.stem in listed
    assert "Niklas Freymuth" in kg("query", "coauthors", "-p", "author=gerhard neumann")
    kg("graph", "coauthors", "--format", "gexf", "--out", "co.gexf")
    assert (tmp_path / "co.gexf").read_text(encoding="utf-8").startswith("<?xml")
    assert "conforms" in kg("validate")
