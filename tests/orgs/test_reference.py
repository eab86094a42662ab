"""docs/organisation-rules.md's generated parts are the word lists (and rules) as the package has them."""

import sys
from pathlib import Path

from kg.orgs.reference import render

PAGE = Path(__file__).resolve().parents[2] / "docs" / "organisation-rules.md"


def test_page_lists_the_shipped_word_lists():
    page = PAGE.read_text(encoding="utf-8")
    assert page == render(page), (
        f"docs/organisation-rules.md is out of date: run {sys.executable} -m kg.orgs.reference {PAGE}"
    )


def test_render_rewrites_only_the_generated_parts():
    page = "prose\n<!-- generated: lexicon -->\nstale\n<!-- end generated -->\nmore prose\n"
    written = render(page)
    assert written.startswith("prose\n<!-- generated: lexicon -->\n") and written.endswith(
        "<!-- end generated -->\nmore prose\n"
    )
    assert "stale" not in written and "`kg/orgs/data/lexicon/unit_words.tsv`" in written
