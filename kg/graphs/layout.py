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

from .compiled import seeded, to_igraph
from .metrics import SEED, components
from .projections import sorted_subgraph

#: networkx's spring layout needs scipy from this size on; ForceAtlas2 needs only numpy.
SPRING_LIMIT = 500
#: Pixels between neighbouring nodes, roughly.
SPACING = 70
#: From this size on, a component is laid out whole by igraph's Fruchterman–Reingold (C, seeded),
#: its ties within a community pulled :data:`COMMUNITY_PULL` times harder: communities gather
#: without the two-level layout's tight disks, and people keep their place among their partners.
WHOLE_FROM = 500
COMMUNITY_PULL = 12.0
#: Fruchterman–Reingold's iterations: the layout settles (no visible change beyond) at 2,000 nodes.
FR_ITERATIONS = 300
#: Such a component is drawn this much wider than high: screens are wide, and so are labels.
WIDE = 1.6


def _whole_positions(graph: nx.Graph, seed: int, community_of: dict[str, int] | None) -> dict[str, tuple[float, float]]:
    """One large connected component in one force layout, centred on 0 within a radius of about 1."""
    converted, nodes = to_igraph(graph)
    pull = [
        COMMUNITY_PULL if community_of and community_of[nodes[a]] == community_of[nodes[b]] else 1.0
        for a, b in converted.get_edgelist()  # plain pairs: igraph's edge objects cost more than the layout
    ]
    with seeded(seed):
        raw = converted.layout_fruchterman_reingold(weights=pull, niter=FR_ITERATIONS, grid="auto")
    spread = _normalised(dict(zip(nodes, map(tuple, raw.coords))))
    return {node: (x, y / WIDE) for node, (x, y) in spread.items()}


def _normalised(raw: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Positions centred on 0, the longer side spanning -1 to 1."""
    xs, ys = [p[0] for p in raw.values()], [p[1] for p in raw.values()]
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    span = max(max(xs) - min(xs), max(ys) - min(ys)) / 2 or 1.0
    return {node: ((x - cx) / span, (y - cy) / span) for node, (x, y) in raw.items()}


def _force_positions(graph: nx.Graph, seed: int, weight: str | None = "weight") -> dict[str, tuple[float, float]]:
    """Positions of one connected graph, centred on 0 within a radius of about 1."""
    if len(graph) == 1:
        return {next(iter(graph)): (0.0, 0.0)}
    if len(graph) < SPRING_LIMIT:
        raw = nx.spring_layout(graph, seed=seed, iterations=60, weight=weight)
    else:
        raw = nx.forceatlas2_layout(graph, seed=seed, max_iter=60, strong_gravity=True, weight=weight)
    return _normalised(raw)


def _radius(size: int) -> float:
    return SPACING * math.sqrt(size) / 1.5


def _component_positions(
    graph: nx.Graph, seed: int, community_of: dict[str, int] | None
) -> dict[str, tuple[float, float]]:
    """One connected component, its communities apart (as VOSviewer's maps keep them).

    Two levels: the communities are laid out as one node each (linked by the ties between
    them), spread until no two overlap; each community's members are laid out around its
    centre. Positions are centred on 0 within a radius of about 1.
    """
    if len(graph) >= WHOLE_FROM:
        return _whole_positions(graph, seed, community_of)
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
    spread = max(
        (radii[a] + radii[b] + SPACING) / max(math.dist(centres[a], centres[b]), 1e-6)
        for i, a in enumerate(sorted(groups))
        for b in sorted(groups)[i + 1 :]
    )
    positions = {}
    for group, members in groups.items():
        cx, cy = (coordinate * spread for coordinate in centres[group])
        for node, (px, py) in _force_positions(sorted_subgraph(graph, members), seed, weight=None).items():
            positions[node] = (cx + px * radii[group], cy + py * radii[group])
    return _normalised(positions)


def layout(graph: nx.Graph, seed: int = SEED, community_of: dict[str, int] | None = None) -> dict[str, tuple[int, int]]:
    """Integer pixel positions for every node: the same graph gives the same positions."""
    parts = components(graph)
    radii = [
        _radius(len(part)) * (1.6 if community_of and len({community_of[n] for n in part}) > 1 else 1.0)
        for part in parts
    ]
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
