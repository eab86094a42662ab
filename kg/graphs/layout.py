"""Node positions computed once in Python, so the page draws at once with physics off.

Collaboration networks are mostly many small groups and one or a few large ones. Each
connected component is laid out on its own (seeded force-directed layout) and the
components are packed in rows, largest first: no group drifts off to the edge, and the cost
is the sum over components rather than over the whole graph. Given the communities, a
component is laid out in two levels (communities, then their members), so that communities
sit apart, as in VOSviewer's maps; a large one is laid out whole, from a start made the same way.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import igraph as ig
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
#: Fruchterman–Reingold in igraph compares every pair of nodes at each step up to this many nodes; above,
#: only the pairs near each other (its grid), a step then costing about the nodes, not their square.
EXACT_UP_TO = 1000
#: Its steps with the grid (the conference view), from a random start: the layout settles at 2,000 nodes.
FR_ITERATIONS = 300
#: Its steps and first step's length (in its units) without the grid (a community page's 500 to 1,000
#: nodes), from the start :func:`_start` makes: with the communities apart from the first step, a tenth
#: of the steps a random start needs settle as well (neighbours as near, communities further apart,
#: fewer nodes on top of each other: docs/networks.md), at a tenth of the cost.
EXACT_ITERATIONS = 30
EXACT_FIRST_STEP = 1.0
#: The start: each community's members scattered in a disc of this radius (times the square root of
#: its members) around its place in a layout of the communities, spread to this share of the square
#: root of the nodes (about where Fruchterman–Reingold puts a graph's outermost nodes).
START_DISC = 0.3
START_SPREAD = 0.5
#: Such a component is drawn this much wider than high: screens are wide, and so are labels.
WIDE = 1.6


def _start(converted: ig.Graph, groups: list[int], seed: int) -> list[tuple[float, float]]:
    """A start for one component's force layout: its communities (``groups``, each vertex's) laid out
    as one node each, linked by the ties between them, and each community's members scattered around
    its place (seeded)."""
    between: dict[tuple[int, int], int] = {}
    for a, b in converted.get_edgelist():
        if groups[a] != groups[b]:
            pair = (min(groups[a], groups[b]), max(groups[a], groups[b]))
            between[pair] = between.get(pair, 0) + 1
    names = sorted(set(groups))
    index = {group: position for position, group in enumerate(names)}
    overview = ig.Graph(n=len(names), edges=[(index[a], index[b]) for a, b in between])
    with seeded(seed):
        places = overview.layout_fruchterman_reingold(weights=list(between.values()) or None).coords
    reach = max((abs(coordinate) for place in places for coordinate in place), default=0.0) or 1.0
    scale = START_SPREAD * math.sqrt(len(groups)) / reach
    sizes = Counter(groups)
    draw = random.Random(seed)
    start = []
    for group in groups:
        (x, y), angle = places[index[group]], draw.random() * math.tau
        radius = START_DISC * math.sqrt(sizes[group] * draw.random())
        start.append((x * scale + radius * math.cos(angle), y * scale + radius * math.sin(angle)))
    return start


def _whole_positions(graph: nx.Graph, seed: int, community_of: dict[str, int] | None) -> dict[str, tuple[float, float]]:
    """One large connected component in one force layout, centred on 0 within a radius of about 1."""
    converted, nodes = to_igraph(graph)
    groups = [community_of[node] for node in nodes] if community_of else [0] * len(nodes)
    pull = [
        COMMUNITY_PULL if community_of and groups[a] == groups[b] else 1.0
        for a, b in converted.get_edgelist()  # plain pairs: igraph's edge objects cost more than the layout
    ]
    if len(nodes) > EXACT_UP_TO:
        with seeded(seed):
            raw = converted.layout_fruchterman_reingold(weights=pull, niter=FR_ITERATIONS, grid=True)
    else:
        start = _start(converted, groups, seed)
        with seeded(seed):
            raw = converted.layout_fruchterman_reingold(
                weights=pull, seed=start, niter=EXACT_ITERATIONS, start_temp=EXACT_FIRST_STEP, grid=False
            )
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
