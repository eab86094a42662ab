"""The paperlists / OpenReview JSON format: real files against their truth, identity from
OpenReview ids, and hostile files (truncated, wrong types, not an array)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest
from structured_sources import CONFERENCES, bylines, realdata, truth

from kg.ingest.formats import read_source
from kg.ingest.formats.paperlists import header_from_file_name
from kg.orgs.institutions import states_no_affiliation
from kg.pipeline import ingest
from kg.quality.identifiers import identifier_counts, identifier_report
from kg.rdf.iris import Minter
from kg.records import PaperRecord, Rejection
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue


def _read(path: Path, format_name: str | None = None) -> tuple[list[PaperRecord], list[Rejection], str]:
    source, items = read_source(path, path.name, format_name)
    items = list(items)
    return (
        [i for i in items if isinstance(i, PaperRecord)],
        [i for i in items if isinstance(i, Rejection)],
        source.format,
    )


@pytest.fixture(scope="module", params=CONFERENCES)
def conference(request):
    name = request.param
    store = KGStore("memory")
    report = ingest([realdata(f"{name}.json")], store, Minter())
    return name, store, report


def _entries(name: str) -> list[dict]:
    return json.loads(realdata(f"{name}.json").read_text(encoding="utf-8"))


def _as_stated(aff: str, domains: str) -> list[str]:
    """One author's affiliations: its '+' parts where the list gives a domain for each, else the
    whole string (where '+' may also be a comma, the institution rules read it)."""
    parts, hosts = [part.strip() for part in aff.split("+")], domains.split("+") if domains else []
    if len(hosts) == len(parts) and any(host.strip() for host in hosts):
        return [part for part in parts if part]
    return [aff.strip(" +")] if aff.strip(" +") else []


def _author_domains(entry: dict, count: int) -> list[str]:
    domains = (entry.get("aff_domain") or "").split(";")
    return domains if len(domains) == count else [""] * count


@pytest.mark.realdata
@pytest.mark.parametrize("name", CONFERENCES)
def test_records_have_exact_bylines_affiliations_and_ids(name):
    records, rejections, fmt = _read(realdata(f"{name}.json"))
    expected = truth(name)["papers"]
    assert fmt == "paperlists" and not rejections and len(records) == len(expected)
    for record, paper, entry in zip(records, expected, _entries(name)):
        assert record.title == paper["title"]
        assert record.authors == paper["authors"]
        assert [d.openreview or d.email for d in record.author_details] == [
            i.casefold() if "@" in i else i for i in paper["author_ids"]
        ]
        stated = paper["aff_per_author"] or [""] * len(paper["authors"])  # the truth writes none as []
        if len(stated) != len(paper["authors"]):  # more affiliations than authors: who is where is unknown
            stated = [""] * len(paper["authors"])
        assert [[a.name for a in d.affiliations] for d in record.author_details] == [
            _as_stated(aff, domains) for aff, domains in zip(stated, _author_domains(entry, len(stated)))
        ]
        assert record.source.line >= 1 and record.openreview_id == paper["id"]


@pytest.mark.realdata
def test_graph_has_every_paper_with_its_byline(conference):
    name, store, report = conference
    expected = truth(name)["papers"]
    assert report.read == report.ingested == len(expected)
    found = bylines(store)
    assert {p["title"]: p["authors"] for p in expected} == found


@pytest.mark.realdata
def test_one_person_node_per_openreview_profile(conference):
    name, store, _ = conference
    rows = store.query(sparql_prologue() + "SELECT ?person ?id WHERE { ?person a foaf:Person ; kg:openReviewId ?id }")
    ids_of, nodes_of = defaultdict(set), defaultdict(set)
    for person, profile in rows:
        ids_of[str(person)].add(str(profile))
        nodes_of[str(profile)].add(str(person))
    assert all(len(ids) == 1 for ids in ids_of.values())
    assert all(len(nodes) == 1 for nodes in nodes_of.values())
    profiles = {i for p in truth(name)["papers"] for i in p["author_ids"] if i.startswith("~")}
    assert set(nodes_of) == profiles
    # namesakes with different profiles stay apart, under readable IRIs
    names = defaultdict(set)
    for paper in truth(name)["papers"]:
        for author, profile in zip(paper["authors"], paper["author_ids"]):
            if profile.startswith("~"):
                names[author].add(profile)
    shared = [author for author, profiles in names.items() if len(profiles) > 1]
    assert shared, "the data has namesakes"
    for author in shared:
        nodes = {node for profile in names[author] for node in nodes_of.get(profile, ())}
        assert len(nodes) == len(names[author])


@pytest.mark.realdata
def test_nobody_holds_two_ids_of_one_scheme_and_no_id_names_two(conference):
    """CoRL 2024's per-author lists are out of step with the byline in places (17 people held two
    dblp or ORCID ids, 36 ids named two people); the file's majority settles them."""
    _, store, _ = conference
    counts = identifier_counts(store)
    assert (counts["persons_with_two_ids_of_one_scheme"], counts["ids_on_several_persons"]) == (0, 0)


