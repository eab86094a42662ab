"""TeX to Unicode (``kg.ingest.formats.bibtex``), against the table ``tex_cases.tsv``: in text and in names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kg.ingest.formats.bibtex import authors, unlatex

CASES = [
    tuple(line.split("\t"))
    for line in Path(__file__).with_name("tex_cases.tsv").read_text(encoding="utf-8").splitlines()
    if line and not line.startswith("#")
]


@pytest.mark.parametrize("tex, text", CASES, ids=[tex for tex, _ in CASES])
def test_tex_is_read_as_unicode(tex, text):
    assert unlatex(tex) == text


# a letter of a name: no math, no space, not a control word that would run into the next letters ("\\o")
IN_NAMES = [
    (tex, text) for tex, text in CASES if "$" not in tex and " " not in text and not re.search(r"\\[A-Za-z]+$", tex)
]


@pytest.mark.parametrize("tex, text", IN_NAMES, ids=[tex for tex, _ in IN_NAMES])
def test_an_accent_in_a_name_stays_in_its_word(tex, text):
    """BibTeX splits names at spaces and "~": an accent command is one letter of its word either way."""
    assert authors(f"Ab{tex}cd, Ef and Gh Ij{tex}") == [f"Ef Ab{text}cd", f"Gh Ij{text}"]
