"""`simultaneous q in L:` in the typed form: a loop over the seats whose `choose ... by q` are
decisions inside an effect, as run/simultaneous.py runs them on the Python backend.

Stage: compile (native). Python runs the step as a resumable loop between `sim_open` (every item a
distinct seat of the game, else R008) and `sim_close`, with each seat's question asked in turn on
the same state; the answers are kept in `t["sim"]` until the last is in. Native words hold no
`sim`: a choice inside the step is a decision inside an effect (runtime/segments.c), whose plain
state is the segment replayed on Python (`Engine.plain`), so `t["sim"]`, the waiting seats and the hidden
answers are Python's own there; the step opens and closes inside one phase, so a state that converts
(a window, a phase's start, the end) never holds an open step (and `from_plain` refuses one). The
list is checked as `sim_open` checks it (C `l_seats`, runtime/lists.c: E_ENTRY, Python replays and
reports R008).
"""

from __future__ import annotations

from tabula.interpreter.compile.native.lowering import ir
from tabula.interpreter.compile.native.lowering.ir import PLAYER, PLAYERS
from tabula.interpreter.compile.native.lowering.lower import Scope, Unsupported
from tabula.interpreter.dsl import ast


def seats(src: ir.Source) -> ir.Source:
    """The step's seats: `players` as they are, any other list checked by `l_seats`."""
    if src.kind in ("players", "clockwise", "others"):
        return src
    return ir.Source("list", ir.CallF("l_seats", (src,), PLAYERS), "", PLAYERS)


class SimultaneousLowering:
    """`_s_Simultaneous` for EffectLowering (a base after Lowering, which gives `source`, and
    EffectLowering `block`). `simultaneous`: the game has such a step (views.py: a state at a
    choice may have one open, which its words do not hold)."""

    simultaneous = False

    def source(self, n: ast.Expr, scope: Scope) -> ir.Source:
        raise NotImplementedError  # lower.py

    def block(self, stmts: ast.Block | None, scope: Scope) -> tuple[ir.Stmt, ...]:
        raise NotImplementedError  # effects.py

    def _s_Simultaneous(self, s: ast.Simultaneous, scope: Scope) -> ir.Stmt:
        src = self.source(s.iter, scope)
        if ir.elem(src.ty) not in (PLAYER, "int"):
            raise Unsupported(f"a simultaneous step over {src.ty}", s.iter.span)
        inner = {**scope, s.var: PLAYER}
        self.simultaneous = True
        return ir.For(s.var, seats(src), None, self.block(s.body, inner))


__all__ = ["SimultaneousLowering"]
