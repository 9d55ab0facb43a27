"""How a bot judges a position: the game's `bots: {evaluate: ...}` expression (p bound), or by
default the game's own score at any moment.

The expression is compiled through `game.snippets` when a bot is made, so a mistake in it is an
author error located in the game file. Without it, a position is worth the score the game would
give if it ended now (`game_estimate`): the scoring's `score`, plus the parts of
`presentation.score` while the game goes on when the game keeps a running score beside them
(`score_rest`: the parts are added at the end, as Porta Nigra's final scoring does). The
tie-breakers are left out: added at a thousandth of a point, they made greedy weaker at High Card
(218 wins of 400 against random, 235 without them).

`utility` reads the evaluation as the ranking does, a margin (mine minus the best other player's;
a decided game is +-WIN); `rewards` turns it into a win chance per player in [0, 1]
(tanh(margin / scale)), which search bots back up through their trees. In a cooperative game
(`bots: cooperative: true`: every player shares one result) there is no margin: `utility` is the
evaluation itself (a finished game: its score) and `rewards` tanh(value / scale) turned into [0, 1].
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from tabula.interpreter.base.source import AuthorError, Report
from tabula.interpreter.base.types import PLAYER
from tabula.interpreter.compile.native.bridge import NativeGame, NativeState
from tabula.interpreter.dsl.parser import PlainOrigin
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import Runtime

WIN = 1_000_000.0
DEFAULT_SCALE = 10.0


def game_estimate(engine: Engine, st: State) -> list[float]:
    """Each player's score if the game ended now (see the module docstring)."""
    g = engine.game
    # turned so that higher is better where the game ranks the lowest score first (`ranking: lowest`)
    sign = -1.0 if getattr(g, "lowest_wins", False) else 1.0
    out = [float(s) for s in engine.scores(st)]
    pres = g.presentation
    if pres.score and pres.score_rest and not engine.is_terminal(st):
        rt = Runtime(g, engine.plain(st))
        for p in range(len(out)):
            rt.loc = {"p": p}
            out[p] += sum(_number(rt.evaluate(part.value[0], None)) for part in pres.score)
    return [sign * v for v in out]


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def margin(vals: list[float], player: int) -> float:
    """`player`'s value minus the best rival's (0 without rivals)."""
    return vals[player] - max((v for q, v in enumerate(vals) if q != player), default=0.0)


class EvaluatingBot:
    """What greedy and the search bots share: the engine, the spec, the evaluation, the counters."""

    def __init__(self, engine: Engine, spec: str) -> None:
        from tabula.bots.base import BotStats

        self.engine = engine
        self.spec = spec
        self.evaluation = Evaluation(engine)
        self.stats = BotStats()


class Evaluation:
    """Per-player values of a state, from the game's bot evaluation or its score."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        game = engine.game
        section = game.bots
        scale = section.get("scale", (DEFAULT_SCALE, None))[0]
        self.scale = float(scale) if scale else DEFAULT_SCALE
        self.source = "the game's score if it ended now"
        self._expr: Callable[[Runtime], Any] | None = None
        self.cooperative = bool(section.get("cooperative", (False, None))[0])
        if "evaluate" in section and section["evaluate"][0] is not None:
            text, origin = section["evaluate"]
            report = Report()
            f = game.snippets.expr(
                str(text), origin or PlainOrigin(f"{game.folder}/bots"), report, {"p": PLAYER}
            )
            if report.has_errors or f is None:
                raise AuthorError(report)
            self._expr = f
            self.source = str(text).strip()

    def native_form(self, native_expression: bool) -> str | None:
        """How native code can compute `rewards` (compile/native/tree.py): "evaluate" (the game's
        expression, when it is compiled into the game's library), "score" (the score if the game
        ended now, where no presentation part is added to it), else None."""
        if self._expr is None:
            pres = self.engine.game.presentation
            return None if pres.score and pres.score_rest else "score"
        return "evaluate" if native_expression else None

    def values(self, st: State) -> list[float]:
        """The evaluation of every player."""
        if self._expr is None:  # the score and its parts, turned when the lowest score wins
            return game_estimate(self.engine, st)
        native = self.engine.native_evaluation(st)
        if native is not None:  # native words: the expression compiled into the game's library
            return [float(v) for v in native]
        st = self.engine.plain(st)
        rt = Runtime(self.engine.game, st)
        out = []
        for p in range(st["t"]["n"]):
            rt.loc = {"p": p}
            out.append(float(rt.evaluate(self._expr, None)))
        return out

    def shared(self, st: State) -> list[float]:
        """A cooperative game's values: the final scores once it is over, else the evaluation."""
        if self.engine.is_terminal(st):
            return game_estimate(self.engine, st)
        return self.values(st)

    def utility(self, st: State, player: int) -> float:
        """A margin for `player`: +-WIN once the game is decided, else evaluation minus the best rival's
        (in a cooperative game, the value itself)."""
        if self.cooperative:
            return self.shared(st)[player]
        if self.engine.is_terminal(st):
            winners = self.engine.winners(st)
            if player not in winners:
                return -WIN
            return WIN / len(winners)
        return margin(self.values(st), player)

    def native_utility(self, native: NativeGame, ns: NativeState, player: int) -> float | None:
        """`utility` read from native words alone (None where native code does not hold the
        evaluation or stops): for words no plain state can be made of, as one-ply greedy's children
        inside an effect (bots/native_greedy.py)."""
        form = self.native_form(native.has_evaluation)
        if self.cooperative or form is None:
            return None
        lowest = bool(getattr(self.engine.game, "lowest_wins", False))
        if native.is_terminal(ns):
            winners = native.declared(ns)
            if winners is None:
                keys = native.ranking_keys(ns)
                if keys is None:
                    return None
                keys = [(-k[0], *k[1:]) for k in keys] if lowest else keys
                winners = [p for p, k in enumerate(keys) if k == max(keys)]
            return WIN / len(winners) if player in winners else -WIN
        if form == "evaluate":
            vals = native.evaluation(ns)
        else:
            keys = native.ranking_keys(ns)
            vals = None if keys is None else [(-1 if lowest else 1) * k[0] for k in keys]
        if vals is None:
            return None
        return margin([float(v) for v in vals], player)

    def rewards(self, st: State) -> list[float]:
        """A win chance in [0, 1] for every player: exact when the game is over."""
        n = self.engine.num_players(st)
        if self.cooperative:
            return [0.5 + 0.5 * math.tanh(v / self.scale) for v in self.shared(st)]
        if self.engine.is_terminal(st):
            winners = self.engine.winners(st)
            return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]
        vals = self.values(st)
        return [0.5 + 0.5 * math.tanh(margin(vals, p) / self.scale) for p in range(n)]
