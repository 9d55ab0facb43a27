"""One game at the table of `tabula serve`: seats, history, undo, save and load, live reload.

A `Table` keeps how its game began (a seed, or a scenario file's position) and every choice made
since, with the state before each of them, so that any earlier position can be shown (the history
slider), a person can take back their last decision (undo), a game can be saved as its start and
its choices and loaded again by replaying them, and the game's files can be reloaded and the same
choices replayed with the new rules. Seats are people or bots (`tabula.serve.bots.pick`); after
each person's choice the bots play until a person must decide.

Every method that a seat calls returns what that seat may see (a `tabula.play.board.Board` built from
its view); the save file and the exported scenario describe the whole game, for the designer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

from tabula.common import runtime_error_text
from tabula.interpreter.base.source import AuthorError
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.state import State, semantic_hash
from tabula.interpreter.model.view import view, visible_log
from tabula.interpreter.run.runtime import GameRuntimeError, IllegalChoice
from tabula.play.board import SPECTATOR, Board, build_board
from tabula.play.changes import changes
from tabula.play.tidy import fold_setup
from tabula.serve.bots import BOT_KINDS, HUMAN, pick
from tabula.serve.export import Position
from tabula.serve.model import GameSpec, Report, SeatSpec, StaleDecision, TableError
from tabula.serve.replay import Replayed, Step, ahead_choice, describe, differences, play, replay
from tabula.serve.saves import SAVE_FORMAT, parse_save
from tabula.serve.start import Start, begin, scenario_start

MAX_BOT_MOVES = 20_000  # bots stop after this many decisions in a row (a game that never ends)


class Table:
    """A game in progress with its history (see the module docstring)."""

    def __init__(self, spec: GameSpec, seats: list[SeatSpec], seed: int = 0) -> None:
        self.lock = threading.RLock()
        self.published: dict[str, Any] = {"version": 0, "human_to_decide": None}
        self.spec = spec
        self.game = spec.load()
        self.engine = Engine(self.game)
        self.seats = seats
        self.start = Start(seed=seed, names=[s.name for s in seats])
        self.version = 0
        self.report: Report | None = None
        self.before: tuple[Engine, list[State]] | None = None  # the game before the last reload
        self.upload: Callable[[Path], bool] = lambda _path: False  # a file the server keeps (app.py)
        self.restart(self.start)

    @contextmanager
    def change(self) -> Iterator[None]:
        """One change of the table, all or nothing: under the lock; if it raises, every attribute is
        put back as it was (lists copied one level: their items, states and log entries, are never
        changed once kept; the current state, changed in place by a choice, is the last one kept),
        and when it ends the version that pollers read (`published`) moves on."""
        with self.lock:
            before = {k: list(v) if isinstance(v, list) else v for k, v in vars(self).items()}
            try:
                yield
            except BaseException:
                vars(self).clear()
                vars(self).update(before)
                if "states" in before:  # (not when the first start fails)
                    self.state = self.engine.clone(self.states[-1])
                raise
            finally:
                self.publish()

    def thinking(self, seat: int) -> None:
        """Tell pollers that the bot at `seat` thinks now (since when, by the server's clock), so the
        page can count the time while it waits."""
        seat_spec = self.seats[seat]
        now = {"seat": seat, "name": seat_spec.name, "kind": seat_spec.kind, "since": time.monotonic()}
        self.published = {**self.published, "thinking": now}

    def polled(self) -> dict[str, Any]:
        """What `/api/version` answers (read without the lock): the version, who is to decide, and
        the bot thinking now with the seconds so far."""
        out = dict(self.published)
        if "thinking" in out:
            busy = dict(out["thinking"])
            busy["seconds"] = round(time.monotonic() - busy.pop("since"), 1)
            out["thinking"] = busy
        return out

    def thought(self, at: int) -> list[dict[str, Any]]:
        """The bots' thinking times over the last decisions up to position `at` (the newest last)."""
        out = []
        for i in range(max(0, at - 8), at):
            secs = self.thoughts[i] if i < len(self.thoughts) else None
            if secs is not None:
                who = self.deciders[i]
                name, kind = self.seats[who].name, self.seats[who].kind
                out.append(
                    {"decision": i + 1, "seat": who, "name": name, "kind": kind, "seconds": round(secs, 3)}
                )
        return out

    def publish(self) -> None:
        """What `/api/version` answers, replaced in one assignment (read without the lock)."""
        if "state" in vars(self):
            self.published = {"version": self.version, "human_to_decide": self.human_to_decide()}

    # ------------------------------------------------------------ starting
    def restart(self, start: Start, choices: list[str] | None = None) -> None:
        """Begin again from `start` and replay `choices` (a save, a reload); bots then play on."""
        with self.change():
            game, state, log = begin(self.spec, self.game, start)
            self.game, self.engine, self.start = game, Engine(game), start
            self._reset(state, log)
            if choices:
                self._replay(choices, [])
            self.bots_play()
            self.version += 1

    def _reset(self, state: State, log: list[dict[str, Any]]) -> None:
        self.state = state
        self.log = log
        self.choices: list[str] = []
        self.deciders: list[int] = []
        self.thoughts: list[float | None] = []  # seconds a bot thought over each decision
        self.states: list[State] = [self.engine.clone(state)]
        self.log_sizes: list[int] = [len(log)]
        self.hashes: list[str] = [semantic_hash(state)]

    def new_game(self, seats: list[SeatSpec], seed: int) -> None:
        with self.change():
            start = Start(seed=seed, names=[s.name for s in seats])
            begin(self.spec, self.game, start)  # raises for a wrong number of players, before any change
            self.seats = seats
            self.report = None
            self.restart(start)

    def from_scenario(self, path: Path) -> None:
        """Start from a scenario file's position (after its `given`, before its `when`)."""
        with self.change():
            start, spec = scenario_start(path, self.spec)
            if len(start.names) != len(self.seats):
                kinds = [self.seats[0].kind if i == 0 else "random" for i in range(len(start.names))]
            else:
                kinds = [s.kind for s in self.seats]
            self.seats = [SeatSpec(n, k) for n, k in zip(start.names, kinds, strict=True)]
            self.spec = spec
            self.report = None
            self.restart(start)

    # ------------------------------------------------------------ playing
    @property
    def over(self) -> bool:
        return self.engine.is_terminal(self.state)

    def decider(self) -> int | None:
        return self.engine.current_player(self.state)

    def record(self, choice: str, thought: float | None = None) -> None:
        """Apply one choice (raises IllegalChoice) and remember it and the position after it (and
        how long a bot thought over it)."""
        self.keep(play(self.engine, self.state, self.log, choice), thought)

    def keep(self, step: Step, thought: float | None = None) -> None:
        self.thoughts.append(thought)
        self.choices.append(step.choice)
        self.deciders.append(step.decider)
        self.states.append(step.state)
        self.log_sizes.append(step.log_size)
        self.hashes.append(step.hash)

    def back_to_last(self) -> None:
        """After a choice whose rules failed half-way: the position (and log) before it."""
        self.state = self.engine.clone(self.states[-1])
        del self.log[self.log_sizes[-1] :]

    def choose(self, seat: int, choice: str, decision: int | None = None) -> None:
        """A person's choice at `seat`, made when `decision` choices had been made (a choice made on
        an older position, a double click say, is refused, but not an answer to a simultaneous step
        still waiting for the seat); then the bots play until a person must decide. A seat that a
        simultaneous step waits for answers as soon as the step is open: before its turn the answer
        is kept hidden in the state (`Engine.answer`) and recorded as `@seat:choice`."""
        with self.change():
            self.check_seat(seat)
            self.check_fresh(decision, seat)
            if self.over:
                raise TableError("the game is over")
            early = self.decider() != seat
            if early and seat not in self.engine.waiting(self.state):
                raise TableError(f"it is {self.state['names'][self.decider()]}'s decision, not yours")
            if self.seats[seat].kind != HUMAN:
                raise TableError(f"seat {seat} is played by a bot")
            if early and self.answered_ahead(seat):
                raise TableError("you have answered already; undo takes your answer back")
            self.report = None  # the last reload's report was about the position this choice leaves
            try:
                self.record(ahead_choice(seat, choice) if early else choice)
            except IllegalChoice as err:
                raise TableError(f"not possible: {err.reason}") from None
            except GameRuntimeError as err:
                self.back_to_last()
                raise TableError(runtime_error_text(err)) from None
            self.bots_play()
            self.version += 1

    def answered_ahead(self, seat: int) -> bool:
        """`seat` has given its answer to the open simultaneous step ahead of its turn."""
        sim = self.engine.plain(self.state)["t"].get("sim") or {}
        return any(q == seat for q, _ in sim.get("e", []))

    def same_step(self, decision: int, seat: int) -> bool:
        """After `decision` choices a simultaneous step waited for `seat`, and `seat` has decided
        nothing since: the step cannot have ended without it, so it still asks the same question."""
        if not 0 <= decision < len(self.choices) or seat in self.deciders[decision:]:
            return False
        then = self.engine.plain(self.states[decision])["t"].get("sim")
        return then is not None and seat in then["w"] and seat in self.engine.waiting(self.state)

    def bots_play(self) -> None:
        """Bots make their decisions until a person must decide or the game is over."""
        for _ in range(MAX_BOT_MOVES):
            seat = self.decider()
            if seat is None or self.seats[seat].kind == HUMAN:
                return
            try:
                self.thinking(seat)
                began = time.perf_counter()
                choice = pick(self.engine, self.state, seat, self.seats[seat].kind)
                self.record(choice, time.perf_counter() - began)
            except GameRuntimeError as err:
                self.back_to_last()
                self.report = Report(
                    "failed", "a bot's move failed", runtime_error_text(err), len(self.choices)
                )
                return

    def undo(self, seat: int, decision: int | None = None) -> None:
        """Back to the last decision `seat` made: the position before it, that seat to decide again.
        With `decision` (the decisions made when it was asked), an undo asked on an older position
        (a double click) is refused."""
        with self.change():
            self.check_seat(seat)
            self.check_fresh(decision)
            mine = [i for i, p in enumerate(self.deciders) if p == seat]
            if not mine:
                raise TableError("you have made no decision to take back")
            self.report = None
            self.truncate(mine[-1])
            self.version += 1

    def truncate(self, n: int) -> None:
        """Keep the first `n` choices (the position before choice n)."""
        self.choices, self.deciders, self.thoughts = self.choices[:n], self.deciders[:n], self.thoughts[:n]
        self.states, self.log_sizes, self.hashes = (
            self.states[: n + 1],
            self.log_sizes[: n + 1],
            self.hashes[: n + 1],
        )
        self.state = self.engine.clone(self.states[n])
        del self.log[self.log_sizes[n] :]

    def check_fresh(self, decision: int | None, seat: int | None = None) -> None:
        """StaleDecision unless `decision` (when given) is the number of decisions made now (or, for
        a choice of `seat`, one made on the same simultaneous step: `same_step`)."""
        if decision is not None and decision != len(self.choices):
            if seat is not None and self.same_step(decision, seat):
                return
            raise StaleDecision(
                f"this choice was made on an older position (decision {decision + 1});"
                f" the game is at decision {len(self.choices) + 1} now"
            )

    def check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise TableError(f"there is no seat {seat} (seats 0-{len(self.seats) - 1})")

    # ------------------------------------------------------------ what a seat sees
    def board(self, seat: int, at: int | None = None) -> dict[str, Any]:
        """What `seat` (or SPECTATOR) sees now, or after the first `at` decisions (the history slider)."""
        with self.lock:
            if seat != SPECTATOR:
                self.check_seat(seat)
            n = len(self.choices)
            at = n if at is None else max(0, min(int(at), n))
            state = self.states[at] if at < n else self.state
            board: Board = build_board(self.engine, state, seat)
            setup = min(self.log_sizes[0], self.log_sizes[at])  # the moves before the first decision
            log = fold_setup(public_log(self.log[:setup], seat)) + public_log(
                self.log[setup : self.log_sizes[at]], seat
            )
            mine = [i for i, p in enumerate(self.deciders) if p == seat]
            return {
                "version": self.version,
                "seat": seat,
                "seats": [{"name": s.name, "kind": s.kind} for s in self.seats],
                "board": board.to_json(),
                "log": log,
                "at": at,
                "decisions": n,
                "live": at == n,
                "can_undo": bool(mine) and self.seats[seat].kind == HUMAN,
                "spectator": seat == SPECTATOR,
                "human_to_decide": self.human_to_decide(),
                "report": self.report_for(seat),
                "changes": self.last_changes(seat, at),
                "thought": self.thought(at),
                "started": self.start.describe(),
            }

    def last_changes(self, seat: int, at: int) -> dict[str, Any]:
        """What the decision that led to position `at` changed, as `seat` sees it (none at the start)."""
        if at == 0:
            return {"moved": [], "changed": []}
        after = self.states[at] if at < len(self.states) else self.state
        return changes(self.game, self.seat_view(self.states[at - 1], seat), self.seat_view(after, seat))

    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        return view(self.game, state, SPECTATOR) if seat == SPECTATOR else self.engine.view(state, seat)

    def report_for(self, seat: int) -> dict[str, Any] | None:
        """The last reload's report; where positions diverged, what differs as `seat` sees it."""
        if self.report is None:
            return None
        out = asdict(self.report)
        at = self.report.at
        if seat == SPECTATOR:
            out["detail"] = ""  # read from a seat's view: a spectator sees the message only
        elif self.report.kind == "diverged" and at is not None and self.before is not None:
            engine, states = self.before
            if at < len(states) and at < len(self.states):
                out["detail"] = "\n".join(differences(engine, states[at], self.engine, self.states[at], seat))
        return out

    def position(self) -> Position:
        """What an exported scenario reads of the table (serve/export.py)."""
        return Position(self.spec, self.game, self.state, self.start.seed, len(self.choices))

    def human_to_decide(self) -> int | None:
        seat = self.decider()
        return seat if seat is not None and self.seats[seat].kind == HUMAN else None

    def explain(self, seat: int, action: str) -> str:
        """ "Why not?" for `seat`, answered on what that seat may know."""
        from tabula.interpreter.run.knowledge import seat_state

        with self.lock:
            self.check_seat(seat)
            if not action.strip():
                return "name an action (or an action with its arguments, e.g. play:C1)"
            decider = self.decider()
            if decider is None:
                return "the game is over"
            if decider != seat:
                return f"it is {self.state['names'][decider]}'s decision now, not yours"
            return self.engine.explain(seat_state(self.game, self.state, seat), action.strip())

    # ------------------------------------------------------------ save, load, reload
    def save(self) -> dict[str, Any]:
        with self.lock:
            return {
                "format": SAVE_FORMAT,
                "game": asdict(self.spec),
                "seats": [asdict(s) for s in self.seats],
                "start": self.start.to_json(),
                "choices": list(self.choices),
                "hashes": list(self.hashes),
            }

    def load(self, data: Any) -> None:
        """Load a save: its rules, seats and start, then replay its choices (reported like a reload).
        A save that cannot start, or whose replay fails in the rules, is refused and changes nothing."""
        with self.lock:
            spec, seats, start, choices, hashes = parse_save(data, self.spec, self.upload)
            try:
                game = spec.load()
            except AuthorError as err:
                raise TableError(f"the saved game's rules do not load:\n{err}") from None
            with self.change():
                self.spec, self.seats = spec, seats
                problem = self._reload(start, choices, hashes, game, "loaded")
                if problem is not None:
                    raise TableError(f"{problem.message}\n{problem.detail}".strip())

    def reload(self) -> None:
        """Load the game's files again and replay the choices so far with the new rules. Rules that
        do not load, cannot start the game again or fail while replaying change nothing: the table
        goes on with the old rules and its whole history, and the report says why."""
        with self.lock:
            try:
                game = self.spec.load()
            except AuthorError as err:
                self.keep_old(
                    Report("broken", "the game's files have errors; still playing the old rules", str(err))
                )
                return
            try:
                with self.change():
                    problem = self._reload(
                        self.start, list(self.choices), list(self.hashes), game, "reloaded"
                    )
                    if problem is not None:
                        raise _Refused(problem)
            except _Refused as refused:
                self.keep_old(refused.report)

    def keep_old(self, report: Report) -> None:
        with self.change():
            self.report = report
            self.version += 1

    def _reload(
        self, start: Start, choices: list[str], hashes: list[str], game: CompiledGame, verb: str
    ) -> Report | None:
        """Start again with `game` and replay `choices`; the report of why it cannot (the caller then
        puts the table back), or None."""
        self.before = (self.engine, list(self.states))
        try:
            _, state, log = begin(self.spec, game, start)
        except (AuthorError, GameRuntimeError) as err:
            text = str(err) if isinstance(err, AuthorError) else runtime_error_text(err)
            if verb == "loaded":
                return Report("broken", "the saved game could not start; nothing changed", text)
            return Report("broken", "the game could not start again; still playing the old rules", text)
        self.game, self.engine, self.start = game, Engine(game), start
        self._reset(state, log)
        result = self._replay(choices, hashes)
        if result.broke and result.failed_at is not None:
            return Report(
                "broken",
                f"the rules ({verb}) fail at decision {result.failed_at + 1} of {len(choices)}"
                f" ('{result.failed_choice}'); still playing the old rules with every decision",
                result.reason,
                result.failed_at,
            )
        self.report = describe(result, verb, len(choices))
        self.bots_play()
        self.version += 1
        return None

    def _replay(self, choices: list[str], hashes: list[str]) -> Replayed:
        result = replay(self.engine, self.state, self.log, choices, hashes)
        for step in result.steps:
            self.keep(step)
        if result.broke:
            self.back_to_last()
        return result


def public_log(log: list[dict[str, Any]], seat: int) -> list[str]:
    """The log lines `seat` may read; a spectator reads an entry hidden from anyone as its neutral line."""
    if seat != SPECTATOR:
        return visible_log(log, seat)
    return [
        str(e.get("redacted", ""))
        if e.get("hidden_from")
        else str(e.get("seen", {}).get(SPECTATOR, e["text"]))
        for e in log
        if not e.get("hidden_from") or e.get("redacted")
    ]


class _Refused(Exception):
    def __init__(self, report: Report) -> None:
        super().__init__(report.message)
        self.report = report


def seat_specs(names: list[str], kinds: list[str]) -> list[SeatSpec]:
    """Seats from names and kinds (a missing kind: the first seat a person, the others random bots)."""
    out = []
    for i, name in enumerate(names):
        kind = kinds[i] if i < len(kinds) else (HUMAN if i == 0 else BOT_KINDS[0])
        out.append(SeatSpec(name, kind))
    return out