@pytest.mark.realdata
def test_persons_link_their_orcid_dblp_and_openreview_pages(conference):
    name, store, _ = conference
    links = defaultdict(set)
    for profile, page in store.query(
        sparql_prologue() + "SELECT ?id ?page WHERE { ?p kg:openReviewId ?id ; schema:sameAs ?page }"
    ):
        links[str(profile)].add(str(page))
    # a pairing the file's majority contradicts (its lists out of step with the byline) goes to the
    # co-author who holds the id, or is a note
    set_aside = {(item["author"], item["id"]) for item in identifier_report(store)["ids_set_aside"]}
    names = {}
    for entry in json.loads(realdata(f"{name}.json").read_text(encoding="utf-8")):
        names.update(zip(entry["authorids"].split(";"), entry["author"].split(";")))
    for entry in json.loads(realdata(f"{name}.json").read_text(encoding="utf-8")):
        held = set().union(*(links[other] for other in entry["authorids"].split(";")))
        for profile, orcid, dblp in zip(*(entry[k].split(";") for k in ("authorids", "orcid", "dblp"))):
            if not profile.startswith("~"):
                continue
            assert f"https://openreview.net/profile?id={profile}" in links[profile]
            if found := re.search(r"\d{4}-\d{4}-\d{4}-\d{3}[\dX]", orcid):
                page = f"https://orcid.org/{found.group(0)}"
                assert page in links[profile] or (names[profile], page) in set_aside or page in held
            if re.match(r"[\w\-]+/[\w\-]+(\.html)?([?#]|$)", dblp) or "/pid/" in dblp:
                # a pid, or its page; others are links to a paper's record or an old name page
                pid = re.sub(r"(\.html)?([?#].*)?$", "", dblp.split("/pid/")[-1])
                page = f"https://dblp.org/pid/{pid}"
                assert page in links[profile] or (names[profile], page) in set_aside or page in held


@pytest.mark.realdata
def test_per_author_affiliations_are_on_the_authorship(conference):
    name, store, _ = conference
    rows = store.query(
        sparql_prologue()
        + """
        SELECT ?title ?position ?written WHERE {
          ?paper dcterms:title ?title FILTER(lang(?title) = "en")
          ?paper kg:authorship ?a . ?a kg:position ?position ; kg:affiliation ?org . ?org kg:nameAsWritten ?written }"""
    )
    stated = defaultdict(set)
    for title, position, written in rows:
        stated[(str(title), int(position))].add(str(written))
    for paper, entry in zip(truth(name)["papers"], _entries(name)):
        if len(paper["aff_per_author"]) != len(paper["authors"]):
            continue
        domains = _author_domains(entry, len(paper["authors"]))
        for position, (aff, domain) in enumerate(zip(paper["aff_per_author"], domains), start=1):
            for part in _as_stated(aff, domain):
                # "Independent Researcher" states that the author has no institution: no organisation
                assert (part in stated[(paper["title"], position)]) != states_no_affiliation(part)
            if not aff.strip():
                assert (paper["title"], position) not in stated


