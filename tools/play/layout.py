"""What one seat sees of the boards a game's `presentation.layout` draws (docs/presentation.md, "Boards").

Each place of a board is filled from the same seat's view as the panels (`tabula.play.board`): a
zone's cards (only those `where` picks; more than `stack` collapse into stacks by title with
counts), a counter's chips, a var's or a value's text. The page draws the result as SVG. A board
that grows (`grows: true`) is drawn from the cells it has so far: each at its x/y marks, in the
bounding box of those cells with a margin round it (`grown`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from tabula.interpreter.authoring.boardlayout import GAP, spot
from tabula.interpreter.authoring.display import Shown, render
from tabula.interpreter.authoring.layout import Area, BoardLayout
from tabula.interpreter.authoring.presentation import Presentation, Row
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.view import zone_members
from tabula.interpreter.run.knowledge import State
from tabula.play.faces import Card, Entry, merge_hidden


class Filler(Protocol):
    """What filling a board needs of the board builder (`tabula.play.board`): the seat's view and
    seat states, and how it draws a card, a counter and a var."""

    g: CompiledGame
    pres: Presentation
    view: dict[str, Any]
    states: tuple[State, State]

    def note(self, shown: Shown, where: str) -> str: ...

    def card(self, cid: int) -> Card: ...

    def attach(self, zone: str, player: int | None, cards: list[Card]) -> None: ...

    def counter_line(self, row: Row, player: int | None) -> Any: ...

    def var_line(self, row: Row, player: int | None) -> Any: ...


@dataclass
class Place:
    """One place as drawn: its shape, and what it holds (kind: cards | keyed | text | empty)."""

    title: str
    x: float
    y: float
    w: float
    h: float
    shape: str
    colour: str | None
    kind: str
    name: str = ""
    cards: list[Card] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    text: str = ""
    text_colour: str | None = None
    size: int | None = 0  # None: a number this seat may not know (size_visibility)
    stacked: bool = False
    choice: str | None = None
    detail: str = "full"
    image: str | None = None  # a data: address (the layout's image, read at load)
    ids: list[int] = field(default_factory=list)  # the board cell or edge it draws (Area.part)
    line: tuple[float, float, float, float] | None = None  # a graph's edge: from, to (Area.line)
    segments: int = 0
    side: str = ""  # a graph's space: where its name is written (Area.side)
    rotation: int = 0  # degrees clockwise its picture is turned (a tile laid turned)
    mirror: bool = False  # its picture mirrored (east and west swapped) before it is turned


@dataclass
class DrawnBoard:
    width: float
    height: float
    cell: int
    places: list[Place]
    grid: bool = False  # the cells of declared boards: the terminal draws them too (tabula.play.grid)


def draw_board(b: Filler, layout: BoardLayout, player: int | None) -> DrawnBoard:
    """The board `layout` filled for `player` (None: the table's), as `b`'s seat sees it."""
    places = [_place(b, a, player) for a in layout.areas]
    width, height = layout.width, layout.height
    below = 0.0  # the bottom of the board that grows drawn last: the next is drawn under it
    for board, top in layout.grows:
        top = max(top, below)
        areas, wide, high = grown(b.g, b.view, board, top)
        places += [_place(b, a, player) for a in areas]
        width, height = max(width, wide), max(height, top + high)
        below = top + high + GAP if areas else below
    return DrawnBoard(width, height, layout.cell, places, layout.grid)


MARGIN = 1.0  # cells of free table round the cells a board that grows has so far


def grown(g: CompiledGame, seen: dict[str, Any], board: str, top: float) -> tuple[list[Area], float, float]:
    """The places of the board that grows `board`, drawn `top` cells down, from the cells it has
    in the view `seen` (their x/y marks: public), with its width and height in cells: the bounding
    box of those cells and a margin. Each cell is a place holding its zone, titled with its
    coordinates (`2,-1`), its choice the cell's name (the choice ids name it: `lay:land7`)."""
    table = g.boards.tables[board]
    xs, ys = seen["m"].get("x") or [], seen["m"].get("y") or []
    cells = []
    for i, cid in enumerate(table.cells[0]):  # added in order, never taken away: the first n
        x, y = (xs[cid], ys[cid]) if cid < len(xs) else (None, None)
        if not isinstance(x, int) or not isinstance(y, int):
            break
        cells.append((i, x, y, spot(table.geometry.kind, x, y)))
    if not cells:
        return [], 0.0, 0.0
    x0 = min(s[0] for *_, s in cells) - 0.5 - MARGIN
    y0 = min(s[1] for *_, s in cells) - 0.5 - MARGIN
    shape = "rect" if table.geometry.kind == "square" else "circle"
    areas = []
    for i, x, y, (sx, sy) in cells:
        name = table.geometry.names[i]
        area = Area("zone", f"{table.zone}({name})", f"{x},{y}", sx - 0.5 - x0, sy - 0.5 - y0 + top, 1.0, 1.0)
        area.shape, area.choice, area.part, area.detail = shape, name, (board, "cell", i), "short"
        areas.append(area)
    width = max(s[0] for *_, s in cells) + 0.5 + MARGIN - x0
    height = max(s[1] for *_, s in cells) + 0.5 + MARGIN - y0
    return areas, round(width, 2), round(height, 2)


def _place(b: Filler, area: Area, player: int | None) -> Place:
    place = Place(area.title, area.x, area.y, area.w, area.h, area.shape, area.colour, "empty", area.name)
    place.choice, place.detail, place.image = area.choice, area.detail, area.image
    place.line, place.segments, place.side = area.line, area.segments, area.side
    if area.part is not None:
        place.ids = [_part_id(b.g, area.part, player)]
        _look(place, b.card(place.ids[0]))
    if area.kind == "zone":
        _zone(b, area, player, place)
        if area.part is not None and place.cards and not place.cards[0].hidden:
            _look(place, place.cards[0])  # a cell shows what lies on it: its tile's colour and picture
    elif area.kind == "counter":
        line = b.counter_line(Row("counter", area.name, area.name), player)
        place.kind, place.text = ("keyed", "") if line.entries else ("text", line.text)
        place.entries = [e for e in line.entries if not area.keys or e.key in area.keys]
    elif area.kind == "var":
        line = b.var_line(Row("var", area.name, area.name), player)
        place.kind, place.text, place.text_colour = "text", line.text, line.colour
    elif area.kind == "value":
        local = {"p": player} if player is not None else {}
        if area.part is not None:  # a board's cell or edge: its template reads `self`
            local["self"] = place.ids[0]
        shown = render(b.g, area.value, b.states, local, labels=b.pres.labels)
        text = b.note(shown, area.title or "layout")
        # nothing (an empty list, none) is an empty slot, not the word "none"
        place.kind, place.text = "text", "" if shown.known and text.strip() in ("none", "[]", "-") else text
        place.text_colour = b.pres.seat_colour(shown.player) if shown.player is not None else None
    return place


def _look(place: Place, card: Card) -> None:
    """A board cell drawn as its presentation draws a component: its colour, picture and turn."""
    place.colour = card.colour or place.colour
    if card.image is not None:
        place.image, place.rotation, place.mirror = card.image, card.rotation, card.mirror
    elif card.rotation:
        place.rotation = card.rotation


def _part_id(g: CompiledGame, part: tuple[str, str, int], player: int | None) -> int:
    """The component of a board's cell or edge, in the copy of `player`'s board (a per-player one)."""
    board, kind, index = part
    table = g.boards.tables[board]
    copy = player if table.per_player and player is not None else 0
    return (table.cells if kind == "cell" else table.edges)[copy][index]


def _zone(b: Filler, area: Area, player: int | None, place: Place) -> None:
    layout = b.g.zones[area.name]
    ids, size = zone_members(b.view, layout.index(player))
    ids = [cid for cid in ids if _matches(b, cid, area.where)]
    cards = [b.card(cid) for cid in ids]
    b.attach(area.name, player, cards)
    place.kind, place.size = "cards", None if size is None else len(ids)
    if len(cards) > area.stack:
        cards, place.stacked = stacks(cards), True
    place.cards = merge_hidden(cards)


def _matches(b: Filler, cid: int, where: dict[str, str]) -> bool:
    if not where:
        return True
    if not 0 <= cid < len(b.g.components):
        return False  # a hidden component matches no value
    for prop, want in where.items():
        marks = b.view["m"].get(prop)
        value = marks[cid] if marks is not None else b.g.components[cid].props.get(prop)
        if _text(value) != want:
            return False
    return True


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def stacks(cards: list[Card]) -> list[Card]:
    """Cards of the same title (and hidden ones) as one card each, with how many there are."""
    out: dict[tuple[bool, str], Card] = {}
    for card in cards:
        key = (card.hidden, card.title)
        if key in out:
            out[key].count += card.count
            out[key].ids = out[key].ids + card.ids
        else:
            out[key] = card
    return list(out.values())
