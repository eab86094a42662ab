"""kg/cli/__init__.py: every command's ``--help`` answers without importing an engine."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kg.cli import command_paths

#: What a command imports only when it runs (each costs from 0.1 s to seconds to import).
ENGINES = ("spacy", "pyoxigraph", "rdflib", "networkx", "igraph", "pyshacl", "scipy", "pyvis", "rich")
PROBE = f"""
import json, sys
from kg.cli import cli
cli([*sys.argv[1:], "--help"], standalone_mode=False)
print(json.dumps(sorted({set(ENGINES)!r} & set(sys.modules))))
"""


def test_every_command_is_found():
    paths = command_paths()
    assert ("build",) in paths and ("graph", "coauthors") in paths and ("graph",) in paths


@pytest.mark.parametrize("path", [" ".join(path) for path in [(), *command_paths()]])
def test_help_imports_no_engine(path):
    """`kg … --help` loads the command's module, never spaCy, pyoxigraph, rdflib, networkx, igraph, pySHACL."""
    result = subprocess.run([sys.executable, "-c", PROBE, *path.split()], capture_output=True, text=True, check=True)
    output, _, imported = result.stdout.rstrip().rpartition("\n")
    assert "Usage: " in output
    assert json.loads(imported) == []
