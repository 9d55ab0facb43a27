"""`presentation.layout`, compiled: boards drawn from data (docs/presentation.md, "Boards").

Input: the section's `layout` (plain data with positions) and the presentation's compiler, which
locates problems and compiles templates. Output: a `Layout` of `BoardLayout`s (the table's, and one
drawn for each player), each a list of `Area`s: a shape at a position in cells holding a zone (only
the components whose property or mark has a value, if `where` says so), a counter (some of its
keys), a var, a value (a template) or nothing, and an image of the game's folder (`images.py`).
Mistakes are located diagnostics, codes P011-P016.
Building what a seat sees of a board is `tabula.play.layout`'s job; drawing it, the page's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tabula.interpreter.authoring.boardlayout import declared_boards
from tabula.interpreter.authoring.images import ImageError, image_data
from tabula.interpreter.base.source import Report, did_you_mean
from tabula.interpreter.base.types import PLAYER
from tabula.interpreter.model.game import CompiledGame

KINDS = ("zone", "counter", "var", "value")


@dataclass
class Area:
    """One place of a board. `kind` is zone | counter | var | value | empty; `value` is a Template."""

    kind: str
    name: str
    title: str
    x: float
    y: float
    w: float
    h: float
    shape: str = "round"
    colour: str | None = None
    where: dict[str, str] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)
    value: Any = None
    stack: int = 12
    choice: str | None = None
    detail: str = "full"
    image: str | None = None  # a `data:` address of the image file (images.py)
    # a declared board's cell or edge this place draws: (board, "cell" | "edge", index); the
    # component is that board's copy of the seat drawn (tools/play/layout.py), so a choice naming
    # that very component highlights it and not the same-named cell of another player's board
    part: tuple[str, str, int] | None = None
    # a graph's edge (shape `edge`, maplayout.py): its line's two ends, in cells, and how many
    # segments it is drawn as (its length; 0: one line)
    line: tuple[float, float, float, float] | None = None
    segments: int = 0
    side: str = ""  # a graph's space (shape `dot`): where its name is, below | above | right | left


@dataclass
class BoardLayout:
    width: float
    height: float
    cell: int
    areas: list[Area]
    grid: bool = False  # the declared boards' cells (boardlayout.py): the terminal draws them as text
    # the boards that grow (boardlayout.py), each with how far down it is drawn, in cells: their
    # cells are placed from their x/y marks when a seat's board is built (tools/play/layout.py)
    grows: list[tuple[str, float]] = field(default_factory=list)


@dataclass
class Layout:
    table: BoardLayout | None = None
    player: BoardLayout | None = None


class LayoutCompiler(Protocol):
    """What compiling a layout needs of the presentation's compiler."""

    g: CompiledGame
    report: Report

    def span(self, *path: str | int, key: bool = False) -> Any: ...

    def template(self, text: str, path: Any, local: dict[str, str], shift: int = 0) -> Any: ...

    def colour(self, value: Any, path: Any) -> str: ...

    def folder(self) -> Path: ...


def compile_layout(c: LayoutCompiler, data: Any, colours: dict[str, str]) -> Layout:
    """The layout of `data` (the section's `layout:`), every problem reported through `c`."""
    out = Layout()
    for where in ("table", "player"):
        board = data.get(where) if isinstance(data, dict) else None
        if isinstance(board, dict):
            setattr(out, where, _board(c, board, where, colours))
        else:  # the boards the game declares, drawn by default (boardlayout.py)
            setattr(out, where, declared_boards(c, where == "player", Area, BoardLayout, colours))
    return out


def _board(c: LayoutCompiler, data: dict[str, Any], where: str, colours: dict[str, str]) -> BoardLayout:
    width, height = float(data.get("width", 12)), float(data.get("height", 6))
    areas = []
    for i, raw in enumerate(data.get("areas") or []):
        area = _area(c, raw, ("layout", where, "areas", i), where == "player", colours)
        if area is None:
            continue
        if area.x < 0 or area.y < 0 or area.x + area.w > width or area.y + area.h > height:
            c.report.warning(
                "P014",
                f"this place ({area.x:g}, {area.y:g}, {area.w:g}x{area.h:g}) goes past the board "
                f"({width:g}x{height:g} cells)",
                c.span("layout", where, "areas", i, "at"),
                f"make the board bigger (layout.{where}.width/height) or move the place",
            )
        areas.append(area)
    return BoardLayout(width, height, int(data.get("cell", 80)), areas)


