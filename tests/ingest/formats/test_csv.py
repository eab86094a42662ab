"""The csv format: a CSV and a TSV of the real JSON's papers, columns by common names or
--columns, per-author affiliations, and hostile rows (ragged, unclosed quote) rejected by line."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from conftest import kg_here
from structured_sources import CONFERENCES, bylines, entries, read_records

from kg.errors import InputError
from kg.ingest.formats import csv as csv_format
from kg.pipeline import ingest
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore


def _write_table(conference: str, path: Path, delimiter: str, headers: tuple[str, ...]) -> list[dict]:
    papers = entries(conference)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter=delimiter)
        writer.writerow(headers)
        for paper in papers:
            writer.writerow(
                [
                    paper["title"],
                    "; ".join(paper["author"].split(";")),
                    "; ".join(paper["aff"].split(";")),
                    paper["abstract"],
                    "CoRL" if conference == "corl2024" else "AISTATS",
                    conference[-4:],
                    paper["site"],
                ]
            )
    return papers


@pytest.mark.realdata
@pytest.mark.parametrize("conference", CONFERENCES)
@pytest.mark.parametrize("suffix, delimiter", [(".csv", ","), (".tsv", "\t")])
def test_table_of_the_json_gives_its_papers_bylines_and_affiliations(conference, suffix, delimiter, tmp_path):
    path = tmp_path / f"papers{suffix}"
    papers = _write_table(
        conference, path, delimiter, ("Title", "Authors", "Affiliations", "Abstract", "Venue", "Year", "URL")
    )
    records, rejections, fmt = read_records(path)
    assert fmt == "csv" and not rejections and len(records) == len(papers)
    for record, paper in zip(records, papers):
        authors = paper["author"].split(";")
        assert (record.title, record.authors) == (paper["title"], authors)
        affs = paper["aff"].split(";")
        if len(affs) == len(authors) > 1:
            assert [[a.name for a in d.affiliations] for d in record.author_details] == [
                [" ".join(p.split()) for p in aff.split("+") if p.strip()] for aff in affs
            ]
        assert record.openreview_id == paper["id"]
        assert record.stated_facts.endswith(conference[-4:])


@pytest.mark.realdata
def test_csv_papers_in_the_graph(tmp_path):
    path = tmp_path / "corl.csv"
    papers = _write_table(
        "corl2024", path, ",", ("title", "author", "affiliation", "summary", "conference", "year", "link")
    )
    store = KGStore("memory")
    report = ingest([path], store, Minter())
    assert report.read == report.ingested == len(papers)
    assert bylines(store) == {p["title"]: p["author"].split(";") for p in papers}


@pytest.mark.slow
def test_other_column_names_need_columns(tmp_path):
    path = tmp_path / "odd.csv"
    path.write_text(
        'Paper,Writers,Org\nA Study of Things,"Ada Lovelace, Alan Turing",Some University\n', encoding="utf-8"
    )
    with pytest.raises(InputError):  # no title/authors columns by their common names: not detected as csv
        read_records(path)
    try:
        csv_format.use_columns("title=Paper,authors=Writers,affiliations=Org")
        records, rejections, fmt = read_records(path)
    finally:
        csv_format.use_columns(None)
    assert fmt == "csv" and records[0].authors == ["Ada Lovelace", "Alan Turing"]
    assert [i.name for i in records[0].institutions] == ["Some University"]
    result = kg_here(
        "build",
        str(path),
        "--columns",
        "title=Paper,authors=Writers",
        "--store",
        "memory",
        "--out",
        str(tmp_path / "out"),
        cwd=tmp_path,
    )
    assert b"1 ingested, 0 rejected" in result.stdout
    bad = kg_here("build", str(path), "--columns", "writer=Writers", "--store", "memory", cwd=tmp_path, check=False)
    assert bad.returncode == 2 and b"--columns" in bad.stderr


def test_names_and_affiliations_split_the_way_the_cell_writes_them():
    assert csv_format.split_people("Lovelace, Ada; Turing, Alan") == (["Ada Lovelace", "Alan Turing"], ";")
    assert csv_format.split_people("Ada Lovelace, Alan Turing and Grace Hopper") == (
        ["Ada Lovelace", "Alan Turing", "Grace Hopper"],
        None,
    )
    assert csv_format.split_people("Ada Lovelace | Alan Turing") == (["Ada Lovelace", "Alan Turing"], "|")


HOSTILE = (
    "title,authors,affiliations\n"
    "Good One,Ada Lovelace; Alan Turing,Univ A; Univ B+Univ C\n"
    "Ragged,Someone,Somewhere,extra cell\n"
    "\n"
    '"Multi\nline title",Grace Hopper,Navy\n'
    ",No Title Here,X\n"
    "Good Two,Bo Chen,\n"
    '"Unclosed quote,Carl Gauss,Y\n'
)


def test_hostile_rows_are_rejected_with_their_line(tmp_path):
    path = tmp_path / "hostile.csv"
    path.write_text(HOSTILE, encoding="utf-8")
    records, rejections, fmt = read_records(path)
    assert fmt == "csv"
    assert [(r.title, r.source.line) for r in records] == [("Good One", 2), ("Multi line title", 5), ("Good Two", 8)]
    assert [[a.name for a in d.affiliations] for d in records[0].author_details] == [["Univ A"], ["Univ B", "Univ C"]]
    assert [(r.source.line, r.reason.split(":")[0].split(" ")[0]) for r in rejections] == [
        (3, "row"),
        (7, "entry"),
        (9, "row"),
    ]
    report = ingest([path], KGStore("memory"), Minter())
    assert report.read == report.ingested + len(report.rejections) == 6
