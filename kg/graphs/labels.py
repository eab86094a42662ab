"""Where each label goes at each scale of the page, decided in Python (VOSviewer's way).

The page fits the whole network to its canvas, whatever the canvas's size, so the scale it opens
at is not known here: labels are placed for a ladder of scales instead (:func:`scales`), finely
stepped from the fit of the smallest canvas the page expects to that of the largest, then doubling
up to :data:`ZOOM_STEPS` times that. At each scale, labels are placed greedily at one of a few spots
around their node (below, above, right, left), each checked against the labels already placed (a
grid of cells, so each check looks at a few neighbours only): first the labels the scale below
placed (at their spot there where it is still free, so labels stay put as one zooms), then the
rest, most important first. The :data:`ALWAYS` most important labels are placed at every scale a
canvas can fit the network at, on rings around the node with a line to it when no spot beside it
is free. Names that stand at a point rather than beside a node (a community's name at its centre)
go first and only there. The page opens at the largest placed scale its canvas fits (again after
a resize) and draws the labels of the largest placed scale at or below its own, in the same
order; its fonts are measured rather than estimated, so it still drops any that would clash.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

#: The canvases the placement expects, in CSS pixels: a small window below the page header, and a
#: large screen's. A canvas outside them still shows the page, its labels checked by the page alone.
SMALLEST_CANVAS = (480, 300)
LARGEST_CANVAS = (2560, 1300)
#: The page fits the network, then zooms out by this much to leave room for the labels at its edges.
FIT_MARGIN = 0.9
#: Between the smallest and largest canvas's fit, scales this far apart: the page opens at most this
#: much smaller than its canvas would fit.
FIT_STEP = 2 ** (1 / 3)
#: Above the largest fit, the scales zooming in reaches, as factors over it.
ZOOM_STEPS = (2, 4, 8, 16, 32)
#: Spots around a node, in order of preference: (dx, dy) of the label box's anchor
#: (the box's centre-top for below, centre-bottom for above, left-middle for right, ...).
SPOTS = ("below", "above", "right", "left")
#: An estimate of a character's width, as a share of the font size (measured in the page).
CHAR_WIDTH = 0.64
#: The same for the bold names of communities.
BOLD_CHAR_WIDTH = 0.72
GAP = 2


#: The most important labels that must show at every fitted scale: when no spot next to the node is
#: free, the label goes to the nearest free place on rings around it, with a thin line to the node.
ALWAYS = 60
#: Rings searched for such a place: distances in label heights (out to ~700 by ~430 pixels, room for
#: a 50-character name beside long community names on a crowded canvas), and directions per ring.
RINGS = tuple(range(2, 24))
DIRECTIONS = 16
#: Scales above the largest fit at which centred names (a community's) are still placed, and the rings
#: around their point they may move to when it is taken (in label heights).
CENTRED_ABOVE_FIT = 2
CENTRED_RINGS = (1, 2, 3)


@dataclass(frozen=True)
class Spot:
    """Where a label is at one scale: at ``side`` of :data:`SPOTS`, or (``side`` = len(SPOTS))
    centred ``dx``, ``dy`` screen pixels away from its point (with a line to a node)."""

    side: int
    dx: float = 0.0
    dy: float = 0.0

    def data(self) -> int | list[float]:
        """As the page reads it: the side's index, or the offset of a label placed away."""
        return self.side if self.side < len(SPOTS) else [self.dx, self.dy]


CENTRE = Spot(len(SPOTS))


@dataclass(frozen=True)
class Ladder:
    """The scales labels are placed at, smallest first; the first ``fitted`` are ones a canvas can fit
    the network at."""

    scales: tuple[float, ...]
    fitted: int


def _away(x: float, y: float, width: float, height: float, dx: float, dy: float):
    return x + dx - width / 2, y + dy - height / 2, x + dx + width / 2, y + dy + height / 2


@lru_cache(maxsize=None)
def _ring_spots(height: float, rings: tuple[int, ...] = RINGS) -> tuple[tuple[float, float], ...]:
    """Offsets on rings around a node, nearest first (a few label heights occur: computed once each)."""
    return tuple(
        (round(ring * height * 1.6 * math.cos(angle), 1), round(ring * height * math.sin(angle), 1))
        for ring in rings
        for angle in (2 * math.pi * (step + 0.5 * (ring % 2)) / DIRECTIONS for step in range(DIRECTIONS))
    )


def text_width(text: str, font_px: float, bold: bool = False) -> float:
    """The width of ``text`` in pixels, estimated: wide (CJK) characters count double."""
    units = sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)
    return units * (BOLD_CHAR_WIDTH if bold else CHAR_WIDTH) * font_px + 2 * GAP


def fit_scale(positions: dict[str, tuple[float, float]], sizes: dict[str, float], canvas: tuple[int, int]) -> float:
    """The scale the page shows the network at: vis-network's ``fit`` on ``canvas`` (every node's
    disc in view, never above 1), times :data:`FIT_MARGIN`."""
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
    """The label's box (left, top, right, bottom) in screen pixels at side ``spot`` of :data:`SPOTS`
    around a node at (x, y) (sides by index: these are most of the placement's calls)."""
    if spot == 0:  # below
        return x - width / 2, y + radius + 1, x + width / 2, y + radius + 1 + height
    if spot == 1:  # above
        return x - width / 2, y - radius - 1 - height, x + width / 2, y - radius - 1
    if spot == 2:  # right
        return x + radius + GAP, y - height / 2, x + radius + GAP + width, y + height / 2
    return x - radius - GAP - width, y - height / 2, x - radius - GAP, y + height / 2


