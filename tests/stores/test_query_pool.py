"""The query processes' admission, on a real store folder: the reserve lane, the queue's bounds, Retry-After."""

from __future__ import annotations

import threading
import time

import pyoxigraph as ox
import pytest

from kg.stores.embedded import KGStore
from kg.stores.query_pool import Limits, Pool

HEAVY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"


def _request(query: str) -> dict:
    return {"query": query, "default": [], "named": [], "rows": 10, "select": "json", "graph": "application/n-triples"}


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pool") / "store"
    store = KGStore(str(folder))
    label = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
    store.add_graph_triples(
        ox.NamedNode("https://kg.example.org/source/t"),
        [ox.Triple(ox.NamedNode(f"https://kg.example.org/n{i}"), label, ox.Literal(f"n{i}")) for i in range(300)],
    )
    store.close()
    return folder


@pytest.mark.slow
def test_the_lane_the_queue_length_and_the_queue_wait(store_dir):
    pool = Pool(store_dir, 1, Limits(seconds=2, quick_seconds=0.5, queue_seconds=1.2, queue_length=1), log=print)
    answers: dict[str, object] = {}

    def ask(name: str, query: str) -> None:
        answers[name] = pool.ask(_request(query))

    try:
        first = threading.Thread(target=ask, args=("first", HEAVY))
        first.start()
        time.sleep(0.3)  # the one worker runs the first heavy query
        second = threading.Thread(target=ask, args=("second", HEAVY))
        second.start()
        time.sleep(0.1)  # the second runs on the lane for 0.5 s, then waits again in the queue
        started = time.perf_counter()
        quick = pool.ask(_request("ASK { ?s ?p ?o }"))  # the lane is busy: it waits for its turn
        assert quick.status == 200 and time.perf_counter() - started < 1.0
        time.sleep(0.5)
        third = pool.ask(_request(HEAVY))  # one query waits already: no place in the queue
        assert third.status == 503 and third.headers["Retry-After"].isdigit()
        assert third.body.startswith(b"SPARQL query not run: 1 queries are waiting already")
        first.join(timeout=30)
        second.join(timeout=30)
    finally:
        pool.close()
    assert answers["first"].body.startswith(b"SPARQL query stopped: it ran longer than the time limit of 2 s")
    # The second had its lane turn, then waited for the worker longer than the queue allows.
    assert answers["second"].status == 503 and "Retry-After" in answers["second"].headers
    assert answers["second"].body.startswith(b"SPARQL query not run: no query process was free within 1.2 s")
