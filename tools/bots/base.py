"""The bot interface: what a bot is given (an `Observation`), what it returns (a choice id), budgets.

A bot decides from the view only. It gets an `Observation` of its seat: the view
(`Engine.view(state, seat)`), its legal choice ids, and `determinize(gen)`, which deals the cards
hidden from it at random (`tabula.interpreter.run.determinize`; the result depends on the view only).
The true state stays private to the observation: no bot reads it. Bots draw from their own
generator, seeded from the game's seed (`bot_generator`), so a game is its seed and its choices.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from tabula.bots.deal import DealFilter, deal_conditions
from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.bridge import NativeState, NotNative
from tabula.interpreter.compile.native.deal import NativeDeal
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State
from tabula.interpreter.run.determinize import determinize

BOT_SALT = 0xB07


def bot_generator(seed: int) -> list[int]:
    """The bots' own generator for a game with this seed (`tabula play`, `tabula simulate` and the
    trace files draw from it)."""
    return rng.seed_state(seed + BOT_SALT)


class Observation:
    """What one seat may know at its decision: the view, the legal ids, and determinisations."""

    __slots__ = ("_deal", "_native_deal", "_plain", "_state", "_view", "engine", "seat")

    def __init__(self, engine: Engine, state: State, seat: int) -> None:
        self.engine = engine
        self.seat = seat
        self._state = state
        self._view: dict[str, Any] | None = None
        self._deal: DealFilter | None = None
        self._plain: State | None = None
        self._native_deal: NativeDeal | bool | None = None  # False: the worlds stay plain

    @property
    def view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self.engine.view(self._state, self.seat)
        return self._view

    @property
    def legal_ids(self) -> list[str]:
        """The seat's legal choice ids (what its view shows; read without building the whole view)."""
        if self.engine.current_player(self._state) != self.seat:
            return []
        return self.engine.legal_ids(self._state)

    def determinize(self, gen: list[int]) -> State:
        """A full state consistent with the view, the hidden components dealt from `gen` (fitting
        the game's `bots: deal:` conditions where it has them)."""
        game, st = self.engine.game, self.plain_state()
        if not deal_conditions(game):
            return determinize(game, st, self.seat, gen)
        return determinize(game, st, self.seat, gen, self.deal_filter())

    def world(self, gen: list[int], reuse: State | None = None) -> State:
        """`determinize(gen)` in the engine's own form: on the native backend the same world dealt
        straight into native words (compile/native/deal.py), the plain one where it does not convert.
        `reuse`: a world from this method the caller no longer needs (its words are written over)."""
        if self._native_deal is None and self._inside():
            return self.determinize(gen)  # a deal would be built only to be refused (below)
        deal = self.native_deal()
        if deal is None or deal.inside:  # inside an effect the native tree alone deals its worlds
            return self.determinize(gen)
        into = reuse if isinstance(reuse, NativeState) else None
        return deal.deal(gen, into)  # type: ignore[return-value]  # opaque to the engine's callers

    def native_deal(self) -> NativeDeal | None:
        """What deals this decision's worlds into native words (None: they stay plain)."""
        if self._native_deal is None:
            self._native_deal = self._make_native_deal()
        return self._native_deal if isinstance(self._native_deal, NativeDeal) else None

    def _inside(self) -> bool:
        """The decision is inside an effect on native words: a `NativeDeal` there is `inside`, its
        worlds for native search trees only (what NativeDeal computes, read before building one)."""
        native, st = self.engine.native, self._state
        return native is not None and isinstance(st, NativeState) and st.plain is None and native.choosing(st)

    def _make_native_deal(self) -> NativeDeal | bool:
        native = self.engine.native
        if native is None:
            return False
        game = self.engine.game
        fits = self.deal_filter() if deal_conditions(game) else None
        try:
            real = self._state if isinstance(self._state, NativeState) else None
            return NativeDeal(game, native, self.plain_state(), self.seat, fits, real)
        except NotNative:
            return False

    def plain_state(self) -> State:
        """The true state as plain data (converted once per decision; private to the bots' deals)."""
        if self._plain is None:
            self._plain = self.engine.plain(self._state)
        return self._plain

    def deal_filter(self) -> DealFilter:
        if self._deal is None:
            self._deal = DealFilter(self.engine.game, self.plain_state())
        return self._deal


@dataclass(frozen=True)
class Budget:
    """How much search a decision may use: a number of playouts, or seconds of CPU time
    (`time.process_time`, so other processes on the machine do not shrink it)."""

    playouts: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.playouts)

    def start(self) -> Timer:
        return Timer(self)


CLOCK_EVERY = 0.001  # seconds of wall time between two readings of the CPU clock


class Timer:
    """A budget being spent. The CPU clock is read at most once per CLOCK_EVERY of wall time: a
    reading is a system call (about 10 us here, far more on a loaded machine), a tenth of a native
    playout, and wall time never runs slower than this process's CPU time."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.started = time.process_time()
        self.next = time.perf_counter() + CLOCK_EVERY

    def spent(self, playouts: int) -> bool:
        seconds = self.budget.seconds
        if seconds is None:
            return playouts >= (self.budget.playouts or 1)
        now = time.perf_counter()
        if now < self.next:
            return False
        self.next = now + CLOCK_EVERY
        return time.process_time() - self.started >= seconds

    def batch(self, playouts: int) -> tuple[int, float]:
        """How many playouts may run before `spent` must be asked again, and the wall-clock time
        (`time.perf_counter`; 0: none) after which to ask it: a search that runs many playouts
        without returning (in native code) stops where this loop of `spent` calls would."""
        if self.budget.seconds is None:
            return max(1, (self.budget.playouts or 1) - playouts), 0.0
        return 1 << 62, self.next

    def elapsed(self) -> float:
        """CPU seconds since the budget started."""
        return time.process_time() - self.started


@dataclass
class BotStats:
    """What a bot did over a game: decisions searched, playouts run, CPU seconds spent."""

    decisions: int = 0
    searched: int = 0
    playouts: int = 0
    seconds: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, float]:
        return {
            "decisions": self.decisions,
            "searched": self.searched,
            "playouts": self.playouts,
            "seconds": self.seconds,
        }


class PlayoutFailure(Exception):
    """A rule failed while a bot searched on a determinised world: a state the bot imagined from
    its view, not the real game. It says where: the bot, its seat, the bot generator's state before
    the world was dealt (so `determinize` deals it again), and the choices made on that world."""

    def __init__(
        self, spec: str, seat: int, world_gen: list[int], choices: list[str], error: Exception
    ) -> None:
        super().__init__(str(error))
        self.spec = spec
        self.seat = seat
        self.world_gen = world_gen
        self.choices = choices
        self.error = error

    def describe(self, error_text: str) -> str:
        """The failure in words, `error_text` being the rule's error as the CLI shows it."""
        shown = ", ".join(self.choices[:12]) + (" ..." if len(self.choices) > 12 else "")
        return (
            f"{error_text}\n"
            f"this rule failed inside a playout of the bot {self.spec} (seat {self.seat}), on a "
            f"determinised world (the hidden components dealt at random from its view), "
            f"not in the real game;\n"
            f"  the world: dealt by the bot generator in state {self.world_gen}\n"
            f"  the choices on it: {shown or 'none'}"
        )


class Bot(Protocol):
    """A strategy: `choose` returns one of `obs.legal_ids`, drawing randomness from `gen` only."""

    spec: str
    stats: BotStats

    def choose(self, obs: Observation, gen: list[int]) -> str: ...
