"""The paperlists / OpenReview JSON format: real files against their truth, identity from
OpenReview ids, and hostile files (truncated, wrong types, not an array)."""

from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest
from structured_sources import CONFERENCES, bylines, listing_file, read_records, realdata, truth

from kg.orgs.institutions import states_no_affiliation
from kg.pipeline import ingest
from kg.quality.identifiers import identifier_counts, identifier_report
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue


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
    records, rejections, fmt = read_records(realdata(f"{name}.json"))
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
    path = listing_file(tmp_path, text[: text.index('"Second"') + 5])
    records, rejections, fmt = read_records(path)
    assert fmt == "paperlists" and [r.title for r in records] == ["A Good Paper"]
    assert len(rejections) == 1 and "truncated" in rejections[0].reason
    second_starts = text[: text.index('"Second"')].count("\n")  # 1-based line of its "{"
    assert rejections[0].source.line >= second_starts and "line" in rejections[0].reason


def test_wrong_types_reject_the_entry_and_go_on(tmp_path):
    bad = [{**GOOD, "title": 42}, {**GOOD, "author": {"name": "x"}}, "just a string", {**GOOD, "title": ""}, GOOD]
    records, rejections, _ = read_records(listing_file(tmp_path, json.dumps(bad, indent=2)))
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
    path = listing_file(tmp_path, json.dumps(entries, indent=2))
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
    records, rejections, _ = read_records(listing_file(tmp_path, text), "paperlists")
    assert len(records) == 1 and len(rejections) == 1
    assert "invalid JSON" in rejections[0].reason and "column" in rejections[0].reason


@pytest.mark.parametrize(
    "text, reason", [('{"title": 1}', "not a JSON array"), ("[]  [", "after the end"), ("", "empty")]
)
def test_not_an_array_is_one_rejection(tmp_path, text, reason):
    records, rejections, _ = read_records(listing_file(tmp_path, text), "paperlists")
    assert not records and len(rejections) == 1 and reason in rejections[0].reason


def test_json_of_many_records_streams_with_the_line_of_each(tmp_path):
    papers = [
        {**GOOD, "title": f"Paper number {i}", "site": f"https://openreview.net/forum?id=p{i}"} for i in range(3000)
    ]
    text = json.dumps(papers, indent=1)
    records, rejections, _ = read_records(listing_file(tmp_path, text))
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


def test_a_submission_the_conference_did_not_accept_is_no_paper_of_it(tmp_path):
    # ICLR 2023's list holds every submission; the rejected and withdrawn ones are read and rejected
    entries = [
        {**GOOD, "title": "Rejected Looms", "status": "Reject"},
        {**GOOD, "title": "Withdrawn Looms", "status": "Withdraw", "author": ""},
        {**GOOD, "title": "Desk Rejected Looms", "status": "Desk Reject"},
        {**GOOD, "title": "Rejection Sampling for Looms", "status": "Poster"},  # near misses: the word in a title,
        {**GOOD, "title": "Looms Withdrawn From Markets", "status": ""},
    ]  # and no status at all
    records, rejections, _ = read_records(listing_file(tmp_path, json.dumps(entries, indent=2)))
    assert [r.title for r in records] == ["Rejection Sampling for Looms", "Looms Withdrawn From Markets"]
    assert [r.reason for r in rejections] == [
        f"status {s!r}: a submission the conference did not accept" for s in ("Reject", "Withdraw", "Desk Reject")
    ]


def test_the_primary_area_is_the_last_keyword(tmp_path):
    # the area the authors chose at submission is a keyword, which kg.nlp maps to a topic (source-areas.tsv)
    entries = [
        {**GOOD, "keywords": "looms;cards", "primary_area": "reinforcement_learning"},
        {**GOOD, "title": "Another Paper", "primary_area": ""},
    ]
    records, rejections, _ = read_records(listing_file(tmp_path, json.dumps(entries)), "paperlists")
    assert not rejections
    assert [r.keywords for r in records] == [["looms", "cards", "reinforcement_learning"], []]
