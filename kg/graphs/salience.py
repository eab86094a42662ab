"""What a network page puts forward: which nodes come first, how big they are, which ties are drawn and named.

- Importance: the most prolific nodes first (papers, then shared papers), except on a
  person's own network (``graph.graph["focus"]``, set by :func:`.projections.ego_network`),
  where that person comes first and then the co-authors by the papers shared with them: the
  biggest co-author is labelled before anyone else.
- Size (the stated measure): a node's radius grows with the square root of its papers, so the
  area is proportional to them, within a share of the layout's typical spacing between nodes
  (dense conference views get small dots, a person's network large ones).
- At conference scale the page draws each node's strongest ties only (the backbone): every
  node keeps its links to its closest collaborators, and the density stays readable.
"""

from __future__ import annotations

import networkx as nx

from .projections import top_nodes

#: Node radii as shares of the typical spacing between nodes, from the least to the most prolific node.
RADIUS = (0.1, 0.4)
#: Ties per node kept at conference scale (each node's strongest).
BACKBONE_TIES = 2
#: Ties labelled with their shared papers on a person's or a community's page.
NAMED_TIES = 10


def importance_order(graph: nx.Graph) -> list[str]:
    """Every node, most important first (the order labels are placed in)."""
    ranked = top_nodes(graph, None)
    focus = graph.graph.get("focus")
    if focus not in graph:
        return ranked
    ties, position = graph[focus], {node: index for index, node in enumerate(ranked)}
    first = [focus] + sorted(ties, key=lambda node: (-ties[node].get("papers", 1), position[node]))
    chosen = set(first)
    return first + [node for node in ranked if node not in chosen]


def node_radii(graph: nx.Graph, positions: dict[str, tuple[float, float]]) -> dict[str, float]:
    """Each node's radius: the square root of its papers, scaled into :data:`RADIUS` of the spacing."""
    xs, ys = [x for x, _ in positions.values()], [y for _, y in positions.values()]
    spacing = ((max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1) / len(positions)) ** 0.5 if positions else 1.0
    low_share, high_share = (share * max(spacing, 20.0) for share in RADIUS)
    papers = {node: attrs.get("papers", 1) for node, attrs in graph.nodes(data=True)}
    low, high = min(papers.values(), default=1) ** 0.5, max(papers.values(), default=1) ** 0.5
    span = (high - low) or 1.0
    return {
        node: round(low_share + (high_share - low_share) * (count**0.5 - low) / span, 2)
        for node, count in papers.items()
    }


def _strength(attrs: dict) -> tuple:
    return -attrs.get("weight", 1), -attrs.get("papers", 1)


def backbone(graph: nx.Graph, per_node: int = BACKBONE_TIES) -> list[tuple[str, str, dict]]:
    """The edges that are among the ``per_node`` strongest of either end, in graph order."""
    keep = set()
    for node in graph:
        strongest = sorted(graph[node].items(), key=lambda item: (_strength(item[1]), item[0]))[:per_node]
        keep.update(frozenset((node, other)) for other, _ in strongest)
    return [(a, b, attrs) for a, b, attrs in graph.edges(data=True) if frozenset((a, b)) in keep]


def strongest_ties(graph: nx.Graph, count: int = NAMED_TIES) -> set[tuple[str, str]]:
    """The ``count`` ties with the most shared papers (more than one), as (a, b) in graph order."""
    heavy = [(a, b, attrs) for a, b, attrs in graph.edges(data=True) if attrs.get("papers", 1) > 1]
    heavy.sort(key=lambda edge: (_strength(edge[2]), edge[0], edge[1]))
    return {(a, b) for a, b, _ in heavy[:count]}