def _write(tmp_path, text: str, name: str = "conf2025.json") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


GOOD = {
    "title": "A Good Paper",
    "author": "Ada Lovelace;Alan Turing",
    "authorids": "~Ada_Lovelace1;~Alan_Turing1",
    "aff": "University of London;",
    "aff_domain": "london.ac.uk;",
    "status": "Oral",
    "track": "main",
    "site": "https://openreview.net/forum?id=abc123",
}


def test_truncated_json_keeps_the_papers_before_and_rejects_the_rest_with_the_line(tmp_path):
    text = json.dumps([GOOD, {**GOOD, "title": "Second"}], indent=4)
    path = _write(tmp_path, text[: text.index('"Second"') + 5])
    records, rejections, fmt = _read(path)
    assert fmt == "paperlists" and [r.title for r in records] == ["A Good Paper"]
    assert len(rejections) == 1 and "truncated" in rejections[0].reason
    second_starts = text[: text.index('"Second"')].count("\n")  # 1-based line of its "{"
    assert rejections[0].source.line >= second_starts and "line" in rejections[0].reason


def test_wrong_types_reject_the_entry_and_go_on(tmp_path):
    bad = [{**GOOD, "title": 42}, {**GOOD, "author": {"name": "x"}}, "just a string", {**GOOD, "title": ""}, GOOD]
    records, rejections, _ = _read(_write(tmp_path, json.dumps(bad, indent=2)))
    assert [r.title for r in records] == ["A Good Paper"]
    reasons = [r.reason for r in rejections]
    assert "'title' is int" in reasons[0] and "'author' is dict" in reasons[1]
    assert "not an object" in reasons[2] and "no title" in reasons[3]
    assert len(records) + len(rejections) == len(bad)


def test_a_paper_whose_list_gives_no_byline_is_kept_without_authors(tmp_path):
    # EMNLP 2023's list: every author field empty, and the papers are still its papers
    entries = [
        {
            "title": "Weaving Without Names",
            "author": "",
            "aff": "Loom University; Card Lab",
            "status": "Long Findings",
            "track": "main",
            "keywords": "looms;cards",
        },
        {"title": "Weaving With Names", "author": ";", "aff": ";"},
    ]
    store = KGStore("memory")
    path = _write(tmp_path, json.dumps(entries, indent=2))
    report = ingest([path], store, Minter())
    assert (report.read, len(report.sources[0].rejections)) == (2, 0)
    rows = store.query(
        sparql_prologue()
        + """SELECT ?title (COUNT(?a) AS ?authors) ?venue WHERE {
        ?paper a schema:ScholarlyArticle ; dcterms:title ?title ; bibo:presentedAt/skos:prefLabel ?venue
        OPTIONAL { ?paper kg:authorship ?a } } GROUP BY ?title ?venue ORDER BY ?title"""
    )
    assert [(str(t), int(n.toPython()), str(v)) for t, n, v in rows] == [
        ("Weaving With Names", 0, "CONF 2025"),
        ("Weaving Without Names", 0, "CONF 2025"),
    ]
    store.close()


def test_invalid_json_names_line_and_column(tmp_path):
    text = json.dumps([GOOD], indent=2)[:-1] + ',\n  {"title": "x" "author": 1}\n]'
    records, rejections, _ = _read(_write(tmp_path, text), "paperlists")
    assert len(records) == 1 and len(rejections) == 1
    assert "invalid JSON" in rejections[0].reason and "column" in rejections[0].reason


@pytest.mark.parametrize(
    "text, reason", [('{"title": 1}', "not a JSON array"), ("[]  [", "after the end"), ("", "empty")]
)
def test_not_an_array_is_one_rejection(tmp_path, text, reason):
    records, rejections, _ = _read(_write(tmp_path, text), "paperlists")
    assert not records and len(rejections) == 1 and reason in rejections[0].reason


