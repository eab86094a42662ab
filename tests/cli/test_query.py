"""`kg query` and `kg queries` on the samples' build: tables, CSV, TSV, JSON, pages, files, one-line errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import kg_here

from kg.query.library import library

DATA = Path(__file__).parent.parent / "data"


@pytest.fixture(scope="module")
def built(tmp_path_factory, built_samples):
    """A folder of its own whose store/ is the session's build of the samples (read only here)."""
    folder = tmp_path_factory.mktemp("cli")
    (folder / "store").symlink_to(built_samples / "store")
    return folder


def kg_query(folder, *args, check=True):
    return kg_here("query", "--store", "store", *args, cwd=folder, check=check)


@pytest.mark.slow
def test_cli_table(built):
    out = kg_query(built, "coauthors", "-p", "author=gerhard neumann").stdout.decode()
    lines = out.splitlines()
    assert lines[0].split() == ["name", "shared_papers"]  # the IRI column: named by the one after it
    assert lines[1].split() == ["Niklas", "Freymuth", "2"]
    assert len(lines) == 15 and len({len(line) for line in lines}) == 1  # aligned; counts right-aligned


def test_cli_csv_and_tsv(built):
    """CSV holds plain values; TSV is SPARQL 1.1 TSV: ?names in the header, terms as N-Triples writes them."""
    text = kg_query(built, "coauthor-pairs", "--format", "csv").stdout.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["author", "author_name", "coauthor", "coauthor_name", "shared_papers"]
    assert len(rows) == 11 and {row[4] for row in rows[1:]} == {"2"}
    assert [
        "https://kg.example.org/id/author/gerhard-neumann",
        "Gerhard Neumann",
        "https://kg.example.org/id/author/niklas-freymuth",
        "Niklas Freymuth",
        "2",
    ] in rows
    tsv = kg_query(built, "coauthor-pairs", "--format", "tsv").stdout.decode().splitlines()
    assert tsv[0].split("\t") == ["?author", "?author_name", "?coauthor", "?coauthor_name", "?shared_papers"]
    assert (
        "\t".join(
            [
                "<https://kg.example.org/id/author/gerhard-neumann>",
                '"Gerhard Neumann"',
                "<https://kg.example.org/id/author/niklas-freymuth>",
                '"Niklas Freymuth"',
                "2",
            ]
        )
        in tsv
    )
    parsed = ox.parse_query_results("\n".join(tsv).encode(), format=ox.QueryResultsFormat.TSV)
    assert len(list(parsed)) == 10  # an independent TSV parser reads it back


def test_cli_json_is_sparql_results_json(built):
    result = kg_query(built, "top-institutions", "-p", "limit=2", "--format", "json")
    document = json.loads(result.stdout)
    assert document["head"]["vars"] == ["institution", "name", "name_zh", "papers", "authors"]
    first = document["results"]["bindings"][0]
    assert first["institution"]["type"] == "uri"
    assert first["name"] == {
        "type": "literal",
        "value": "University of Science and Technology of China",
        "xml:lang": "en",
    }
    assert first["papers"] == {"type": "literal", "value": "6", "datatype": "http://www.w3.org/2001/XMLSchema#integer"}
    assert len(document["results"]["bindings"]) == 2
    # organisations (their units with -p level=unit); the page size and the next page named
    assert "rows 1–2 of 30, 28 more; page size 20 (-p limit=N); next page: -p offset=2" in result.stderr.decode()
    unit_level = kg_query(built, "top-institutions", "-p", "limit=2", "-p", "level=unit").stderr.decode()
    assert "rows 1–2 of 41, 39 more" in unit_level


def test_cli_lists_queries_and_runs_a_file(built):
    listing = kg_here("queries", cwd=built).stdout.decode()
    assert all(name in listing for name in library()) and "-p author=" in listing
    (built / "mine.rq").write_text((DATA / "paper-by-title.rq").read_text(encoding="utf-8"), encoding="utf-8")
    out = kg_query(
        built,
        "--file",
        "mine.rq",
        "-p",
        "title=Reason, Then Re-reason: Cross-view Revisiting Improves Spatial Reasoning",
        "--format",
        "tsv",
    ).stdout.decode()
    assert out.splitlines() == [
        "?paper",
        "<https://kg.example.org/id/paper/reason-then-rereason-crossview-revisiting-improves-spatial-reasoning-6bafee>",
    ]
    assert "kg graph" in kg_here("query", "--help", cwd=built).stdout.decode()


def test_cli_errors_are_one_line(built):
    for args, message in (
        (("coauthors", "-p", 'author="} ; DROP ALL ; #'), "kg: error: no author matches"),
        (("coauthors",), "kg: error: query coauthors needs -p author="),
    ):
        result = kg_query(built, *args, check=False)
        assert result.returncode == 1 and result.stdout == b""
        assert result.stderr.decode().startswith(message) and result.stderr.decode().count("\n") == 1
