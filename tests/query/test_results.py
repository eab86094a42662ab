"""kg/query/results.py: the SPARQL 1.1 results formats read back by independent parsers, and CSV/TSV outputs safe
to open in a spreadsheet (formula-leading values get a leading `'`)."""

from __future__ import annotations

import codecs
import csv
import io
import json
from pathlib import Path

import networkx as nx
import pyoxigraph as ox
import pytest
import rdflib
from case_tables import case_rows
from rdflib import Literal, URIRef

from kg.graphs.files import write_csv
from kg.query.library import QueryResult, parse_query, run
from kg.query.results import aligned_text, sparql_results, spreadsheet_safe, table_cells
from kg.stores.embedded import KGStore

CELLS = Path(__file__).parent.parent / "data" / "spreadsheet_cells.tsv"


def _cells() -> list:
    return [
        pytest.param(
            codecs.decode(row["value"], "unicode_escape"),
            codecs.decode(row["cell"], "unicode_escape"),
            id=row["value"][:20],
        )
        for row in case_rows(CELLS)
    ]


@pytest.mark.parametrize(("value", "cell"), _cells())
def test_a_formula_leading_value_is_shown_not_run(value, cell):
    assert spreadsheet_safe(value) == cell


def test_kg_query_csv_and_tsv_neutralise_literals_and_keep_numbers_and_iris():
    store = KGStore("memory")
    graph = ox.NamedNode("https://kg.example.org/source/t")
    label = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
    store.add_graph_triples(
        graph,
        [
            ox.Triple(ox.NamedNode("https://kg.example.org/a"), label, ox.Literal('=HYPERLINK("http://x")')),
            ox.Triple(ox.NamedNode("https://kg.example.org/b"), label, ox.Literal("@evil", language="en")),
            ox.Triple(
                ox.NamedNode("https://kg.example.org/c"),
                label,
                ox.Literal("-7", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")),
            ),
        ],
    )
    query = parse_query("SELECT ?s ?label WHERE { ?s rdfs:label ?label } ORDER BY ?s", "t")
    result = run(store, query)
    assert sparql_results(result, "csv").decode().splitlines() == [
        "s,label",
        'https://kg.example.org/a,"\'=HYPERLINK(""http://x"")"',
        "https://kg.example.org/b,'@evil",
        "https://kg.example.org/c,-7",
    ]
    assert sparql_results(result, "tsv").decode().splitlines() == [
        "?s\t?label",
        '<https://kg.example.org/a>\t"\'=HYPERLINK(\\"http://x\\")"',
        '<https://kg.example.org/b>\t"\'@evil"@en',
        "<https://kg.example.org/c>\t-7",
    ]
    bindings = json.loads(sparql_results(result, "json"))["results"]["bindings"]  # JSON keeps every value as it is
    assert [b["label"]["value"] for b in bindings] == ['=HYPERLINK("http://x")', "@evil", "-7"]


def test_kg_graph_csv_neutralises_names(tmp_path):
    graph = nx.Graph()
    graph.add_node("urn:a", label="=1+1")
    graph.add_node("urn:b", label="Ada Lovelace")
    graph.add_edge("urn:a", "urn:b", weight=2, papers=2)
    write_csv(graph, tmp_path / "edges.csv")
    rows = list(csv.reader(io.StringIO((tmp_path / "edges.csv").read_text(encoding="utf-8"))))
    assert rows[1][:3] == ["'=1+1", "Ada Lovelace", "2"] and rows[1][5:] == ["urn:a", "urn:b"]


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
