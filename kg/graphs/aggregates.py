"""The rows the collaboration networks are built from, each aggregated by SPARQL in the store.

Networks differ only in how a paper links to its members: ``dcterms:creator`` for authors,
``schema:sourceOrganization`` for institutions, ``kg:foundTopic`` for topics. That link is bound as a parameter (an RDF
term, never pasted into the text), so one query per question serves both networks; counting
pairs and papers happens in the store, so the rows stay few however large the graph grows.
"""

from __future__ import annotations

from dataclasses import dataclass

from rdflib import URIRef

from ..stores.embedded import KGStore
from ..rdf.vocab import DCTERMS, KG, SCHEMA, sparql_prologue

AUTHORS = URIRef(DCTERMS.creator.value)
INSTITUTIONS = URIRef(SCHEMA.sourceOrganization.value)
# Topics found in a paper's text, not the broader ones added for them: otherwise every topic
# would co-occur with its own ancestors.
TOPICS = URIRef(KG.foundTopic.value)

# The English label where there is one (institutions also carry a Chinese one), else any.
_NAME = """
  OPTIONAL { ?node rdfs:label ?english FILTER(langMatches(lang(?english), "en")) }
  OPTIONAL { ?node rdfs:label ?any }
  BIND(COALESCE(?english, ?any, STR(?node)) AS ?label)
"""

# Oxigraph substitutes a bound variable only where it is in scope, so every (sub)query
# that uses ?link also projects it.
NODES = f"""
SELECT ?link ?node (MIN(?label) AS ?name) (COUNT(DISTINCT ?paper) AS ?papers) WHERE {{
  ?paper a schema:ScholarlyArticle ; ?link ?node .
  {_NAME}
}} GROUP BY ?link ?node
"""

# Pairs of members of the same paper, counted per team size (the sub-select is braced so that
# a remote store can put its VALUES binding beside it): the thresholds on team size
# and the full or fractional counting are then simple sums over these few rows.
PAIRS = """
SELECT ?link ?a ?b ?size (COUNT(?paper) AS ?papers) WHERE {
  { SELECT DISTINCT ?link ?paper ?size ?a ?b WHERE {
    { SELECT ?link ?paper (COUNT(DISTINCT ?member) AS ?size) WHERE {
        ?paper a schema:ScholarlyArticle ; ?link ?member .
      } GROUP BY ?link ?paper }
    FILTER(?size > 1)
    ?paper ?link ?a, ?b .
    FILTER(STR(?a) < STR(?b))
  } }
} GROUP BY ?link ?a ?b ?size
"""

TITLES = """
SELECT DISTINCT ?link ?node ?title WHERE {
  ?paper a schema:ScholarlyArticle ; ?link ?node ; rdfs:label ?title .
} ORDER BY ?node ?title
"""

AFFILIATIONS = f"""
SELECT ?author ?institution (COUNT(DISTINCT ?paper) AS ?papers) (MIN(?author_label) AS ?author_name)
       (MIN(?label) AS ?name) WHERE {{
  # who is where: the author's own affiliation where the source states one (kg:affiliation),
  # else every institution of the paper (listings do not say which author is at which)
  {{ ?paper a schema:ScholarlyArticle ; kg:authorship ?authorship . ?authorship kg:author ?author ; kg:affiliation ?institution }}
  UNION
  {{ ?paper a schema:ScholarlyArticle ; dcterms:creator ?author ; schema:sourceOrganization ?institution .
     FILTER NOT EXISTS {{ ?paper kg:authorship/kg:affiliation ?stated }} }}
  ?author rdfs:label ?author_label .
  BIND(?institution AS ?node)
  {_NAME}
}} GROUP BY ?author ?institution
"""


@dataclass(frozen=True)
class NodeRow:
    iri: str
    label: str
    papers: int


@dataclass(frozen=True)
class PairRow:
    """``papers`` papers with ``team_size`` members list both ``a`` and ``b``."""

    a: str
    b: str
    team_size: int
    papers: int


@dataclass(frozen=True)
class AffiliationRow:
    author: str
    author_label: str
    institution: str
    institution_label: str
    papers: int


def _select(store: KGStore, query: str, **bindings) -> list:
    return list(store.query(sparql_prologue() + query, bindings))


def node_rows(store: KGStore, link: URIRef) -> list[NodeRow]:
    """Members of papers (authors or institutions) with their labels and paper counts."""
    return [NodeRow(str(r.node), str(r.name), int(r.papers)) for r in _select(store, NODES, link=link)]


def pair_rows(store: KGStore, link: URIRef) -> list[PairRow]:
    """Every pair of members that share a paper, counted per team size."""
    return [PairRow(str(r.a), str(r.b), int(r.size), int(r.papers)) for r in _select(store, PAIRS, link=link)]


def paper_titles(store: KGStore, link: URIRef) -> dict[str, list[str]]:
    """Each member's paper titles, sorted."""
    titles: dict[str, list[str]] = {}
    for row in _select(store, TITLES, link=link):
        titles.setdefault(str(row.node), []).append(str(row.title))
    return titles


def affiliation_rows(store: KGStore) -> list[AffiliationRow]:
    """Author–institution pairs: the institutions listed on an author's papers, with counts."""
    return [AffiliationRow(str(r.author), str(r.author_name), str(r.institution), str(r.name), int(r.papers))
            for r in _select(store, AFFILIATIONS)]
