"""`kg serve --store URL`: the site, query page and dereference over a real SPARQL server on 127.0.0.1
(Oxigraph server and a private Virtuoso), with the embedded case's safety: read-only, no SERVICE,
no server-specific syntax, no graph but kg's, rows cut at the limit."""

from __future__ import annotations

import http.server
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from types import SimpleNamespace

import pytest
import rdflib
from conftest import kg_here, start_serve

from kg.stores.query_pool import Limits
from kg.stores.remote_pool import RemotePool

pytestmark = [pytest.mark.server, pytest.mark.slow, pytest.mark.xdist_group("virtuoso")]  # one server (conftest)

FOAF = "PREFIX foaf: <http://xmlns.com/foaf/0.1/>\n"
SKOS = "PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n"
INSERT = "INSERT DATA { GRAPH <http://example.org/g> { <http://example.org/s> <http://example.org/p> 'x' } }"
ROW_LIMIT = 5


@pytest.fixture(scope="module", params=["oxigraph", "virtuoso"])
def served(request, tmp_path_factory):
    """The samples built into the server, and `kg serve --store URL` over it (row limit 5)."""
    folder = tmp_path_factory.mktemp(f"served-{request.param}")
    if request.param == "oxigraph":
        server = request.getfixturevalue("oxigraph")
        query, update = server.query, server.update
    else:
        server = request.getfixturevalue("virtuoso_server")
        server.clear()
        query = update = server.sparql
    kg_here("build", "--store", query, "--update-endpoint", update, "--out", "out", cwd=folder)
    site = folder / "site"
    process, port = start_serve(folder, "--store", query, "--site", str(site), "--row-limit", str(ROW_LIMIT))
    yield SimpleNamespace(port=port, query=query, site=site)
    process.terminate()
    process.wait(timeout=30)


def ask(
    port: int, path: str = "/sparql", accept: str = "application/sparql-results+json", body=None, kind=None, **params
):
    url = f"http://127.0.0.1:{port}{path}" + ("?" + urllib.parse.urlencode(params) if params else "")
    headers = {"Accept": accept, **({"Content-Type": kind} if kind else {})}
    request = urllib.request.Request(url, data=body, headers=headers, method="POST" if body is not None else "GET")
    opener = urllib.request.build_opener(NoRedirects)
    try:
        with opener.open(request, timeout=120) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def bindings(body: bytes) -> list[dict]:
    return json.loads(body)["results"]["bindings"]


def on_the_server(query_url: str, sparql: str) -> dict:
    """An answer straight from the server, past kg serve."""
    data = urllib.parse.urlencode({"query": sparql}).encode()
    request = urllib.request.Request(query_url, data=data, headers={"Accept": "application/sparql-results+json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.loads(answer.read())


def test_the_site_and_the_query_page_are_served(served):
    status, _, page = ask(served.port, "/", accept="text/html")
    assert status == 200 and page == (served.site / "index.html").read_bytes()
    status, headers, page = ask(served.port, accept="text/html")
    assert status == 200 and headers["Content-Type"].startswith("text/html") and b"<title>SPARQL query</title>" in page


def test_answers_are_the_embedded_stores(served, sample_store):
    query = SKOS + "SELECT (COUNT(DISTINCT ?who) AS ?n) WHERE { ?who skos:prefLabel ?name }"
    status, _, body = ask(served.port, query=query)
    expected = int(next(iter(sample_store.query(query)))[0])
    assert status == 200 and int(bindings(body)[0]["n"]["value"]) == expected > 0
    status, headers, body = ask(
        served.port, accept="text/turtle", query="CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 3"
    )
    assert status == 200 and headers["Content-Type"] == "text/turtle" and len(rdflib.Graph().parse(data=body)) == 3
    status, _, body = ask(served.port, query="ASK { ?s ?p ?o }")
    assert status == 200 and json.loads(body)["boolean"] is True


def test_rows_are_cut_at_the_row_limit(served):
    status, headers, body = ask(served.port, query="SELECT ?s WHERE { ?s ?p ?o } LIMIT 20")
    assert status == 200 and len(bindings(body)) == ROW_LIMIT
    assert headers["X-KG-Truncated"].startswith(f"{20 - ROW_LIMIT} rows left out")


def test_updates_are_refused_however_sent_and_nothing_changes(served):
    form = "application/x-www-form-urlencoded"
    tries = [
        ask(served.port, query=INSERT),  # Virtuoso's /sparql would run an update sent as a query
        ask(served.port, body=urllib.parse.urlencode({"query": INSERT}).encode(), kind=form),
        ask(served.port, body=urllib.parse.urlencode({"update": INSERT}).encode(), kind=form),
        ask(served.port, body=INSERT.encode(), kind="application/sparql-update"),
    ]
    assert [status for status, _, _ in tries] == [403] * 4, [body for _, _, body in tries]
    assert on_the_server(served.query, "ASK { GRAPH ?g { <http://example.org/s> ?p ?o } }")["boolean"] is False


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }",
        'DEFINE get:soft "soft" SELECT * FROM <http://127.0.0.1:9/data> WHERE { ?s ?p ?o }',
        "SELECT * FROM <http://example.org/not-kg> WHERE { ?s ?p ?o }",
        "SELECT * WHERE { ?s ?p ?o } ; DROP ALL",
    ],
    ids=["service", "virtuoso-define", "foreign-from", "a-query-then-an-update"],
)
def test_what_could_reach_beyond_the_graph_is_refused(served, query):
    status, _, body = ask(served.port, query=query)
    assert status == 400, body
    assert on_the_server(served.query, "ASK { GRAPH ?g { ?s ?p ?o } }")["boolean"] is True  # still there


