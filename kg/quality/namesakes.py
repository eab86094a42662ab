"""Names likely to be several people: an author whose papers fall into groups that share no
co-author and no organisation (each group with some of either, so an unknown is no evidence).
A listing names people by name alone, so two researchers of one name become one node; such a
node's degree and betweenness are those of several people, which the report says.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from ..stores.embedded import KGStore
from ..vocab import sparql_prologue

_BYLINES = "SELECT ?paper ?author WHERE { ?paper dcterms:creator ?author }"
_ORGANISATIONS = """SELECT DISTINCT ?paper ?organisation WHERE {
  ?paper schema:sourceOrganization ?listed . ?listed org:subOrganizationOf* ?organisation .
  FILTER NOT EXISTS { ?organisation org:subOrganizationOf ?above } }"""
_NAMES = (
    "SELECT ?author (MIN(?label) AS ?name) WHERE { ?paper dcterms:creator ?author . ?author "
    "skos:prefLabel ?label } GROUP BY ?author"
)


def paper_groups(papers: Iterable[str], evidence: dict[str, set[str]]) -> list[set[str]]:
    """The papers joined wherever two share a piece of evidence (a co-author, an organisation)."""
    groups: list[tuple[set[str], set[str]]] = []
    for paper in sorted(papers):
        joined_papers, joined_evidence = {paper}, set(evidence.get(paper, ()))
        for group in [group for group in groups if group[1] & joined_evidence]:
            groups.remove(group)
            joined_papers |= group[0]
            joined_evidence |= group[1]
        groups.append((joined_papers, joined_evidence))
    return [found for found, clues in groups if clues]


def likely_several_people(store: KGStore) -> list[dict]:
    """Authors whose papers form two or more groups with no co-author or organisation in common."""
    prologue = sparql_prologue()
    teams: dict[str, set[str]] = defaultdict(set)
    for paper, author in store.select_terms(prologue + _BYLINES):
        teams[paper.value].add(author.value)
    organisations: dict[str, set[str]] = defaultdict(set)
    for paper, organisation in store.select_terms(prologue + _ORGANISATIONS):
        organisations[paper.value].add(organisation.value)
    papers_of: dict[str, set[str]] = defaultdict(set)
    for paper, team in teams.items():
        for author in team:
            papers_of[author].add(paper)
    names = {author.value: name.value for author, name in store.select_terms(prologue + _NAMES)}
    flagged = []
    for author, papers in sorted(papers_of.items()):
        if len(papers) < 2:
            continue
        evidence = {paper: (teams[paper] - {author}) | organisations[paper] for paper in papers}
        groups = paper_groups(papers, evidence)
        if len(groups) >= 2:
            flagged.append(
                {
                    "author": author,
                    "name": names.get(author, author),
                    "groups": len(groups),
                    "papers_per_group": sorted((len(group) for group in groups), reverse=True),
                }
            )
    return flagged
