"""Boards as data: the `boards` section made into components, zones and geometry tables.

Stage: load (after packs are applied, before `for:` instances and the schema). Each board becomes
a component type named after it (one component per cell or space: name `a1`... or the space's
name, properties `x` and `y`, the board's marks; one copy per seat for `per: player`), a graph's
edges a type `BOARD_edge` (name `A-B`, property `ends: [A, B]` and the edge's own properties),
and `holds:` a zone family keyed by the cells (`on_BOARD(c)`, docs/language.md §1.1). The
positions of what is made are the board's, so every later diagnostic points into `boards:`.

`geometry` computes, once, what the spatial builtins look up (run/boards.py): each cell's
coordinates, the next cell in each direction, its neighbours, and a graph's edges. A board that
grows (`grows: true`) is a pool of `max_cells` cells named `land1`, `land2` ... in the order they
are added, with marks `x` and `y` (none until added) instead of properties: the engine adds them
while playing (run/boards.py `grow`), so its geometry has only directions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabula.interpreter.base import limits
from tabula.interpreter.base.source import Report, did_you_mean
from tabula.interpreter.base.types import type_of_value
from tabula.interpreter.load.positions import GameSource, YamlPath, span_for

SQUARE_DIRS = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
DIAGONAL_DIRS = {"ne": (1, -1), "se": (1, 1), "sw": (-1, 1), "nw": (-1, -1)}
# axial coordinates (q, r) as (x, y), pointy-top hexes: a row is drawn half a cell right of the last
HEX_DIRS = {"e": (1, 0), "ne": (1, -1), "nw": (0, -1), "w": (-1, 0), "sw": (-1, 1), "se": (0, 1)}


@dataclass
class Geometry:
    """A board's cells (or spaces) by index, with everything the spatial builtins look up."""

    kind: str
    names: list[str]
    coords: list[tuple[int, int]]
    directions: list[str] = field(default_factory=list)
    step: dict[str, list[int]] = field(default_factory=dict)  # direction -> next cell's index, or -1
    neighbours: list[list[int]] = field(default_factory=list)
    edges: list[tuple[int, int]] = field(default_factory=list)  # graph: the two spaces' indices
    edge_names: list[str] = field(default_factory=list)
    incident: list[list[int]] = field(default_factory=list)  # graph: each space's edges
    grows: bool = False  # cells added while playing: their coordinates are marks (run/boards.py)
    offsets: dict[str, tuple[int, int]] = field(default_factory=dict)  # direction -> (dx, dy)

    def index(self, x: int, y: int) -> int:
        """The cell at (x, y), or -1."""
        return self._at.get((x, y), -1)

    @property
    def _at(self) -> dict[tuple[int, int], int]:
        at = self.__dict__.get("_at_table")
        if at is None:
            at = self.__dict__["_at_table"] = {xy: i for i, xy in enumerate(self.coords)}
        return at


def column_name(x: int) -> str:
    """a, b, ..., z, aa, ab, ...: a column as chess names it."""
    out = ""
    x += 1
    while x:
        x, r = divmod(x - 1, 26)
        out = chr(ord("a") + r) + out
    return out


GROWN_CELLS = 1_000  # the cells of a board that grows, unless it says `max_cells:`


def geometry(bdef: dict[str, Any], name: str = "") -> Geometry:
    """The geometry of a board that `expand_boards` accepted (`name`: a board that grows names its
    cells after it, `land1` ...)."""
    kind = str(bdef.get("kind"))
    if kind == "graph":
        return _graph(bdef)
    if bdef.get("grows"):
        return _grown(kind, bdef, name)
    w, h = bdef["size"]
    mask = bdef.get("mask")
    coords = [(x, y) for y in range(h) for x in range(w) if mask is None or mask[y][x] == "#"]
    names = [f"{column_name(x)}{y + 1}" for x, y in coords]
    dirs = (
        dict(HEX_DIRS)
        if kind == "hex"
        else {**SQUARE_DIRS, **(DIAGONAL_DIRS if bdef.get("diagonal") else {})}
    )
    g = Geometry(kind, names, coords, list(dirs))
    for d, (dx, dy) in dirs.items():
        g.step[d] = [g.index(x + dx, y + dy) for x, y in coords]
    g.neighbours = [[g.step[d][i] for d in dirs if g.step[d][i] >= 0] for i in range(len(coords))]
    return g


