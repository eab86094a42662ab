"""Where each node's label goes and from which zoom on, decided in Python (VOSviewer's way).

The page fits the whole network to its canvas; at that scale only some labels fit without
overlapping. Labels are placed greedily, most important node first, at one of a few spots
around the node (below, above, right, left), each checked against the labels already placed
(a grid of cells, so each check looks at a few neighbours only). This is repeated at each
zoom level of :data:`ZOOMS`, keeping what the level before placed: a label's ``zoom`` is the
factor over the page's fitted scale from which it is drawn, so zooming in reveals more
labels and the page needs no knowledge of the assumed canvas. A label once shown stays, unless
closer up it would touch one placed before it (its offset from the node does not grow with the
zoom). The page draws them in the same order and, since its fonts are measured rather than
estimated, drops any that would still clash.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, replace

#: The canvas the placement assumes, in CSS pixels: a laptop window below the page header, on the
#: small side (a larger canvas only leaves more room).
CANVAS = (1100, 500)
#: The page fits the network, then zooms out by this much to leave room for the labels at its edges.
FIT_MARGIN = 0.9
#: Zoom factors over the fitted scale at which labels are placed.
ZOOMS = (1, 2, 4, 8, 16, 32)
#: Spots around a node, in order of preference: (dx, dy) of the label box's anchor
#: (the box's centre-top for below, centre-bottom for above, left-middle for right, ...).
SPOTS = ("below", "above", "right", "left")
#: An estimate of a character's width, as a share of the font size (measured in the page).
CHAR_WIDTH = 0.64
GAP = 2


#: The most important labels that must show at the fitted scale: when no spot next to the node is
#: free, the label goes to the nearest free place on rings around it, with a thin line to the node.
ALWAYS = 60
#: Rings searched for such a place: distances in label heights, and directions per ring.
RINGS = tuple(range(2, 16))
DIRECTIONS = 16


@dataclass(frozen=True)
class Label:
    """Drawn from ``zoom`` times the fitted scale on (until ``until``, where closer up it would
    touch a label placed before it), at ``spot`` of :data:`SPOTS`, or (``spot`` = len(SPOTS))
    centred ``dx``, ``dy`` screen pixels away from the node, with a line to it."""

    zoom: float | None
    spot: int
    dx: float = 0.0
    dy: float = 0.0
    until: float | None = None

    def shown(self, zoom: float) -> bool:
        return self.zoom <= zoom and (self.until is None or zoom < self.until)


#: A node whose label fits at no zoom level: drawn only when hovered or selected.
NO_LABEL = Label(None, 0)


def _away(x: float, y: float, width: float, height: float, dx: float, dy: float):
    return x + dx - width / 2, y + dy - height / 2, x + dx + width / 2, y + dy + height / 2


def _ring_spots(height: float):
    """Offsets on rings around a node, nearest first."""
    for ring in RINGS:
        for step in range(DIRECTIONS):
            angle = 2 * math.pi * (step + 0.5 * (ring % 2)) / DIRECTIONS
            yield round(ring * height * 1.6 * math.cos(angle), 1), round(ring * height * math.sin(angle), 1)


def text_width(text: str, font_px: float) -> float:
    """The width of ``text`` in pixels, estimated: wide (CJK) characters count double."""
    units = sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)
    return units * CHAR_WIDTH * font_px + 2 * GAP


def fit_scale(positions: dict[str, tuple[float, float]], sizes: dict[str, float], canvas=CANVAS) -> float:
    """The scale the page shows the network at: vis-network's ``fit`` on ``canvas`` (every node's
    disc in view, never above 1), times :data:`FIT_MARGIN`. The page takes the smaller of this and
    its own fit, so on a canvas at least this large the labels are where they were placed."""
    if not positions:
        return FIT_MARGIN
    left = min(x - sizes[node] for node, (x, _) in positions.items())
    right = max(x + sizes[node] for node, (x, _) in positions.items())
    top = min(y - sizes[node] for node, (_, y) in positions.items())
    bottom = max(y + sizes[node] for node, (_, y) in positions.items())
    return FIT_MARGIN * min(1.0, canvas[0] / max(right - left, 1.0), canvas[1] / max(bottom - top, 1.0))


def _box(
    spot: int, x: float, y: float, radius: float, width: float, height: float
) -> tuple[float, float, float, float]:
    """The label's box (left, top, right, bottom) in screen pixels around a node at (x, y)."""
    if SPOTS[spot] == "below":
        return x - width / 2, y + radius + 1, x + width / 2, y + radius + 1 + height
    if SPOTS[spot] == "above":
        return x - width / 2, y - radius - 1 - height, x + width / 2, y - radius - 1
    if SPOTS[spot] == "right":
        return x + radius + GAP, y - height / 2, x + radius + GAP + width, y + height / 2
    return x - radius - GAP - width, y - height / 2, x - radius - GAP, y + height / 2


