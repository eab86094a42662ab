"""Node positions computed once in Python, so the page draws at once with physics off.

Collaboration networks are mostly many small groups and one or a few large ones. Each
connected component is laid out on its own (seeded force-directed layout) and the
components are packed in rows, largest first: no group drifts off to the edge, and the cost
is the sum over components rather than over the whole graph. Given the communities, a
component is laid out in two levels (communities, then their members), so that communities
sit apart, as in VOSviewer's maps.
"""

from __future__ import annotations

import math

import networkx as nx

from .metrics import SEED, components
from .projections import sorted_subgraph

#: networkx's spring layout needs scipy from this size on; ForceAtlas2 needs only numpy.
SPRING_LIMIT = 500
#: Pixels between neighbouring nodes, roughly.
SPACING = 70
def _force_positions(graph: nx.Graph, seed: int, weight: str | None = "weight") -> dict[str, tuple[float, float]]:
    """Positions of one connected graph, centred on 0 within a radius of about 1."""
    if len(graph) == 1:
        return {next(iter(graph)): (0.0, 0.0)}
    if len(graph) < SPRING_LIMIT:
        raw = nx.spring_layout(graph, seed=seed, iterations=60, weight=weight)
    else:
        raw = nx.forceatlas2_layout(graph, seed=seed, max_iter=60, strong_gravity=True, weight=weight)
    xs, ys = [p[0] for p in raw.values()], [p[1] for p in raw.values()]
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    span = max(max(xs) - min(xs), max(ys) - min(ys)) / 2 or 1.0
    return {node: ((x - cx) / span, (y - cy) / span) for node, (x, y) in raw.items()}


def _radius(size: int) -> float:
    return SPACING * math.sqrt(size) / 1.5


def _component_positions(graph: nx.Graph, seed: int, community_of: dict[str, int] | None) -> dict[str, tuple[float, float]]:
    """One connected component, its communities apart (as VOSviewer's maps keep them).

    Two levels: the communities are laid out as one node each (linked by the ties between
    them), spread until no two overlap; each community's members are laid out around its
    centre. Positions are centred on 0 within a radius of about 1.
    """
    groups: dict[int, list[str]] = {}
    for node in graph:
        groups.setdefault(community_of[node] if community_of else 0, []).append(node)
    if len(groups) == 1:
        return _force_positions(graph, seed, weight=None)
    overview = nx.Graph()
    overview.add_nodes_from(sorted(groups))
    for a, b in graph.edges:
        ga, gb = community_of[a], community_of[b]
        if ga != gb:
            weight = overview.get_edge_data(ga, gb, {"weight": 0})["weight"]
            overview.add_edge(ga, gb, weight=weight + 1)
    centres = _force_positions(overview, seed)
    radii = {group: _radius(len(members)) for group, members in groups.items()}
    # Spread the centres until the closest pair of communities no longer overlaps.
    spread = max((radii[a] + radii[b] + SPACING) / max(math.dist(centres[a], centres[b]), 1e-6)
                 for i, a in enumerate(sorted(groups)) for b in sorted(groups)[i + 1:])
    positions = {}
    for group, members in groups.items():
        cx, cy = (coordinate * spread for coordinate in centres[group])
        for node, (px, py) in _force_positions(sorted_subgraph(graph, members), seed, weight=None).items():
            positions[node] = (cx + px * radii[group], cy + py * radii[group])
    xs, ys = [p[0] for p in positions.values()], [p[1] for p in positions.values()]
    mx, my = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    span = max(max(xs) - min(xs), max(ys) - min(ys)) / 2 or 1.0
    return {node: ((x - mx) / span, (y - my) / span) for node, (x, y) in positions.items()}


def layout(graph: nx.Graph, seed: int = SEED, community_of: dict[str, int] | None = None) -> dict[str, tuple[int, int]]:
    """Integer pixel positions for every node: the same graph gives the same positions."""
    parts = components(graph)
    radii = [_radius(len(part)) * (1.6 if community_of and len({community_of[n] for n in part}) > 1 else 1.0)
             for part in parts]
    row_width = max(sum((2 * r + SPACING) ** 2 for r in radii) ** 0.5 * 1.2, 2 * radii[0] + SPACING) if parts else 0
    positions: dict[str, tuple[int, int]] = {}
    x = y = row_height = 0.0
    for part, radius in zip(parts, radii):
        cell = 2 * radius + SPACING
        if x > 0 and x + cell > row_width:
            x, y, row_height = 0.0, y + row_height, 0.0
        centre_x, centre_y = x + cell / 2, y + cell / 2
        for node, (px, py) in _component_positions(sorted_subgraph(graph, part), seed, community_of).items():
            positions[node] = (round(centre_x + px * radius), round(centre_y + py * radius))
        x += cell
        row_height = max(row_height, cell)
    return positions
