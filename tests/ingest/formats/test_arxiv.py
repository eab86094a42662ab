"""The arxiv (Atom) format: a feed written from the real JSON, affiliations per author,
comments and journal refs read like a listing's, and hostile feeds (an API error entry, a
truncated feed, malformed XML) rejected with their line."""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from structured_sources import CONFERENCES, bylines, entries, read_records

from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue

HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
    'xmlns:arxiv="http://arxiv.org/schemas/atom">\n  <title type="html">ArXiv Query: search_query=all</title>\n'
)


def _entry(number: int, paper: dict, venue: str) -> str:
    authors = "".join(
        f"    <author><name>{escape(name)}</name>"
        + "".join(f"<arxiv:affiliation>{escape(a.strip())}</arxiv:affiliation>" for a in aff.split("+") if a.strip())
        + "</author>\n"
        for name, aff in zip(paper["author"].split(";"), _aligned(paper))
    )
    return (
        f"  <entry>\n    <id>http://arxiv.org/abs/2406.{number:05d}v{1 + number % 3}</id>\n"
        f"    <title>{escape(paper['title'])}</title>\n    <summary>{escape(paper['abstract'])}</summary>\n{authors}"
        f"    <arxiv:comment>Accepted at {venue}; 8 pages, 3 figures</arxiv:comment>\n"
        f'    <link title="pdf" href="http://arxiv.org/pdf/2406.{number:05d}" rel="related"/>\n'
        f'    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>\n  </entry>\n'
    )


def _aligned(paper: dict) -> list[str]:
    affs, count = paper["aff"].split(";"), len(paper["author"].split(";"))
    return affs if len(affs) == count else [""] * count


def _feed(conference: str, path: Path) -> list[dict]:
    papers = entries(conference)
    venue = "CoRL 2024" if conference == "corl2024" else "AISTATS 2025"
    path.write_text(HEAD + "".join(_entry(i, p, venue) for i, p in enumerate(papers)) + "</feed>\n", encoding="utf-8")
    return papers


@pytest.mark.realdata
@pytest.mark.parametrize("conference", CONFERENCES)
def test_feed_of_the_json_gives_its_papers_bylines_and_affiliations(conference, tmp_path):
    path = tmp_path / "feed.atom"
    papers = _feed(conference, path)
    records, rejections, fmt = read_records(path)
    assert fmt == "arxiv" and not rejections and len(records) == len(papers)
    lines = path.read_text(encoding="utf-8").split("\n")
    for number, (record, paper) in enumerate(zip(records, papers)):
        assert (record.title, record.authors) == (" ".join(paper["title"].split()), paper["author"].split(";"))
        assert [[a.name for a in d.affiliations] for d in record.author_details] == [
            [" ".join(a.split()) for a in aff.split("+") if a.strip()] for aff in _aligned(paper)
        ]
        assert (record.arxiv_id, record.arxiv_version) == (f"2406.{number:05d}", 1 + number % 3)
        assert lines[record.source.line - 1].strip() == "<entry>"


@pytest.mark.realdata
def test_feed_papers_in_the_graph_with_venue_from_the_comment(tmp_path):
    path = tmp_path / "corl.xml"
    papers = _feed("corl2024", path)
    store = KGStore("memory")
    report = ingest([path], store, Minter())
    assert report.read == report.ingested == len(papers)
    assert bylines(store) == {" ".join(p["title"].split()): p["author"].split(";") for p in papers}
    rows = store.query(
        sparql_prologue()
        + """SELECT (COUNT(DISTINCT ?paper) AS ?n) WHERE {
        ?paper bibo:presentedAt ?venue ; bibo:numPages 8 ; kg:figureCount 3 ; schema:sameAs ?abs .
        ?venue schema:startDate ?year .
        FILTER(STR(?year) = "2024" && STRSTARTS(STR(?abs), "https://arxiv.org/abs/2406.")) }"""
    )
    assert int(next(iter(rows))[0]) == len(papers)


GOOD = (
    "  <entry>\n    <id>http://arxiv.org/abs/2401.01234v2</id>\n    <title>A Good\n      Paper</title>\n"
    "    <summary>Words.</summary>\n    <author><name>Ada Lovelace</name></author>\n"
    "    <arxiv:doi>10.1234/XYZ</arxiv:doi>\n    <arxiv:journal_ref>ICML 2024</arxiv:journal_ref>\n  </entry>\n"
)
ERROR = (
    "  <entry>\n    <id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.1234</id>\n    <title>Error</title>\n"
    "    <summary>incorrect id format for 1234.1234</summary>\n  </entry>\n"
)


def test_api_error_entry_is_rejected_and_good_entries_read(tmp_path):
    path = tmp_path / "errors.atom"
    path.write_text(HEAD + GOOD + ERROR + GOOD.replace("A Good", "Another Good") + "</feed>\n", encoding="utf-8")
    records, rejections, _ = read_records(path)
    assert [r.title for r in records] == ["A Good Paper", "Another Good Paper"]
    assert (records[0].doi, records[0].journal_ref, records[0].arxiv_version) == ("10.1234/xyz", "ICML 2024", 2)
    assert len(rejections) == 1 and "incorrect id format" in rejections[0].reason and rejections[0].source.line == 13


@pytest.mark.parametrize(
    "tail, reason", [(GOOD[:60], "truncated"), ("  <entry><title>x</titel></entry>\n</feed>\n", "malformed")]
)
def test_cut_or_malformed_feed_keeps_entries_before_and_names_the_line(tmp_path, tail, reason):
    path = tmp_path / "bad.atom"
    path.write_text(HEAD + GOOD + tail, encoding="utf-8")
    records, rejections, _ = read_records(path)
    assert [r.title for r in records] == ["A Good Paper"]
    assert len(rejections) == 1 and reason in rejections[0].reason and "line" in rejections[0].reason
    assert rejections[0].source.line == 13
