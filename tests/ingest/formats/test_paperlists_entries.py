"""The paperlists / OpenReview JSON format, entry by entry: bylines and affiliations as written,
venues from booktitles and file names, titles, and bylines written twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from structured_sources import listing_file, read_records

from kg.ingest.formats.paperlists import header_from_file_name
from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue


def _record(folder: Path, entry: dict):
    """The record read from a list of this one entry, titled "A Good Paper" unless it says otherwise."""
    return read_records(listing_file(folder, json.dumps([{"title": "A Good Paper", **entry}])))[0][0]


def _affiliations(record) -> list[list[str]]:
    """Each author's affiliations, by name."""
    return [[affiliation.name for affiliation in detail.affiliations] for detail in record.author_details]


def _institutions(record) -> list[str]:
    """The paper's institutions, by name."""
    return [institution.name for institution in record.institutions]


@pytest.mark.parametrize(
    "key, written, expected",
    [
        ("author", "Ada Lovelace, Alan Turing, Grace Hopper", ["Ada Lovelace", "Alan Turing", "Grace Hopper"]),
        ("authors", "Ada Lovelace, Alan Turing", ["Ada Lovelace", "Alan Turing"]),
        (
            "author",
            "Martin Luther King, Jr., Ada Lovelace, Henry Ford III",
            ["Martin Luther King, Jr.", "Ada Lovelace", "Henry Ford III"],
        ),
        ("author", "Ada Lovelace", ["Ada Lovelace"]),
        # near-misses: ';' separates when present, a comma inside one place is part of that name
        ("author", "Lovelace, Ada;Turing, Alan", ["Lovelace, Ada", "Turing, Alan"]),
        ("author", "Ada Lovelace;Alan Turing", ["Ada Lovelace", "Alan Turing"]),
        # a generation given a place of its own in a ';' list (NeurIPS 1987) ends the name before it
        ("author", "A.L. LOVELACE; Jr; C. BABBAGE", ["A.L. LOVELACE, Jr", "C. BABBAGE"]),
        ("author", "Ada Lovelace; Henry Ford; III", ["Ada Lovelace", "Henry Ford, III"]),
        (
            "author",
            "Jr Weaver; Ada Lovelace",
            ["Jr Weaver", "Ada Lovelace"],
        ),  # near misses: a name that begins with it,
        (
            "author",
            "Junior Weaver; Ada Lovelace",
            ["Junior Weaver", "Ada Lovelace"],
        ),  # and a word that is no generation
    ],
)
def test_bylines_joined_by_commas_or_semicolons_under_author_or_authors(tmp_path, key, written, expected):
    entry = {"title": "A Good Paper", key: written, "status": "Poster"}
    records, rejections, fmt = read_records(listing_file(tmp_path, json.dumps([entry], indent=4)))
    assert fmt == "paperlists" and not rejections
    assert records[0].authors == expected


def test_comma_byline_with_an_affiliation_list_of_another_length_gives_the_paper_its_institutions(tmp_path):
    record = _record(
        tmp_path, {"author": "Ada Lovelace, Alan Turing, Grace Hopper", "aff": "University of London; Bletchley Park"}
    )
    assert _institutions(record) == ["University of London", "Bletchley Park"]
    assert not any(detail.affiliations for detail in record.author_details)


def _venues(path: Path) -> set[tuple[str, str]]:
    store = KGStore("memory")
    ingest([path], store, Minter())
    rows = store.query(
        sparql_prologue()
        + """SELECT DISTINCT ?label ?year WHERE {
        ?paper bibo:presentedAt ?event . ?event skos:prefLabel ?label . OPTIONAL { ?event schema:startDate ?year } }"""
    )
    return {(str(label), str(year) if year else "") for label, year in rows}


@pytest.mark.parametrize(
    "stem, venue",
    [
        ("xyzconf2031", ("XYZCONF 2031", "2031")),  # a conference nobody listed, named by the file alone
        ("4dw2031", ("4DW 2031", "2031")),
        ("icml2031", ("ICML 2031", "2031")),
        ("nips2031", ("NeurIPS 2031", "2031")),
    ],
)
def test_a_file_named_by_conference_and_year_gives_papers_without_a_venue_that_venue(tmp_path, stem, venue):
    entry = {"title": "A Good Paper", "author": "Ada Lovelace;Alan Turing"}
    assert _venues(listing_file(tmp_path, json.dumps([entry]), f"{stem}.json")) == {venue}


