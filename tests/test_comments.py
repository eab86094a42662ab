"""Every Comments / Journal ref field of the sample listing, read into publication facts."""

from __future__ import annotations

import pytest

from conftest import LISTING
from kg.ingest.comments import Workshop, parse_publication
from kg.ingest.formats import read_source
from kg.pipeline import publication_facts

W = Workshop

# line of the block -> the facts a reader takes from its Comments / Journal ref (hand-read).
EXPECTED = {
    3: dict(venue="ICML", year=2026, track="main", pages=36),
    15: dict(track="workshop", workshops=[W(None, "AI4GOOD")]),
    27: dict(track="workshop", workshops=[W("Combining Theory and Benchmarks", "CTB")], presentations=["contributed-talk", "oral"]),
    39: dict(track="workshop", workshops=[W(None, "AIWILD")], pages=16, main_pages=4, figures=2, tables=6),
    51: dict(track="main", year=2026),
    63: dict(track="workshop", workshops=[W(None, "GenBio"), W(None, "FM4LS")], code_urls=["https://github.com/MisteFr/viral-proteins-plms"]),
    75: dict(track="workshop", workshops=[W("Decision-Making from Offline Datasets to Online Adaptation: Black-Box Optimization to Reinforcement Learning", None)]),
    87: dict(track="position", poster_urls=["https://icml.cc/virtual/2026/poster/67185"]),
    99: dict(track="main"),
    111: dict(track="main"),
    123: dict(track="main"),
    135: dict(track="workshop", workshops=[W("Machine Learning for Audio", None)], presentations=["oral"]),
    147: dict(track="main"),
    159: dict(track="workshop", workshops=[W("Structured Probabilistic Inference & Generative Modeling", None)]),
    171: dict(track="main", project_urls=["https://wrchen530.github.io/dynatok/"]),
    183: dict(track="main"),
    195: dict(track="workshop", workshops=[W(None, "EIML")], year=2026, year_source="listing"),
    207: dict(track="main"),
    219: dict(track="workshop", workshops=[W("Combining Theory and Benchmarks", "CTB")], pages=8, main_pages=5),
    231: dict(track="main"),
    243: dict(track="workshop", workshops=[W("Epistemic Intelligence in Machine Learning", "EIML")], non_archival=True),
    255: dict(track="main"),
    267: dict(track="workshop", workshops=[W(None, "CoLoRAI")]),
    279: dict(track="main", pmlr_volume=306),
    291: dict(track="position", pages=9, figures=1),
    301: dict(track="main", pages=9),
    313: dict(track="main", year=2026, year_source="journal-ref", pages=24, figures=12, tables=7),
    327: dict(track="position"),
    339: dict(track="main"),
    351: dict(track="position", presentations=["spotlight"]),
}


@pytest.fixture(scope="module")
def facts():
    _, items = read_source(LISTING, LISTING.name)
    return {record.source.line: info for record, info in publication_facts(items)}


def test_every_block_is_covered(facts):
    assert sorted(facts) == sorted(EXPECTED)


@pytest.mark.parametrize("line", sorted(EXPECTED))
def test_comments_facts(facts, line):
    info = facts[line]
    assert info.venue == "ICML" and info.year == 2026, "every paper of the listing is at ICML 2026"
    for name, value in EXPECTED[line].items():
        assert getattr(info, name) == value, name
    for name in ("pages", "main_pages", "figures", "tables", "pmlr_volume"):
        if name not in EXPECTED[line]:
            assert getattr(info, name) is None, name
    if "presentations" not in EXPECTED[line]:
        assert info.presentations == []


@pytest.mark.parametrize("text, venue, year", [
    ("Accepted at NeurIPS'25 workshop", "NeurIPS", 2025),
    ("Conference on Neural Information Processing Systems 2024", "NeurIPS", 2024),
    ("ICLR 2026 (Poster)", "ICLR", 2026),
    ("no venue here, 12 pages", None, None),
])
def test_other_venues(text, venue, year):
    info = parse_publication(text, None)
    assert (info.venue, info.year) == (venue, year)


def test_poster_word_in_text_but_not_in_url():
    assert parse_publication("ICLR 2026 (Poster)", None).presentations == ["poster"]
    assert parse_publication(None, "https://icml.cc/virtual/2026/poster/1").presentations == []


def test_code_link_named_by_cue_and_trailing_punctuation_dropped():
    info = parse_publication("Code: https://example.org/repo. Data at https://data.example.org/x).", None)
    assert info.code_urls == ["https://example.org/repo"]
    assert info.other_urls == ["https://data.example.org/x"]
