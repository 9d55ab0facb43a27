"""One game between bots, recorded: the loop shared by `simulate`, `compare` and the worker processes.

Game with seed S: the engine is seeded with S and the bots draw from `bot_generator(S)` (the same
generator `tabula play` gives its bots), so a game replays exactly from its seed and bot specs when
the bots' budgets are playouts (a CPU-seconds budget depends on the machine). Every decision is
made from `Observation(engine, state, seat)`: the bot sees the view only.

While it plays, the loop records generic events per player: each action taken (the part of the
chosen id before ':' when it names an action of the game), each component gained (a component
moving into a zone that player owns) and each component a choice names (`buy_honour:HC-VP8`: a card
bought and used at once may never enter the player's zones). They feed the "which card is too
strong?" tables. At the end it reads the game's own measures (`tabula.balance.measures`).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tabula.balance.measures import end_values, score_parts, scored_with
from tabula.bots.base import Bot, Observation, PlayoutFailure, bot_generator
from tabula.bots.spec import make_bot, parse_bot_spec
from tabula.common import load, runtime_error_text
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import GameRuntimeError


@dataclass(frozen=True)
class Config:
    """Everything that defines a run's games except their seeds (picklable: sent to workers)."""

    game: str
    players: int | None = None
    options: tuple[tuple[str, Any], ...] = ()
    variant: str | None = None
    expansions: tuple[str, ...] = ()
    bots: tuple[str, ...] = ()  # one spec per seat ("random" where none was given)
    max_decisions: int = 100_000
    rotate: bool = False  # game i seats bot (seat + i) % n at seat: seats alternate between bots
    backend: str = "python"  # or "native" (Engine(game, backend=...))
    lowest_wins: bool = False  # the game's scoring.ranking is lowest (margins are turned)

    def bots_for(self, index: int) -> list[str]:
        """The bot spec at each seat in game `index` of a run."""
        if not self.rotate:
            return list(self.bots)
        n = len(self.bots)
        return [self.bots[(seat + index) % n] for seat in range(n)]


@dataclass
class GameRecord:
    """The result of one game."""

    index: int
    seed: int
    bots: list[str]
    names: list[str]
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    turns: int = 0
    decisions: int = 0
    ending: str = ""
    seconds: float = 0.0
    counters: list[dict[str, float]] = field(default_factory=list)  # counters and numeric vars
    table: dict[str, float] = field(default_factory=dict)  # the table's counters and numeric vars
    parts: list[dict[str, float]] = field(default_factory=list)  # presentation.score, part by part
    actions: list[dict[str, int]] = field(default_factory=list)
    gained: list[dict[str, int]] = field(default_factory=list)
    used: list[dict[str, int]] = field(default_factory=list)  # components named by a player's choices
    ended: list[dict[str, int]] = field(default_factory=list)  # "name@zone": components held at the end
    scored: list[dict[str, float]] = field(default_factory=list)  # "name@zone": the score's points on them
    kinds: dict[str, str] = field(default_factory=dict)  # component name -> its type, for those above
    first: int = -1  # the seat that made the game's first decision (turn position 1)
    bot_stats: list[dict[str, float]] = field(default_factory=list)
    error: str | None = None
    in_playout: bool = False  # the error happened in a bot's playout on a determinised world
    choices: list[tuple[str, str]] = field(default_factory=list)  # (who, choice id), kept when a rule failed


def ending_of(st: State, finished: bool, last_action: str | None) -> str:
    """How a game ended: a declared winner (after which action), an ending mode, an end check, normal."""
    t = st["t"]
    fired = f" ({', '.join(t['fired'])})" if t["fired"] else ""
    if not finished:
        return "unfinished (decision limit)"
    if t["winners"] is not None:
        return f"declared winner (after {last_action})" if last_action else "declared winner"
    if t["ending"] is not None:
        return f"{t['ending']}{fired}"
    return f"end check{fired}" if fired else "normal"


