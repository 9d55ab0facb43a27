"""Resumable effects as generated state machines: the only code that can stop for a decision.

Stage: compile. An effect that can suspend (suspend.py) — it holds a `choose` or a `window`, or runs
or triggers something that does — becomes one Python function `R(rt, fr)` over its frame
`fr = [block, pc, locals]`, the way compilers lower an async function: its statements are cut into
numbered pieces at every point where it may stop (a decision, a call that may stop) and at the heads
of loops that contain one, and `pc` says where to go on. Control flow that contains such a point
(`if`, `for`, `while`, `repeat`) becomes jumps between pieces; a `for` loop keeps its item list and
position in hidden locals (`@it1`, `@i1`). Everything between two such points is straight Python
(effects.py), so a frame is pushed only for a procedure or trigger that can itself suspend.

The function returns None when the effect is over, SUSPEND when a decision is pending (its ids in
`state["dec"]`), CALL when it pushed a frame that must run first (then it is called again at `pc`).
The frame of a procedure it runs it calls itself at once, as the run loop would: when that one is
over it goes on, else it returns what that one returned (SUSPEND, or CALL for a frame it pushed).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tabula.interpreter.base.source import Span, did_you_mean
from tabula.interpreter.base.types import PLAYER, WINDOW_PROMPT, Scope, elem
from tabula.interpreter.compile.python.statements.calls import CallStatements
from tabula.interpreter.compile.python.statements.lines import Lines
from tabula.interpreter.dsl import ast
from tabula.interpreter.run import support
from tabula.interpreter.run.runtime import CALL, SUSPEND


class Machine:
    """The numbered pieces of one resumable effect while it is generated."""

    def __init__(self) -> None:
        self.pieces: list[Lines] = []
        self.cur = self.piece()

    def piece(self) -> Lines:
        self.pieces.append(Lines())
        return self.pieces[-1]

    def label(self) -> int:
        self.piece()
        return len(self.pieces) - 1

    def enter(self, label: int) -> None:
        self.cur = self.pieces[label]

    def add(self, text: str, span: Span | None = None, depth: int = 0) -> None:
        self.cur.add(depth, text, span)

    def goto(self, label: int) -> None:
        self.cur.add(0, jump(label))

    def assemble(self, name: str, prologue: list[str]) -> tuple[str, dict[int, Span]]:
        """The function's source: a loop over `pc` that finds its piece by halving the range of
        pcs (a few comparisons, not one per piece before it). A jump to a piece that only jumps goes
        straight to where that one goes, and a piece only one jump goes to is written in place of
        that jump too (it keeps its own place, where a frame may resume). Each line of `prologue`
        (`X = ...`) is kept only when the code uses X."""
        out = ["    pc = fr[1]", "    while True:"]
        spans: dict[int, Span] = {}
        final = self._final_targets()
        refs = [0] * len(self.pieces)
        for k, piece in enumerate(self.pieces):
            if final[k] == k:  # a piece that only jumps is never reached through a jump
                for line in piece.lines:
                    for target in _JUMP.findall(line):
                        refs[final[int(target)]] += 1

        def expand(k: int, pad: str, inside: tuple[int, ...]) -> None:
            piece = self.pieces[k]
            for i, line in enumerate(piece.lines or ["pass"], start=1):
                m = _ONLY_JUMP.fullmatch(line.lstrip())
                if m is not None:
                    to = final[int(m.group(1))]
                    if refs[to] == 1 and to not in inside and len(inside) < _INLINE_DEPTH:
                        expand(to, pad + line[: len(line) - len(line.lstrip())], (*inside, to))
                        continue
                    line = line.replace(m.group(0), f"pc = {to}; continue")
                out.append(pad + line)
                if i in piece.spans:
                    spans[len(out)] = piece.spans[i]

        def emit(lo: int, hi: int, depth: int) -> None:
            pad = "    " * depth
            if hi - lo < _LEAF:
                for k in range(lo, hi + 1):
                    out.append(f"{pad}{'if' if k == lo else 'elif'} pc == {k}:")
                    expand(k, pad + "    ", (k,))
                out.append(f"{pad}else:")
                out.append(f"{pad}    raise {_bad_pc_name}(pc)")
                return
            mid = (lo + hi + 1) // 2
            out.append(f"{pad}if pc < {mid}:")
            emit(lo, mid - 1, depth + 1)
            out.append(f"{pad}else:")
            emit(mid, hi, depth + 1)

        emit(0, len(self.pieces) - 1, 2)
        body = "\n".join(out) + "\n"
        # the prologue's locals (`X = ...`) that the body uses
        head = [f"def {name}(rt, fr):"]
        head += [f"    {line}" for line in prologue if re.search(rf"\b{line.split(' = ')[0]}\b", body)]
        return "\n".join(head) + "\n" + body, {line + len(head): span for line, span in spans.items()}

    def _final_targets(self) -> list[int]:
        """Where a jump to each piece ends up: a piece that is only a jump passes it on."""
        only_jump: dict[int, int] = {}
        for k, piece in enumerate(self.pieces):
            if len(piece.lines) == 1 and not piece.spans:
                m = _ONLY_JUMP.fullmatch(piece.lines[0])
                if m is not None:
                    only_jump[k] = int(m.group(1))
        final = []
        for k in range(len(self.pieces)):
            seen = {k}
            while k in only_jump and only_jump[k] not in seen:
                k = only_jump[k]
                seen.add(k)
            final.append(k)
        return final


# a jump to a piece, written with a marker that generated code cannot otherwise hold (a NUL is
# written as an escape inside any literal), resolved when the machine is assembled
_MARK = "\x00"
_JUMP = re.compile(f"{_MARK}(\\d+){_MARK}")
_ONLY_JUMP = re.compile(f"pc = {_MARK}(\\d+){_MARK}; continue")
_LEAF = 3  # pieces tested one by one at the end of the halving
_INLINE_DEPTH = 4  # pieces written inside each other at most (each keeps its own place too)


def jump(label: int) -> str:
    """The generated statement that goes on at piece `label`."""
    return f"pc = {_MARK}{label}{_MARK}; continue"


_bad_pc_name = "_h_bad_pc"


def bad_pc(pc: Any) -> None:
    from tabula.interpreter.run.runtime import GameRuntimeError

    raise GameRuntimeError(
        f"this saved game is not at a place its effect can resume from (step {pc})", None, "R013"
    )


class MachineCompiler(CallStatements):
    """The resumable half of EffectCompiler (mixed in): see the module docstring. A resumable `run`
    is compiled like a plain one first (its procedure checked, its arguments stored), hence the base
    class."""

    def machine(self, stmts: ast.Block, scope: Scope, tail: list[str] | None = None) -> int:
        """A resumable effect's block id (locals in the frame's dict)."""
        bid = self.new_block(stmts, scope)
        m = Machine()
        if self.instrument:
            m.add(f"rt.g.coverage.add({bid})")
        self.hidden: dict[str, str] = {}
        self.m_stmts(m, list(stmts), scope, bid)
        for line in tail or []:
            m.add(line)
        m.add("return None")
        name = self.mod.fresh("resume")
        text, spans = m.assemble(name, ["L = fr[2]", "S = rt.st", "M = rt.memo"])
        self.mod.ns[_bad_pc_name] = bad_pc
        self.mod.helpers[_bad_pc_name] = (__name__, "bad_pc")
        self.g.blocks[bid] = self.mod.function(text, name, spans)
        self.g.block_pcs[bid] = len(m.pieces)
        self.g.block_local_types[bid] = {**scope.locals, **self.hidden}
        return bid

    def m_stmts(self, m: Machine, stmts: list[ast.Stmt], scope: Scope, bid: int) -> None:
        for s in stmts:
            if self.suspension.stmt(s):
                getattr(self, "_m_" + type(s).__name__)(m, s, scope, bid)
            else:
                self.stmts(m.cur, 0, [s], scope, "dict")

    def m_body(self, m: Machine, stmts: ast.Block, scope: Scope, bid: int) -> None:
        body = self.new_block(stmts, scope)
        self.g.block_local_types[body] = dict(scope.locals)
        if self.instrument:
            m.add(f"rt.g.coverage.add({body})")
        self.m_stmts(m, list(stmts), scope, bid)

    def hide(self, kind: str, t: str) -> str:
        """A hidden local of a machine's loop (its name cannot be a DSL name)."""
        name = f"@{kind}{len(self.hidden)}"
        self.hidden[name] = t
        return name

    # -- control flow around a suspension point
    def _m_If(self, m: Machine, n: ast.If, scope: Scope, bid: int) -> None:
        labels = [m.label() for _ in n.branches]
        other = m.label() if n.otherwise is not None else None
        end = m.label()
        for i, (c, _) in enumerate(n.branches):
            cond = self.ex.cond_code(c, scope)
            m.add(f"{'if' if i == 0 else 'elif'} {cond}:", c.span)
            m.add(jump(labels[i]), depth=1)
        m.goto(other if other is not None else end)
        for label, (_, b) in zip(labels, n.branches, strict=True):
            m.enter(label)
            self.m_body(m, b, scope, bid)
            m.goto(end)
        if other is not None and n.otherwise is not None:
            m.enter(other)
            self.m_body(m, n.otherwise, scope, bid)
            m.goto(end)
        m.enter(end)

    def _m_For(
        self,
        m: Machine,
        n: ast.For,
        scope: Scope,
        bid: int,
        wrap: Callable[[str, str], str] | None = None,
        head: str | None = None,
    ) -> None:
        """A resumable loop; `wrap(items, type)` is the code of the list it runs over and `head` a
        line run first in each iteration, when given (a simultaneous step opens and turns there)."""
        items, t = self.ex.list_code(n.iter, scope)
        if wrap is not None:
            items = wrap(items, t)
        scope.locals[n.var] = elem(t)
        it, i = self.hide("it", t if t.startswith("list[") else "any"), self.hide("i", "int")
        m.add(f"L[{it!r}] = list({items}); L[{i!r}] = 0", n.span)
        top, body, end = m.label(), m.label(), m.label()
        m.goto(top)
        m.enter(top)
        self.m_charge(m, n.span, self.weight(n.body))
        m.add(f"_it = L[{it!r}]; _i = L[{i!r}]")
        m.add("while _i < len(_it):")
        m.add(f"L[{n.var!r}] = _it[_i]; _i += 1", depth=1)
        if n.cond is not None:
            m.add(f"if {self.ex.cond_code(n.cond, scope)}: break", n.cond.span, depth=1)
        else:
            m.add("break", depth=1)
        m.add("else:")
        m.add(f"del L[{it!r}], L[{i!r}]", depth=1)
        m.add(jump(end), depth=1)
        m.add(f"L[{i!r}] = _i")
        m.goto(body)
        m.enter(body)
        if head is not None:
            m.add(head, n.span)
        self.m_body(m, n.body, scope, bid)
        m.goto(top)
        m.enter(end)

    def _m_While(self, m: Machine, n: ast.While, scope: Scope, bid: int) -> None:
        head, body, end = m.label(), m.label(), m.label()
        m.goto(head)
        m.enter(head)
        self.m_charge(m, n.span, self.weight(n.body))
        m.add(f"if {self.ex.cond_code(n.cond, scope)}:", n.span)
        m.add(jump(body), depth=1)
        m.goto(end)
        m.enter(body)
        self.m_body(m, n.body, scope, bid)
        m.goto(head)
        m.enter(end)

    def _m_Repeat(self, m: Machine, n: ast.Repeat, scope: Scope, bid: int) -> None:
        count, t = self.ex.code(n.count, scope)
        self.ex.expect(t, "int", n.count.span)
        left = self.hide("n", "int")
        m.add(f"L[{left!r}] = {self.ex.helper(support.repeat_count)}({count})", n.span)
        head, body, end = m.label(), m.label(), m.label()
        m.goto(head)
        m.enter(head)
        self.m_charge(m, n.span, self.weight(n.body))
        m.add(f"if L[{left!r}] > 0:")
        m.add(f"L[{left!r}] -= 1", depth=1)
        m.add(jump(body), depth=1)
        m.add(f"del L[{left!r}]")
        m.goto(end)
        m.enter(body)
        self.m_body(m, n.body, scope, bid)
        m.goto(head)
        m.enter(end)

    def m_charge(self, m: Machine, span: Span, units: int = 1) -> None:
        m.add(f"rt.budget -= {units}")
        m.add(f"if rt.budget < 0: {self.ex.helper(support.over_budget)}(rt)", span)

    # -- calls that may suspend
    def _m_Run(self, m: Machine, n: ast.Run, scope: Scope, bid: int) -> None:
        info = self.procedure(n)
        if info is None:
            return
        args = [self.kept(*self.ex.code(x, scope), saved=True) for x in n.args]  # the frame's locals
        built = "{" + ", ".join(f"{p!r}: {a}" for p, a in zip(info.params, args, strict=True)) + "}"
        m.add(f"_l = {built}", n.span)
        if "me" not in info.params:
            m.add("if 'me' in L: _l['me'] = L['me']")
        cell = self.ex.inject(info.cell, f"cell_{info.name}")
        nxt = m.label()
        m.add(f"_b = {cell}[0]; rt.push(_b, _l); fr[1] = {nxt}", n.span)
        # the new frame runs here, as the run loop would run it; when it is over at once, this
        # effect goes on without returning to the loop and being called again
        m.add("_r = rt.g.blocks[_b](rt, rt.stk[-1])")
        m.add("if _r is not None: return _r")
        m.add("rt.stk.pop(); rt.loc = L")
        m.goto(nxt)
        m.enter(nxt)

    def _m_RunHook(self, m: Machine, n: ast.RunHook, scope: Scope, bid: int) -> None:
        # a hook some card's body of which can wait: the body's block is pushed like a procedure's
        call = self.hook_call(n, scope)
        if call is None:
            return
        info, target, args = call
        nxt = m.label()
        m.add(f"_c = {target}; _b = {info.table}.get(_c)", n.span)
        m.add("if _b is None:")
        m.add(jump(nxt), depth=1)
        built = ", ".join(f"{p!r}: {a}" for p, a in zip(info.params, args, strict=True))
        m.add(f"_l = {{'self': _c{', ' + built if built else ''}}}")
        m.add("if 'me' in L: _l['me'] = L['me']")
        m.add(f"rt.push(_b, _l); fr[1] = {nxt}", n.span)
        m.add("_r = rt.g.blocks[_b](rt, rt.stk[-1])")  # run here, as for a procedure (_m_Run)
        m.add("if _r is not None: return _r")
        m.add("rt.stk.pop(); rt.loc = L")
        m.goto(nxt)
        m.enter(nxt)

    def _m_Emit(self, m: Machine, n: ast.Emit, scope: Scope, bid: int) -> None:
        self.emit_passes(n)
        self.emitted.add(n.event)
        kwargs = [(k, self.ex.code(v, scope)[0]) for k, v in n.kwargs]
        base = "{" + ", ".join(f"{k!r}: {v}" for k, v in kwargs) + "}"
        nxt = m.label()
        m.add(f"if 'ru' in S: {self.ex.helper(support.end_grants)}(rt, {n.event!r})", n.span)
        m.add(f"_x = X_{n.event}(rt, L.get('me', S['t']['active']), {base})", n.span)
        m.add("if _x:")  # else nothing to run first: go straight on
        m.add("for _b, _f, _l in _x[::-1]:", depth=1)
        m.add("rt.push(_b, _l)", n.span, depth=2)
        m.add(f"fr[1] = {nxt}; return {CALL}", depth=1)
        m.goto(nxt)
        m.enter(nxt)

    # -- decisions
    def _m_Choose(self, m: Machine, n: ast.Choose, scope: Scope, bid: int) -> None:
        options, t = self.ex.list_code(n.options, scope)
        if n.by is not None:
            by, byt = self.ex.code(n.by, scope)
            self.ex.expect(byt, PLAYER, n.by.span)  # T002: 'by' names a player
        elif "me" in scope.locals:
            by = "L['me']"
        elif "p" in scope.locals:
            by = "L['p']"
        else:
            self.report.error(
                "E113",
                "who decides? add 'by <player>'",
                n.span,
                "'me' is only known inside actions; elsewhere write 'by p'",
            )
            by = "_broken(rt)"
        et = elem(t)
        if n.prompt:
            asked = scope.child()  # the prompt is shown before the choice: its variable has no value
            asked.pending[n.var] = f"'{n.var}' is the value being chosen: the prompt is shown before it is"
            parts, values = self.template(n.prompt, asked, n.prompt_span or n.span)
        else:
            parts, values = [f"choose {n.var}"], []
        scope.locals[n.var] = et
        here = m.label()
        after = m.label()
        m.goto(here)
        m.enter(here)
        m.add(f"if _fire_end_checks(rt): fr[1] = {here}; return {CALL}")
        choose = self.ex.helper(support.choose)
        prompt = self.ex.inject(parts, "prompt")
        shown = ", ".join(values)
        m.add(f"{choose}(rt, {options}, {n.optional}, {et!r}, {by}, {prompt}, [{shown}], {n.var!r})", n.span)
        m.add(f"fr[1] = {after}; return {SUSPEND}")
        m.enter(after)
        self.g.decision_points[(bid, after)] = here

    def _m_Window(self, m: Machine, n: ast.Window, scope: Scope, bid: int) -> None:
        self.ex.used.update(n.actions)
        player, pt = self.ex.code(n.player, scope)
        self.ex.expect(pt, PLAYER, n.player.span)
        idx: list[int] = []
        for name, span in zip(n.actions, n.action_spans, strict=True):
            if name not in self.action_index:
                self.report.error(
                    "E114", f"unknown action '{name}'", span, did_you_mean(name, self.action_index)
                )
            else:
                idx.append(self.action_index[name])
        if len(n.actions) == 1 and idx and n.actions[0] not in self.closing:
            self.report.warning(
                "W005",
                f"the window offers only '{n.actions[0]}', which does not close it: it is offered again "
                "after each choice, until it is no longer legal",
                n.action_spans[0],
                f"give '{n.actions[0]}' closes_window: true, or list an action that closes the window",
            )
        enumerate_ = self.windows(idx, n.span).__name__
        here = m.label()
        after = m.label()  # here + 1: where a closing action goes on (Engine.apply_inplace)
        m.goto(here)
        m.enter(here)
        m.add(f"if _fire_end_checks(rt): fr[1] = {here}; return {CALL}")
        m.add(f"_p = {player}")
        m.add(f"_ids, _vals = {enumerate_}(rt, _p)", n.span)
        m.add("if _ids:")
        dec = f"{{'k': 'window', 'p': _p, 'ids': _ids, 'v': _vals, 'prompt': {WINDOW_PROMPT!r}}}"
        m.add(f"rt.st['dec'] = {dec}", depth=1)
        m.add(f"fr[1] = {here}; return {SUSPEND}", depth=1)
        m.add("rt.empty_windows += 1")  # nothing legal: R002 then says every menu was empty
        m.goto(after)
        m.enter(after)
        self.g.window_actions[(bid, here)] = idx
        self.g.decision_points[(bid, here)] = here
