"""A square tile's picture drawn from its sides (docs/presentation.md, a component's `sides`): the
ground in the colour of a `ground` terrain, each group of `area` sides joined inside the tile as one
region (a city: a cap on one side, a band or a corner across several), and each `line` side a line
to the middle (a road; a dot where one ends or several meet). Drawn as listed (n e s w), it is
turned like any picture by the look's `rotation`; an `image` of the look is drawn over it.
"""

from __future__ import annotations

import base64
from typing import Any

from tabula.interpreter.model.game import CompiledGame

SIZE = 40
_DRAWN: dict[tuple[Any, ...], str] = {}  # the pictures drawn so far, by what they are drawn from
DIRS = ("n", "e", "s", "w")
CORNERS = {"n": ((0, 0), (40, 0)), "e": ((40, 0), (40, 40)), "s": ((40, 40), (0, 40)), "w": ((0, 40), (0, 0))}
MIDDLE = {"n": (20, 0), "e": (40, 20), "s": (20, 40), "w": (0, 20)}
CAP = {
    "n": "M0 0 H40 Q20 16 0 0Z",
    "e": "M40 0 V40 Q24 20 40 0Z",
    "s": "M0 40 H40 Q20 24 0 40Z",
    "w": "M0 0 V40 Q16 20 0 0Z",
}


def sides_picture(
    g: CompiledGame, styles: dict[str, tuple[str, str]], cid: int, over: str | None
) -> str | None:
    """The `data:` address of component `cid`'s picture drawn from its sides (None: not a square tile),
    with the picture `over` (a `data:` address) drawn on top."""
    comp = g.components[cid]
    spec = g.boards.tiles.get(comp.type)
    if spec is None or spec.count != 4:
        return None
    sides = tuple(str(s) for s in comp.props.get(spec.prop) or [])
    if len(sides) != 4:
        return None
    joins = comp.props.get(spec.joins) if spec.joins else None
    key = (sides, repr(joins), tuple(styles.items()), over)
    found = _DRAWN.get(key)
    if found is None:
        body = _draw(dict(zip(DIRS, sides, strict=True)), joins, styles)
        if over:
            body.append(f'<image href="{over}" width="{SIZE}" height="{SIZE}"/>')
        svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}">{"".join(body)}</svg>'
        found = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
        if len(_DRAWN) < 4096:
            _DRAWN[key] = found
    return found


def _groups(sides: dict[str, str], joins: Any) -> list[list[str]]:
    """The sides joined inside the tile: its `joins` groups (a side in none stands alone), or else
    the sides of each terrain together."""
    if not isinstance(joins, list):
        by: dict[str, list[str]] = {}
        for d in DIRS:
            by.setdefault(sides[d], []).append(d)
        return list(by.values())
    # a group may name parts of sides (`parts:`, a road side's fields n1 n2): only whole sides are drawn
    out = [[str(d) for d in grp if d in sides] for grp in joins if isinstance(grp, list)]
    out = [grp for grp in out if grp]
    seen = {d for grp in out for d in grp}
    return out + [[d] for d in DIRS if d not in seen]


def _draw(sides: dict[str, str], joins: Any, styles: dict[str, tuple[str, str]]) -> list[str]:
    ground = next((c for t, (c, how) in styles.items() if how == "ground" and t in sides.values()), None)
    ground = ground or next((c for c, how in styles.values() if how == "ground"), "#d9d2c0")
    out = [f'<rect width="{SIZE}" height="{SIZE}" fill="{ground}"/>']
    lines: list[list[str]] = []
    for grp in _groups(sides, joins):
        colour, how = styles.get(sides[grp[0]], (ground, "ground"))
        if how == "area":
            out.append(_area(grp, colour))
        elif how == "line":
            lines.append(grp)
    ends = sum(len(grp) for grp in lines)
    for grp in lines:
        colour = styles[sides[grp[0]]][0]
        for d in grp:
            x, y = MIDDLE[d]
            out.append(
                f'<path d="M{x} {y} L20 20" stroke="{colour}" stroke-width="5" stroke-linecap="round"/>'
            )
    if ends and not (len(lines) == 1 and len(lines[0]) == 2):  # an end, or a crossing: a dot
        out.append('<circle cx="20" cy="20" r="4" fill="#5b4a2f"/>')
    return out


def _area(grp: list[str], colour: str) -> str:
    rim = 'stroke="#5b4a2f" stroke-opacity=".6"'
    if len(grp) == 1:
        return f'<path d="{CAP[grp[0]]}" fill="{colour}" {rim}/>'
    if len(grp) == 4:
        return f'<rect width="{SIZE}" height="{SIZE}" fill="{colour}"/>'
    points: list[tuple[float, float]] = []
    for d in DIRS:  # round the tile: the corners of the area's sides, an inner point for the others
        if d in grp:
            points += list(CORNERS[d])
        else:
            x, y = MIDDLE[d]
            points.append((20 + (x - 20) * 0.3, 20 + (y - 20) * 0.3))
    return f'<polygon points="{" ".join(f"{x:g},{y:g}" for x, y in points)}" fill="{colour}" {rim}/>'