def _area(
    c: LayoutCompiler,
    raw: dict[str, Any],
    path: tuple[str | int, ...],
    per_player: bool,
    colours: dict[str, str],
) -> Area | None:
    named = [k for k in KINDS if raw.get(k) is not None]
    if len(named) > 1:
        c.report.error(
            "P012",
            f"a place holds one thing, not {' and '.join(named)}",
            c.span(*path, named[1], key=True),
            "make two places, one on top of the other",
        )
        return None
    kind = named[0] if named else "empty"
    name = str(raw.get(kind, "")) if named else ""
    at, size = list(raw.get("at") or [0, 0]), list(raw.get("size") or [1, 1])
    area = Area(
        kind, name, str(raw.get("title") or ""), float(at[0]), float(at[1]), float(size[0]), float(size[1])
    )
    area.shape = str(raw.get("shape", "round"))
    area.stack = int(raw.get("stack", 12))
    area.detail = str(raw.get("detail", "full"))
    area.choice = None if raw.get("choice") is None else str(raw["choice"])
    if raw.get("colour") is not None:
        word = str(raw["colour"])
        area.colour = colours.get(word) or c.colour(word, (*path, "colour"))
    if raw.get("image") is not None:
        area.image = compile_image(c, str(raw["image"]), (*path, "image"))
    if kind == "value":
        local = {"p": PLAYER} if per_player else {}
        area.value = c.template("{" + name + "}", (*path, "value"), local, -1)
        return area if area.value is not None else None
    if kind in ("zone", "counter", "var") and not _known(c, kind, name, (*path, kind), per_player):
        return None
    area.keys = [str(k) for k in raw.get("keys") or []]
    area.where = {str(k): str(v) for k, v in (raw.get("where") or {}).items()}
    _check_details(c, area, path)
    return area


def compile_image(c: LayoutCompiler, name: str, path: tuple[str | int, ...]) -> str | None:
    """The `data:` address of image file `name` of the game's folder, or None (P015/P016 reported)."""
    try:
        return image_data(c.folder(), name)
    except ImageError as err:
        say = c.report.error if err.severity == "error" else c.report.warning
        say(err.code, str(err), c.span(*path), err.hint)
        return None


def _known(c: LayoutCompiler, kind: str, name: str, path: tuple[str | int, ...], per_player: bool) -> bool:
    g = c.g
    tables: dict[str, dict[str, Any]] = {
        "zone": dict(g.zones),
        "counter": dict(g.counters),
        "var": dict(g.vars),
    }
    table = tables[kind]
    found = table.get(name)
    if found is None:
        c.report.error("P011", f"no {kind} named '{name}'", c.span(*path), did_you_mean(name, table))
        return False
    if bool(found.per_player) != per_player:
        scope = "for each player" if found.per_player else "global"
        board = "player" if found.per_player else "table"
        c.report.error("P011", f"'{name}' is {scope}: it belongs on layout.{board}", c.span(*path))
        return False
    return True


def _check_details(c: LayoutCompiler, area: Area, path: tuple[str | int, ...]) -> None:
    g = c.g
    if area.where and area.kind != "zone":
        c.report.error(
            "P013", "'where' picks components of a zone: this place shows no zone", c.span(*path, "where")
        )
    props = {k for comp in g.components for k in comp.props} | set(g.marks)
    for prop in area.where:
        if prop not in props:
            c.report.error(
                "P013",
                f"no component has a property or mark named '{prop}'",
                c.span(*path, "where", prop, key=True),
                did_you_mean(prop, props),
            )
    if area.keys:
        keys = list(g.counters[area.name].keys or []) if area.kind == "counter" else []
        for i, key in enumerate(area.keys):
            if key not in keys:
                c.report.error(
                    "P013",
                    f"'{key}' is no key of {area.kind} '{area.name}'",
                    c.span(*path, "keys", i),
                    did_you_mean(key, keys) or f"keys: {', '.join(keys) or 'none'}",
                )