def _grown(kind: str, bdef: dict[str, Any], name: str) -> Geometry:
    """A board that grows: a pool of cells named in the order they are added, without coordinates
    (each cell's marks x and y hold them once added) nor tables of neighbours (run/boards.py)."""
    dirs = (
        dict(HEX_DIRS)
        if kind == "hex"
        else {**SQUARE_DIRS, **(DIAGONAL_DIRS if bdef.get("diagonal") else {})}
    )
    count = bdef.get("max_cells") or GROWN_CELLS
    names = [f"{name}{i + 1}" for i in range(count)]
    return Geometry(kind, names, [], list(dirs), grows=True, offsets=dirs)


def _graph(bdef: dict[str, Any]) -> Geometry:
    spaces = bdef.get("spaces") or {}
    names = [str(n) for n in spaces]
    g = Geometry("graph", names, [tuple(s["at"]) for s in spaces.values()])
    index = {n: i for i, n in enumerate(names)}
    g.incident = [[] for _ in names]
    g.neighbours = [[] for _ in names]
    for e in bdef.get("edges") or []:
        a, b = index[str(e["from"])], index[str(e["to"])]
        g.incident[a].append(len(g.edges))
        if b != a:
            g.incident[b].append(len(g.edges))
        g.edges.append((a, b))
        g.edge_names.append(f"{names[a]}-{names[b]}")
        for i, j in ((a, b), (b, a)):
            if j not in g.neighbours[i]:
                g.neighbours[i].append(j)
    return g


def expand_boards(source: GameSource, report: Report) -> None:
    """Make each board's components and zones (C010 for a board that cannot be read)."""
    boards = source.data.get("boards")
    if not isinstance(boards, dict):
        return
    for name, bdef in boards.items():
        if not isinstance(bdef, dict) or not _readable(source, str(name), bdef, report):
            continue
        geo = geometry(bdef, str(name))
        _components(source, str(name), bdef, geo, report)
        holds = bdef.get("holds")
        if isinstance(holds, dict):
            _zone(source, str(name), bdef, holds, report)


def _readable(source: GameSource, name: str, bdef: dict[str, Any], report: Report) -> bool:
    """True when the board's shape can be laid out (the schema reports wrong types later)."""
    at: YamlPath = ("boards", name)
    kind = bdef.get("kind")
    if bdef.get("grows") is True:
        return _grows_readable(source, at, bdef, report)
    if kind == "graph":
        return _graph_readable(source, at, bdef, report)
    if kind not in ("square", "hex"):
        return False  # the schema says what kinds there are
    size = bdef.get("size")
    if not (isinstance(size, list) and len(size) == 2 and all(type(v) is int and v > 0 for v in size)):
        _error(source, report, (*at, "size"), f"a {kind} board needs a size [width, height]", "size: [5, 5]")
        return False
    w, h = size
    if w * h > limits.MAX_COMPONENTS:
        _error(
            source,
            report,
            (*at, "size"),
            f"{w}x{h} cells are more than the {limits.MAX_COMPONENTS} components of a game",
        )
        return False
    mask = bdef.get("mask")
    if mask is None:
        return True
    if not isinstance(mask, list) or len(mask) != h:
        _error(
            source,
            report,
            (*at, "mask"),
            f"the mask needs {h} rows, one per row of the board",
            "rows of '#' (a cell) and '.' (no cell)",
        )
        return False
    for y, row in enumerate(mask):
        if not isinstance(row, str) or len(row) != w or set(row) - {"#", "."}:
            _error(
                source,
                report,
                (*at, "mask", y),
                f"row {y} of the mask must be {w} characters, each '#' or '.'",
                "'#' is a cell, '.' no cell",
            )
            return False
    return True


