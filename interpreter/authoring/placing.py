"""The presentation's keys for placing and drawing pieces (docs/presentation.md): `pieces` (the
piece an action's choices put on a board cell, and the degrees each turns it), the actions that
`choices` labels by name, and a tile type's `sides` (its picture drawn from its sides), compiled
with the rest of the section by `presentation.py` (codes P017, P018).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from tabula.interpreter.base.source import Report, did_you_mean
from tabula.interpreter.base.types import PLAYER
from tabula.interpreter.load.positions import YamlPath
from tabula.interpreter.model.game import Closure, CompiledGame


class Compiler(Protocol):
    """What these need of the presentation's compiler."""

    g: CompiledGame
    report: Report
    colours: dict[str, str]

    def span(self, *path: str | int, key: bool = False) -> Any: ...

    def typed(self, text: str, path: YamlPath, local: dict[str, str]) -> tuple[Closure, str] | None: ...

    def colour(self, value: Any, path: YamlPath) -> str: ...


@dataclass
class PieceLook:
    """The piece the choices of an action put on a board cell, previewed there before the choice:
    `piece` (read once a decision, `p` bound to who decides), turned by `rotation` (degrees
    clockwise, the action's parameters bound by name), mirrored first where `mirror` is true."""

    piece: tuple[Closure, str]
    rotation: tuple[Closure, str] | None = None
    mirror: tuple[Closure, str] | None = None


def action_params(c: Compiler, action: str, path: YamlPath) -> dict[str, str] | None:
    """An action's parameters -> their types (None, P017, when the game has no such action)."""
    act = c.g.actions.get(action)
    if act is None:
        c.report.error(
            "P017",
            f"no action named '{action}'",
            c.span(*path, key=path[-1] != "action"),
            did_you_mean(action, c.g.actions),
        )
        return None
    return {name: t for name, _, t in act.params}


def compile_pieces(c: Compiler, data: dict[str, Any]) -> dict[str, PieceLook]:
    """Action -> the piece its choices put on a board, and how each choice turns it."""
    out = {}
    for action, item in data.items():
        params = action_params(c, str(action), ("pieces", action))
        if params is None or not isinstance(item, dict):
            continue
        piece = c.typed(str(item.get("piece", "")), ("pieces", action, "piece"), {"p": PLAYER})
        ways: dict[str, Any] = {}  # rotation, mirror: the action's parameters bound
        for key in ("rotation", "mirror"):
            if item.get(key) is not None:
                ways[key] = c.typed(str(item[key]), ("pieces", action, key), {**params, "p": PLAYER})
        if piece is not None:
            out[str(action)] = PieceLook(piece, ways.get("rotation"), ways.get("mirror"))
    return out


def side_looks(c: Compiler, ctype: str, data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """A tile type's terrains -> (colour, ground | area | line); P018 for a type without sides."""
    spec = c.g.boards.tiles.get(ctype)
    if spec is None or spec.count != 4:
        c.report.error(
            "P018",
            f"'{ctype}' has no four sides to draw",
            c.span("components", ctype, "sides", key=True),
            "a picture is drawn from the sides of a square tile type (`sides:` of a component type)",
        )
        return {}
    out = {}
    for terrain, how in data.items():
        how = how if isinstance(how, dict) else {}
        colour = c.colours.get(str(how.get("colour")))
        if colour is None:
            colour = c.colour(how.get("colour"), ("components", ctype, "sides", terrain, "colour"))
        out[str(terrain)] = (colour, str(how.get("draw") or "ground"))
    return out