@pytest.mark.parametrize("stem", ["papers", "accepted_papers"])
def test_a_file_named_otherwise_names_no_venue(tmp_path, stem):
    entry = {"title": "A Good Paper", "author": "Ada Lovelace;Alan Turing"}
    assert _venues(listing_file(tmp_path, json.dumps([entry]), f"{stem}.json")) == set()


def test_a_booktitle_naming_the_files_conference_without_its_year_takes_the_files_year(tmp_path):
    bib = (
        '@inproceedings{x,\n title = "A Good Paper",\n booktitle = "Proceedings of the 70th Annual Meeting of the '
        'Association for Computational Linguistics (Volume 1: Long Papers)",\n month = may,\n year = "2031"\n}'
    )
    entry = {"title": "A Good Paper", "author": "Ada Lovelace;Alan Turing", "bibtex": bib}
    assert _venues(listing_file(tmp_path, json.dumps([entry]), "acl2031.json")) == {("ACL 2031", "2031")}
    # the file names another conference, so its year says nothing of this one: the entry's own year dates it
    assert _venues(listing_file(tmp_path, json.dumps([entry]), "emnlp2030.json")) == {("ACL 2031", "2031")}


def test_escaped_characters_in_bylines_and_affiliations_split_nothing(tmp_path):
    record = _record(
        tmp_path,
        {
            "author": "Dana O&#39;Hara, Alan Turing",
            "aff": "Northwest Polytechnic University Xi&amp;amp;#x27;an; AT&T Labs",
        },
    )
    assert record.authors == ["Dana O'Hara", "Alan Turing"]
    assert _institutions(record) == ["Northwest Polytechnic University Xi'an", "AT&T Labs"]


def test_affiliations_under_affs_are_read_as_under_aff(tmp_path):
    record = _record(tmp_path, {"author": "Ada Lovelace; Alan Turing", "affs": "University of London; Bletchley Park"})
    assert _affiliations(record) == [
        ["University of London"],
        ["Bletchley Park"],
    ]
    assert _institutions(record) == ["University of London", "Bletchley Park"]


@pytest.mark.parametrize(
    "aff, domains, expected",
    [
        (
            "Difference Engines Co.+Ltd.",
            "engines.example",
            ["Difference Engines Co., Ltd."],
        ),  # a legal form's comma as '+'
        ("Analytical Labs+Inc", "labs.example", ["Analytical Labs, Inc"]),
        (
            "Bletchley Park+University of London",
            "park.example+london.ac.uk",
            ["Bletchley Park", "University of London"],
        ),
        (
            "Bletchley Park + Incubator Labs",
            "park.example+incubator.example",
            ["Bletchley Park", "Incubator Labs"],
        ),  # near-miss
    ],
)
def test_a_legal_form_after_a_plus_ends_the_name_before_it(tmp_path, aff, domains, expected):
    record = _record(tmp_path, {"author": "Ada Lovelace", "affs": aff, "aff_domain": domains})
    assert _affiliations(record)[0] == expected
    assert _institutions(record) == expected


@pytest.mark.parametrize(
    "written, expected",
    [
        ('"Counting, Sorting, and Weaving: A Loom Benchmark"', "Counting, Sorting, and Weaving: A Loom Benchmark"),
        ('"\u201cThe Loom Speaks\u201d: Weaving With Words"', "\u201cThe Loom Speaks\u201d: Weaving With Words"),
        # near-misses: quotes around a part of the title are the title's own
        ('"Why Weave?": Looms Explained', '"Why Weave?": Looms Explained'),
        ('"Warp" and "Weft" in Looms', '"Warp" and "Weft" in Looms'),
        ('A Loom Named "Ada"', 'A Loom Named "Ada"'),
    ],
)
def test_a_title_wrapped_whole_in_quotes_loses_them(tmp_path, written, expected):
    record = _record(tmp_path, {"title": written, "author": "Ada Lovelace"})
    assert record.title == expected


def _pmlr_entry(booktitle: str, year: str) -> dict:
    bib = f"@InProceedings{{x,\n  title = {{A Good Paper}},\n  booktitle = {{{booktitle}}},\n  year = {{{year}}}\n}}"
    return {"title": "A Good Paper", "author": "Ada Lovelace;Alan Turing", "bibtex": bib}


