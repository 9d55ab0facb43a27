"""The steps of resumable blocks: the few places where an effect can stop for a decision.

Stage: run. Most effect code never waits for a decision and runs as plain generated Python functions
(effects.py). A block that can suspend — it holds a `choose` or a `window`, or calls or triggers
something that does — is a short list of steps instead, run by the frame machine in runtime.py:

- `ChunkStep`: a run of statements that cannot suspend, as one generated function;
- `CallStep`: a whole block that cannot suspend, entered from a frame (an action chosen in a window,
  a phase, a procedure run from a resumable block) — one call with the frame's locals;
- `IfStep`, `ForStep`, `RepeatStep`, `WhileStep`: control flow around a suspending body, whose body
  is a frame of its own;
- `RunStep`, `EmitStep`: a procedure or triggers that can suspend, pushed as frames;
- `ChooseStep`, `WindowStep`: the decisions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabula.interpreter.choices import option_ids
from tabula.interpreter.compile.support import template
from tabula.interpreter.model import Closure
from tabula.interpreter.runtime import SUSPEND, Frame, GameRuntimeError, Runtime, Step
from tabula.interpreter.source import Span


class ChunkStep(Step):
    """Statements that cannot suspend, as one generated function `f(rt)` (locals in `rt.loc`)."""

    def __init__(self, span: Span | None, fn: Callable[[Runtime], None]) -> None:
        self.span, self.fn = span, fn

    def exec(self, rt: Runtime, fr: Frame) -> None:
        self.fn(rt)


class CallStep(Step):
    """A block that cannot suspend: `fn(rt, *args)` with the named frame locals as arguments, or
    `fn(rt, locals)` when `args` is None (blocks whose locals stay a dict, e.g. triggers)."""

    def __init__(self, span: Span | None, fn: Callable[..., None], args: list[str] | None) -> None:
        self.span, self.fn, self.args = span, fn, args

    def exec(self, rt: Runtime, fr: Frame) -> None:
        if self.args is None:
            self.fn(rt, rt.loc)
        else:
            loc = rt.loc
            self.fn(rt, *[loc.get(a) for a in self.args])


class IfStep(Step):
    def __init__(self, span: Span, branches: list[tuple[Closure, int]], otherwise: int | None) -> None:
        self.span, self.branches, self.otherwise = span, branches, otherwise

    def exec(self, rt: Runtime, fr: Frame) -> None:
        for cond, block in self.branches:
            if cond(rt):
                rt.st["stk"].append([block, 0, None, None])
                return
        if self.otherwise is not None:
            rt.st["stk"].append([self.otherwise, 0, None, None])


class ForStep(Step):
    def __init__(self, span: Span, var: str, items: Closure, cond: Closure | None, body: int) -> None:
        self.span, self.var, self.items, self.cond, self.body = span, var, items, cond, body

    def _next(self, rt: Runtime, items: list[Any], i: int) -> int:
        while i < len(items):
            rt.loc[self.var] = items[i]
            if self.cond is None or self.cond(rt):
                return i
            i += 1
        return -1

    def exec(self, rt: Runtime, fr: Frame) -> None:
        items = list(self.items(rt))
        i = self._next(rt, items, 0)
        if i >= 0:
            rt.st["stk"].append([self.body, 0, None, [items, i]])

    def again(self, rt: Runtime, body: Frame) -> bool:
        items, i = body[3]
        i = self._next(rt, items, i + 1)
        if i < 0:
            return False
        body[3][1] = i
        return True


class RepeatStep(Step):
    def __init__(self, span: Span, n: Closure, body: int) -> None:
        self.span, self.n, self.body = span, n, body

    def exec(self, rt: Runtime, fr: Frame) -> None:
        n = self.n(rt)
        if not isinstance(n, int):
            raise GameRuntimeError(f"repeat needs a number, got {n!r}", self.span)
        if n > 0:
            rt.st["stk"].append([self.body, 0, None, [n - 1]])

    def again(self, rt: Runtime, body: Frame) -> bool:
        if body[3][0] > 0:
            body[3][0] -= 1
            return True
        return False


class WhileStep(Step):
    def __init__(self, span: Span, cond: Closure, body: int) -> None:
        self.span, self.cond, self.body = span, cond, body

    def exec(self, rt: Runtime, fr: Frame) -> None:
        if self.cond(rt):
            rt.st["stk"].append([self.body, 0, None, [0]])

    def again(self, rt: Runtime, body: Frame) -> bool:
        return bool(self.cond(rt))


class RunStep(Step):
    """`run P(args)` for a procedure that can suspend: a frame with the arguments as locals."""

    def __init__(self, span: Span, params: list[str], args: list[Closure], cell: list[int]) -> None:
        self.span, self.params, self.args, self.cell = span, params, args, cell

    def exec(self, rt: Runtime, fr: Frame) -> None:
        new = {p: a(rt) for p, a in zip(self.params, self.args, strict=True)}
        if "me" not in new and "me" in rt.loc:
            new["me"] = rt.loc["me"]
        rt.push(self.cell[0], new)


class EmitStep(Step):
    """`emit E(...)` when a trigger of E can suspend: every trigger that fires becomes a frame (pushed
    in reverse, so they run in order, each to its end before the next)."""

    def __init__(
        self,
        span: Span,
        dispatch: Callable[..., list[tuple[int, Any, dict[str, Any]]]],
        kwargs: list[tuple[str, Closure]],
    ) -> None:
        self.span, self.dispatch, self.kwargs = span, dispatch, kwargs

    def exec(self, rt: Runtime, fr: Frame) -> None:
        base = {k: f(rt) for k, f in self.kwargs}
        to_run = self.dispatch(rt, rt.loc.get("me", rt.st["t"]["active"]), base)
        for block, _, loc in reversed(to_run):
            rt.push(block, loc)


class ChooseStep(Step):
    def __init__(
        self,
        span: Span,
        var: str,
        options: Closure,
        t: str,
        by: Closure,
        prompt: tuple[list[Any], list[Closure]],
        optional: bool,
    ) -> None:
        self.span, self.var, self.options, self.t, self.by = span, var, options, t, by
        self.prompt, self.optional = prompt, optional

    def exec(self, rt: Runtime, fr: Frame) -> object | None:
        if rt.fire_end_checks():
            fr[1] -= 1
            return None
        values = list(self.options(rt))
        if self.optional:
            values.append(None)
        if not values:
            raise GameRuntimeError(
                "this choice has no options (guard the action or effect with a condition)", self.span
            )
        ids = option_ids(rt.g, rt.st["names"], values, self.t)
        seen: dict[str, int] = {}
        for i, x in enumerate(ids):
            seen.setdefault(x, i)
        if len(seen) != len(ids):
            keep = sorted(seen.values())
            values = [values[i] for i in keep]
            ids = [ids[i] for i in keep]
        parts, fns = self.prompt
        prompt = template(rt, parts, [f(rt) for f in fns])
        rt.st["dec"] = {
            "t": self.t,
            "k": "choose",
            "p": self.by(rt),
            "ids": ids,
            "v": values,
            "var": self.var,
            "prompt": prompt,
        }
        return SUSPEND


class WindowStep(Step):
    """Offers every legal (action, arguments) to a player until a closing action is chosen."""

    def __init__(
        self,
        span: Span,
        player: Closure,
        actions: list[int],
        options: Callable[[Runtime, int], tuple[list[str], list[Any]]],
    ) -> None:
        self.span, self.player, self.actions, self.options = span, player, actions, options

    def exec(self, rt: Runtime, fr: Frame) -> object | None:
        if rt.fire_end_checks():
            fr[1] -= 1
            return None
        p = self.player(rt)
        ids, values = self.options(rt, p)
        if not ids:
            return None
        fr[1] -= 1
        rt.st["dec"] = {"k": "window", "p": p, "ids": ids, "v": values, "prompt": "choose an action"}
        return SUSPEND


class EndingStep(Step):
    """Appended to an end check's effect: records how the game will end."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.span = None

    def exec(self, rt: Runtime, fr: Frame) -> None:
        from tabula.interpreter.compile.support import ending

        ending(rt, self.mode)
