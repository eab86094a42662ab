"""docs/cli.md is the commands' own --help: regenerate it with `python -m kg.cli.reference docs/cli.md`."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kg.cli.reference import help_text, render

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
REGENERATE = f"{sys.executable} -m kg.cli.reference docs/cli.md"


def test_page_is_the_help_of_every_command():
    assert PAGE.read_text(encoding="utf-8") == render(), f"docs/cli.md is out of date: run {REGENERATE}"


@pytest.mark.parametrize("words", [(), ("stats",)], ids=["kg", "kg stats"])
def test_page_shows_what_the_installed_command_prints(words):
    """The reference renders help in-process; the real command in an 80-column terminal prints the same."""
    kg = Path(sys.executable).with_name("kg")
    env = {**os.environ, "COLUMNS": "82"}  # click keeps two columns of margin: 80 columns of help
    printed = subprocess.run([str(kg), *words, "--help"], capture_output=True, text=True, env=env, check=True)
    assert printed.stdout.rstrip("\n") == help_text(words)
    assert f"```text\n{help_text(words)}\n```" in PAGE.read_text(encoding="utf-8")
