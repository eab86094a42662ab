"""Every Comments / Journal ref field of the sample listing, read into publication facts."""

from __future__ import annotations

import pytest
from conftest import LISTING

from kg.ingest.comments import Workshop, names_conference, parse_publication, venue_of_header
from kg.ingest.formats import read_source
from kg.pipeline import publication_facts

W = Workshop

# line of the block -> the facts a reader takes from its Comments / Journal ref (hand-read).
EXPECTED = {
    3: dict(venue="ICML", year=2026, track="main", pages=36),
    15: dict(track="workshop", workshops=[W(None, "AI4GOOD")]),
    27: dict(
        track="workshop",
        workshops=[W("Combining Theory and Benchmarks", "CTB")],
        presentations=["contributed-talk", "oral"],
    ),
    39: dict(track="workshop", workshops=[W(None, "AIWILD")], pages=16, main_pages=4, figures=2, tables=6),
    51: dict(track="main", year=2026),
    63: dict(
        track="workshop",
        workshops=[W(None, "GenBio"), W(None, "FM4LS")],
        code_urls=["https://github.com/MisteFr/viral-proteins-plms"],
    ),
    75: dict(
        track="workshop",
        workshops=[
            W(
                (
                    "Decision-Making from Offline Datasets to Online Adaptation: Black-Box Optimization "
                    "to Reinforcement Learning"
                ),
                None,
            )
        ],
    ),
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


@pytest.mark.parametrize(
    "text, venue, year",
    [
        ("Accepted at NeurIPS'25 workshop", "NeurIPS", 2025),
        ("Conference on Neural Information Processing Systems 2024", "NeurIPS", 2024),
        ("ICLR 2026 (Poster)", "ICLR", 2026),
        ("no venue here, 12 pages", None, None),
        # a conference nobody listed is a venue of its own, by its form
        ("Accepted at COLM 2024", "COLM", 2024),
        ("COLM 2024 (oral)", "COLM", 2024),
        ("Accepted to L4DC'25", "L4DC", 2025),
        ("Accepted at Interspeech 2024", "Interspeech", 2024),
        ("To appear in the Eurographics 2025 proceedings", "Eurographics", 2025),
        ("Accepted at the 3rd Conference on Lifelong Learning Agents (CoLLAs 2024)", "CoLLAs", 2024),
        (
            "Published in the 12th Symposium on Foundations of Responsible Computing, 2023",
            "Symposium on Foundations of Responsible Computing",
            2023,
        ),
        ("Spotlight at the EIML@COLM 2024 workshop", "COLM", 2024),
        ("the 38th Annual Conference on Learning Theory", "COLT", None),  # a known full name keeps its acronym
        # a name of a few words, as the conference writes itself; a publisher before an acronym is no part of it
        ("Accepted at SIGGRAPH Asia 2024", "SIGGRAPH Asia", 2024),
        ("Accepted at ACM MM 2024", "ACM MM", 2024),
        ("ACM Multimedia 2024", "ACM MM", 2024),
        ("Accepted at LOOMCON Coast 2031", "LOOMCON Coast", 2031),
        ("Accepted at IEEE LOOMCON 2031", "LOOMCON", 2031),
        ("Accepted at LOOMCON Workshop 2031", None, None),  # near miss: a part of a conference ends its name
        ("Accepted at LOOMCON Findings 2031", None, None),
        ("SIGGRAPH 2024", "SIGGRAPH", 2024),  # near miss: the series alone is another conference
        # the words of a full name in capitals are no acronym
        ("THE LOOM CONFERENCE 2031", None, None),
        ("PROCEEDINGS 2031", None, None),
        # near misses: publishers, terms and workshops are not conferences
        ("In IEEE 2024 proceedings", None, None),
        ("Evaluated with GPU 2024 drivers and LLM 2023 data", None, None),
        ("Accepted at FM4LS 2026 Workshop", None, None),
        ("Accepted at Nature 2024 workshop", None, None),
        ("Tested on Ubuntu 2024 images", None, None),
        ("contact: someone@example.org", None, None),
    ],
)
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


def test_unknown_workshop_at_conference_names_both():
    info = parse_publication("Workshop RAI@COLM 2024", None)
    assert (info.venue, info.year, info.track, [w.acronym for w in info.workshops]) == (
        "COLM",
        2024,
        "workshop",
        ["RAI"],
    )


@pytest.mark.parametrize(
    "url, venue",
    [
        ("https://icml.cc/virtual/2026/poster/67185", "ICML"),
        ("https://neurips.cc/virtual/2025/poster/1", "NeurIPS"),
        ("https://corl.org/virtual/2024/poster/7", "CoRL"),
    ],
)
def test_poster_page_names_the_conference_and_year(url, venue):
    info = parse_publication(None, url)
    assert (info.venue, info.year) == (venue, int(url.split("/")[4]))


@pytest.mark.parametrize(
    "header, venue",
    [
        ("COLM", ("COLM", None)),
        ("AISTATS 2025 Papers", ("AISTATS", 2025)),
        ("CoRL 2024", ("CoRL", 2024)),
        ("Some Papers", (None, None)),
        ("PDF", (None, None)),
        # the name the whole line gives, of a few words, not a part of it
        ("ACM MM", ("ACM MM", None)),
        ("SIGGRAPH Asia 2024 Papers", ("SIGGRAPH Asia", 2024)),
        ("LOOMCON Coast", ("LOOMCON Coast", None)),
        ("IEEE LOOMCON 2031 Papers", ("LOOMCON", 2031)),
        ("Interspeech 2024 Papers", ("Interspeech", 2024)),
        ("LOOMCON Workshop", (None, None)),  # near misses: a part of a conference, a word without a year
        ("Weaving", (None, None)),
        ("Weaving Papers", (None, None)),
    ],
)
def test_header_line_names_the_venue(header, venue):
    assert venue_of_header(header) == venue


def test_a_well_known_conference_keeps_its_full_name_as_a_label(sample_store):
    rows = list(
        sample_store.query("""PREFIX kg: <https://kg.example.org/ontology#>
        PREFIX skos: <http://www.w3.org/2004/02/skos/core#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        SELECT DISTINCT ?label ?full WHERE {
          ?series a kg:ConferenceSeries ; skos:prefLabel ?label ; skos:altLabel ?full }""")
    )
    assert [(str(label), str(full)) for label, full in rows] == [
        ("ICML", "International Conference on Machine Learning")
    ]


@pytest.mark.parametrize(
    "venue, acronym, expected",
    [
        ("CCLL", "CCLL", True),
        ("Coastal Conference on Loom Learning", "CCLL", True),
        ("Coastal Conference on Loom Learning", "ccll", True),
        ("Conference on Loom Learning Theory", "COLLT", True),
        (
            "International Conference on Computational Weaving",
            "COWEAV",
            True,
        ),  # syllables of the words after the generic ones
        ("Coastal Conference on Loom Learning", "CCL", False),  # a word of the name left out of the acronym
        ("Coastal Conference on Loom Learning", "LL", False),
        ("Coastal Conference on Computational Weaving", "CCLL", False),
        ("Coastal Conference on Weaving", "CCLL", False),
        ("CCL", "CCLL", False),
        (None, "CCLL", False),
        ("Coastal Conference on Loom Learning", None, False),
    ],
)
def test_a_full_name_names_the_conference_its_initials_spell(venue, acronym, expected):
    assert names_conference(venue, acronym) is expected


@pytest.mark.parametrize(
    "text, venue",
    [
        (
            "Proceedings of the Second International Conference on Loom Learning 2031",
            "International Conference on Loom Learning",
        ),
        ("Proceedings of Thirty Sixth Conference on Loom Theory 2031", "Conference on Loom Theory"),
        ("Proceedings of the Twenty-First Symposium on Weaving 2031", "Symposium on Weaving"),
        # near-miss: a word that only begins like a number is part of the name
        ("Proceedings of the Fifthland Conference on Weaving 2031", "Fifthland Conference on Weaving"),
    ],
)
def test_the_edition_before_a_conference_name_is_not_part_of_it(text, venue):
    assert parse_publication(text, None).venue == venue


@pytest.mark.parametrize(
    "text, venue, track",
    [
        ("Findings of EMNLP 2023", "EMNLP", "findings"),
        ("Accepted to Findings of ACL 2024", "ACL", "findings"),
        ("Findings of the Association for Computational Linguistics: NAACL 2024", "NAACL", "findings"),
        ("Long Findings; main track", None, "findings"),  # the provider's status of a Findings paper
        ("Findings; main track", None, "findings"),
        # near misses: findings of a study, and a workshop's name, are no Findings track
        ("Our findings show a gap. ICML 2024", "ICML", "main"),
        ("Key findings of our study; NeurIPS 2024", "NeurIPS", "main"),
        ("Short Main; main track", None, None),
        ("Findings of Weaving Workshop 2031", None, "workshop"),
    ],
)
def test_the_findings_of_a_conference_are_its_findings_track(text, venue, track):
    info = parse_publication(text, None)
    assert (info.venue, info.track) == (venue, track)
