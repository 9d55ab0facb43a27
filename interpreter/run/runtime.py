"""The frame machine that runs compiled effects against a game state.

Stage: run. Where the game is inside its effects is a stack of frames kept *in the state*
(`state["stk"]`), so a game waiting for a decision is plain data that can be copied, saved and
resumed. A frame is `[block, pc, locals]`: `block` names a generated function of the game
(`game.blocks`), `pc` where that function goes on (compile/python/machines.py), `locals` its locals. The
bottom frame is the flow driver (flow.py). Only effects that can stop for a decision ever get a frame;
everything else runs as plain function calls inside them.

A block's function returns SUSPEND when it has put a decision into `state["dec"]`; `apply` binds the
choice and runs on. Work is charged to a budget per decision (`Runtime.budget`, STEP_BUDGET units:
each loop iteration, frame, flow step and DSL function call, each element a comprehension or an
aggregate goes through, each item of a list or character of a text built, each 64-bit word of a
product of big numbers; run/budget.py), and values have maximal sizes (run/budget.py), so a
hostile game file fails with a located error naming the budget or the limit (R002, R003; the
failing line is found from the traceback), never hangs nor exhausts memory.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tabula.interpreter.base.limits import WORK_BUDGET
from tabula.interpreter.base.linemap import span_of_traceback
from tabula.interpreter.base.source import Span, span_text
from tabula.interpreter.base.types import INT, type_of_value
from tabula.interpreter.run import pyerrors

if TYPE_CHECKING:
    from tabula.interpreter.model.game import CompiledGame

# what a block's function returns: None when it is over, SUSPEND when a decision is pending, CALL when
# it pushed a frame that must run first (it is called again afterwards, at the pc it left in its frame)
SUSPEND = 1
CALL = 2
STEP_BUDGET = WORK_BUDGET  # the default; a game may set its own (CompiledGame.work_budget)
MAX_DEPTH = 200

State = dict[str, Any]
Frame = list[Any]
# an observer of the run: called with an event name and its arguments when `emit` runs, and with
# "phase:ID" and the turn's player (p, me) before each phase starts, with "flow:round_start" (before
# rounds.on_start), "flow:round_end" (after rounds.on_end) and "flow:game_end" (before flow.finish)
# with no arguments (scenario checks `at:`); None
# (the default) costs one test
Watch = Callable[[str, dict[str, Any]], None]


class GameRuntimeError(Exception):
    """A rule could not be carried out (an author error found while playing), with its location.

    `code` names a limit that was exceeded (R002 the work budget, R003 the size of a value), else None.
    """

    def __init__(self, message: str, span: Span | None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.code = code

    def __reduce__(self) -> tuple[type[GameRuntimeError], tuple[str, Span | None, str | None]]:
        # picklable whole (a worker process of `simulate --jobs` sends it back): message, span, code
        return (GameRuntimeError, (self.message, self.span, self.code))


class IllegalChoice(Exception):
    """A choice that is not among the legal ones; `reason` says why, in the game's words."""

    def __init__(self, choice: str, reason: str) -> None:
        super().__init__(f"illegal choice {choice!r}: {reason}")
        self.choice = choice
        self.reason = reason


class GameEnded(Exception):
    """Raised inside a run to stop everything at once (end_game, declare_winner, an ending check)."""

    def __init__(self, winners: list[int] | None = None) -> None:
        super().__init__("game ended")
        self.winners = winners