class Match:
    """Plays games of one configuration (one engine, bots made once per process)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        game = load(config.game, list(config.options), config.variant, list(config.expansions))
        self.engine = Engine(game, backend=config.backend)
        self.players = config.players if config.players is not None else game.min_players
        self._bots: dict[str, Bot] = {}
        self._component_names = {c.name for c in game.components}
        self._kinds = {c.name: c.type for c in game.components}
        self._zone_names = [z.family or z.name for z, _ in game.zone_instances()]
        for spec in config.bots:
            parse_bot_spec(spec)  # a bad spec fails before any game is played

    def bot(self, spec: str) -> Bot:
        if spec not in self._bots:
            self._bots[spec] = make_bot(spec, self.engine)
        return self._bots[spec]

    def play(self, index: int, seed: int) -> GameRecord:
        """Game `index` of a run, played with `seed`; a rule failing is recorded, not raised."""
        engine = self.engine
        specs = self.config.bots_for(index) or ["random"] * self.players
        started = time.process_time()
        st = engine.new_game(self.players, seed)
        n = engine.num_players(st)
        rec = GameRecord(index, seed, specs, engine.player_names(st))
        actions: list[Counter[str]] = [Counter() for _ in range(n)]
        gained: list[Counter[str]] = [Counter() for _ in range(n)]
        used: list[Counter[str]] = [Counter() for _ in range(n)]
        bots = [self.bot(s) for s in specs]
        before = [(b.stats.searched, b.stats.playouts, b.stats.seconds) for b in bots]
        gen = bot_generator(seed)
        last_action: str | None = None
        made: list[tuple[str, str]] = []  # kept only if a rule fails: the failed game as a scenario
        try:
            while not engine.is_terminal(st) and rec.decisions < self.config.max_decisions:
                seat = int(engine.current_player(st))  # type: ignore[arg-type]  # a decision is pending
                if rec.first < 0:
                    rec.first = seat
                choice = bots[seat].choose(Observation(engine, st, seat), gen)
                name, _, args = choice.partition(":")
                if name in engine.game.actions:
                    actions[seat][name] += 1
                    last_action = name
                self._uses(args if name in engine.game.actions else choice, used[seat])
                loc = engine.locations(st)
                made.append((rec.names[seat], choice))
                engine.apply_inplace(st, choice)
                self._gains(loc, engine.locations(st), gained)
                rec.decisions += 1
        except GameRuntimeError as err:
            rec.error, rec.choices = runtime_error_text(err), made
        except PlayoutFailure as fail:
            cause = fail.error
            text = runtime_error_text(cause) if isinstance(cause, GameRuntimeError) else str(cause)
            rec.error = fail.describe(text) + f"\n  at decision {rec.decisions} of the real game"
            rec.in_playout = True
        finished = engine.is_terminal(st) and rec.error is None
        st = engine.plain(st)
        rec.scores = engine.scores(st)
        rec.winners = engine.winners(st) if finished else []
        rec.turns = int(st["t"]["turn"])
        rec.ending = "rule error" if rec.error else ending_of(st, finished, last_action)
        rec.counters, rec.table = end_values(engine, st)
        rec.parts = score_parts(engine, st)
        rec.actions = [dict(a) for a in actions]
        rec.gained = [dict(g) for g in gained]
        rec.used = [dict(u) for u in used]
        held = self._held(engine.locations(st), n, st["m"])
        rec.ended = [dict(Counter(key for _, key in cards)) for cards in held]
        rec.scored = scored_with(engine, st, held) if finished else []
        names = {k for d in [*rec.gained, *rec.used] for k in d} | {
            k.split("@")[0] for d in rec.ended for k in d
        }
        rec.kinds = {k: self._kinds[k] for k in names if k in self._kinds}
        rec.bot_stats = [
            {
                "searched": b.stats.searched - s0,
                "playouts": b.stats.playouts - p0,
                "seconds": b.stats.seconds - t0,
            }
            for b, (s0, p0, t0) in zip(bots, before, strict=True)
        ]
        rec.seconds = time.process_time() - started
        return rec

    def _uses(self, args: str, used: Counter[str]) -> None:
        """Count the components a choice names (`buy_honour:HC-VP8#2` names HC-VP8)."""
        for arg in args.split(","):
            name = arg.split("#")[0]
            if name in self._component_names:
                used[name] += 1

    def _held(self, loc: list[int], n: int, marks: dict[str, list[Any]]) -> list[list[tuple[int, str]]]:
        """Per player: the components in that player's zones at the end, each with its row key
        `name@zone`, with the flags (boolean marks false by default) true on it: `name@zone, completed`."""
        owner = self.engine.game.zone_owner
        comps = self.engine.game.components
        flags = [m for m, d in self.engine.game.marks.items() if d is False]
        out: list[list[tuple[int, str]]] = [[] for _ in range(n)]
        for c, z in enumerate(loc):
            q = owner[z] if z >= 0 else None
            if q is not None and q < n:
                on = "".join(f", {m}" for m in flags if marks[m][c] is True)
                out[q].append((c, f"{comps[c].name}@{self._zone_names[z]}{on}"))
        return out

    def _gains(self, old: list[int], new: list[int], gained: list[Counter[str]]) -> None:
        owner = self.engine.game.zone_owner
        comps = self.engine.game.components
        for c, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b and b >= 0:
                q = owner[b]
                if q is not None and q < len(gained):
                    gained[q][comps[c].name] += 1


_MATCHES: dict[Config, Match] = {}


def play_game(config: Config, index: int, seed: int) -> GameRecord:
    """Play one game of `config` (the engine and bots are built once per process and cached)."""
    match = _MATCHES.get(config)
    if match is None:
        match = _MATCHES[config] = Match(config)
    return match.play(index, seed)
