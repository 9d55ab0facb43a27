"""A graph board (a map) drawn by default: its spaces as labelled dots, its edges as lines between them.

Stage: authoring (boardlayout.py calls it for each declared board of kind `graph`). The graph's `at:`
coordinates are scaled up just enough that no two spaces' names (estimated from their length) run
into each other or into another space, and that each edge has room for its `length` segments; the
map is then drawn at that size (the page lets it scroll rather than shrink it). Each edge's place
carries the two ends of its line (moved apart across the line for edges joining the same two
spaces: a double route), how many segments it is drawn as (its numeric `length` property) and its
colour (its `colour` property, through the presentation's `colours`, when it names a colour; grey
otherwise). Who holds an edge (its first mark naming a player) is filled in per seat and drawn in
that seat's colour by the page (tools/serve/static/board.js).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from tabula.interpreter.authoring.colours import colour_hex
from tabula.interpreter.model.boards import BoardTable

DOT = 0.29  # a space's dot, in cells (16 px at the 56 px cell of declared boards)
NAME = 0.25  # the height of a space's name under its dot (12 px text)
CHAR = 0.136  # a character of a name, estimated (7.4 px on average in 12 px semibold text)
PAD = 0.12  # the least room between two names, or a name and a dot
SPACE = 0.9  # a space that holds a zone: a circle with the zone's components in it
SEGMENT = 0.28  # the least length of one segment of an edge
TWIN = 0.17  # between the lines of edges joining the same two spaces
EDGE = (1.0, 0.8)  # the box of an edge's place (the terminal writes its name there)
MIN_SCALE, MAX_SCALE = 0.5, 8.0  # cells per unit of `at:`
GROW = 1.06  # the map's scale grows by this until its names are apart
MIN_SPAN = 6.0  # a small map is scaled up to be this many cells wide or high
MAX_SEGMENTS = 12  # a longer edge is one line
GREY = "#8a8a8a"


@dataclass
class MapDrawing:
    """Where a graph's spaces, their names and its edges are drawn, in cells (top left at 0, 0)."""

    spots: list[tuple[float, float]]  # each space's centre
    sides: list[str]  # where each space's name is: below | above | right | left (inside: a circle)
    lines: list[tuple[float, float, float, float]]  # each edge's line, rim to rim
    width: float
    height: float


def lay_out_map(table: BoardTable, holds: bool, segments: list[int]) -> MapDrawing:
    """A graph board's drawing; `holds`: its spaces are circles holding a zone, with their names
    inside; `segments`: each edge's (segments_of). Each name goes on the side of its dot that
    crosses the fewest edges, names and dots (_sides); the map is scaled from the least scale that
    parts the dots (_scale) up by GROW at a time until no name meets another name or dot."""
    geo = table.geometry
    size = SPACE if holds else DOT
    tall = size if holds else DOT + PAD
    s = _scale(geo.coords, [size / 2] * len(geo.coords), tall, geo.edges, segments)
    while True:
        spots = [(x * s, y * s) for x, y in geo.coords]
        lines = [edge_line(spots, geo.edges, k, size / 2) for k in range(len(geo.edges))]
        if holds:
            sides = ["inside"] * len(spots)
            break
        sides = _sides(spots, geo.names, lines)
        if s >= MAX_SCALE or _apart(spots, sides, geo.names):
            break
        s = min(s * GROW, MAX_SCALE)
    boxes = [_dot(x, y, size) for x, y in spots]
    if not holds:
        boxes += [name_box(side, x, y, n) for side, (x, y), n in zip(sides, spots, geo.names, strict=True)]
    x0, y0 = min(b[0] for b in boxes) - PAD, min(b[1] for b in boxes) - PAD
    width, height = max(b[2] for b in boxes) - x0 + PAD, max(b[3] for b in boxes) - y0 + PAD
    spots = [(x - x0, y - y0) for x, y in spots]
    lines = [(a - x0, b - y0, c - x0, d - y0) for a, b, c, d in lines]
    return MapDrawing(spots, sides, lines, width, height)


def _apart(spots: list[tuple[float, float]], sides: list[str], names: list[str]) -> bool:
    """Whether every name is clear of the other names and dots, by PAD / 2 or more."""
    m = PAD / 2
    boxes = [name_box(side, x, y, n) for side, (x, y), n in zip(sides, spots, names, strict=True)]
    grown = [(a - m, b - m, c + m, d + m) for a, b, c, d in boxes]
    dots = [_dot(x, y, DOT) for x, y in spots]
    for i, box in enumerate(grown):
        if any(_meets(box, dot) for j, dot in enumerate(dots) if j != i):
            return False
        if any(_meets(box, other) for other in boxes[i + 1 :]):
            return False
    return True


Box = tuple[float, float, float, float]  # left, top, right, bottom
SIDES = ("below", "above", "right", "left")  # in order of preference


def _sides(spots: list[tuple[float, float]], names: list[str], lines: list[Box]) -> list[str]:
    """Each space's name on the side of its dot that costs least (_cost), everything else equal in
    the order of SIDES; three rounds, each placing every name among the others' last places."""
    sides = ["below"] * len(spots)
    dots = [_dot(x, y, DOT) for x, y in spots]
    span = (min(x for x, _ in spots), max(x for x, _ in spots))
    for _ in range(3):
        for i, (x, y) in enumerate(spots):
            near = _Near(
                lines,
                dots[:i] + dots[i + 1 :],
                [name_box(sides[j], *spots[j], names[j]) for j in range(len(spots)) if j != i],
                span,
            )
            sides[i] = min(
                SIDES, key=lambda side: near.cost(name_box(side, x, y, names[i])) + SIDES.index(side) / 10
            )
    return sides


