"""The counts of kg stats and the description (kg/query/stats.py): each as its plain pattern counts it."""

from __future__ import annotations

import pytest

from kg.ingest.synth import write_corpus
from kg.pipeline import ingest
from kg.query.stats import COUNTS, distinct_triples, graph_stats
from kg.rdf.iris import Minter
from kg.stores.embedded import KGStore
from kg.vocab import sparql_prologue

# What each count is, written as plainly as SPARQL says it (the stored forms read in another order).
PLAIN = {
    "identified-authors": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a foaf:Person ; schema:sameAs ?page }",
    "papers-with-ids": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a schema:ScholarlyArticle ; schema:sameAs ?id }",
}


@pytest.fixture(scope="module")
def identified_store(tmp_path_factory, sample_store) -> KGStore:
    """Synthetic paperlists JSON and arXiv Atom (authors and papers with identifiers) beside a listing."""
    folder = tmp_path_factory.mktemp("identified")
    for format_name, name in (("paperlists", "icml2026.json"), ("arxiv", "x.atom"), ("listing", "x.txt")):
        with open(folder / name, "w", encoding="utf-8", newline="") as handle:
            write_corpus(handle, 40, seed=5, format_name=format_name)
    store = KGStore("memory")
    ingest([folder], store, Minter())
    return store


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_a_count_is_its_plain_patterns(identified_store, sample_store, name):
    counted = identified_store.scalar(sparql_prologue() + PLAIN[name])
    assert counted > 0, f"no {name} in the store: the test would not tell"
    for store in (identified_store, sample_store):
        assert store.scalar(sparql_prologue() + COUNTS[name]) == store.scalar(sparql_prologue() + PLAIN[name])
    assert graph_stats(identified_store)[name] == counted


def test_the_triples_are_the_union_s_distinct_ones_whichever_side_is_looked_up():
    """Three graphs sharing triples: ``b`` states more triples of ``p2`` than ``a`` before it (those of ``a`` are
    looked up in ``b``) and fewer of ``p1`` (its own are looked up in ``a``); the count is the union's."""
    store = KGStore("memory")
    ex = "http://example.org/"
    a = [(f"s{i}", "p1", f"o{i}") for i in range(10)] + [(f"s{i}", "p2", f"o{i}") for i in range(5)]
    b = [(f"s{i}", "p2", f"o{i}") for i in range(3, 11)] + [("s1", "p1", "o1"), ("t", "p1", "o")]
    c = [("s1", "p2", "o1"), ("s9", "p2", "o9"), ("t", "p1", "o"), ("u", "p3", "o")]
    for graph, triples in (("a", a), ("b", b), ("c", c)):
        store.update(
            f"INSERT DATA {{ GRAPH <{ex}{graph}> {{ "
            + " ".join(f"<{ex}{s}> <{ex}{p}> <{ex}{o}> ." for s, p, o in triples)
            + " } }"
        )
    union = len(set(a) | set(b) | set(c))
    assert union == 15 + 6 + 1 + 1
    assert distinct_triples(store) == union
    assert distinct_triples(store) == store.scalar(
        "SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } }"
    )
