"""Counts of what the graph holds, each one SPARQL aggregate pushed to the store."""

from __future__ import annotations

from ..stores.embedded import KGStore
from ..rdf.vocab import sparql_prologue

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
    "triples": "SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } } }",
}


def graph_stats(store: KGStore) -> dict[str, int]:
    prologue = sparql_prologue()
    return {name: store.scalar(prologue + query) for name, query in COUNTS.items()}
