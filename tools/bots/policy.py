"""Concessions: a bot offers or accepts one only when its seat's policy says so (`random:concede`).

A game declares the actions by which a player offers to concede in its `bots:` section
(`concessions: [propose_concession]`). A bot held to the policy (every bot whose spec does not end
in `:concede`) never takes such an action while it has another choice, and never makes a choice
that ends the game at once with winners declared (`declare_winner`) that do not include its seat:
so it does not accept a concession offered by another seat either. That check applies the choice
to a determinisation of the bot's view dealt by a fixed generator, so it reads nothing the seat may
not see and draws nothing from the bot's own generator. In a game that declares no concession a bot
is not wrapped at all.
"""

from __future__ import annotations

from typing import Any

from tabula.bots.base import Bot, BotStats, Observation
from tabula.bots.deal import DealFilter
from tabula.bots.native_greedy import NativeGreedy
from tabula.interpreter.base import rng
from tabula.interpreter.base.source import AuthorError, Report, Span
from tabula.interpreter.compile.native.deal import NativeDeal
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import GameRuntimeError

CHECK_SEED = 0


def concession_actions(engine: Engine) -> frozenset[str]:
    """The actions the game's `bots.concessions` names (an AuthorError for a name that is none)."""
    value, origin = engine.game.bots.get("concessions", (None, None))
    names = [value] if isinstance(value, str) else list(value or [])
    unknown = [str(n) for n in names if n not in engine.game.actions]
    if unknown:
        report = Report()
        report.error(
            "B001",
            f"bots.concessions names '{unknown[0]}', which is no action of the game",
            span_of(origin),
            f"actions: {', '.join(engine.game.actions)}",
        )
        raise AuthorError(report)
    return frozenset(str(n) for n in names)


def span_of(origin: Any) -> Span | None:
    """Where a value of the `bots:` section is in its file (None when it is not known)."""
    line, col = getattr(origin, "line", None), getattr(origin, "col", None)
    if origin is None or line is None or col is None:
        return None
    return Span(str(origin.file), int(line), int(col), int(line), int(col) + 1)


class _Allowed(Observation):
    """The same observation with fewer legal choices. Its plain state and deals are the wrapped
    observation's: converted once for the bot and the policy's check (in Glory to Rome a
    conversion took about 0.8 ms, a sixth of one-ply greedy's decision)."""

    __slots__ = ("_allowed", "_obs")

    def __init__(self, obs: Observation, allowed: list[str]) -> None:
        super().__init__(obs.engine, obs._state, obs.seat)
        self._allowed = allowed
        self._obs = obs

    @property
    def legal_ids(self) -> list[str]:
        return self._allowed

    def plain_state(self) -> State:
        return self._obs.plain_state()

    def deal_filter(self) -> DealFilter:
        return self._obs.deal_filter()

    def native_deal(self) -> NativeDeal | None:
        return self._obs.native_deal()


class ConcessionPolicy:
    """A bot that neither offers nor accepts a concession (see the module docstring)."""

    def __init__(self, bot: Bot, engine: Engine, actions: frozenset[str]) -> None:
        self.bot = bot
        self.engine = engine
        self.actions = actions
        self.spec: str = bot.spec
        self.stats: BotStats = bot.stats
        self.native = NativeGreedy(engine, None)  # the check's world in native code (bots/native_greedy.py)

    def choose(self, obs: Observation, gen: list[int]) -> str:
        ids = obs.legal_ids
        refused = {i for i in ids if i.split(":")[0] in self.actions}
        while True:
            allowed = [i for i in ids if i not in refused]
            if not allowed:
                return self.bot.choose(obs, gen)  # nothing else is possible
            choice = self.bot.choose(_Allowed(obs, allowed) if refused else obs, gen)
            if not self.gives_up(obs, choice):
                return choice
            refused.add(choice)

    def gives_up(self, obs: Observation, choice: str) -> bool:
        """Would this choice end the game now, won by others than this seat?"""
        if self.native.ready(obs, judged=False):  # the bot's native deal made: its world natively
            child = self.native.after(rng.seed_state(CHECK_SEED), obs.legal_ids.index(choice))
            nat = self.engine.native
            if child is not None and nat is not None:  # else on Python, which fails or goes on
                declared = nat.declared(child)
                return nat.is_terminal(child) and declared is not None and obs.seat not in declared
        world = obs.determinize(rng.seed_state(CHECK_SEED))
        try:
            after = self.engine.apply(world, choice)
        except GameRuntimeError:
            return False  # a failure on a determinised world says nothing about the real game
        winners = after["t"]["winners"]  # declared winners (`declare_winner`), None otherwise
        return self.engine.is_terminal(after) and winners is not None and obs.seat not in winners


def with_policy(bot: Bot, engine: Engine, concede: bool) -> Bot:
    """`bot` held to the concession policy, unless it may concede or the game declares none."""
    actions = concession_actions(engine)
    if concede or not actions:
        return bot
    return ConcessionPolicy(bot, engine, actions)