@dataclass
class _Near:
    """What a space's name should stay clear of: the edges, the other dots, the other names."""

    lines: list[Box]
    dots: list[Box]
    names: list[Box]
    span: tuple[float, float]  # the leftmost and the rightmost dot's centres

    def cost(self, box: Box) -> float:
        """One for each edge the name crosses, two for each dot, ten for each name it meets, and
        one a cell it sticks out past the dots' left or right (it makes the map wider)."""
        return (
            sum(_crosses(box, line) for line in self.lines)
            + 2 * sum(_meets(box, d) for d in self.dots)
            + 10 * sum(_meets(box, n) for n in self.names)
            + max(self.span[0] - box[0], box[2] - self.span[1], 0)
        )


def _dot(x: float, y: float, size: float) -> Box:
    return x - size / 2, y - size / 2, x + size / 2, y + size / 2


def name_box(side: str, x: float, y: float, name: str) -> Box:
    """The box of a space's name written on `side` of its dot at (x, y), in cells (estimated)."""
    w, r = len(name) * CHAR, DOT / 2
    if side == "below":
        return x - w / 2, y + r, x + w / 2, y + r + NAME
    if side == "above":
        return x - w / 2, y - r - NAME, x + w / 2, y - r
    if side == "right":
        return x + r, y - NAME / 2, x + r + w + 0.05, y + NAME / 2
    return x - r - w - 0.05, y - NAME / 2, x - r, y + NAME / 2


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(box: Box, line: Box) -> bool:
    """Whether the line from (line[0], line[1]) to (line[2], line[3]) passes through the box
    (Liang-Barsky clipping)."""
    x1, y1, x2, y2 = line
    lo, hi = 0.0, 1.0
    for p, q in (
        (x1 - x2, x1 - box[0]),
        (x2 - x1, box[2] - x1),
        (y1 - y2, y1 - box[1]),
        (y2 - y1, box[3] - y1),
    ):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def _scale(
    coords: list[tuple[int, int]],
    halves: list[float],
    tall: float,
    edges: list[tuple[int, int]],
    segments: list[int],
) -> float:
    """The least cells per unit of `at:` at which no two spaces' footprints (dot and name) overlap:
    two spaces are apart when their footprints are apart across or down, and each edge is long
    enough for its segments between its two dots; a small map is MIN_SPAN cells across."""
    xs, ys = [x for x, _ in coords], [y for _, y in coords]
    s = max(MIN_SCALE, MIN_SPAN / max(max(xs) - min(xs), max(ys) - min(ys), 1))
    for i, (xi, yi) in enumerate(coords):
        for j in range(i + 1, len(coords)):
            dx, dy = abs(coords[j][0] - xi), abs(coords[j][1] - yi)
            if dx == 0 and dy == 0:
                continue  # two spaces at one place: no scale parts them
            across = (halves[i] + halves[j] + PAD) / dx if dx else math.inf
            down = (tall + PAD) / dy if dy else math.inf
            s = max(s, min(across, down))
    for (a, b), n in zip(edges, segments, strict=True):
        far = math.dist(coords[a], coords[b])
        if far > 0:
            s = max(s, (DOT + PAD + max(n, 1) * SEGMENT) / far)
    return min(s, MAX_SCALE)


def segments_of(props: dict[str, Any]) -> int:
    """How many segments an edge is drawn as: its `length` when that is a whole number from 1 to
    MAX_SEGMENTS (a route of 4 spaces), else 0 (one line)."""
    n = props.get("length")
    return n if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= MAX_SEGMENTS else 0


def colour_of(props: dict[str, Any], colours: dict[str, str]) -> str:
    """An edge's colour: its `colour` (or `color`) property when it names a colour (a key of the
    presentation's `colours`, a colour word or #rrggbb), else grey."""
    word = props.get("colour", props.get("color"))
    if not isinstance(word, str):
        return GREY
    return colours.get(word) or colour_hex(word) or GREY


def edge_line(spots: list[tuple[float, float]], edges: list[tuple[int, int]], k: int, radius: float) -> Box:
    """The line of edge `k` from the rim of one dot to the rim of the other, moved across itself
    beside the other edges joining the same two spaces (a double route: side by side)."""
    a, b = edges[k]
    twins = [i for i, e in enumerate(edges) if set(e) == {a, b}]
    shift = (twins.index(k) - (len(twins) - 1) / 2) * TWIN
    lo, hi = min(a, b), max(a, b)  # one direction for all of them, whichever way each is written
    (x1, y1), (x2, y2) = spots[lo], spots[hi]
    far = max(math.dist(spots[lo], spots[hi]), 1e-9)
    ux, uy = (x2 - x1) / far, (y2 - y1) / far
    ox, oy = -uy * shift, ux * shift
    cut = min(radius + 0.06, far / 3)
    ends = (x1 + ux * cut + ox, y1 + uy * cut + oy, x2 - ux * cut + ox, y2 - uy * cut + oy)
    if (lo, hi) != (a, b):
        ends = (ends[2], ends[3], ends[0], ends[1])
    return ends[0], ends[1], ends[2], ends[3]
