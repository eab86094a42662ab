"""kg/query/results.py: the SPARQL 1.1 results formats, read back by independent parsers."""

from __future__ import annotations

import io
import json

import pyoxigraph as ox
import rdflib
from rdflib import Literal, URIRef

from kg.query.library import QueryResult
from kg.query.results import aligned_text, sparql_results, table_cells

ROWS = QueryResult(
    ["who", "name", "papers"],
    [
        (URIRef("https://kg.example.org/id/author/a"), Literal("中文名", lang="zh"), Literal(2)),
        (URIRef("https://kg.example.org/id/author/b"), None, Literal('tab\there "quoted"')),
    ],
    total=2,
)


def test_json_is_what_an_independent_parser_reads_back():
    document = sparql_results(ROWS, "json")
    parsed = rdflib.query.Result.parse(io.BytesIO(document), format="json")
    assert [tuple(row) for row in parsed] == [tuple(row) for row in ROWS.rows]
    assert json.loads(document)["head"]["vars"] == ["who", "name", "papers"]


def test_tsv_writes_terms_and_csv_plain_values():
    tsv = sparql_results(ROWS, "tsv").decode()
    assert tsv.splitlines()[0] == "?who\t?name\t?papers"
    assert tsv.splitlines()[1] == '<https://kg.example.org/id/author/a>\t"中文名"@zh\t2'
    read = list(ox.parse_query_results(tsv.encode(), format=ox.QueryResultsFormat.TSV))
    assert read[1]["name"] is None and read[1]["papers"].value == 'tab\there "quoted"'  # escaped, then read back
    csv = sparql_results(ROWS, "csv").decode().splitlines()
    assert csv[:2] == ["who,name,papers", "https://kg.example.org/id/author/a,中文名,2"]


def test_ask_results_and_tables():
    ask = QueryResult([], [], 0, ask=False)
    assert json.loads(sparql_results(ask, "json")) == {"head": {}, "boolean": False}
    assert sparql_results(ask, "tsv").strip() == b"false"
    cells = table_cells(ROWS, {"author": "https://kg.example.org/id/author/"})
    assert cells[1][0] == "author:a" and aligned_text(cells).splitlines()[0].startswith("who")
