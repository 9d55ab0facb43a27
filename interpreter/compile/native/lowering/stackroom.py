"""The C stack a game's native code may use: bounded when the game is lowered, and probed as it runs.

Stage: compile (native). A list value in C is a struct of LCAP words (prelude.py's `L`, LCAP the most
components, symbols or seats the game has) kept on the C stack: 160 kB in a game of 20,000
components, so one expression concatenating thirty comprehensions needed more stack than a thread
has and crashed the process. Two bounds keep a native run inside its stack:

- When the game is lowered, each rule's typed form (and each function or procedure it made) is
  weighed: `FRAME_COPIES` list values of LCAP + 1 words for each list-typed node (but the walks
  of a type's components, the players or a constant, which copy nothing, and a named list read:
  the C reads it where it is). A rule heavier
  than `FRAME_ROOM` is refused (N001 at the rule): the game runs on the Python backend.
- As it runs, every generated function, procedure, action or effect holding a list value first
  probes the stack used since the entry point (`deep_stack`, triggers.STACK_ROOM); past it, native code stops
  (E_DEPTH) and Python runs the decision, as it does for emits too deep. Calls among functions
  cannot recurse natively (refused), so a chain of calls is what the probe bounds.

The probe runs once its function's frame is made, so it counts that frame: the stack a native run
touches stays under STACK_ROOM plus a frame (at most FRAME_ROOM, reached before it is probed) and
the small frames of what holds no list, inside a thread's usual 8 MB.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tabula.interpreter.compile.native.lowering import ir
from tabula.interpreter.model.game import CompiledGame

FRAME_ROOM = 1 << 22
"""The most bytes of list values one rule may keep on the C stack (4 MB): a game of 2,000
components may hold 128 list-typed nodes in a rule, one of 200 components 1,280. The weight is an
upper bound: gcc's own count (-fstack-usage) of the frame of 30 comprehensions concatenated at
20,000 components is 19 MB, two copies a node; tests/native/games/sink's trigger, weighed 2.2 MB,
takes 0.5 MB. A frame this large on top of STACK_ROOM still fits a thread's usual 8 MB."""
IN_PLACE = {"type", "players", "const", "range", "clockwise", "others"}  # sources walked, not copied
FRAME_COPIES = 2  # a list-typed node may leave two copies on the frame (a value and its return slot)
PROBE = "if (deep_stack(x)) fail(x, E_DEPTH);"  # the probe a function holding list values starts with


def list_nodes(node: Any) -> int:
    """The list-typed expressions in a piece of the typed form (an expression, statements, a tuple)."""
    if isinstance(node, (tuple, list)):
        return sum(list_nodes(x) for x in node)
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return 0
    listed = str(getattr(node, "ty", "")).startswith("list[") and not isinstance(node, ir.Local)
    own = int(listed and getattr(node, "kind", "") not in IN_PLACE)
    return own + sum(list_nodes(getattr(node, f.name)) for f in dataclasses.fields(node))


def list_cap(game: CompiledGame, symbols: int, tables: dict[str, tuple[list[int], str]]) -> int:
    """LCAP as units.py writes it: the longest list the game can make, plus one."""
    longest = max((len(w) for k, (w, _) in tables.items() if not k.startswith("TL_")), default=0)
    # a tile feature: at most every part of every tile (TL_N: each tile's parts; tables only)
    tiles = sum(n for n in tables.get("TL_N", ([], ""))[0] if n > 0)
    return max(len(game.components), symbols, game.max_players, longest, tiles, 16) + 1


def frame_bytes(node: Any, cap: int) -> int:
    """The stack the list values of `node` may take, in bytes."""
    return list_nodes(node) * FRAME_COPIES * (cap + 1) * 8


def too_deep(bodies: list[Any], cap: int) -> int | None:
    """The bytes of the heaviest of `bodies` when one needs more than FRAME_ROOM, else None."""
    worst = max((frame_bytes(b, cap) for b in bodies), default=0)
    return worst if worst > FRAME_ROOM else None


def message(size: int) -> str:
    return (
        f"a rule whose list values take {size // 1024} kB of C stack (at most {FRAME_ROOM // 1024} kB:"
        " each list value holds room for every component)"
    )


HINT = "split the rule, or keep fewer lists in one expression: this game runs on the Python backend"