class Runtime:
    """Executes steps on one state. Closures read `rt.st`, `rt.loc` and `rt.g`."""

    __slots__ = ("budget", "empty_windows", "g", "loc", "log", "memo", "st", "stk", "watch")
    stk: list[Frame]

    def __init__(
        self,
        game: CompiledGame,
        state: State,
        log: list[dict[str, Any]] | None = None,
        watch: Watch | None = None,
    ) -> None:
        self.g = game
        self.st = state
        self.log = log
        stk = self.stk = state["stk"]  # the state's frames (the list itself is never replaced)
        self.loc: dict[str, Any] = stk[-1][2] if stk else {}
        self.budget = game.work_budget
        self.empty_windows = 0  # windows that offered nothing since this run began (R002 says so)
        self.memo: dict[Any, Any] = {}  # remembered DSL function results, until the next write
        self.watch = watch

    # -- frames
    def _nearest_locals(self) -> dict[str, Any]:
        stk = self.stk
        loc: dict[str, Any] = stk[-1][2] if stk else {}
        return loc

    def push(self, block: int, local_vars: dict[str, Any]) -> None:
        self.budget -= 1
        if self.budget < 0:
            over_budget(self.g.block_spans.get(block))  # at the effect about to run
        stk = self.stk
        if len(stk) >= MAX_DEPTH:
            raise GameRuntimeError(
                f"effects nested more than {MAX_DEPTH} deep (unbounded recursion?)", None, "R007"
            )
        stk.append([block, 0, local_vars])
        self.loc = local_vars

    # -- the loop
    def run(self) -> None:
        """Run until a decision is pending or the game is over.

        Each frame is `[block, pc, locals]`; the block's generated function carries on from `pc`
        (compile/python/machines.py) and says whether it is over, waits for a decision, or pushed a frame."""
        stk = self.stk
        blocks = self.g.blocks
        while True:
            try:
                if not stk:
                    return
                fr = stk[-1]
                while True:
                    r = blocks[fr[0]](self, fr)
                    if r is None:  # over: its caller goes on
                        stk.pop()
                        if not stk:
                            return
                        fr = stk[-1]
                        self.loc = fr[2]
                    elif r == SUSPEND:
                        return
                    else:  # CALL: the frame it pushed runs first
                        fr = stk[-1]
            except GameEnded as end:
                self._end(end.winners)
            except GameRuntimeError as err:
                if err.span is None:
                    err.span = span_of_traceback(err.__traceback__) or self._running_span()
                self._name_budget(err)
                constants_named(err, self.g.constants)
                raise
            except IllegalChoice:
                raise
            except RecursionError as err:
                raise GameRuntimeError(_too_deep(err), span_of_traceback(err.__traceback__), "R007") from err
            except MemoryError as err:  # past the size limits, yet more than the process may hold
                raise GameRuntimeError(
                    "out of memory (values too large)", span_of_traceback(err.__traceback__), "R003"
                ) from None
            except Exception as err:  # a rule failed on unexpected data: report where
                failed = python_error(err, span_of_traceback(err.__traceback__))
                raise constants_named(failed, self.g.constants) from err

    def _name_budget(self, err: GameRuntimeError) -> None:
        """R002 names the game's own budget where it set one (the helpers raise it with the default),
        and says when windows offered nothing on the way (every player's action menu was empty)."""
        if err.code != "R002":
            return
        if self.g.work_budget != STEP_BUDGET:
            err.message = budget_error(self.g.work_budget).message
        if self.empty_windows and "action menu" not in err.message:
            err.message += (
                f"; {self.empty_windows} windows offered nothing since the last decision: every player's "
                "action menu was empty (no action's 'when' held), and the turns went on without one"
            )
        err.args = (err.message,)

    def _running_span(self) -> Span | None:
        """Where the effect on top of the stack starts (the flow's own span at the bottom): the
        place to show for an error raised outside generated code (the flow pushing a frame past
        the work budget)."""
        stk = self.stk
        if not stk:
            return None
        block = stk[-1][0]
        span = self.g.block_spans.get(block)
        if span is None:
            span = getattr(self.g.blocks[block], "span", None)
        return span if isinstance(span, Span) else None

    def _end(self, winners: list[int] | None) -> None:
        st = self.st
        del st["stk"][1:]
        st["stk"][0][1] = 0
        st["dec"] = None
        t = st["t"]
        if winners is not None:
            t["winners"] = winners
            t["stage"] = "over"
        elif t["stage"] not in ("finish", "over"):
            t["stage"] = "finish"
        self.loc = self._nearest_locals()

    def evaluate(self, f: Any, span: Span | None) -> Any:
        """Evaluate a compiled expression outside a step (scoring, scenario checks): any failure,
        deep recursion included, becomes a GameRuntimeError at `span`."""
        try:
            return f(self)
        except GameRuntimeError as err:
            if err.span is None:
                err.span = span_of_traceback(err.__traceback__) or span
            self._name_budget(err)
            raise
        except RecursionError as err:
            raise GameRuntimeError("functions call each other too deeply", span, "R007") from err
        except Exception as err:
            raise python_error(err, span) from err

    # -- end checks
    probing = False  # a runtime that re-poses a decision tests no end check (decisions._Probe)

    def fire_end_checks(self) -> bool:
        """Evaluate the game's end checks; push the effect of each that newly holds. True if any did."""
        fused = self.g.fire_end_checks
        if fused is not None:  # the same, generated (compile/python/game.py): what generated code calls
            return fused(self)
        checks = self.g.end_checks
        if not checks:
            return False
        t = self.st["t"]
        fired: list[str] = t["fired"]
        p = t["active"]  # the tests only read: the same player for each
        pushed = False
        for check in checks:
            if check.id not in fired and check.test(self, p, p):  # type: ignore[misc]
                fired.append(check.id)
                self.push(check.block, {"p": p, "me": p})
                pushed = True
        return pushed

    # -- log
    def say(self, text: str, hidden_from: list[int] | None = None, redacted: str = "") -> None:
        """A log line; players in `hidden_from` read `redacted` instead (nothing if it is empty)."""
        if self.log is not None:
            self.log.append({"text": text, "hidden_from": hidden_from or [], "redacted": redacted})


