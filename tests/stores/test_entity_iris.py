"""`kg serve` answers the graph's own IRIs: 303 to the thing's page, or its statements as RDF."""

from __future__ import annotations

import http.client
import urllib.parse

import pyoxigraph as ox
import pytest

pytestmark = [pytest.mark.server, pytest.mark.slow]

PAPER = "/id/paper/a2sg-adaptive-and-asymmetric-surrogate-gradients-for-training-deep-spiking-10d2eb016e-1dccd2"
TITLE = "A2SG:Adaptive and Asymmetric Surrogate Gradients for Training Deep Spiking Neural Networks"


@pytest.fixture(scope="module")
def port(served_samples_port):
    return served_samples_port


def fetch(port: int, path: str, accept: str) -> tuple[int, dict, bytes]:
    """One GET, redirects not followed."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path, headers={"Accept": accept})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_a_browser_is_sent_to_the_page_of_the_thing(port):
    status, headers, _ = fetch(port, PAPER, "text/html,application/xhtml+xml,*/*;q=0.8")
    assert status == 303 and headers["Location"] == PAPER.replace("/id", "") + ".html"
    status, _, body = fetch(port, headers["Location"], "text/html")
    assert status == 200 and TITLE in body.decode()


@pytest.mark.parametrize(
    "accept, fmt",
    [
        ("text/turtle", ox.RdfFormat.TURTLE),
        ("application/n-triples", ox.RdfFormat.N_TRIPLES),
        ("application/ld+json", ox.RdfFormat.JSON_LD),
    ],
)
def test_an_rdf_client_gets_the_statements_about_it(port, accept, fmt):
    status, headers, body = fetch(port, PAPER, accept)
    assert status == 200 and headers["Content-Type"].startswith(accept)
    triples = list(ox.parse(body, format=fmt))
    subject = ox.NamedNode("https://kg.example.org" + PAPER)
    assert ox.Literal(TITLE, language="en") in {t.object for t in triples if t.subject == subject}


def test_unknown_things_and_unproducible_formats_are_refused(port):
    assert fetch(port, "/id/paper/no-such-paper", "text/html")[0] == 404
    assert fetch(port, "/id/paper/../../etc/passwd", "text/turtle")[0] in (400, 404)
    query = urllib.parse.urlencode({"query": "SELECT * WHERE { ?s ?p ?o } LIMIT 1"})
    assert fetch(port, f"/sparql?{query}", "image/png")[0] == 406
    assert fetch(port, f"/sparql?{query}", "image/png, */*;q=0.1")[0] == 200
