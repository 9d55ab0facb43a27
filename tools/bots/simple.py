"""The simple bots: `random` (uniform over the legal ids) and `greedy` (one-ply lookahead).

`greedy` applies each legal choice to a few determinisations of its view (the same ones for every
choice, so they are compared on equal terms), evaluates the result for itself (`Evaluation.utility`)
and takes the best mean; ties are broken at random. Its budget is the number of determinisations.
"""

from __future__ import annotations

import time

from tabula.bots.base import BotStats, Observation, PlayoutFailure
from tabula.bots.evaluation import EvaluatingBot
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine
from tabula.interpreter.run.runtime import GameRuntimeError

GREEDY_SAMPLES = 3


class RandomBot:
    """Uniform over the legal choices (the same draw as `Engine.random_choice`)."""

    def __init__(self, engine: Engine, spec: str = "random") -> None:
        self.spec = spec
        self.stats = BotStats()

    def choose(self, obs: Observation, gen: list[int]) -> str:
        ids = obs.legal_ids
        self.stats.decisions += 1
        return ids[rng.below(gen, len(ids))]


class GreedyBot(EvaluatingBot):
    """One-ply lookahead on the evaluation, averaged over `samples` determinisations."""

    def __init__(self, engine: Engine, spec: str = "greedy", samples: int = GREEDY_SAMPLES) -> None:
        super().__init__(engine, spec)
        self.samples = max(1, samples)

    def choose(self, obs: Observation, gen: list[int]) -> str:
        ids = obs.legal_ids
        self.stats.decisions += 1
        if len(ids) == 1:
            return ids[0]
        started = time.process_time()
        totals = [0.0] * len(ids)
        for _ in range(self.samples):
            dealt_with = list(gen)
            world = obs.world(gen)
            for i, cid in enumerate(ids):
                try:  # by index: the world poses the seat's own decision, its ids in the same order
                    totals[i] += self.evaluation.utility(self.engine.apply(world, i), obs.seat)
                except GameRuntimeError as err:
                    raise PlayoutFailure(self.spec, obs.seat, dealt_with, [cid], err) from err
        self.stats.searched += 1
        self.stats.playouts += self.samples * len(ids)
        self.stats.seconds += time.process_time() - started
        best = max(totals)
        top = [i for i, t in enumerate(totals) if t == best]
        return ids[top[rng.below(gen, len(top))]]