def budget_error(limit: int, span: Span | None = None) -> GameRuntimeError:
    """R002: more work than `limit` units between two decisions (the game's work budget)."""
    return GameRuntimeError(
        f"more than {limit} steps without a decision: the work budget (loops, calls, "
        "comprehension elements, items built; an endless loop?)",
        span,
        "R002",
    )


def over_budget(span: Span | None = None) -> None:
    raise budget_error(STEP_BUDGET, span)


def _too_deep(err: RecursionError) -> str:
    """What recursed: effects (procedures, triggers) calling each other, or functions."""
    effects = 0
    tb = err.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_name
        if name.startswith(("P_", "trigger_", "X_")):
            effects += 1
        tb = tb.tb_next
    if effects >= MAX_DEPTH:
        return f"effects nested more than {MAX_DEPTH} deep (unbounded recursion?)"
    return "functions call each other too deeply"


def constants_named(err: GameRuntimeError, constants: dict[str, Any]) -> GameRuntimeError:
    """R004 names the constants of the failing line that hold a value of another kind than their
    other entries (a text among numbers: `bonus: {a: 1, b: two}`): the value met is likely theirs."""
    if err.code != "R004" or err.span is None:
        return err
    line = span_text(Span(err.span.file, err.span.line, 1, err.span.line, 1 << 20))
    seen: list[str] = []
    for name in re.findall(r"[A-Za-z_]\w*", line):
        value = constants.get(name)
        if name in seen or not isinstance(value, (dict, list)) or not value:
            continue
        seen.append(name)
        entries = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        kinds = [type_of_value(v) for _, v in entries]
        common = max(sorted(set(kinds)), key=lambda t: (kinds.count(t), t == INT))  # ties: numbers
        odd = [f"{name}[{k!r}] is {v!r}" for (k, v), t in zip(entries, kinds, strict=True) if t != common]
        if odd:
            err.message += f" (the constant '{name}' mixes kinds of values: {', '.join(odd[:3])})"
    err.args = (err.message,)
    return err


def python_error(err: Exception, span: Span | None) -> GameRuntimeError:
    """A Python exception raised by a rule, in the DSL's words (pyerrors.py), with its code: R004 a
    value of the wrong kind, R005 no such entry, R006 division by zero, R007 too deep."""
    message, kind = pyerrors.describe(err)
    if kind == pyerrors.NO_ENTRY:
        return GameRuntimeError(message, span, "R005")
    if kind == pyerrors.DIVISION:
        return GameRuntimeError(message, span, "R006")
    if kind == pyerrors.TOO_DEEP:
        return GameRuntimeError(message, span, "R007")
    return GameRuntimeError(message, span, "R004")