@pytest.mark.parametrize(
    "stem, booktitle, year, venue",
    [
        # a conference nobody listed, by the full name the file's acronym abbreviates, dated by the file
        ("ccll2031", "Proceedings of the 9th Coastal Conference on Loom Learning", "2032", ("CCLL 2031", "2031")),
        ("ccll2031", "Proceedings of the 9th Coastal Conference on Loom Learning", "2031", ("CCLL 2031", "2031")),
        ("colt2031", "Proceedings of Fortieth Conference on Learning Theory", "2032", ("COLT 2031", "2031")),
        (
            "coweav2031",
            "Proceedings of the 3rd International Conference on Computational Weaving",
            "2031",
            ("COWEAV 2031", "2031"),
        ),
        # near-misses: a name the acronym does not spell is another conference, with its own year
        (
            "ccll2031",
            "Proceedings of the 9th Coastal Conference on Weaving",
            "2032",
            ("Coastal Conference on Weaving 2032", "2032"),
        ),
        (
            "ccl2031",
            "Proceedings of the 9th Coastal Conference on Loom Learning",
            "2032",
            ("Coastal Conference on Loom Learning 2032", "2032"),
        ),
        (
            "papers",
            "Proceedings of the 9th Coastal Conference on Loom Learning",
            "2032",
            ("Coastal Conference on Loom Learning 2032", "2032"),
        ),
    ],
)
def test_a_booktitle_naming_the_files_conference_is_that_edition(tmp_path, stem, booktitle, year, venue):
    assert _venues(listing_file(tmp_path, json.dumps([_pmlr_entry(booktitle, year)]), f"{stem}.json")) == {venue}


@pytest.mark.parametrize(
    "aff, expected",
    [
        ("2Weave Labs; 1Loom University, 2Weave Labs", ["Weave Labs", "Loom University, Weave Labs"]),
        ("1Loom University; 2\u00c9cole des Tisserands", ["Loom University", "\u00c9cole des Tisserands"]),
        (
            "Loom University, Loomtown S.A.R.1; Weave Labs, Loomtown S.A.R.2",
            ["Loom University, Loomtown S.A.R.", "Weave Labs, Loomtown S.A.R."],
        ),
        ("Loom University1+Weave Labs2; Weave Labs2", ["Loom University+Weave Labs", "Weave Labs"]),
        # near-misses: a number that does not count from 1, or one alone, is a part of the name
        ("4Paradigm; 3M", ["4Paradigm", "3M"]),
        ("1Loom University; 1Loom University", ["1Loom University"]),
        ("Loom University; 2Weave Labs", ["Loom University", "2Weave Labs"]),
        ("1 Loom Street Labs; 2 Weave Road Labs", ["1 Loom Street Labs", "2 Weave Road Labs"]),
        (
            "Loom Lab 1, Loom University; Loom Lab 2, Loom University",
            ["Loom Lab 1, Loom University", "Loom Lab 2, Loom University"],
        ),
        ("Web3 Labs; Loom University", ["Web3 Labs", "Loom University"]),
    ],
)
def test_footnote_numbers_before_a_papers_affiliations_are_no_part_of_them(tmp_path, aff, expected):
    record = _record(tmp_path, {"author": "Ada Lovelace; Alan Turing", "aff": aff})
    assert _institutions(record) == expected


@pytest.mark.parametrize(
    "aff, domain, expected",
    [
        # without a domain for each part, '+' may be a comma ("School of Weaving+Loom University"): the
        # institution rules read the author's affiliations as one entry (tests/orgs/cases.tsv)
        ("School of Weaving+Loom University", None, ["School of Weaving+Loom University"]),
        ("Loom University+Weave AI", "loom.edu", ["Loom University+Weave AI"]),
        # near-miss: a domain for each part says they are two
        ("School of Weaving+Loom University", "weave.org+loom.edu", ["School of Weaving", "Loom University"]),
    ],
)
def test_affiliations_without_a_domain_each_stay_one_entry(tmp_path, aff, domain, expected):
    record = _record(tmp_path, {"author": "Ada Lovelace", "affs": aff, **({"aff_domain": domain} if domain else {})})
    assert _affiliations(record)[0] == expected
    assert _institutions(record) == expected


@pytest.mark.parametrize(
    "aff, expected",
    [
        ("---; Loom University", [[], ["Loom University"]]),  # a place holder for an unknown affiliation
        ("- ; \u2014", [[], []]),
        # near-misses: a name with a letter or digit in it is a name
        ("3M; X", [["3M"], ["X"]]),
    ],
)
def test_an_affiliation_without_a_letter_or_digit_is_none(tmp_path, aff, expected):
    record = _record(tmp_path, {"author": "Ada Lovelace; Alan Turing", "aff": aff})
    assert _affiliations(record) == expected
    assert _institutions(record) == [name for names in expected for name in names]


