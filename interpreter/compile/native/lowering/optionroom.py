"""The room a window's options are given when an action has several parameters: the product of
the parameters' domains, where each is bounded when the game is lowered (a zone or a component
type: the components; the players; a constant or a literal list: its length; a range between
numbers; a list made of one of these: that one's bound; else by the items' type, none for numbers).
slots.py `Layout` gives the pending decision room for the largest of this and the old room (the
list room, actions x components), up to ROOM_CAP options; past it a window of more options than the
room stops native code (E_SIZE) and Python plays that window, as before."""

from __future__ import annotations

from math import prod

from tabula.interpreter.compile.native.lowering import ir
from tabula.interpreter.model.game import CompiledGame

ROOM_CAP = 4096  # options at most (a state holds DSTRIDE words an option: 36 kB at 9 words)


def values_bound(
    src: ir.Expr, game: CompiledGame, tables: dict[str, tuple[list[int], str]], nsym: int
) -> int | None:
    """The most values a parameter's list can hold, or None when it is not bounded statically."""
    if isinstance(src, ir.Source):
        if src.kind in ("zone", "type"):
            return len(game.components)
        if src.kind in ("players", "clockwise", "others"):
            return game.max_players
        if src.kind == "const" and src.name in tables:
            return len(tables[src.name][0])
        if src.kind == "range" and isinstance(src.expr, ir.Lit) and isinstance(src.upper, ir.Lit):
            return max(0, src.upper.value - src.expr.value)
        if src.kind == "list" and src.expr is not None:
            return values_bound(src.expr, game, tables, nsym)
    if isinstance(src, ir.ListLit):
        return len(src.items)
    if isinstance(src, ir.Picked):
        return values_bound(src.src, game, tables, nsym)
    item = ir.elem(src.ty)
    return {ir.COMP: len(game.components), ir.PLAYER: game.max_players, ir.SYM: nsym, ir.BOOL: 2}.get(item)


def option_room(
    actions: list[ir.Action], game: CompiledGame, tables: dict[str, tuple[list[int], str]], nsym: int
) -> int:
    """The options the actions of more than one parameter can offer in one window (the sum of
    each one's product of bounds; an unbounded one counts nothing), at most ROOM_CAP."""
    total = 0
    for act in actions:
        if len(act.params) > 1:
            bounds = [values_bound(src, game, tables, nsym) for _, src in act.params]
            total += 0 if None in bounds else prod(b for b in bounds if b is not None)
    return min(total, ROOM_CAP)
