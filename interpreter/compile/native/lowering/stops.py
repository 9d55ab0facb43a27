"""Which phases may stop inside their block: the phase starts whose checkpoint can be used.

Stage: compile (native). A segment stops at a decision inside an effect: a `choose` or a window
inside a block (prelude.py `pick`, `pick_action`). A phase's start is a checkpoint (runtime
segments.c `checkpoint`): its words are copied to become the segment's first state should the
segment stop before the next phase starts. A phase that can never stop wastes that copy (in a game
whose decisions are all inside effects, about half of the copies a step makes), so the runtime skips
the checkpoint of a phase this module finds cannot stop: a stop after it (in a turn's or round's
hook) replays from the checkpoint before, with the answers since, which reaches the same state. A
phase may stop where its statements, before or after its top-level window, reach a `choose` or a
window inside a block, directly or through procedures, hooks (`run c.hook`) and triggers (`emit`:
the event's dispatcher), and where it has a top-level window and an end check's effect may stop (end
checks fire before the window is posed).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from tabula.interpreter.compile.native.lowering import ir


def phase_stops(prog: ir.Program) -> list[int]:
    """For each phase, 1 when its block may stop at a decision inside an effect, else 0."""
    stopping = stopping_units(prog)
    checks = any(_stops(c.body, stopping) for c in prog.end_checks or [])
    return [
        int(_stops(ph.before, stopping) or _stops(ph.after, stopping) or (ph.window is not None and checks))
        for ph in prog.phases or []
    ]


def _stops(node: Any, stopping: set[str]) -> bool:
    """Whether `node` stops by itself or calls a unit in `stopping`."""
    direct, callees = _walk(node)
    return direct or not callees.isdisjoint(stopping)


def stopping_units(prog: ir.Program) -> set[str]:
    """The procedures, trigger dispatchers and hook dispatchers that may stop (a fixed point:
    a trigger may emit its own event again)."""
    units: dict[str, tuple[bool, set[str]]] = {}
    for name, (_, body) in (prog.procedures or {}).items():
        units[name] = _walk(body)
    for name, disp in (prog.dispatchers or {}).items():
        units[name] = (False, {lis.proc for lis in disp.listeners})
    for name, (_, bodies) in (prog.hooks or {}).items():
        units[name] = (False, {proc for _, proc in bodies})
    stopping = {name for name, (direct, _) in units.items() if direct}
    grown = True
    while grown:
        more = {
            n for n, (_, callees) in units.items() if n not in stopping and not callees.isdisjoint(stopping)
        }
        stopping |= more
        grown = bool(more)
    return stopping


def _walk(node: Any) -> tuple[bool, set[str]]:
    """Whether `node` (statements, an expression or a tuple of them) holds a decision inside an
    effect, and the units it calls by name."""
    callees: set[str] = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, (tuple, list)):
            todo.extend(n)
            continue
        if not dataclasses.is_dataclass(n) or isinstance(n, type):
            continue
        if isinstance(n, ir.Choose) or (isinstance(n, ir.Window) and n.site is not None):
            return True, callees
        if isinstance(n, (ir.RunP, ir.RunHook)):
            callees.add(n.name)
        todo.extend(getattr(n, f.name) for f in dataclasses.fields(n))
    return False, callees


def kept_stores(prog: ir.Program, nested: Callable[[str], bool]) -> set[int]:
    """The statements (their ids) storing a value of a type `nested` tells where Python keeps it
    in the state and measures the whole state (run/budget.py `stored`: a list of lists is never
    light): a var, an argument of a procedure or a hook (its frame's local), and a local of a
    block that may stop at a decision (its frame keeps its locals). Native code does not measure the state:
    it stops there (emit/statements.py `stmt`) and Python plays the decision, charged as it charges it."""
    stopping = stopping_units(prog)
    procs = (prog.procedures or {}).items()
    units: list[tuple[Any, bool]] = [(body, name in stopping) for name, (_, body) in procs]
    blocks = [prog.setup, prog.round_on_start, prog.round_on_end, prog.turn_on_end, prog.finish]
    blocks += [c.body for c in prog.end_checks or []] + [a.body for a in prog.actions or []]
    blocks += [b for ph in prog.phases or [] for b in (ph.before, ph.after)]
    units += [(b, _stops(b, stopping)) for b in blocks if b]
    out: set[int] = set()
    for body, frame in units:
        todo: list[Any] = [body]
        while todo:
            n = todo.pop()
            if isinstance(n, (tuple, list)):
                todo.extend(n)
                continue
            if not dataclasses.is_dataclass(n) or isinstance(n, (type, ir.Expr)):
                continue
            if isinstance(n, (ir.Let, ir.Assign)) and frame and nested(n.value.ty):
                out.add(id(n))
            if isinstance(n, (ir.RunP, ir.RunHook)) and any(nested(a.ty) for a in n.args):
                out.add(id(n))
            if isinstance(n, ir.Store) and n.target.base.startswith("VAR_") and nested(n.value.ty):
                out.add(id(n))  # (a var: always kept; a list of words is weighed by values.c lv_set)
            todo.extend(getattr(n, f.name) for f in dataclasses.fields(n))
    return out


def weighed(s: ir.Stmt) -> ir.Stmt:
    """`s` (a store `kept_stores` found, of a list of words) with each list argument it keeps in
    the state weighed first (runtime values.c `l_kept`; a local is weighed where it lies, once
    stored: emit/statements.py): past LIGHT items, or holding a number Python does not count as small,
    Python would measure the whole state there (run/budget.py `stored`), so native code stops
    (E_SIZE) and Python plays the decision."""

    def kept(e: ir.Expr) -> ir.Expr:
        return ir.CallF("l_kept", (e,), e.ty) if e.ty.startswith("list[") else e

    if isinstance(s, (ir.RunP, ir.RunHook)):
        return dataclasses.replace(s, args=tuple(kept(a) for a in s.args))
    return s
