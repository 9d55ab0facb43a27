"""The bots of `tabula serve`: `pick` asks the bot at a seat for its choice.

A seat's kind is `human` or any bot spec `tabula play --bot` and `simulate --bot` take (`random`,
`greedy`, `mcts:500`, `ismcts:0.2s`, `random:concede`; parsed by `tabula.bots.spec`), held to the
game's concession policy like every bot. A bot decides from the seat's observation only, drawing
from a generator seeded by the seat and its view, so the same position gives the same move (a saved
game replays exactly) and no hidden information can steer it. `random` keeps the table's own draw
(a choice seeded by a hash of the view), so playtests recorded before every kind was served replay.

The table keeps its game on the Python backend (it logs every choice and shows views at every
decision); a search bot (`mcts`, `ismcts`) thinks on an engine of the native backend where the
game has one (`search_engine`): the position converts to native words when it can (else the
native engine plays it on Python), and the bot's iterations run in the game's library.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading

from tabula.bots.base import Bot, BotStats, Observation
from tabula.bots.policy import with_policy
from tabula.bots.spec import BOT_KINDS as SPEC_KINDS
from tabula.bots.spec import HUMAN, BotSpecError, make_bot, parse_bot_spec, parse_seat
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State

__all__ = ["BOT_KINDS", "HUMAN", "SEAT_KINDS", "SeatKindError", "pick", "seat_kind"]

BOT_KINDS = tuple(SPEC_KINDS)  # the bot kinds by name (a seat may add a budget: `ismcts:0.2s`)
SEAT_KINDS = (HUMAN, *BOT_KINDS)  # what the page offers; any bot spec is accepted

_LOCK = threading.RLock()  # bots think in worker threads: one bot is built once per engine and kind
_BOTS: dict[tuple[int, str], tuple[Engine, Bot]] = {}
_SEARCH: dict[int, tuple[Engine, Engine]] = {}  # the table's engine -> its search bots' engine
SEARCHING = ("mcts", "ismcts")  # the kinds whose thinking runs on the native backend


class SeatKindError(ValueError):
    """A seat kind that is neither `human` nor a bot spec."""


def seat_kind(text: str) -> str:
    """`human` or a bot spec in canonical form; SeatKindError otherwise."""
    try:
        return parse_seat(text)
    except BotSpecError as err:
        raise SeatKindError(str(err)) from None


class ViewRandom:
    """Uniform over the legal choices, drawn from a generator seeded by the seat and its view."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.stats = BotStats()

    def choose(self, obs: Observation, gen: list[int]) -> str:
        self.stats.decisions += 1
        digest = hashlib.sha256(json.dumps(obs.view, sort_keys=True).encode()).hexdigest()
        return random.Random(f"random:{obs.seat}:{digest}").choice(obs.legal_ids)


def search_engine(engine: Engine) -> Engine:
    """The engine search bots think on: the game on the native backend (built once per engine;
    the table's own engine when the native backend does not hold the game, or is asked of already)."""
    if engine.backend == "native":
        return engine
    with _LOCK:
        held = _SEARCH.get(id(engine))
        if held is None or held[0] is not engine:
            native = Engine(engine.game, backend="native")
            held = _SEARCH[id(engine)] = (engine, native if native.backend == "native" else engine)
        return held[1]


def _make(engine: Engine, kind: str) -> Bot:
    spec = parse_bot_spec(kind)
    if spec.kind == "random":
        return with_policy(ViewRandom(spec.text), engine, spec.concede)
    return make_bot(spec, search_engine(engine) if spec.kind in SEARCHING else engine)


def _bot(engine: Engine, kind: str) -> Bot:
    key = (id(engine), kind)
    with _LOCK:
        held = _BOTS.get(key)
        if held is None or held[0] is not engine:  # a reload builds a new engine: new bots
            held = (engine, _make(engine, kind))
            _BOTS[key] = held
        return held[1]


def pick(engine: Engine, state: State, seat: int, kind: str = "random") -> str:
    """The choice id the bot of `kind` at `seat` makes now (it must be that seat's decision)."""
    kind = seat_kind(kind)
    bot = _bot(engine, kind)
    view = engine.view(state, seat)
    digest = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).digest()
    gen = rng.seed_state(int.from_bytes(digest[:8], "big") ^ seat)
    if parse_bot_spec(kind).kind in SEARCHING:  # its position in native words where it converts
        engine = search_engine(engine)
        state = engine.backend_form(state)
    return bot.choose(Observation(engine, state, seat), gen)
