"""Networks built from aggregated rows: pure functions, networkx graphs out.

Nodes are IRIs with ``label``, ``papers`` (how many papers they are on), ``titles`` and
``affiliations`` (for tooltips); edges carry ``papers`` (shared papers), ``fractional``
(each paper with n members adds 1/(n-1) to each of its pairs, as bibliometric tools count)
and ``weight``, which is one of the two as the caller chose. Nodes and edges are added in
sorted order so that everything computed from the graph (communities, layout) is the same
on every run.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from typing import Iterable, Literal, Mapping, Sequence

import networkx as nx

from .aggregates import AffiliationRow, NodeRow, PairRow

Counting = Literal["full", "fractional"]


def collaboration_graph(
    nodes: Iterable[NodeRow],
    pairs: Iterable[PairRow],
    *,
    counting: Counting = "full",
    max_team: int | None = None,
    min_papers: int = 1,
    min_weight: float = 0,
    top: int | None = None,
    titles: Mapping[str, Sequence[str]] | None = None,
    affiliations: Mapping[str, Sequence[str]] | None = None,
) -> nx.Graph:
    """Members (authors or institutions) linked by the papers they share.

    Papers with more than ``max_team`` members add no edges; nodes on fewer than
    ``min_papers`` papers and edges lighter than ``min_weight`` are dropped; ``top`` keeps
    the most prolific nodes (see :func:`top_nodes`).
    """
    titles, affiliations = titles or {}, affiliations or {}
    graph = nx.Graph()
    for row in sorted(nodes, key=lambda row: row.iri):
        if row.papers >= min_papers:
            graph.add_node(
                row.iri,
                label=row.label,
                papers=row.papers,
                titles=tuple(titles.get(row.iri, ())),
                affiliations=tuple(affiliations.get(row.iri, ())),
            )
            if row.year is not None:
                graph.nodes[row.iri]["year"] = row.year
    shared: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
    for row in pairs:
        if (max_team is None or row.team_size <= max_team) and row.a in graph and row.b in graph:
            counts = shared[min(row.a, row.b), max(row.a, row.b)]
            counts[0] += row.papers
            counts[1] += row.papers / (row.team_size - 1)
    for (a, b), (papers, fractional) in sorted(shared.items()):
        weight = papers if counting == "full" else round(fractional, 6)
        if weight >= min_weight:
            graph.add_edge(a, b, papers=papers, fractional=round(fractional, 6), weight=weight)
    return induced(graph, top_nodes(graph, top)) if top is not None else graph


def affiliation_graph(authors: Iterable[NodeRow], affiliations: Iterable[AffiliationRow]) -> nx.Graph:
    """Bipartite authors–institutions: an edge when the institution is listed on the author's papers."""
    graph = nx.Graph()
    for row in sorted(authors, key=lambda row: row.iri):
        graph.add_node(row.iri, label=row.label, papers=row.papers, kind="author")
    for row in sorted(affiliations, key=lambda row: (row.author, row.institution)):
        if row.author in graph:
            graph.add_node(row.institution, label=row.institution_label, kind="institution")
            graph.add_edge(row.author, row.institution, papers=row.papers, weight=row.papers)
    return graph


def affiliation_names(affiliations: Iterable[AffiliationRow], of: str = "author") -> dict[str, list[str]]:
    """Each author's institutions (or, ``of="institution"``, each institution's authors), most papers first."""
    ranked: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for row in affiliations:
        if of == "author":
            ranked[row.author].append((-row.papers, row.institution_label))
        else:
            ranked[row.institution].append((-row.papers, row.author_label))
    return {author: [name for _, name in sorted(pairs)] for author, pairs in ranked.items()}


def top_nodes(graph: nx.Graph, count: int | None, within: set[str] | None = None) -> list[str]:
    """The ``count`` most prolific nodes: most papers, then most shared papers, then by label.

    ``within``: rank only these nodes, counting only the papers they share with each other (as
    in the subgraph on them, without building it: a community's leaders, for every community)."""
    if within is None:
        strength = dict(graph.degree(weight="papers"))
    else:
        strength = {
            node: sum(attrs.get("papers", 1) for other, attrs in graph[node].items() if other in within)
            for node in within
        }
    attrs = graph.nodes

    def rank(node: str) -> tuple:
        return -attrs[node].get("papers", 0), -strength[node], attrs[node].get("label", node), node

    # The keys are distinct (the node ends them): the first ``count`` are sorted()'s first ``count``, found
    # without sorting the rest (a community's three leaders among thousands, for each of hundreds).
    return (
        sorted(strength, key=rank)
        if count is None or count >= len(strength)
        else heapq.nsmallest(count, strength, rank)
    )


def ego_network(graph: nx.Graph, center: str, depth: int = 1) -> nx.Graph:
    """The node, everyone within ``depth`` steps of it, and the edges among them; ``center`` is its focus."""
    ego = induced(graph, nx.single_source_shortest_path_length(graph, center, cutoff=depth))
    ego.graph["focus"] = center
    return ego


def induced(graph: nx.Graph, nodes: Iterable[str]) -> nx.Graph:
    """The subgraph on ``nodes``, built in sorted order (the order projections use).

    networkx's ``subgraph`` view iterates a small node set in set order, which for strings
    changes between runs (hash randomisation) and with it communities and layout.
    """
    ordered = sorted(nodes)
    keep = set(ordered)
    sub = nx.Graph()
    sub.add_nodes_from((node, graph.nodes[node]) for node in ordered)
    sub.add_edges_from((a, b, attrs) for a in ordered for b, attrs in graph[a].items() if b in keep and a < b)
    return sub


def sorted_subgraph(graph: nx.Graph, nodes: Iterable[str]) -> nx.Graph:
    """The subgraph on ``nodes`` with its nodes in sorted order, for reading only: ``graph``
    itself where that is it already (a community page's one component, a component's one
    community), so a layout copies no graph twice; else :func:`induced`."""
    keep = set(nodes)
    if len(keep) == len(graph) and list(graph) == sorted(keep):
        return graph
    return induced(graph, keep)
