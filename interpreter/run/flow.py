"""The flow driver: game -> rounds -> turns -> phases, as one re-entrant step.

The driver is the only step of the main block and sits at the bottom of the frame stack. Each time
it runs it reads where the game is (`state["t"]["stage"]`), pushes the next effect (setup, a round's
start or end, a phase, a turn's end, final scoring) and returns; when that effect finishes, the
driver runs again. So the flow's position is plain data, like everything else in the state.

Turn order: with rounds, turns go clockwise from the round's first player until `ends_when` holds;
without rounds, `turn.player` names who plays next. An end check in `final_turns` mode lets the
current turn finish, then gives each other player one final turn, clockwise from the next player.
"""

from __future__ import annotations

from collections.abc import Callable

from tabula.interpreter.base.source import Span
from tabula.interpreter.model.game import FlowDef
from tabula.interpreter.run.runtime import CALL, SUSPEND, Frame, GameRuntimeError, Runtime, over_budget
from tabula.interpreter.run.support import end_grants

# the stages of `state["t"]["stage"]`, each run by FlowDriver._<stage> (saves.py checks them too)
STAGES = (
    "setup",
    "round_start",
    "round_first",
    "pre_turn",
    "phase",
    "post_turn",
    "round_end",
    "final_start",
    "final_next",
    "finish",
    "over",
    "done",
)

FLOW_STEP = 4
"""Units of the work budget one step of the flow is charged (a stage: a turn's start, a phase, a
turn's end, ...): a step runs its handler, clears the remembered results and pushes the phase's
effect, some four times the work of a loop's pass. Charged one unit, a flow whose turns never ask
anything (the tutorial's endless loop) took 2,000,000 steps of about 1 us each to reach R002."""


