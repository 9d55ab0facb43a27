"""The resumable machine that runs compiled effects against a game state.

Stage: run. Every effect is a block of `Step`s; where the machine is inside them is a stack of frames
kept *in the state* (`state["stk"]`), so a game waiting for a decision is plain data that can be
copied, saved and resumed. A frame is `[block, pc, locals | None, loop | None]`:

- `locals` is a dict for frames that open a scope (procedures, actions, triggers, phases); nested
  blocks (if / for / repeat / while bodies) use the nearest scope below them.
- `loop` marks a loop body; when the body ends, the loop statement that pushed it (the step just
  before the parent's pc) decides whether to run it again.

A step returns `SUSPEND` when it has put a decision into `state["dec"]`; `apply` binds the choice and
runs on. Every run has a step budget, so a hostile game file fails with a located error, never hangs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tabula.interpreter.source import Span

if TYPE_CHECKING:
    from tabula.interpreter.model import CompiledGame

SUSPEND = object()
STEP_BUDGET = 2_000_000
MAX_DEPTH = 200

State = dict[str, Any]
Frame = list[Any]
# an observer of the run: called with an event name and its arguments when `emit` runs, and with
# "phase:ID" and the turn's player (p, me) before each phase starts (scenario checks `at:`); None
# (the default) costs one test
Watch = Callable[[str, dict[str, Any]], None]


class GameRuntimeError(Exception):
    """A rule could not be carried out (an author error found while playing), with its location."""

    def __init__(self, message: str, span: Span | None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span


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


class Step:
    """One compiled statement."""

    span: Span | None = None

    def exec(self, rt: Runtime, fr: Frame) -> object | None:
        raise NotImplementedError

    def again(self, rt: Runtime, body: Frame) -> bool:
        """For loop statements: called when the body frame ends; True runs the body once more."""
        return False


class Runtime:
    """Executes steps on one state. Closures read `rt.st`, `rt.loc` and `rt.g`."""

    __slots__ = ("budget", "cov", "depth", "g", "loc", "log", "memo", "st", "watch")

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
        self.loc: dict[str, Any] = self._nearest_locals()
        self.budget = STEP_BUDGET
        self.depth = 0
        self.memo: dict[Any, Any] = {}  # results of DSL functions within one step (see run)
        self.cov = game.coverage  # a set of block ids while rules coverage is measured, else None
        self.watch = watch

    # -- frames
    def _nearest_locals(self) -> dict[str, Any]:
        for fr in reversed(self.st["stk"]):
            if fr[2] is not None:
                loc: dict[str, Any] = fr[2]
                return loc
        return {}

    def push(self, block: int, local_vars: dict[str, Any] | None, loop: Any = None) -> None:
        if len(self.st["stk"]) >= MAX_DEPTH:
            raise GameRuntimeError(f"effects nested more than {MAX_DEPTH} deep (unbounded recursion?)", None)
        self.st["stk"].append([block, 0, local_vars, loop])
        if local_vars is not None:
            self.loc = local_vars

    # -- the loop
    def run(self) -> None:
        """Run until a decision is pending or the game is over."""
        st = self.st
        stk: list[Frame] = st["stk"]
        blocks = self.g.blocks
        memo = self.memo
        budget = self.budget
        step: Step | None = None
        while True:
            try:
                while stk:
                    fr = stk[-1]
                    if self.cov is not None:
                        self.cov.add(fr[0])
                    blk = blocks[fr[0]]
                    n = len(blk)
                    pc = fr[1]
                    # run this frame's steps until it ends, pushes a frame or suspends
                    while pc < n:
                        fr[1] = pc + 1
                        step = blk[pc]
                        budget -= 1
                        if budget < 0:
                            raise GameRuntimeError(
                                f"more than {STEP_BUDGET} steps without a decision (an endless loop?)",
                                self._loop_span() or step.span,
                            )
                        # the memo of DSL function results lives for one step: a step's
                        # evaluations all see the same state (writes come after them)
                        if memo:
                            memo.clear()
                        if step.exec(self, fr) is SUSPEND:
                            self.budget = budget
                            return
                        if stk[-1] is not fr:
                            break
                        pc = fr[1]
                    else:
                        if fr[3] is not None:
                            if memo:
                                memo.clear()
                            parent = stk[-2]
                            if blocks[parent[0]][parent[1] - 1].again(self, fr):
                                fr[1] = 0
                                continue
                        stk.pop()
                        if fr[2] is not None:
                            self.loc = self._nearest_locals()
                self.budget = budget
                return
            except GameEnded as end:
                self._end(end.winners)
            except GameRuntimeError as err:
                if err.span is None and step is not None:
                    err.span = step.span
                raise
            except IllegalChoice:
                raise
            except RecursionError as err:
                raise GameRuntimeError(
                    "functions call each other too deeply", getattr(step, "span", None)
                ) from err
            except Exception as err:  # a rule failed on unexpected data: report where
                raise GameRuntimeError(_describe(err), getattr(step, "span", None)) from err

    def _loop_span(self) -> Span | None:
        """The innermost loop statement running now (the likely culprit of a spent budget)."""
        stk = self.st["stk"]
        for i in range(len(stk) - 1, 0, -1):
            if stk[i][3] is not None:
                parent = stk[i - 1]
                loop: Step = self.g.blocks[parent[0]][parent[1] - 1]
                return loop.span
        return None

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
                err.span = span
            raise
        except RecursionError as err:
            raise GameRuntimeError("functions call each other too deeply", span) from err
        except Exception as err:
            raise GameRuntimeError(_describe(err), span) from err

    # -- end checks
    def fire_end_checks(self) -> bool:
        """Evaluate the game's end checks; push the effect of each that newly holds. True if any did."""
        checks = self.g.end_checks
        if not checks:
            return False
        fired: list[str] = self.st["t"]["fired"]
        pushed = False
        saved = self.loc
        for check in checks:
            if check.id in fired:
                continue
            self.loc = {"p": self.st["t"]["active"], "me": self.st["t"]["active"]}
            if check.when(self):
                fired.append(check.id)
                self.push(check.block, {"p": self.st["t"]["active"], "me": self.st["t"]["active"]})
                pushed = True
                saved = self.loc
        self.loc = saved
        return pushed

    # -- log
    def say(self, text: str, hidden_from: list[int] | None = None, redacted: str = "") -> None:
        """A log line; players in `hidden_from` read `redacted` instead (nothing if it is empty)."""
        if self.log is not None:
            self.log.append({"text": text, "hidden_from": hidden_from or [], "redacted": redacted})


def _describe(err: Exception) -> str:
    if isinstance(err, TypeError) and "NoneType" in str(err):
        return f"a value was 'none' where something else was needed ({err})"
    if isinstance(err, (IndexError, KeyError)):
        return f"no such entry: {err}"
    if isinstance(err, ZeroDivisionError):
        return "division by zero"
    return f"{type(err).__name__}: {err}"