class _Grid:
    """Boxes placed so far, bucketed by cell, for overlap checks against neighbours only."""

    __slots__ = ("cell", "cells")

    def __init__(self, cell: float) -> None:
        self.cell, self.cells = cell, {}

    def clashes(self, box) -> bool:
        # Loops over the cells' ranges rather than any() over a list of keys: most of a large page's placement time.
        left, top, right, bottom = box
        c, cells = self.cell, self.cells
        rows = range(int(top // c), int(bottom // c) + 1)
        for i in range(int(left // c), int(right // c) + 1):
            for j in rows:
                for o in cells.get((i, j), ()):
                    if left < o[2] and o[0] < right and top < o[3] and o[1] < bottom:
                        return True
        return False

    def add(self, box) -> None:
        c, cells = self.cell, self.cells
        rows = range(int(box[1] // c), int(box[3] // c) + 1)
        for i in range(int(box[0] // c), int(box[2] // c) + 1):
            for j in rows:
                found = cells.get((i, j))
                if found is None:
                    cells[i, j] = [box]
                else:
                    found.append(box)

    def take(self, box) -> bool:
        """Place ``box`` unless it clashes with one placed; whether it was."""
        if self.clashes(box):
            return False
        self.add(box)
        return True


def scales(positions: dict[str, tuple[float, float]], sizes: dict[str, float]) -> Ladder:
    """The scales to place labels at: :data:`FIT_STEP` apart from the smallest canvas's fit to the
    largest's, then :data:`ZOOM_STEPS` over the largest."""
    low, high = (fit_scale(positions, sizes, canvas) for canvas in (SMALLEST_CANVAS, LARGEST_CANVAS))
    fitted = [low]
    while fitted[-1] * FIT_STEP <= high * 1.0001:
        fitted.append(fitted[-1] * FIT_STEP)
    return Ladder(
        tuple(round(scale, 6) for scale in (*fitted, *(fitted[-1] * zoom for zoom in ZOOM_STEPS))), len(fitted)
    )


def place(
    order: list[str],
    positions: dict[str, tuple[float, float]],
    sizes: dict[str, float],
    names: dict[str, str],
    font_px: dict[str, int],
    ladder: Ladder,
    centred: frozenset[str] = frozenset(),
) -> list[dict[str, Spot]]:
    """Each scale's labels of ``order`` (most important first, ``centred`` names among them): where
    each one that fits goes. ``positions`` and ``sizes`` (node radii) are in vis-network's canvas
    units; the boxes are in screen pixels at each scale, as the page draws them."""
    always = set([node for node in order if node not in centred][:ALWAYS])
    boxes = _label_boxes(order, names, font_px, centred)
    levels: list[dict[str, Spot]] = []
    for level, scale in enumerate(ladder.scales):
        before = levels[-1] if levels else {}
        grid, placed = _Grid(64.0), {}
        take = grid.take
        for node in sorted(order, key=lambda node: node not in before):  # stable: by importance within
            if node in centred and level >= ladder.fitted + CENTRED_ABOVE_FIT:
                continue
            px, py = positions[node]
            x, y = px * scale, py * scale
            width, height = boxes[node]
            tried = _near_centre(height) if node in centred else _spots(before.get(node))
            spot = _first_free(take, tried, x, y, sizes[node] * scale, width, height)
            if spot is not None:
                placed[node] = spot
            elif node in always and level < ladder.fitted:
                _place_away(take, placed, node, x, y, width, height)
        levels.append(placed)
    return levels


def _label_boxes(
    order: list[str], names: dict[str, str], font_px: dict[str, int], centred: frozenset[str]
) -> dict[str, tuple[float, float]]:
    """Each label's width and height in screen pixels: the same at every scale, so measured once."""
    return {node: (text_width(names[node], font_px[node], node in centred), font_px[node] + 4) for node in order}


def _near_centre(height: float) -> list[Spot]:
    """Where a centred name may go: its point, else the nearest free place on the first rings around it."""
    return [CENTRE, *(Spot(len(SPOTS), dx, dy) for dx, dy in _ring_spots(height, CENTRED_RINGS))]


SIDES = tuple(Spot(side) for side in range(len(SPOTS)))


def _spots(before: Spot | None) -> tuple[Spot, ...]:
    """The spots to try for a label: where it was at the scale below if beside its node, then each side,
    then where it was if away from it (closer up, a place beside the node may have come free)."""
    if before is None:
        return SIDES
    return (before, *SIDES) if before.side < len(SPOTS) else (*SIDES, before)


def _spot_box(spot: Spot, x: float, y: float, radius: float, width: float, height: float):
    if spot.side < len(SPOTS):
        return _box(spot.side, x, y, radius, width, height)
    return _away(x, y, width, height, spot.dx, spot.dy)


def _first_free(take, tried, x: float, y: float, radius: float, width: float, height: float) -> Spot | None:
    """The first of the spots ``tried`` whose box is free, taken; None when none is."""
    for spot in tried:
        if take(_spot_box(spot, x, y, radius, width, height)):
            return spot
    return None


def _place_away(take, placed: dict[str, Spot], node: str, x: float, y: float, width: float, height: float) -> None:
    """An important label that fits nowhere beside its node: the nearest free place on the rings."""
    for dx, dy in _ring_spots(height):
        if take(_away(x, y, width, height, dx, dy)):
            placed[node] = Spot(len(SPOTS), dx, dy)
            return


def overlaps(boxes: list[tuple[float, float, float, float]]) -> int:
    """How many pairs of ``boxes`` (left, top, right, bottom) overlap: what the tests and the benchmark count."""
    return sum(
        1
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    )