class FlowDriver:
    """Runs the game's flow; see the module docstring."""

    def __init__(self, flow: FlowDef) -> None:
        self.flow = flow
        self.span: Span | None = None
        self._handlers = self._stage_handlers()

    def __getstate__(self) -> dict[str, object]:
        return {"flow": self.flow, "span": self.span}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._handlers = self._stage_handlers()

    def _stage_handlers(self) -> dict[str, Callable[[Runtime, dict[str, object]], bool]]:
        return {stage: getattr(self, "_" + stage) for stage in STAGES}

    def __call__(self, rt: Runtime, fr: Frame) -> int | None:
        """The block function of the bottom frame: CALL when it pushed an effect, SUSPEND when a
        scenario asked to pause, None when the game is over.

        An effect that can neither wait for a decision nor push one of its own (it has no pcs) is
        run here when it is the only one pushed, as the run loop would run it, without returning
        to that loop and being called again."""
        t = rt.st["t"]
        memo = rt.memo
        handlers = self._handlers
        stk = rt.stk
        while True:
            for _ in range(10_000):
                rt.budget -= FLOW_STEP  # a flow that never asks anything must still end (effects charge too)
                if rt.budget < 0:
                    self._over_budget(rt, t)
                memo.clear()  # the flow moves on (active player, round, turn): remembered results go
                if handlers[t["stage"]](rt, t):
                    if t["stage"] == "done":
                        return None
                    if t.get("paused"):
                        return SUSPEND
                    if len(stk) != 2 or stk[1][0] in rt.g.block_pcs:
                        return CALL
                    break
            else:
                raise GameRuntimeError(
                    "the flow made no progress in 10000 steps (does every turn's player keep being skipped?)",
                    self.span,
                    "R012",
                )
            top = stk[1]
            rt.g.blocks[top[0]](rt, top)
            stk.pop()
            rt.loc = fr[2]

    # each handler returns True when it pushed an effect (or the game is over)
    def _push(self, rt: Runtime, block: int | None, p: int | None = None) -> bool:
        if block is None:
            return False
        rt.push(block, {} if p is None else {"p": p, "me": p})
        return True

    def _setup(self, rt: Runtime, t: dict[str, object]) -> bool:
        t["stage"] = "round_start" if self.flow.has_rounds else "pre_turn"
        return self._push(rt, self.flow.setup)

    def _ending_stage(self, t: dict[str, object]) -> str | None:
        if t["ending"] == "after_turn":
            return "finish"
        if t["ending"] == "final_turns":
            return "final_start" if not t["final_mode"] else "final_next"
        return None

    def _round_start(self, rt: Runtime, t: dict[str, object]) -> bool:
        if rt.watch is not None and int(t["round"]) >= 1:  # type: ignore[call-overload]
            # a round has ended (its on_end has run) and the next has not started: its final state
            rt.watch("flow:round_end", {})
        if "ru" in rt.st and int(t["round"]) >= 1:  # type: ignore[call-overload]
            end_grants(rt, "round_end")  # the round is over: grants `until round_end` end
        ending = self._ending_stage(t)
        if ending:
            t["stage"] = ending
            return False
        f = self.flow
        if f.round_count is not None and int(t["round"]) >= f.round_count(rt):  # type: ignore[call-overload]
            t["stage"] = "finish"
            return False
        t["round"] = int(t["round"]) + 1  # type: ignore[call-overload]
        t["stage"] = "round_first"
        if rt.watch is not None:
            rt.watch("flow:round_start", {})
        return self._push(rt, f.round_on_start)

    def _round_first(self, rt: Runtime, t: dict[str, object]) -> bool:
        first = self.flow.round_first
        t["next"] = first(rt) if first is not None else 0
        t["skips"] = 0
        t["stage"] = "pre_turn"
        return False

    def _start_turn(self, rt: Runtime, t: dict[str, object], p: int) -> None:
        t["active"] = p
        t["turn"] = int(t["turn"]) + 1  # type: ignore[call-overload]
        t["phase"] = 0
        t["stage"] = "phase"

    def _skipped(self, rt: Runtime, p: int) -> bool:
        skip = self.flow.turn_skip_if
        if skip is None:
            return False
        saved = rt.loc
        rt.loc = {"p": p, "me": p}
        try:
            return bool(skip(rt))
        finally:
            rt.loc = saved

    def _pre_turn(self, rt: Runtime, t: dict[str, object]) -> bool:
        ending = self._ending_stage(t)
        if ending:
            t["stage"] = ending
            return False
        f = self.flow
        n = int(t["n"])  # type: ignore[call-overload]
        if f.has_rounds:
            if f.round_ends_when is not None and f.round_ends_when(rt):
                t["stage"] = "round_end"
                return False
            p = int(t["next"])  # type: ignore[call-overload]
            if self._skipped(rt, p):
                t["next"] = (p + 1) % n
                t["skips"] = int(t["skips"]) + 1  # type: ignore[call-overload]
                if int(t["skips"]) > n:  # type: ignore[call-overload]
                    t["stage"] = "round_end"
                return False
            t["skips"] = 0
        else:
            p = f.turn_player(rt) if f.turn_player is not None else int(t["turn"]) % n  # type: ignore[call-overload]
            if self._skipped(rt, p):
                # the skipped turn still counts, so a `turn.player` that follows `turn` moves on
                t["turn"] = int(t["turn"]) + 1  # type: ignore[call-overload]
                t["skips"] = int(t["skips"]) + 1  # type: ignore[call-overload]
                if int(t["skips"]) > n:  # type: ignore[call-overload]
                    raise GameRuntimeError(
                        f"every player's turn is skipped: turn.skip_if held for all {n} players in a row",
                        self.span,
                        "R012",
                    )
                return False
            t["skips"] = 0
        self._start_turn(rt, t, p)
        return False

    def _over_budget(self, rt: Runtime, t: dict[str, object]) -> None:
        """The budget ran out between effects: turns pass without a decision. Located at the
        phase that ran last (its first statement), else at `flow:`."""
        try:
            over_budget()
        except GameRuntimeError as err:
            i = int(t.get("phase") or 0) - 1  # type: ignore[call-overload]
            phases = self.flow.phases
            err.span = rt.g.block_spans.get(phases[i][1]) if 0 <= i < len(phases) else None
            err.span = err.span or self.span
            raise

    def _phase(self, rt: Runtime, t: dict[str, object]) -> bool:
        i: int = t["phase"]  # type: ignore[assignment]  # an int (saves.py checks the types of t)
        phases = self.flow.phases
        active = t["active"]
        assert isinstance(active, int)
        if i < len(phases):
            phase_id, block = phases[i]
            pause = t.get("pause")
            if pause is not None and (pause == phase_id or (pause == "turn" and i == 0)):
                # a scenario asked to stop here, to write its `given` state before this phase runs
                t["pause"] = None
                t["paused"] = True
                return True
            if rt.watch is not None:
                rt.watch("phase:" + phase_id, {"p": active, "me": active})
            t["phase"] = i + 1
            t["phase_id"] = phase_id
            rt.push(block, {"p": active, "me": active})
            return True
        t["stage"] = "post_turn"
        t["phase_id"] = None
        return self._push(rt, self.flow.turn_on_end, active)

    def _post_turn(self, rt: Runtime, t: dict[str, object]) -> bool:
        if "ru" in rt.st:  # the turn is over (its on_end has run): grants `until turn_end` end
            end_grants(rt, "turn_end")
        if rt.fire_end_checks():
            return True
        ending = self._ending_stage(t)
        if ending:
            t["stage"] = ending
            return False
        if self.flow.has_rounds:
            t["next"] = (int(t["active"]) + 1) % int(t["n"])  # type: ignore[call-overload]
        t["stage"] = "pre_turn"
        return False

    def _round_end(self, rt: Runtime, t: dict[str, object]) -> bool:
        t["stage"] = "round_start"
        return self._push(rt, self.flow.round_on_end)

    def _final_start(self, rt: Runtime, t: dict[str, object]) -> bool:
        n = int(t["n"])  # type: ignore[call-overload]
        trigger = t["trigger"] if t["trigger"] is not None else t["active"]
        start = int(trigger) if trigger is not None else 0  # type: ignore[call-overload]
        t["final"] = [(start + i) % n for i in range(1, n)]
        t["final_mode"] = True
        t["stage"] = "final_next"
        return False

    def _final_next(self, rt: Runtime, t: dict[str, object]) -> bool:
        queue = t["final"]
        assert isinstance(queue, list)
        while queue:
            p = queue.pop(0)
            if not self._skipped(rt, p):
                self._start_turn(rt, t, p)
                return False
        t["stage"] = "finish"
        return False

    def _finish(self, rt: Runtime, t: dict[str, object]) -> bool:
        if rt.watch is not None:
            rt.watch("flow:game_end", {})
        t["stage"] = "over"
        return self._push(rt, self.flow.finish)

    def _over(self, rt: Runtime, t: dict[str, object]) -> bool:
        t["stage"] = "done"
        rt.st["dec"] = None
        return True

    def _done(self, rt: Runtime, t: dict[str, object]) -> bool:
        return True