class _Grid:
    """Boxes placed so far, bucketed by cell, for overlap checks against neighbours only."""

    def __init__(self, cell: float) -> None:
        self.cell, self.cells = cell, {}

    def _keys(self, box):
        c = self.cell
        return [
            (i, j)
            for i in range(int(box[0] // c), int(box[2] // c) + 1)
            for j in range(int(box[1] // c), int(box[3] // c) + 1)
        ]

    def clashes(self, box) -> bool:
        return any(
            box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3]
            for key in self._keys(box)
            for o in self.cells.get(key, ())
        )

    def add(self, box) -> None:
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(box)


def place(
    order: list[str],
    positions: dict[str, tuple[float, float]],
    sizes: dict[str, float],
    names: dict[str, str],
    font_px: dict[str, int],
    canvas=CANVAS,
) -> dict[str, Label]:
    """The label of each node of ``order`` (most important first) that fits at some zoom level.

    ``positions`` and ``sizes`` (node radii) are in vis-network's canvas units; the boxes are
    in screen pixels at each level's scale, as the page draws them.
    """
    base = fit_scale(positions, sizes, canvas)
    placed: dict[str, Label] = {}
    for zoom in ZOOMS:
        scale = base * zoom
        grid = _Grid(64.0)
        for rank, node in sorted(enumerate(order), key=lambda item: item[1] not in placed):  # earlier levels first
            x, y = (coordinate * scale for coordinate in positions[node])
            width, height = text_width(names[node], font_px[node]), font_px[node] + 4
            if node in placed:
                label = placed[node]
                box = (
                    _box(label.spot, x, y, sizes[node] * scale, width, height)
                    if label.spot < len(SPOTS)
                    else _away(x, y, width, height, label.dx, label.dy)
                )
                if label.until is None and grid.clashes(box):
                    placed[node] = replace(label, until=zoom)
                elif label.until is None:
                    grid.add(box)
                continue
            for spot in range(len(SPOTS)):
                box = _box(spot, x, y, sizes[node] * scale, width, height)
                if not grid.clashes(box):
                    grid.add(box)
                    placed[node] = Label(zoom, spot)
                    break
            else:
                if zoom == ZOOMS[0] and rank < ALWAYS:
                    _place_away(grid, placed, node, x, y, width, height)
    return placed


def _place_away(
    grid: _Grid, placed: dict[str, Label], node: str, x: float, y: float, width: float, height: float
) -> None:
    """An important label that fits nowhere beside its node: the nearest free place on the rings."""
    for dx, dy in _ring_spots(height):
        box = _away(x, y, width, height, dx, dy)
        if not grid.clashes(box):
            grid.add(box)
            placed[node] = Label(ZOOMS[0], len(SPOTS), dx, dy)
            return


def overlaps(boxes: list[tuple[float, float, float, float]]) -> int:
    """How many pairs of ``boxes`` (left, top, right, bottom) overlap: what the tests and the benchmark count."""
    return sum(
        1
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    )
