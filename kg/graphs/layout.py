"""Node positions computed once in Python, so the page draws at once with physics off.

Collaboration networks are mostly many small groups and one or a few large ones. Each
connected component is laid out on its own (seeded force-directed layout) and the
components are packed in rows, largest first: no group drifts off to the edge, and the cost
is the sum over components rather than over the whole graph. Given the communities, ties
within a community pull harder than ties between them, so communities sit apart, as in
VOSviewer's maps.
"""

from __future__ import annotations

import math

import networkx as nx

from .metrics import SEED, components
from .projections import induced

#: networkx's spring layout needs scipy from this size on; ForceAtlas2 needs only numpy.
SPRING_LIMIT = 500
#: Pixels between neighbouring nodes, roughly.
SPACING = 70
#: How much weaker a tie between two communities pulls than one within a community.
BETWEEN_COMMUNITIES = 0.05


def _component_positions(graph: nx.Graph, seed: int) -> dict[str, tuple[float, float]]:
    """Positions of one connected component, centred on 0 within a radius of about 1."""
    if len(graph) == 1:
        return {next(iter(graph)): (0.0, 0.0)}
    if len(graph) < SPRING_LIMIT:
        raw = nx.spring_layout(graph, seed=seed, iterations=60, weight="pull")
    else:
        raw = nx.forceatlas2_layout(graph, seed=seed, max_iter=60, strong_gravity=True, weight="pull")
    xs, ys = [p[0] for p in raw.values()], [p[1] for p in raw.values()]
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    span = max(max(xs) - min(xs), max(ys) - min(ys)) / 2 or 1.0
    return {node: ((x - cx) / span, (y - cy) / span) for node, (x, y) in raw.items()}


def _with_pull(graph: nx.Graph, community_of: dict[str, int] | None) -> nx.Graph:
    """A copy whose edges carry ``pull``: 1 within a community, :data:`BETWEEN_COMMUNITIES` across."""
    pulled = nx.Graph()
    pulled.add_nodes_from(graph)
    same = (lambda a, b: True) if community_of is None else (lambda a, b: community_of[a] == community_of[b])  # noqa: E731
    pulled.add_edges_from((a, b, {"pull": 1.0 if same(a, b) else BETWEEN_COMMUNITIES}) for a, b in graph.edges)
    return pulled


def layout(graph: nx.Graph, seed: int = SEED, community_of: dict[str, int] | None = None) -> dict[str, tuple[int, int]]:
    """Integer pixel positions for every node: the same graph gives the same positions."""
    graph = _with_pull(graph, community_of)
    parts = components(graph)
    radii = [SPACING * math.sqrt(len(part)) / 1.5 for part in parts]
    row_width = max(sum((2 * r + SPACING) ** 2 for r in radii) ** 0.5 * 1.2, 2 * radii[0] + SPACING) if parts else 0
    positions: dict[str, tuple[int, int]] = {}
    x = y = row_height = 0.0
    for part, radius in zip(parts, radii):
        cell = 2 * radius + SPACING
        if x > 0 and x + cell > row_width:
            x, y, row_height = 0.0, y + row_height, 0.0
        centre_x, centre_y = x + cell / 2, y + cell / 2
        for node, (px, py) in _component_positions(induced(graph, part), seed).items():
            positions[node] = (round(centre_x + px * radius), round(centre_y + py * radius))
        x += cell
        row_height = max(row_height, cell)
    return positions
