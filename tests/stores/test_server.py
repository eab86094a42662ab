"""`kg serve` as a real process on 127.0.0.1: SPARQL 1.1 Protocol clients get the embedded store's rows."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pyoxigraph as ox
import pytest
from conftest import kg_here, start_serve
from SPARQLWrapper import JSON, SPARQLWrapper

from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue

ROW_LIMIT = 500
PEOPLE = (
    sparql_prologue() + "SELECT ?person ?name WHERE { ?person a foaf:Person ; skos:prefLabel ?name } ORDER BY ?person"
)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(endpoint URL, store folder) of a `kg serve` over the samples; stopped by its own process id."""
    folder = tmp_path_factory.mktemp("serve")
    kg_here("build", "--store", str(folder / "store"), cwd=folder)
    process, port = start_serve(
        folder,
        "--store",
        str(folder / "store"),
        "--site",
        str(folder / "site"),
        "--timeout",
        "3",
        "--row-limit",
        str(ROW_LIMIT),
    )
    yield f"http://127.0.0.1:{port}/sparql", folder / "store"
    process.terminate()
    process.wait(timeout=30)


def get(url: str, query: str, accept: str = "application/sparql-results+json") -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url + "?" + urllib.parse.urlencode({"query": query}), headers={"Accept": accept})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def embedded_rows(store_dir: Path, query: str) -> list[tuple]:
    store = KGStore(str(store_dir))
    try:
        return [tuple(str(term) for term in row) for row in store.select_terms(query)]
    finally:
        store.close()


def test_every_result_format_gives_the_embedded_rows(served):
    url, store_dir = served
    expected = embedded_rows(store_dir, PEOPLE)
    assert len(expected) == 135
    for accept, fmt in (
        ("application/sparql-results+json", ox.QueryResultsFormat.JSON),
        ("application/sparql-results+xml", ox.QueryResultsFormat.XML),
        ("text/tab-separated-values", ox.QueryResultsFormat.TSV),
        ("text/csv", ox.QueryResultsFormat.CSV),
    ):
        status, headers, body = get(url, PEOPLE, accept)
        assert status == 200 and headers["Content-Type"] == accept
        if fmt == ox.QueryResultsFormat.CSV:  # CSV loses term types: compare the plain values
            lines = body.decode().split("\r\n")
            assert lines[0] == "person,name" and len([line for line in lines[1:] if line]) == 135
            continue
        parsed = ox.parse_query_results(body, fmt)
        assert [tuple(str(term) for term in row) for row in parsed] == expected


def test_sparqlwrapper_get_and_post_agree_with_the_embedded_store(served):
    url, store_dir = served
    expected = [(iri, name) for iri, name in ((row[0][1:-1], row[1]) for row in embedded_rows(store_dir, PEOPLE))]
    for method in ("GET", "POST"):
        client = SPARQLWrapper(url)
        client.setMethod(method)
        client.setQuery(PEOPLE)
        client.setReturnFormat(JSON)
        bindings = client.query().convert()["results"]["bindings"]
        assert [(b["person"]["value"], f'"{b["name"]["value"]}"') for b in bindings] == expected
    client = SPARQLWrapper(url)
    client.setQuery("ASK { ?s a <http://xmlns.com/foaf/0.1/Person> }")
    client.setReturnFormat(JSON)
    assert client.query().convert()["boolean"] is True


def test_kg_itself_uses_the_endpoint_as_a_remote_store(served, tmp_path):
    url, store_dir = served
    for command in (
        ("stats",),
        ("graph", "stats", "--rows", "5"),
        ("query", "coauthors", "-p", "author=Gerhard Neumann"),
    ):
        remote = kg_here(*command, "--store", url, cwd=tmp_path).stdout
        local = kg_here(*command, "--store", str(store_dir), cwd=tmp_path).stdout
        assert remote == local and remote


def test_twenty_clients_fifty_queries_each_without_an_error(served):
    url, _ = served
    query = sparql_prologue() + "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a schema:ScholarlyArticle }"
    failures, answers = [], []

    def client() -> None:
        for _ in range(50):
            try:
                status, _, body = get(url, query, "text/tab-separated-values")
                answers.append((status, body))
            except Exception as exc:  # noqa: BLE001 - every failure is counted
                failures.append(repr(exc))

    threads = [threading.Thread(target=client) for _ in range(20)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    assert failures == [] and len(answers) == 1000
    assert {answer for answer in answers} == {(200, b'?n\n"43"^^<http://www.w3.org/2001/XMLSchema#integer>\n')}
    print(f"1,000 queries from 20 clients in {seconds:.1f} s")


def test_an_over_long_query_is_stopped_with_a_sparql_error_and_the_server_goes_on(served):
    url, _ = served
    endless = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
    started = time.perf_counter()
    status, _, body = get(url, endless)
    assert status == 503 and body.decode().startswith("SPARQL query stopped: it ran longer than the time limit of 3 s")
    assert time.perf_counter() - started < 30
    status, _, body = get(url, "ASK { ?s ?p ?o }")
    assert status == 200 and b"true" in body


def test_row_limit_updates_and_bad_queries_are_answered_clearly(served):
    url, _ = served
    status, headers, body = get(url, "SELECT ?s ?p ?o WHERE { ?s ?p ?o }", "text/tab-separated-values")
    assert status == 200 and len(body.decode().splitlines()) == 1 + ROW_LIMIT and "X-KG-Truncated" in headers
    status, _, body = get(url, "SELEKT nothing")
    assert status == 400 and body.decode().startswith("SPARQL query error:")
    request = urllib.request.Request(
        url, data=b"INSERT DATA { <urn:a> <urn:b> <urn:c> }", headers={"Content-Type": "application/sparql-update"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 403 and b"read-only" in refused.value.read()
    site = urllib.request.urlopen(url.removesuffix("sparql") + "author/gerhard-neumann.html", timeout=30)
    assert site.status == 200 and b"Gerhard Neumann" in site.read()
