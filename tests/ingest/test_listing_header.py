"""The venue header line is never a paper: a first line that is a known conference alone is the
header whatever follows it (issue 30: `ICML`, then a paragraph, then `AI总结 …`)."""

from __future__ import annotations

import pytest

from kg.ingest.formats import read_source
from kg.ingest.formats.listing import names_a_known_venue_only
from kg.records import PaperRecord


def test_a_header_only_first_block_makes_no_paper_of_the_header(tmp_path):
    path = tmp_path / "icml.txt"
    path.write_text(
        "ICML\n\nLearning Robust Policies\n\nAI总结 一个总结\n\n"
        "Second Paper Title Here\n\nAlice Smith, Bob Jones\n\nAI总结 另一个\n",
        encoding="utf-8",
    )
    source, items = read_source(path, path.name)
    items = list(items)
    assert source.format == "listing"
    assert [item.title for item in items if isinstance(item, PaperRecord)] == ["Second Paper Title Here"]
    assert items[1].venue_header == "ICML"
    assert items[0].source.line == 3 and "no author line" in items[0].reason


@pytest.mark.parametrize(
    "text, alone",
    [
        ("ICML", True),
        ("ICML 2024 Papers", True),
        ("NeurIPS 2023", True),
        ("ICML 2024 Workshop Summary", False),
        ("Deep Learning", False),
    ],
)
def test_a_known_venue_alone(text, alone):
    assert names_a_known_venue_only(text) is alone