def test_a_graph_that_is_not_kgs_is_an_empty_one(served):
    query = "SELECT ?s WHERE { ?s ?p ?o } LIMIT 3"
    status, _, body = ask(
        served.port, query=query, **{"default-graph-uri": "http://www.openlinksw.com/schemas/virtrdf#"}
    )
    assert status == 200 and bindings(body) == []


def test_the_graphs_iris_are_dereferenced(served):
    status, _, body = ask(served.port, query=FOAF + "SELECT ?who WHERE { ?who a foaf:Person } ORDER BY ?who LIMIT 1")
    iri = bindings(body)[0]["who"]["value"]
    path = urllib.parse.urlsplit(iri).path
    status, headers, body = ask(served.port, path, accept="text/turtle")
    assert status == 200 and (rdflib.URIRef(iri), None, None) in rdflib.Graph().parse(data=body, format="turtle")
    status, headers, _ = ask(served.port, path, accept="text/html")
    assert status == 303 and (served.site / headers["Location"].lstrip("/")).is_file()


class _Stalling(http.server.BaseHTTPRequestHandler):
    """A SPARQL server that lists one kg graph, then answers every other query too late or too big."""

    def log_message(self, *args):
        pass

    def do_POST(self):  # noqa: N802 - http.server's naming
        query = urllib.parse.parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())["query"][0]
        if "DISTINCT ?g" in query:
            row = '{"g": {"type": "uri", "value": "http://example.org/graph"}}'
            body = f'{{"head": {{"vars": ["g"]}}, "results": {{"bindings": [{row}]}}}}'.encode()
        elif self.server.mode == "late":
            time.sleep(3)
            body = b'{"head": {"vars": []}, "results": {"bindings": []}}'
        else:
            body = (
                b'{"head": {"vars": ["x"]}, "results": {"bindings": ['
                + b'{"x": {"type": "literal", "value": "x"}},' * 60_000
            )
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            pass  # kg went away at its limit, as it should


@pytest.mark.parametrize(
    ("mode", "limits", "message"),
    [
        ("late", Limits(seconds=1.0), b"ran longer than the time limit of 1 s (kg serve --timeout)"),
        ("big", Limits(memory_mb=1), b"its answer is larger than 1 MiB (kg serve --query-memory)"),
    ],
)
def test_a_servers_answer_past_a_limit_is_a_503(mode, limits, message):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Stalling)
    server.mode = mode
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        pool = RemotePool(f"http://127.0.0.1:{server.server_port}/sparql", 1, limits)
        request = {"query": "SELECT * WHERE { ?s ?p ?o }", "default": [], "named": [], "rows": 10, "select": "json"}
        answer = pool.ask(request)
        assert answer.status == 503 and message in answer.body, answer.body
    finally:
        server.shutdown()