@pytest.mark.parametrize(
    "aff, expected",
    [
        # one author's two affiliations joined by a space, each given alone by a co-author
        (
            "Loom University; Loom University Weave Technology; Weave Technology",
            [["Loom University"], ["Loom University", "Weave Technology"], ["Weave Technology"]],
        ),
        ("Loom Inc.; Weave AI; Loom Inc. Weave AI", [["Loom Inc."], ["Weave AI"], ["Loom Inc.", "Weave AI"]]),
        # after the country that ends an address
        (
            "Warp Group, Loom University, Germany; Weft Institute-WI, Loomstadt, Germany; "
            "Warp Group, Loom University, Germany Weft Institute-WI, Loomstadt, Germany",
            [
                ["Warp Group, Loom University, Germany"],
                ["Weft Institute-WI, Loomstadt, Germany"],
                ["Warp Group, Loom University, Germany", "Weft Institute-WI, Loomstadt, Germany"],
            ],
        ),
        # near-misses: a first name that no organisation word ends, a unit after its university, a half nobody gives
        # alone
        ("Google; DeepMind; Google DeepMind", [["Google"], ["DeepMind"], ["Google DeepMind"]]),
        (
            "Loom University; Warp Graduate School; Loom University Warp Graduate School",
            [["Loom University"], ["Warp Graduate School"], ["Loom University Warp Graduate School"]],
        ),
        (
            "Loom University; Loom University Weave Technology; Weft Labs",
            [["Loom University"], ["Loom University Weave Technology"], ["Weft Labs"]],
        ),
        (
            # no half alone
            "Loom University, Germany; Germany Weave Institute; Loom University, Germany Weave Institute",
            [["Loom University, Germany"], ["Germany Weave Institute"], ["Loom University, Germany Weave Institute"]],
        ),
    ],
)
def test_affiliations_joined_by_a_space_that_co_authors_give_alone_are_two(tmp_path, aff, expected):
    record = _record(tmp_path, {"author": "Ada Lovelace; Alan Turing; Grace Hopper", "aff": aff})
    assert _affiliations(record) == expected


@pytest.mark.parametrize(
    "stem, header",
    [
        ("colm2024", "COLM 2024"),
        ("3dv2025", "3DV 2025"),
        # a well-known conference gets back the spelling the file name lost
        ("nips2024", "NeurIPS 2024"),
        ("corl2023", "CoRL 2023"),
        ("acmmm2024", "ACM MM 2024"),
        ("siggraphasia2024", "SIGGRAPH Asia 2024"),
        ("siggraph2024", "SIGGRAPH 2024"),  # near miss: the series alone is no well-known name
        ("my_papers", "my papers"),
    ],
)
def test_the_file_name_names_the_conference_as_it_writes_itself(stem, header):
    assert header_from_file_name(stem) == header


@pytest.mark.parametrize(
    "entry, authors, affiliations",
    [
        # ICRA and IROS from IEEE Xplore: the byline and its ids written twice, the affiliations once,
        # which then align with the byline read once
        (
            {
                "author": "Ada Lovelace;Alan Turing;Ada Lovelace;Alan Turing",
                "authorids": "/1;/2;/1;/2",
                "aff": "London; Bletchley",
            },
            ["Ada Lovelace", "Alan Turing"],
            [["London"], ["Bletchley"]],
        ),
        (
            {"author": "Ada Lovelace;Ada Lovelace", "authorids": "/1;/1", "aff": "London"},
            ["Ada Lovelace"],
            [["London"]],
        ),
        # near misses: two namesakes, each with an affiliation or none; a repeat that is not the whole byline twice
        (
            {"author": "Wei Wang;Wei Wang", "aff": "London;Bletchley"},
            ["Wei Wang", "Wei Wang"],
            [["London"], ["Bletchley"]],
        ),
        ({"author": "Wei Wang;Wei Wang", "aff": ""}, ["Wei Wang", "Wei Wang"], [[], []]),
        (
            {"author": "Ada Lovelace;Alan Turing;Ada Lovelace", "aff": ""},
            ["Ada Lovelace", "Alan Turing", "Ada Lovelace"],
            [[], [], []],
        ),
        (
            {"author": "Ada Lovelace;Alan Turing;Alan Turing;Ada Lovelace", "aff": ""},
            ["Ada Lovelace", "Alan Turing", "Alan Turing", "Ada Lovelace"],
            [[], [], [], []],
        ),
    ],
)
def test_a_byline_written_twice_in_a_row_is_read_once(tmp_path, entry, authors, affiliations):
    records, rejections, _ = read_records(listing_file(tmp_path, json.dumps([{"title": "Looms", **entry}])))
    assert not rejections and records[0].authors == authors
    assert _affiliations(records[0]) == affiliations
