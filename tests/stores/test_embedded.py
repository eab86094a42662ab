"""The remote store against a real `oxigraph serve` on 127.0.0.1: same answers as embedded."""

from __future__ import annotations

import http.server
import json
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
import rdflib
from conftest import LISTING, kg_here

from kg.stores.embedded import KGStore
from kg.stores.remote import where_position

OXIGRAPH = Path(sys.executable).with_name("oxigraph")
COAUTHORS = """
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?author ?name (COUNT(DISTINCT ?paper) AS ?shared) WHERE {
  ?paper dcterms:creator ?author, ?other . ?other skos:prefLabel ?name . FILTER(?other != ?author)
} GROUP BY ?author ?name ORDER BY DESC(?shared) ?name
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real Oxigraph server in a temp folder; its three endpoints."""
    port = free_port()
    process = subprocess.Popen(
        [str(OXIGRAPH), "serve", "--location", str(tmp_path_factory.mktemp("oxigraph")), "--bind", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(f"{base}/query", timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    else:
        process.kill()
        pytest.fail(f"oxigraph serve did not start: {process.stderr.read().decode()}")
    yield {"query": f"{base}/query", "update": f"{base}/update", "store": f"{base}/store"}
    process.terminate()
    process.wait(timeout=10)


def remote_args(server, graph_store=True):
    args = ["--store", server["query"], "--update-endpoint", server["update"]]
    return args + (["--graph-store", server["store"]] if graph_store else [])


def but_the_endpoint(text: bytes) -> bytes:
    """An export or summary without what only a server's description has: its endpoint, and so one more triple."""
    return re.sub(rb"[\d,]+ triples", b"N triples", ENDPOINT_LINES.sub(b"", text))


ENDPOINT_LINES = re.compile(rb".*(sparqlEndpoint|void[#:]triples).*\n")


@pytest.mark.parametrize("graph_store", [True, False], ids=["graph-store-protocol", "insert-data-batches"])
def test_build_stats_export_match_embedded(server, tmp_path, graph_store):
    remote = kg_here("build", *remote_args(server, graph_store), "--out", "remote", cwd=tmp_path).stdout
    local = kg_here("build", "--store", "memory", "--out", "local", cwd=tmp_path).stdout
    assert but_the_endpoint(remote.replace(b"remote", b"local")) == but_the_endpoint(local)
    remote_turtle = (tmp_path / "remote" / "kg.ttl").read_bytes()
    assert f"void:sparqlEndpoint <{server['query']}>".encode() in remote_turtle
    assert but_the_endpoint(remote_turtle) == but_the_endpoint((tmp_path / "local" / "kg.ttl").read_bytes())
    kg_here("build", "--store", "disk", "--out", "disk", cwd=tmp_path)
    stats = json.loads(kg_here("stats", "--format", "json", "--store", server["query"], cwd=tmp_path).stdout)
    embedded = json.loads(kg_here("stats", "--format", "json", "--store", "disk", cwd=tmp_path).stdout)
    assert stats == {**embedded, "triples": embedded["triples"] + 1}  # + void:sparqlEndpoint
    assert stats["papers"] == 43  # MLUBench from both listings is one paper
    for fmt in ("nquads", "trig", "jsonld"):
        assert but_the_endpoint(
            kg_here("export", "--format", fmt, "--store", server["query"], cwd=tmp_path).stdout
        ) == but_the_endpoint(kg_here("export", "--format", fmt, "--store", "disk", cwd=tmp_path).stdout)


def test_ingest_replace_and_remove_on_the_server(server, tmp_path):
    kg_here("build", *remote_args(server), cwd=tmp_path)
    before = kg_here("export", "--format", "nquads", "--store", server["query"], cwd=tmp_path).stdout
    kg_here("ingest", str(LISTING), *remote_args(server, graph_store=False), cwd=tmp_path)  # replaces: staging + MOVE
    assert kg_here("export", "--format", "nquads", "--store", server["query"], cwd=tmp_path).stdout == before
    graphs = (
        urllib.request.urlopen(
            urllib.request.Request(
                server["query"] + "?query=" + urllib.parse.quote("SELECT DISTINCT ?g WHERE { GRAPH ?g {} }"),
                headers={"Accept": "text/csv"},
            )
        )
        .read()
        .decode()
        .split()[1:]
    )
    # Two sources and their topic detail, the ontology, the topic scheme, the resolution results, the index,
    # the ranked lists, the description; no staging left.
    assert len(graphs) == 10 and not any(g.startswith("urn:kg:staging") for g in graphs)
    kg_here("remove", LISTING.name, *remote_args(server), cwd=tmp_path)
    stats = json.loads(kg_here("stats", "--format", "json", "--store", server["query"], cwd=tmp_path).stdout)
    assert stats["sources"] == 1 and stats["papers"] == 14 and stats["authors"] == 0


def test_bound_parameters_agree_and_cannot_inject(server, tmp_path, sample_store):
    kg_here("build", *remote_args(server), cwd=tmp_path)
    remote = KGStore(server["query"], update_endpoint=server["update"])
    neumann = rdflib.URIRef("https://kg.example.org/id/author/gerhard-neumann")
    rows = lambda store, value: [tuple(row) for row in store.query(COAUTHORS, {"author": value})]  # noqa: E731
    expected = rows(sample_store, neumann)
    assert ("Niklas Freymuth", 2) in [(str(r[1]), int(r[2])) for r in expected]
    assert rows(remote, neumann) == expected
    hostile = rdflib.Literal('"} ; DROP ALL ; #\\\n')
    assert rows(remote, hostile) == [] == rows(sample_store, hostile)
    # Nothing was dropped; the server's description has one triple more, its void:sparqlEndpoint.
    assert (
        remote.scalar("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
        == sample_store.scalar("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }") + 1
    )


def test_values_go_inside_the_where_clause():
    query = 'PREFIX x: <http://e/{}> # { not here\nCONSTRUCT { ?a ?b "}" } WHERE { ?a ?b ?c }'
    assert query[where_position(query) :].startswith(" ?a ?b ?c }")  # how the terms go in: test_values.py


def test_credentials_come_from_the_environment(tmp_path):
    seen = []

    class Endpoint(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            seen.append(self.headers.get("Authorization"))
            self.rfile.read(int(self.headers["Content-Length"]))
            body = b'{"head":{"vars":["g"]},"results":{"bindings":[]}}' if "json" in self.headers["Accept"] else b"?g\n"
            self.send_response(200)
            self.send_header(
                "Content-Type", "application/sparql-results+json" if b"{" in body else "text/tab-separated-values"
            )
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", 0), Endpoint)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_port}/sparql"
        env = {"KG_STORE_USER": "reader", "KG_STORE_PASSWORD": "s3cret"}
        subprocess.run(
            [str(Path(sys.executable).with_name("kg")), "export", "--store", url],
            cwd=tmp_path,
            env={**env, "PATH": "/usr/bin:/bin"},
            check=True,
            capture_output=True,
        )
    finally:
        httpd.shutdown()
    assert seen and set(seen) == {"Basic cmVhZGVyOnMzY3JldA=="}  # reader:s3cret


def test_unreachable_server_is_one_line(tmp_path):
    result = kg_here("stats", "--store", f"http://127.0.0.1:{free_port()}/query", cwd=tmp_path, check=False)
    assert result.returncode == 2
    assert result.stderr.decode().startswith("kg: error: http://127.0.0.1:") and result.stderr.count(b"\n") == 1


def test_writing_needs_an_update_endpoint(server, tmp_path):
    result = kg_here("build", "--store", server["query"], cwd=tmp_path, check=False)
    assert result.returncode == 1 and b"--update-endpoint" in result.stderr


PAYLOAD_PIECES = [
    '"',
    "'",
    "\\",
    '"""',
    "'''",
    '\\"',
    "\\'",
    "}",
    "{",
    ")",
    "(",
    "#",
    "\n",
    "\r",
    ";",
    " DROP ALL ",
    "> ",
    "<http://e/x>",
    "?s",
    "\\u0022",
    "\\\\",
    " . ",
    "VALUES",
    "\t",
    "é",
    "\U0001f600",
]
TRIPLE_QUOTED = '''PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?paper ?value WHERE { ?paper dcterms:title ?title FILTER (STR(?title) = ?value \
|| ?title = """a \\""" quote""") }'''


def test_a_fuzzed_corpus_of_quote_payloads_gives_the_same_rows_on_both_stores(server, tmp_path, sample_store):
    kg_here("build", *remote_args(server), cwd=tmp_path)
    remote = KGStore(server["query"], update_endpoint=server["update"])
    title = "MLUBench: A Benchmark for Lifelong Unlearning Evaluation in MLLMs"
    rng = random.Random(14)
    payloads = [title, title + '"', title + "\\"] + [
        "".join(rng.choice(PAYLOAD_PIECES) for _ in range(rng.randint(1, 8))) for _ in range(150)
    ]
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    before = remote.scalar(count)
    for payload in payloads:
        for text in (
            TRIPLE_QUOTED,
            "SELECT ?person ?value WHERE { ?person skos:prefLabel ?name FILTER (?name = ?value) } # }",
        ):
            rows = [sorted(map(str, row)) for row in remote.query(text, {"value": rdflib.Literal(payload)})]
            assert rows == [
                sorted(map(str, row)) for row in sample_store.query(text, {"value": rdflib.Literal(payload)})
            ], payload
    assert remote.scalar(count) == before == sample_store.scalar(count) + 1  # + the server's void:sparqlEndpoint
    assert [row for row in remote.query(TRIPLE_QUOTED, {"value": rdflib.Literal(title)})]  # the real title is found


def test_a_closed_writer_lets_go_of_the_database_even_when_frozen_out_of_collection(tmp_path):
    """A command run in a process that goes on (a test, a notebook) closes its store for the next one,
    even when the registry's load froze the store's objects out of the cyclic collector meanwhile."""
    import gc

    from kg.collector import kept_for_good

    first = KGStore(str(tmp_path / "store"), wait=0)
    assert first.dataset.query("ASK {}").askAnswer  # an empty pattern matches; rdflib's objects are made
    kept_for_good()  # as the mapping does once the organisation registry is loaded
    try:
        first.close()
        KGStore(str(tmp_path / "store"), wait=0).close()  # Oxigraph's own lock is free at once
    finally:
        gc.unfreeze()


def test_compacting_keeps_every_quad_and_a_reader_or_a_memory_store_has_nothing_to_compact(tmp_path):
    import pyoxigraph as ox

    graph = ox.NamedNode("https://kg.example.org/id/graph/g")
    triples = [ox.Triple(ox.NamedNode(f"https://kg.example.org/id/s{i}"), graph, ox.Literal(str(i))) for i in range(50)]
    writer = KGStore(str(tmp_path / "store"))
    for half in (triples[:25], triples[25:]):  # two loads
        writer.add_graph_triples(graph, half)
    before = sorted(writer.oxigraph.dump(format=ox.RdfFormat.N_QUADS).splitlines())
    writer.compact()
    assert sorted(writer.oxigraph.dump(format=ox.RdfFormat.N_QUADS).splitlines()) == before and len(before) == 50
    writer.close()
    reader = KGStore(str(tmp_path / "store"), read_only=True)
    reader.compact()  # Oxigraph refuses to write a database opened read-only: not asked to
    assert sorted(reader.oxigraph.dump(format=ox.RdfFormat.N_QUADS).splitlines()) == before
    reader.close()
    memory = KGStore("memory")
    memory.add_graph_triples(graph, triples)
    memory.compact()
    assert len(memory.oxigraph) == 50


def test_a_graph_set_from_n_triples_lines_holds_what_the_same_triples_set_it_to(tmp_path):
    """The lines are written as they are (no term made of them): into an empty graph every one is loaded, into
    one that holds triples only the difference is written; repeats are one triple."""
    import pyoxigraph as ox

    graph, subject = ox.NamedNode("https://kg.example.org/id/graph/g"), ox.NamedNode("https://kg.example.org/id/s")

    def triples(*values):
        return [ox.Triple(subject, graph, ox.Literal(value)) for value in values]

    def lines(*values):
        return [f"{triple} .\n" for triple in triples(*values)]

    by_lines, by_triples = KGStore(str(tmp_path / "lines")), KGStore(str(tmp_path / "triples"))
    for values in (("a", 'b "quoted"\n', "a"), ("a", "c", "d é")):
        by_lines.set_graph_lines(graph, lines(*values))
        by_triples.set_graph_triples(graph, triples(*values))
        held = [sorted(str(quad) for quad in store.oxigraph) for store in (by_lines, by_triples)]
        assert held[0] == held[1] and len(held[0]) == len(set(values))
    for store in (by_lines, by_triples):
        store.close()
