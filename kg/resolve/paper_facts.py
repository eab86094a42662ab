"""What paper resolution knows of one paper: shared by the cross-source merges and the abstract join."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..index.match_keys import text_rows
from ..rdf.iris import Minter
from ..vocab import sparql_prologue
from .staged_rows import StagedRows


@dataclass
class PaperFacts:
    """What the matcher knows about one paper of the store."""

    iri: str
    graph: str
    title: str | None = None
    abstract: str | None = None
    urls: set[str] = field(default_factory=set)
    venues: set[str] = field(default_factory=set)
    line: int | None = None  # the line of the paper's record in its source (kg:line), for the order of a file


def read_papers(store, minter: Minter, staged: StagedRows | None = None) -> list[PaperFacts]:
    """Every paper of every source, with what its merges are decided on: the sources with side rows
    (``staged``) from their paper lines (:func:`kg.rdf.side_rows.paper_lines`), the others read back."""
    papers: dict[tuple[str, str], PaperFacts] = {}

    def said(paper: str, graph: str, title, abstract, url, venue, line) -> None:
        facts = papers.setdefault((paper, graph), PaperFacts(paper, graph))
        facts.title = facts.title or title
        facts.abstract = facts.abstract or abstract
        if line is not None:
            facts.line = min(int(line), facts.line or int(line))
        if url is not None:
            facts.urls.add(url)
        if venue is not None:
            facts.venues.add(venue)

    staged = staged or StagedRows()
    papers.update(staged_papers(staged))
    graphs = staged.other_graphs(store)
    if graphs != []:
        for paper, graph, *facts in text_rows(store, _papers_query(minter, graphs)):
            said(paper, graph, *facts)
    return [papers[key] for key in sorted(papers)]


def _papers_query(minter: Minter, graphs: list[str] | None) -> str:
    resolved = f"<{minter.iri('graph', 'resolved')}>"  # the derived graph: :func:`.store_step.resolved_graph`
    # The derived graph's IRI is ours (checked by pyoxigraph), so it is written into the text. The
    # inverse path comes last in its alternative: Virtuoso 7.2 refuses `^a/b|c|d` (an internal error).
    values = "" if graphs is None else "VALUES ?g { " + " ".join(f"<{graph}>" for graph in graphs) + " }"
    return (
        sparql_prologue()
        + """
        SELECT ?paper ?g ?title ?abstract ?url ?venue ?line WHERE {
          VALUES_BLOCK
          GRAPH ?g { ?paper a schema:ScholarlyArticle }
          FILTER(?g != RESOLVED)
          OPTIONAL { GRAPH ?g { ?paper dcterms:title ?title FILTER(lang(?title) = "en") } }
          OPTIONAL { GRAPH ?g { ?paper dcterms:abstract ?abstract } }
          OPTIONAL { GRAPH ?g {
            ?paper kg:projectPage|rdfs:seeAlso|schema:sameAs|^schema:isBasedOn/schema:codeRepository ?url } }
          OPTIONAL { GRAPH ?g { ?paper bibo:presentedAt ?venue . ?venue a bibo:Conference } }
          OPTIONAL { GRAPH ?g { ?paper prov:wasDerivedFrom/kg:line ?line } }
        }""".replace("RESOLVED", resolved).replace("VALUES_BLOCK", values)
    )


def staged_papers(staged: StagedRows, graphs: list[str] | None = None) -> dict[tuple[str, str], PaperFacts]:
    """(IRI, graph) -> facts of the papers of the staged sources (``graphs`` of them, or all), from their paper
    lines: what :func:`read_papers` takes of them."""
    papers: dict[tuple[str, str], PaperFacts] = {}
    for graph, paper, kind, value in staged.papers(graphs):  # one kind a line: 400,000 lines at 100,000 papers
        facts = papers.get((paper, graph)) or papers.setdefault((paper, graph), PaperFacts(paper, graph))
        if kind == "title":
            facts.title = facts.title or json.loads(value)
        elif kind == "abstract":
            facts.abstract = facts.abstract or json.loads(value)
        elif kind == "url":
            facts.urls.add(value)
        elif kind == "venue":
            facts.venues.add(value)
        elif kind == "line":
            facts.line = min(int(value), facts.line or int(value))
    return papers


def stated_elsewhere(store, minter: Minter, staged: StagedRows) -> bool:
    """Whether a graph with no side rows (read back by :func:`read_papers`) states a paper: one indexed look-up a
    graph, not the query of their papers (it joins the class's every statement with the graphs: 0.4 s)."""
    graphs = staged.other_graphs(store)
    resolved = minter.iri("graph", "resolved")  # left out as _papers_query leaves it
    return graphs is None or any(
        store.query(sparql_prologue() + f"ASK {{ GRAPH <{graph}> {{ ?paper a schema:ScholarlyArticle }} }}").askAnswer
        for graph in graphs
        if graph != resolved
    )