def test_json_of_many_records_streams_with_the_line_of_each(tmp_path):
    papers = [
        {**GOOD, "title": f"Paper number {i}", "site": f"https://openreview.net/forum?id=p{i}"} for i in range(3000)
    ]
    text = json.dumps(papers, indent=1)
    records, rejections, _ = _read(_write(tmp_path, text))
    assert len(records) == 3000 and not rejections
    lines = text.split("\n")
    for record in records[::500]:
        assert lines[record.source.line - 1].strip() == "{"
        assert '"Paper number' in lines[record.source.line]
    assert records[0].stated_facts.startswith("Oral") and records[7].openreview_id == "p7"


@pytest.mark.realdata
def test_graph_of_the_json_conforms_to_the_shapes(conference):
    from kg.quality.shacl import store_graph, validate_graph

    name, store, _ = conference
    if name != "corl2024":
        pytest.skip("pySHACL takes a minute a conference: checked on the smaller one")
    report = validate_graph(store_graph(store))
    assert report.conforms, report.violations[:5]


def test_a_node_with_two_openreview_ids_violates_the_shapes():
    import rdflib

    from kg.quality.shacl import validate_graph

    bad = rdflib.Graph().parse(
        data="""
        @prefix kg: <https://kg.example.org/ontology#> . @prefix foaf: <http://xmlns.com/foaf/0.1/> .
        @prefix skos: <http://www.w3.org/2004/02/skos/core#> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        <https://kg.example.org/id/author/x> a foaf:Person ; skos:prefLabel "X" ;
            kg:openReviewId "~Jia_Li1" , "~Jia_Li2" .
        <https://kg.example.org/id/authorship/p--1> kg:author <https://kg.example.org/id/author/x> .""",
        format="turtle",
    )
    report = validate_graph(bad)
    assert not report.conforms and any("OpenReview" in str(v) for v in report.violations)


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
    records, rejections, fmt = _read(_write(tmp_path, json.dumps([entry], indent=4)))
    assert fmt == "paperlists" and not rejections
    assert records[0].authors == expected


def test_comma_byline_with_an_affiliation_list_of_another_length_gives_the_paper_its_institutions(tmp_path):
    entry = {
        "title": "A Good Paper",
        "author": "Ada Lovelace, Alan Turing, Grace Hopper",
        "aff": "University of London; Bletchley Park",
    }
    records, _, _ = _read(_write(tmp_path, json.dumps([entry])))
    assert [i.name for i in records[0].institutions] == ["University of London", "Bletchley Park"]
    assert not any(detail.affiliations for detail in records[0].author_details)


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
    assert _venues(_write(tmp_path, json.dumps([entry]), f"{stem}.json")) == {venue}


@pytest.mark.parametrize("stem", ["papers", "accepted_papers"])
def test_a_file_named_otherwise_names_no_venue(tmp_path, stem):
    entry = {"title": "A Good Paper", "author": "Ada Lovelace;Alan Turing"}
    assert _venues(_write(tmp_path, json.dumps([entry]), f"{stem}.json")) == set()


def test_a_booktitle_naming_the_files_conference_without_its_year_takes_the_files_year(tmp_path):
    bib = (
        '@inproceedings{x,\n title = "A Good Paper",\n booktitle = "Proceedings of the 70th Annual Meeting of the '
        'Association for Computational Linguistics (Volume 1: Long Papers)",\n month = may,\n year = "2031"\n}'
    )
    entry = {"title": "A Good Paper", "author": "Ada Lovelace;Alan Turing", "bibtex": bib}
    assert _venues(_write(tmp_path, json.dumps([entry]), "acl2031.json")) == {("ACL 2031", "2031")}
    # the file names another conference, so its year says nothing of this one: the entry's own year dates it
    assert _venues(_write(tmp_path, json.dumps([entry]), "emnlp2030.json")) == {("ACL 2031", "2031")}


def test_escaped_characters_in_bylines_and_affiliations_split_nothing(tmp_path):
    entry = {
        "title": "A Good Paper",
        "author": "Dana O&#39;Hara, Alan Turing",
        "aff": "Northwest Polytechnic University Xi&amp;amp;#x27;an; AT&T Labs",
    }
    records, _, _ = _read(_write(tmp_path, json.dumps([entry])))
    assert records[0].authors == ["Dana O'Hara", "Alan Turing"]
    assert [i.name for i in records[0].institutions] == ["Northwest Polytechnic University Xi'an", "AT&T Labs"]


