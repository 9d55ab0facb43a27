"""The declared boards in the terminal: each cell of a drawn board (`tabula.play.layout`) as a short
text at its place, row by row (docs/presentation.md, "Boards").

A free cell shows its name, dimmed (a1, b1, ...: where a choice `lay:a1+b1` lies; a dot for
a name that does not fit and for a cell of a board that grows, whose choices name its coordinates,
`lay: x=-1, y=2`, written along a square one's top and left side); a cell holding
components shows the first one's title (and how many), a cell showing a mark its value, in the
colour of the player it names. A hex grid's rows are shifted half a cell, a graph's spaces stand
where its `at:` puts them, with its edges between them.
"""

from __future__ import annotations

import itertools
import re

from rich.text import Text

from tabula.play.layout import DrawnBoard, Place

WIDTH = 4  # characters per cell
COORDS = re.compile(r"-?\d+,-?\d+")  # the title of a cell of a board that grows (tabula.play.layout)
NONE = ("none", "", "-")
Ruler = list[tuple[int, str]]  # a column (in characters) and the x written over it


def is_map(board: DrawnBoard) -> bool:
    """A graph drawn as a map: its routes are listed by name, not drawn in characters."""
    return any(p.shape == "edge" for p in board.places)


def map_lines(board: DrawnBoard, words: dict[int, str], full: bool, width: int) -> list[Text]:
    """A graph's routes by the names of the spaces they join, with their length and colour (`words`:
    an edge's component -> its colour in words) and who holds them: in short, a count and the held
    routes; in full, every route in a table of columns."""
    edges = [p for p in board.places if p.shape == "edge"]
    held = [p for p in edges if p.text not in NONE]
    if not full:
        head = f"  Map: {len(edges)} routes, {len(held)} claimed ('board' lists them all)"
        out = [Text(head, style="dim")]
        for p in held:
            out.append(Text("  ").append_text(_route(p, words)))
        return out
    cells = [_route(p, words) for p in edges]
    cell = min(max(c.cell_len for c in cells) + 2, width) if cells else width
    cols = max(1, width // cell)
    rows = -(-len(cells) // cols)
    out = [Text("Map routes (from-to, length, colour, holder)", style="underline")]
    for r in range(rows):
        line = Text()
        for c in range(cols):
            i = r * cols + c
            if i < len(cells):
                line.append_text(cells[i])
                line.append(" " * (cell - cells[i].cell_len) if c < cols - 1 else "")
        out.append(line)
    return out


def _route(p: Place, words: dict[int, str]) -> Text:
    colour = words.get(p.ids[0], "") if p.ids else ""
    out = Text(f"{p.title} {p.segments or ''} {colour}".replace("  ", " ").strip())
    if p.text not in NONE:
        out.append(f" {p.text}", style=f"bold {p.text_colour}" if p.text_colour else "bold")
    return out


def grid_lines(board: DrawnBoard, indent: int = 2) -> list[Text]:
    """The board's cells as text lines (none when it is no grid of declared boards, or a map)."""
    if not board.grid or not board.places or is_map(board):
        return []
    ys = sorted({p.y for p in board.places})
    step = min((b - a for a, b in itertools.pairwise(ys) if b - a > 0.01), default=1.0)
    rows: dict[int, list[tuple[int, Place]]] = {}
    for p in board.places:
        rows.setdefault(round(p.y / step), []).append((round(p.x * WIDTH), p))
    rulers, ys_of = _rulers(rows)
    gutter = max((len(y) + 1 for y in ys_of.values()), default=0)
    indent += gutter
    out = []
    for r in sorted(rows):  # rows with no cell (between a graph's spaces) are left out
        if r in rulers:  # the x of each column over a board that grows
            top = Text(" " * indent, style="dim")
            for col, x in rulers[r]:
                top.append(" " * max(col + indent - top.cell_len, 1) + x, style="dim")
            out.append(top)
        line = Text(ys_of.get(r, "").rjust(gutter - 1).ljust(indent), style="dim")
        for col, place in sorted(rows.get(r, []), key=lambda cp: cp[0]):
            col += indent
            if col > line.cell_len:
                line.append(" " * (col - line.cell_len))
            line.append_text(_cell(place))
        out.append(line)
    return out


def _rulers(rows: dict[int, list[tuple[int, Place]]]) -> tuple[dict[int, Ruler], dict[int, str]]:
    """Each square board that grows: the x of each of its columns (at its column in characters),
    by its first row, and the y of each of its rows, read from its cells' titles; none for a hex
    one, whose rows are shifted half a cell."""
    boards: dict[str, tuple[dict[int, str], dict[int, str], set[float]]] = {}  # its cells' zone
    for r, cells in rows.items():
        for col, p in cells:
            if COORDS.fullmatch(p.title):
                xs, ys, offsets = boards.setdefault(p.name.split("(")[0], ({}, {}, set()))
                x, y = p.title.split(",")
                xs[col], ys[r] = x, y
                offsets.add(round(p.x - int(x), 2))
    rulers: dict[int, Ruler] = {}
    ys_of: dict[int, str] = {}
    for xs, ys, offsets in boards.values():
        if len(offsets) == 1:
            rulers[min(ys)] = sorted(xs.items())
            ys_of.update(ys)
    return rulers, ys_of


def _cell(p: Place) -> Text:
    if p.kind == "cards" and p.cards:
        first = p.cards[0]
        more = f"{len(p.cards)}" if len(p.cards) > 1 else ""
        return Text((first.title[: WIDTH - 1 - len(more)] + more).ljust(WIDTH), style="bold")
    if p.kind == "text" and p.text not in NONE:
        style = f"bold {p.text_colour}" if p.text_colour else "bold"
        return Text(p.text[: WIDTH - 1].ljust(WIDTH), style=style)
    if len(p.title) >= WIDTH or COORDS.match(p.title):  # a name that does not fit, or coordinates
        return Text("·".ljust(WIDTH), style="dim")  # (a board that grows: its choices name them)
    return Text(p.title.ljust(WIDTH), style="dim")