def _grows_readable(source: GameSource, at: YamlPath, bdef: dict[str, Any], report: Report) -> bool:
    """A board that grows: square or hex, no size nor mask, a zone on its cells, one for all players,
    at most `limits.MAX_COMPONENTS` cells (C010)."""
    kind = bdef.get("kind")
    problems: list[tuple[YamlPath, str, str | None, bool]] = []
    if kind not in ("square", "hex"):
        msg = f"a {kind} board cannot grow: only square and hex boards do"
        problems.append(((*at, "grows"), msg, None, False))
    for key in ("size", "mask"):
        if key in bdef:
            hint = "a board that grows adds cells where things are placed: remove size (max_cells: N caps it)"
            problems.append(((*at, key), f"a board that grows has no {key}", hint, True))
    if not isinstance(bdef.get("holds"), dict):
        msg = "a board that grows adds cells where things are placed"
        problems.append(((*at, "grows"), msg, "give it a zone on every cell: holds: {}", False))
    if bdef.get("per") == "player":
        msg, hint = "a board that grows is one for all players", "remove per: player"
        problems.append(((*at, "per"), msg, hint, False))
    most = bdef.get("max_cells")
    if type(most) is int and most > limits.MAX_COMPONENTS:  # the schema says the rest, later
        msg = f"{most} cells are more than the {limits.MAX_COMPONENTS} components of a game"
        problems.append(((*at, "max_cells"), msg, None, False))
    if isinstance(bdef.get("marks"), dict) and {"x", "y"} & set(bdef["marks"]):
        mark = sorted({"x", "y"} & set(bdef["marks"]))[0]
        msg = f"the mark '{mark}' of a cell of a board that grows is the engine's: its coordinate"
        problems.append(((*at, "marks", mark), msg, "give the mark another name", True))
    for where, message, tip, on_key in problems:
        _error(source, report, where, message, tip, key=on_key)
    return not problems and (most is None or (type(most) is int and most >= 1))


def _graph_readable(source: GameSource, at: YamlPath, bdef: dict[str, Any], report: Report) -> bool:
    spaces = bdef.get("spaces")
    if not isinstance(spaces, dict) or not spaces:
        _error(source, report, (*at, "spaces"), "a graph board needs spaces", "spaces: {A: {at: [0, 0]}}")
        return False
    ok = True
    for sname, s in spaces.items():
        xy = s.get("at") if isinstance(s, dict) else None
        if not (isinstance(xy, list) and len(xy) == 2 and all(type(v) is int for v in xy)):
            _error(source, report, (*at, "spaces", sname), f"space '{sname}' needs at: [x, y]", "at: [0, 0]")
            ok = False
    edges = bdef.get("edges") or []
    if not isinstance(edges, list):
        return False
    for i, e in enumerate(edges):
        if not isinstance(e, dict):
            _error(source, report, (*at, "edges", i), "an edge is {from: A, to: B, ...properties}")
            ok = False
            continue
        for end in ("from", "to"):
            v = e.get(end)
            if str(v) not in spaces:
                msg = f"edge {i} has no '{end}'" if v is None else f"edge {i} joins the unknown space '{v}'"
                where = (*at, "edges", i) if v is None else (*at, "edges", i, end)
                _error(source, report, where, msg, did_you_mean(str(v), [str(s) for s in spaces]))
                ok = False
        clash = {"ends", "name", "x", "y"} & set(e)
        if clash:
            _error(
                source,
                report,
                (*at, "edges", i, sorted(clash)[0]),
                f"'{sorted(clash)[0]}' is a property the edge gets from the board",
                key=True,
            )
            ok = False
    return ok