def test_affiliations_under_affs_are_read_as_under_aff(tmp_path):
    entry = {
        "title": "A Good Paper",
        "author": "Ada Lovelace; Alan Turing",
        "affs": "University of London; Bletchley Park",
    }
    records, _, _ = _read(_write(tmp_path, json.dumps([entry])))
    assert [[a.name for a in d.affiliations] for d in records[0].author_details] == [
        ["University of London"],
        ["Bletchley Park"],
    ]
    assert [i.name for i in records[0].institutions] == ["University of London", "Bletchley Park"]


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
    entry = {"title": "A Good Paper", "author": "Ada Lovelace", "affs": aff, "aff_domain": domains}
    records, _, _ = _read(_write(tmp_path, json.dumps([entry])))
    assert [a.name for a in records[0].author_details[0].affiliations] == expected
    assert [i.name for i in records[0].institutions] == expected


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
    entry = {"title": written, "author": "Ada Lovelace"}
    records, _, _ = _read(_write(tmp_path, json.dumps([entry])))
    assert records[0].title == expected


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
    assert _venues(_write(tmp_path, json.dumps([_pmlr_entry(booktitle, year)]), f"{stem}.json")) == {venue}


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
    entry = {"title": "A Good Paper", "author": "Ada Lovelace; Alan Turing", "aff": aff}
    records, _, _ = _read(_write(tmp_path, json.dumps([entry])))
    assert [i.name for i in records[0].institutions] == expected


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
    entry = {
        "title": "A Good Paper",
        "author": "Ada Lovelace",
        "affs": aff,
        **({"aff_domain": domain} if domain else {}),
    }
    records, _, _ = _read(_write(tmp_path, json.dumps([entry])))
    assert [a.name for a in records[0].author_details[0].affiliations] == expected
    assert [i.name for i in records[0].institutions] == expected


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
    entry = {"title": "A Good Paper", "author": "Ada Lovelace; Alan Turing", "aff": aff}
    records, _, _ = _read(_write(tmp_path, json.dumps([entry])))
    assert [[a.name for a in d.affiliations] for d in records[0].author_details] == expected
    assert [i.name for i in records[0].institutions] == [name for names in expected for name in names]


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
    entry = {"title": "A Good Paper", "author": "Ada Lovelace; Alan Turing; Grace Hopper", "aff": aff}
    records, _, _ = _read(_write(tmp_path, json.dumps([entry])))
    assert [[a.name for a in d.affiliations] for d in records[0].author_details] == expected


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


def test_a_submission_the_conference_did_not_accept_is_no_paper_of_it(tmp_path):
    # ICLR 2023's list holds every submission; the rejected and withdrawn ones are read and rejected
    entries = [
        {**GOOD, "title": "Rejected Looms", "status": "Reject"},
        {**GOOD, "title": "Withdrawn Looms", "status": "Withdraw", "author": ""},
        {**GOOD, "title": "Desk Rejected Looms", "status": "Desk Reject"},
        {**GOOD, "title": "Rejection Sampling for Looms", "status": "Poster"},  # near misses: the word in a title,
        {**GOOD, "title": "Looms Withdrawn From Markets", "status": ""},
    ]  # and no status at all
    records, rejections, _ = _read(_write(tmp_path, json.dumps(entries, indent=2)))
    assert [r.title for r in records] == ["Rejection Sampling for Looms", "Looms Withdrawn From Markets"]
    assert [r.reason for r in rejections] == [
        f"status {s!r}: a submission the conference did not accept" for s in ("Reject", "Withdraw", "Desk Reject")
    ]


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
    records, rejections, _ = _read(_write(tmp_path, json.dumps([{"title": "Looms", **entry}])))
    assert not rejections and records[0].authors == authors
    assert [[aff.name for aff in detail.affiliations] for detail in records[0].author_details] == affiliations
