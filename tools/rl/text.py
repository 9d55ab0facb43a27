"""A player's view as text: the observation string of the OpenSpiel and PettingZoo adapters.

One line per fact, in a fixed order (who sees, who moves, flow, counters, vars, zones, marks that
differ from their default, the viewer's choices), computed from `Engine.view(state, player)` only.
Components read as their unique keys (`Road#2`), components hidden from the viewer as `?`, players
by name.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.base.types import COMP, PLAYER, elem
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.view import var_unseen, zone_members


def _value(game: CompiledGame, names: list[str], v: Any, t: str) -> str:
    """A value of static type `t` as text."""
    if isinstance(v, list):
        return "[" + ", ".join(_value(game, names, x, elem(t)) for x in v) + "]"
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int) and t == COMP:
        return game.components[v].key if 0 <= v < len(game.components) else "?"
    if isinstance(v, int) and t == PLAYER and 0 <= v < len(names):
        return names[v]
    return str(v)


def observation_string(game: CompiledGame, view: dict[str, Any]) -> str:
    """The view of one player as lines of text."""
    names: list[str] = view["names"]
    n = len(names)
    viewer = int(view["viewer"])
    dec = view["dec"]
    t = view["t"]
    lines = [f"{game.name}: seen by {names[viewer]} (seat {viewer + 1} of {n})"]
    lines.append("game over" if dec is None else f"to move: {names[dec['p']]}")
    active = _value(game, names, t.get("active"), PLAYER)
    lines.append(f"round {t.get('round')}, turn {t.get('turn')}, active {active}")
    lines.extend(_counters(game, view, names))
    lines.extend(_vars(game, view, names))
    lines.extend(_zones(game, view, names))
    lines.extend(_marks(game, view, names))
    revealed = [game.components[c].key for c, r in enumerate(view["rv"]) if r]
    if revealed:
        lines.append("revealed: " + ", ".join(revealed))
    if dec is not None and "ids" in dec:
        lines.append("choices: " + ", ".join(dec["ids"]))
    return "\n".join(lines)


def _counters(game: CompiledGame, view: dict[str, Any], names: list[str]) -> list[str]:
    values = view["c"]
    out = []
    for c in game.counters.values():
        seats = list(range(len(names))) if c.per_player else [0]
        parts = []
        for p in seats:
            base = c.base + p * c.width
            if c.keys:
                inner = " ".join(f"{k}={_count(values[base + i])}" for i, k in enumerate(c.keys))
                parts.append(f"{names[p]}: {inner}" if c.per_player else inner)
            else:
                parts.append(f"{names[p]}={_count(values[base])}" if c.per_player else _count(values[base]))
        out.append(f"counter {c.name}: " + "; ".join(parts))
    return out


def _count(value: Any) -> str:
    """A counter's value as the viewer knows it: `?` when it is secret to them."""
    return "?" if value is None else str(value)


def _vars(game: CompiledGame, view: dict[str, Any], names: list[str]) -> list[str]:
    out = []
    for name, var in game.vars.items():
        v = view["v"].get(name)
        if var.per_player and isinstance(v, list):
            text = "; ".join(
                f"{names[p]}={'?' if var_unseen(game, view, name, p) else _value(game, names, x, var.type)}"
                for p, x in enumerate(v)
            )
        else:
            text = _value(game, names, v, var.type) if not var_unseen(game, view, name, None) else "?"
        out.append(f"var {name}: {text}")
    return out


def _zones(game: CompiledGame, view: dict[str, Any], names: list[str]) -> list[str]:
    out = []
    for z in sorted(game.zones.values(), key=lambda z: z.base):
        owners: list[int | None] = list(range(len(names))) if z.per_player else [None]
        for owner in owners:
            zone, size = zone_members(view, z.base + (owner or 0))
            label = z.ref(None if owner is None else names[owner])
            shown = [game.components[c].key if c >= 0 else "?" for c in zone]
            count = "" if size is not None else " (how many: ?)"  # a size secret to the viewer
            out.append(f"zone {label}: " + (", ".join(shown) if shown else "-") + count)
    return out


def _marks(game: CompiledGame, view: dict[str, Any], names: list[str]) -> list[str]:
    out = []
    for name, default in game.marks.items():
        values = view["m"].get(name, [])
        changed = [
            f"{game.components[c].key}={_value(game, names, v, 'any')}"
            for c, v in enumerate(values)
            if v is not None and v != default
        ]
        if changed:
            out.append(f"mark {name}: " + ", ".join(changed))
    return out