def _components(source: GameSource, name: str, bdef: dict[str, Any], geo: Geometry, report: Report) -> None:
    comps = source.data.setdefault("components", {})
    per = bdef.get("per") == "player"
    made = {name: _cell_type(geo, bdef, per)}
    if geo.kind == "graph":
        made[f"{name}_edge"] = _edge_type(geo, bdef, per)
    at: YamlPath = ("boards", name)
    for tname, tdef in made.items():
        if not isinstance(comps, dict) or tname in comps:
            _error(
                source,
                report,
                at,
                f"board '{name}' makes the component type '{tname}', which is declared too",
                "rename the board or the component type",
                key=True,
            )
            continue
        comps[tname] = tdef
        edge = tname != name
        _alias(source, ("components", tname), at)
        _alias(source, ("components", tname, "marks"), (*at, "edge_marks" if edge else "marks"))
        for i in range(len(tdef["instances"])):
            _alias(source, ("components", tname, "instances", i), (*at, "edges", i) if edge else at)


def _cell_type(geo: Geometry, bdef: dict[str, Any], per: bool) -> dict[str, Any]:
    if geo.grows:  # coordinates are given as cells are added: marks, none until then
        coord = {"initial": None, "type": "int", "visibility": "public"}
        return {
            "marks": {**dict(bdef.get("marks") or {}), "x": dict(coord), "y": dict(coord)},
            "per_player": False,
            "instances": [{"name": n} for n in geo.names],
        }
    instances = [{"name": n, "x": x, "y": y} for n, (x, y) in zip(geo.names, geo.coords, strict=True)]
    return {
        "properties": {"x": "int", "y": "int"},
        "marks": dict(bdef.get("marks") or {}),
        "per_player": per,
        "instances": instances,
    }


def _edge_type(geo: Geometry, bdef: dict[str, Any], per: bool) -> dict[str, Any]:
    props: dict[str, str] = {"ends": "list"}
    instances = []
    for (a, b), ename, e in zip(geo.edges, geo.edge_names, bdef.get("edges") or [], strict=True):
        own = {k: v for k, v in e.items() if k not in ("from", "to")}
        for k, v in own.items():
            props.setdefault(k, _type_name(v))
        instances.append({"name": ename, "ends": [geo.names[a], geo.names[b]], **own})
    return {
        "properties": props,
        "marks": dict(bdef.get("edge_marks") or {}),
        "per_player": per,
        "instances": instances,
    }


def _type_name(v: Any) -> str:
    """The property type of an edge's value: int, bool, str, list or any."""
    t = type_of_value(v)
    return "list" if t.startswith("list") else t if t in ("int", "bool", "str") else "any"


def _zone(source: GameSource, name: str, bdef: dict[str, Any], holds: dict[str, Any], report: Report) -> None:
    zones = source.data.setdefault("zones", {})
    zname = str(holds.get("zone") or f"on_{name}")
    at: YamlPath = ("boards", name, "holds")
    if not isinstance(zones, dict) or zname in zones:
        _error(
            source,
            report,
            at,
            f"board '{name}' holds the zone '{zname}', which is declared too",
            "give the zone another name: holds: {zone: NAME}",
            key=True,
        )
        return
    zdef: dict[str, Any] = {"visibility": holds.get("visibility", "public"), "keys": name}
    if bdef.get("per") == "player":
        zdef["per"] = "player"
    if holds.get("ordered"):
        zdef["ordered"] = True
    if holds.get("max") is not None:
        zdef["max"] = holds["max"]
    zones[zname] = zdef
    _alias(source, ("zones", zname), at)


def _alias(source: GameSource, made: YamlPath, at: YamlPath) -> None:
    """What was made at `made` is reported where the board wrote it, `at`."""
    for table in (source.key_span, source.value_span):
        span = table.get(at) or source.key_span.get(at) or span_for(source, at)
        if span is not None:
            table[made] = span


def _error(
    source: GameSource, report: Report, at: YamlPath, message: str, hint: str | None = None, key: bool = False
) -> None:
    report.error("C010", message, span_for(source, at, key=key), hint)
