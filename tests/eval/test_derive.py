"""eval/derive.py: a paperlists file -> the listing, abstracts and truth files kg is scored on (no real data needed)."""

from __future__ import annotations

import json

from eval.derive import write_set


def test_derive_aligns_affiliations_with_the_providers_index_and_leaves_out_what_does_not_align(tmp_path):
    records = [
        {
            "title": "Looms  and Engines ",
            "author": "Ada Lovelace;Charles Babbage;Mary Somerville",
            "aff": ";University of London ;Royal  Society",
            "aff_unique_index": "0;1;2",
            "aff_unique_norm": ";University of London;Royal Society",
            "abstract": "An engine\nthat weaves.",
            "keywords": "looms; engines;",
        },
        {
            "title": "Difference Engines",
            "author": "Charles Babbage;Ada Lovelace",
            "aff": "University of London;UCL",
            "aff_unique_index": "0;0",
            "aff_unique_norm": "University of London",
        },
        {
            "title": "Analytical Engines",
            "author": "Charles Babbage",
            "aff": "University of London+Royal Society",
            "aff_unique_index": "0+1",
            "aff_unique_norm": "University of London;Royal Society",
        },
        {"title": "Weaving Cards", "author": "Joseph Jacquard", "affs": "Lyon Looms"},
        {"title": "", "author": "Nobody"},
    ]
    provider_file = tmp_path / "loom1843.json"
    provider_file.write_text(json.dumps(records), encoding="utf-8")
    truth = json.loads(write_set(provider_file, tmp_path / "set").read_text(encoding="utf-8"))
    listing = (tmp_path / "set" / "loom1843_listing.txt").read_text(encoding="utf-8").split("\n")
    assert truth["venue"] == "LOOM 1843" and listing[0] == "LOOM"
    assert [paper["listing_line"] for paper in truth["papers"]] == [3, 15, 27, 39]
    assert (
        listing[8] == "机构 * University of London ； Royal Society 纠错"
        and listing[12] == "Comments Accepted at LOOM 1843"
    )
    assert truth["institution_families"] == {
        "Royal Society": ["Royal Society"],
        "University of London": ["UCL", "University of London"],
    }
    assert truth["papers"][0]["keywords"] == ["looms", "engines"] and truth["papers"][0]["abstract_line"] == 3
    assert [paper["why"] for paper in truth["family_unaligned_papers"]] == [
        "bad index '0+1'",
        "no aff_unique_index/aff_unique_norm",
    ]
    assert truth["papers"][3]["institutions"] == ["Lyon Looms"]
    assert truth["skipped"] == [{"source_index": 4, "title": "", "why": "no title"}]
    assert truth["coauthor_pairs"] == [
        ["Ada Lovelace", "Charles Babbage", 2],
        ["Ada Lovelace", "Mary Somerville", 1],
        ["Charles Babbage", "Mary Somerville", 1],
    ]


def test_derive_reads_the_byline_as_the_provider_joins_it(tmp_path):
    records = [
        {"title": "Looms", "author": "Ada M. Lovelace; Charles Babbage"},  # '; ' as the old NeurIPS lists write it
        {"title": "Engines", "author": "Ada Lovelace, Martin Weaver, Jr., Zhaochen"},  # ', ' as CVF lists write it
        {"title": "Cards", "authors": "Joseph Jacquard;Mary Somerville"},  # under 'authors'
        {"title": "Jacquard, Loom, Card", "author": "Joseph Marie Jacquard"},  # near miss: one name, no separator
        {"title": "Punch Cards", "author": "J.M. JACQUARD; Jr; A. LOVELACE"},  # a generation in a place of its own
        {
            "title": "Twice",
            "author": "Ada Lovelace;Alan Turing;Ada Lovelace;Alan Turing",
            "aff": "London; Bletchley",
        },  # written twice
        {"title": "Namesakes", "author": "Wei Wang;Wei Wang", "aff": "London;Bletchley"},  # near miss: two namesakes
        {"title": "Spaced", "author": "Philip  S Yu;Ada Lovelace"},  # a name's spacing: one space in the truth
    ]
    provider_file = tmp_path / "loom1843.json"
    provider_file.write_text(json.dumps(records), encoding="utf-8")
    truth = json.loads(write_set(provider_file, tmp_path / "set").read_text(encoding="utf-8"))
    assert truth["authors_per_paper"] == [
        ["Ada M. Lovelace", "Charles Babbage"],
        ["Ada Lovelace", "Martin Weaver, Jr.", "Zhaochen"],
        ["Joseph Jacquard", "Mary Somerville"],
        ["Joseph Marie Jacquard"],
        ["J.M. JACQUARD, Jr", "A. LOVELACE"],
        ["Ada Lovelace", "Alan Turing"],
        ["Wei Wang", "Wei Wang"],
        ["Philip S Yu", "Ada Lovelace"],
    ]
    listing = (tmp_path / "set" / "loom1843_listing.txt").read_text(encoding="utf-8").split("\n")
    assert listing[6] == "Ada M. Lovelace, Charles Babbage"


def test_derive_leaves_out_the_submissions_the_conference_did_not_accept(tmp_path):
    records = [
        {"title": "Looms", "author": "Ada Lovelace", "status": "Reject"},
        {"title": "Cards", "author": "Ada Lovelace", "status": "Poster"},
    ]
    provider_file = tmp_path / "loom1843.json"
    provider_file.write_text(json.dumps(records), encoding="utf-8")
    truth = json.loads(write_set(provider_file, tmp_path / "set").read_text(encoding="utf-8"))
    assert truth["titles"] == ["Cards"] and truth["skipped"] == [
        {"source_index": 0, "title": "Looms", "why": "status 'Reject'"}
    ]
