"""Counts of what the graph holds, each one SPARQL aggregate pushed to the store.

They are counted after every change of sources and kept in the dataset description
(``kg/exports/description.py``), so ``kg stats`` reads them back (:func:`stored_stats`) in
milliseconds instead of counting millions of triples."""

from __future__ import annotations

from ..stores.embedded import KGStore
from ..rdf.vocab import EXPORTED_ONLY, sparql_prologue

COUNTS = {
    "papers": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a schema:ScholarlyArticle }",
    "authors": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a foaf:Person }",
    "authorships": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a kg:Authorship }",
    "identified-authors": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a foaf:Person ; schema:sameAs ?page }",
    "author-affiliations": "SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?a ?org WHERE { ?a kg:affiliation ?org } }",
    "institutions": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a org:Organization }",
    "topics": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?paper dcterms:subject ?x }",
    "venues": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a schema:Event }",
    "papers-with-ids": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a schema:ScholarlyArticle ; schema:sameAs ?id }",
    "sources": "SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?g a kg:Source } }",
    "triples": f"SELECT (COUNT(*) AS ?n) WHERE {{ SELECT DISTINCT ?s ?p ?o WHERE {{ GRAPH ?g {{ ?s ?p ?o }} {EXPORTED_ONLY} }} }}",
}


def graph_stats(store: KGStore) -> dict[str, int]:
    prologue = sparql_prologue()
    return {name: store.scalar(prologue + query) for name, query in COUNTS.items()}


STORED_QUERY = """SELECT ?name ?n WHERE {
  { ?dataset kg:statistic ?statistic . ?statistic rdfs:label ?name ; rdf:value ?n }
  UNION { ?dataset a void:Dataset ; kg:statistic ?any ; void:triples ?n BIND("triples" AS ?name) } }"""


def stored_stats(store: KGStore) -> dict[str, int] | None:
    """The counts the description holds, in :data:`COUNTS` order; None if it has not all of them
    (a store described before they were kept), or several descriptions disagree."""
    stored: dict[str, set[int]] = {}
    for name, value in store.select_terms(sparql_prologue() + STORED_QUERY):
        stored.setdefault(name.value, set()).add(int(value.value))
    if set(stored) != set(COUNTS) or any(len(values) != 1 for values in stored.values()):
        return None
    return {name: next(iter(stored[name])) for name in COUNTS}
