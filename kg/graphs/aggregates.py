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

LEVELS = ("listed", "parent")


def _member(var: str, level: str, link: str = "?link", subject: str = "?paper") -> str:
    """The pattern binding ``?var`` to a member of ``?paper``: as listed, or rolled up to its top parent.

    A parent that papers name only through its units (Zhejiang University through its
    colleges) is then a node of its own, with every paper of its units counted once.
    """
    if level == "listed":
        return f"{subject} {link} ?{var} ."
    return (f"{subject} {link} ?{var}_listed . ?{var}_listed org:subOrganizationOf* ?{var} . "
            f"FILTER NOT EXISTS {{ ?{var} org:subOrganizationOf ?{var}_above }}")


# Oxigraph substitutes a bound variable only where it is in scope, so every (sub)query
# that uses ?link also projects it.
def _nodes(level: str) -> str:
    return f"""
SELECT ?link ?node (MIN(?label) AS ?name) (COUNT(DISTINCT ?paper) AS ?papers) (AVG(?year) AS ?mean_year) WHERE {{
  ?paper a schema:ScholarlyArticle . {_member("node", level)}
  OPTIONAL {{ ?paper fabio:hasPublicationYear ?published . BIND(xsd:integer(STR(?published)) AS ?year) }}
  {_NAME}
}} GROUP BY ?link ?node
"""


# Pairs of members of the same paper, counted per team size (the sub-select is braced so that
# a remote store can put its VALUES binding beside it): the thresholds on team size
# and the full or fractional counting are then simple sums over these few rows.
def _pairs(level: str) -> str:
    return f"""
SELECT ?link ?a ?b ?size (COUNT(?paper) AS ?papers) WHERE {{
  {{ SELECT DISTINCT ?link ?paper ?size ?a ?b WHERE {{
    {{ SELECT ?link ?paper (COUNT(DISTINCT ?member) AS ?size) WHERE {{
        ?paper a schema:ScholarlyArticle . {_member("member", level)}
      }} GROUP BY ?link ?paper }}
    FILTER(?size > 1)
    {_member("a", level)} {_member("b", level)}
    FILTER(STR(?a) < STR(?b))
  }} }}
}} GROUP BY ?link ?a ?b ?size
"""


def _titles(level: str) -> str:
    return f"""
SELECT DISTINCT ?link ?node ?title WHERE {{
  ?paper a schema:ScholarlyArticle ; rdfs:label ?title . {_member("node", level)}
}} ORDER BY ?node ?title
"""


def _affiliations(level: str) -> str:
    return f"""
SELECT ?author ?institution (COUNT(DISTINCT ?paper) AS ?papers) (MIN(?author_label) AS ?author_name)
       (MIN(?label) AS ?name) WHERE {{
  # who is where: the author's own affiliation where the source states one (kg:affiliation),
  # else every institution of the paper (listings do not say which author is at which)
  {{ ?paper a schema:ScholarlyArticle ; kg:authorship ?authorship . ?authorship kg:author ?author .
     {_member("institution", level, "kg:affiliation", "?authorship")} }}
  UNION
  {{ ?paper a schema:ScholarlyArticle ; dcterms:creator ?author . {_member("institution", level, "schema:sourceOrganization")}
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
    year: float | None = None  # mean year of its papers, where their venues have one


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


def node_rows(store: KGStore, link: URIRef, level: str = "listed") -> list[NodeRow]:
    """Members of papers (authors or institutions) with their labels and paper counts."""
    return [NodeRow(str(r.node), str(r.name), int(r.papers), round(float(r.mean_year), 2) if r.mean_year is not None else None)
            for r in _select(store, _nodes(level), link=link)]


def pair_rows(store: KGStore, link: URIRef, level: str = "listed") -> list[PairRow]:
    """Every pair of members that share a paper, counted per team size."""
    return [PairRow(str(r.a), str(r.b), int(r.size), int(r.papers)) for r in _select(store, _pairs(level), link=link)]


def paper_titles(store: KGStore, link: URIRef, level: str = "listed") -> dict[str, list[str]]:
    """Each member's paper titles, sorted."""
    titles: dict[str, list[str]] = {}
    for row in _select(store, _titles(level), link=link):
        titles.setdefault(str(row.node), []).append(str(row.title))
    return titles


def affiliation_rows(store: KGStore, level: str = "listed") -> list[AffiliationRow]:
    """Author–institution pairs: the institutions listed on an author's papers (or their parents), with counts."""
    return [AffiliationRow(str(r.author), str(r.author_name), str(r.institution), str(r.name), int(r.papers))
            for r in _select(store, _affiliations(level))]
