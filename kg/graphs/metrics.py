"""Measures of a collaboration network: pure functions over networkx graphs.

Edge ``weight`` is the strength of a tie (shared papers); path lengths count steps, as the
collaboration distance does (an Erdős number counts co-authorships, not papers).
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from . import compiled

SEED = 42
#: Above this many nodes betweenness is estimated from sampled sources (seeded): exact
#: betweenness is O(nodes × edges), hours at 200,000 authors even in C.
EXACT_BETWEENNESS_LIMIT = 5000
#: How many sources the estimate samples: each is one breadth-first pass in C (7 ms at 42,000
#: authors, 90 ms at 211,000), and the top of the ranking settles well before this.
BETWEENNESS_SAMPLES = 100
COMMUNITY_METHOD = "Leiden"


def weighted_degree(graph: nx.Graph) -> dict[str, float]:
    return dict(graph.degree(weight="weight"))


def betweenness_sample(graph: nx.Graph) -> int | None:
    """How many sampled sources betweenness is estimated from, or None when it is exact."""
    return BETWEENNESS_SAMPLES if len(graph) > EXACT_BETWEENNESS_LIMIT else None


def betweenness(graph: nx.Graph, seed: int = SEED) -> dict[str, float]:
    """Share of shortest paths through each node (sampled, seeded, on very large graphs)."""
    return compiled.betweenness(graph, betweenness_sample(graph), seed)


def components(graph: nx.Graph) -> list[set[str]]:
    """Connected components, largest first (ties: by their smallest node)."""
    return sorted(nx.connected_components(graph), key=lambda part: (-len(part), min(part)))


def community_method(graph: nx.Graph, seed: int = SEED) -> str:
    """How :func:`communities` finds the groups of this graph, as the pages and stats say it."""
    return f"{COMMUNITY_METHOD}, seed {seed}"


def communities(graph: nx.Graph, seed: int = SEED) -> list[set[str]]:
    """Communities with a fixed seed, largest first (ties: by their smallest node): the same
    input gives the same groups."""
    found = compiled.leiden_communities(graph, seed)
    return sorted(found, key=lambda part: (-len(part), min(part)))


def groups_of_two_or_more(parts: list[set[str]]) -> int:
    """Communities with at least two members (the others are nodes with no ties here)."""
    return sum(1 for part in parts if len(part) > 1)


def communities_phrase(graph: nx.Graph, parts: list[set[str]], seed: int = SEED) -> str:
    """The one wording of the community count, shared by the pages and ``kg graph stats``."""
    return (
        f"{len(parts):,} {'community' if len(parts) == 1 else 'communities'} "
        f"({groups_of_two_or_more(parts):,} with two or more members; "
        f"{community_method(graph, seed)})"
    )


def membership(parts: list[set[str]]) -> dict[str, int]:
    """Node -> index of its part (0 = the largest)."""
    return {node: index for index, part in enumerate(parts) for node in part}


def collaboration_path(graph: nx.Graph, source: str, target: str) -> list[str] | None:
    """A shortest chain of co-authorships from one node to another, or None when there is none."""
    try:
        return nx.shortest_path(graph, source, target)
    except nx.NetworkXNoPath:
        return None


def bridging_nodes(graph: nx.Graph, community_of: dict[str, int], between: dict[str, float]) -> list[tuple[str, int]]:
    """Nodes with co-authors in communities other than their own: (node, how many), most first.

    Ties are broken by betweenness, then by node, so the order is stable.
    """
    reach = {node: len({community_of[other] for other in graph[node]} - {community_of[node]}) for node in graph}
    bridges = [node for node, count in reach.items() if count > 0]
    return [(node, reach[node]) for node in sorted(bridges, key=lambda node: (-reach[node], -between[node], node))]


@dataclass
class NetworkSummary:
    nodes: int
    edges: int
    components: int
    largest_component: int
    communities: int
    communities_text: str
    betweenness_sample: int | None
    density: float
    top_degree: list[tuple[str, int]]
    top_weighted_degree: list[tuple[str, float]]
    top_betweenness: list[tuple[str, float]]
    bridges: list[tuple[str, int]]


def summarize(graph: nx.Graph, top: int = 10, seed: int = SEED) -> NetworkSummary:
    """Everything ``kg graph stats`` prints, each list the ``top`` first (ties by node)."""
    parts = components(graph)
    groups = communities(graph, seed)
    between = betweenness(graph, seed)

    def ranked(values: dict) -> list:
        return sorted(values.items(), key=lambda item: (-item[1], item[0]))[:top]

    return NetworkSummary(
        nodes=graph.number_of_nodes(),
        edges=graph.number_of_edges(),
        components=len(parts),
        largest_component=len(parts[0]) if parts else 0,
        communities=len(groups),
        communities_text=communities_phrase(graph, groups, seed),
        betweenness_sample=betweenness_sample(graph),
        density=nx.density(graph) if len(graph) > 1 else 0.0,
        top_degree=ranked(dict(graph.degree())),
        top_weighted_degree=ranked(weighted_degree(graph)),
        top_betweenness=ranked(between),
        bridges=bridging_nodes(graph, membership(groups), between)[:top],
    )
