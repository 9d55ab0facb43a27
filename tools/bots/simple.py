"""The simple bots: `random` (uniform over the legal ids) and `greedy` (lookahead over its own move).

`greedy` applies each legal choice to a few determinisations of its view (the same ones for every
choice, so they are compared on equal terms) and judges it by the best position it can reach with
its own next decisions: while the seat itself decides again (a turn made of several decisions: play
a card, then use its symbols, then pick a colour), it looks up to `depth` decisions ahead in all,
and a choice is worth the best evaluation (`Evaluation.utility`) among the positions where its
lookahead stops (another player to move, the game over, or the depth reached). A lookahead that
would pass `LOOKAHEAD_APPLIES` applies on one determinisation is given up and done one decision
shallower, so every choice is looked at to the same depth. It takes the best mean.

When every choice is worth the same (the evaluation cannot tell them apart, as when the choice is
hidden until the others have chosen too: Sushi Go's picks, revealed together), greedy would pick at
random. It looks further instead: in each of its worlds, each choice is followed by random decisions
(the same random draws after every choice: common random numbers) until the seat decides again after
another player has decided, or the game ends, or `TIE_BREAK_DECISIONS` were taken, and the choices
are compared on the evaluation there. Only ties left after that are broken at random. A decision
where the evaluation already tells the choices apart is not touched, nor one of more than
`TIE_BREAK_CHOICES` choices (Patchwork's placements, Carcassonne's tiles: every placement ties on
their evaluations; playing on after each of hundreds made greedy:1:depth=1 cost 5.2 s of CPU a
Patchwork game instead of 1.5 s). Measured in Sushi Go (2
players, docs/balancing.md): greedy won about half its games against random before. `ties=random`
skips this (about 40 % of one-ply greedy's CPU in Glory to Rome at 4 players): the default bots'
cheapest greedy rung.
Its budget is the number of determinisations; `depth=1` is the one-ply bot. On the native backend
the one-ply bot (no `follow`) deals its worlds and applies and evaluates their children in native
code, at a decision inside an effect too (bots/native_greedy.py): the same values, so the same
choices, at a fraction of the CPU (docs/ARCHITECTURE.md).

`follow=N` (default 0) plays on where the lookahead stops with the seat itself still to decide: up to
N more of its decisions, each the choice of the best one-ply evaluation (the first of equals), and
the position after them is evaluated. A chain costs the choices of its decisions added, where
looking N decisions deeper costs them multiplied; a decision of more than `FOLLOW_CHOICES` choices
ends it. In Glory to Rome founding a building is an action whose site is the same player's next
decision: one ply sees no foundation after founding a Statue (it founded 3 in 120 player-games of
a planted 6-VP Statue); `follow=2` chooses the site, and a next decision of its own if there is
one, before it evaluates (docs/balancing.md).

One-ply greedy cannot see what a turn of several decisions builds: in Porta Nigra buying a brick is
worth nothing until the same turn builds with it, and one-ply greedy won 73 of 100 games against
random (2 players); looking 3 decisions ahead it won 98 (docs/balancing.md).
"""

from __future__ import annotations

import time

from tabula.bots.base import BotStats, Observation, PlayoutFailure
from tabula.bots.evaluation import EvaluatingBot
from tabula.bots.native_greedy import NativeGreedy
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State
from tabula.interpreter.run.runtime import GameRuntimeError

GREEDY_SAMPLES = 3
GREEDY_DEPTH = 3
GREEDY_FOLLOW = 0  # follow-up decisions of its own played greedily where the lookahead stops
LOOKAHEAD_APPLIES = 1000  # per determinisation: a level that would pass it is not expanded
TIE_BREAK_DECISIONS = 200  # random decisions at most after a choice, when every choice ties
TIE_BREAK_CHOICES = 30  # a decision of more choices keeps its ties broken at random (the cost)
FOLLOW_CHOICES = 30  # a follow-up decision of more choices ends greedy's `follow` chain (the cost)


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
    """Lookahead over its own next decisions (up to `depth`) on the evaluation, averaged over
    `samples` determinisations."""

    def __init__(
        self,
        engine: Engine,
        spec: str = "greedy",
        samples: int = GREEDY_SAMPLES,
        depth: int = GREEDY_DEPTH,
        play_ties: bool = True,
        follow: int = GREEDY_FOLLOW,
    ) -> None:
        super().__init__(engine, spec)
        self.samples = max(1, samples)
        self.depth = max(1, depth)
        self.play_ties = play_ties  # False (`ties=random`): a tie is broken at random at once
        self.follow = max(0, follow)  # the seat's follow-up decisions played greedily past the depth
        self._native = NativeGreedy(engine, self.evaluation)  # one ply's children in native code

    def choose(self, obs: Observation, gen: list[int]) -> str:
        ids = obs.legal_ids
        self.stats.decisions += 1
        if len(ids) == 1:
            return ids[0]
        started = time.process_time()
        fast = self._native if self.depth == 1 and not self.follow and self._native.ready(obs) else None
        totals = [0.0] * len(ids)
        worlds: list[tuple[list[int], State | None]] = []  # None: the world is native code's
        for _ in range(self.samples):
            dealt_with = list(gen)
            values = fast.values(gen, obs.seat, len(ids)) if fast is not None else None
            world = None
            if values is None:  # on Python, from the same generator words
                gen[:] = dealt_with
                world = obs.world(gen)
                values = self._judged(world, obs.seat, len(ids), dealt_with)
            else:
                self.stats.playouts += len(ids)
            worlds.append((dealt_with, world))
            for i, value in enumerate(values):
                totals[i] += value
        if (
            len(set(totals)) == 1 and self.play_ties and TIE_BREAK_DECISIONS and len(ids) <= TIE_BREAK_CHOICES
        ):  # no choice told from another: look further
            totals = [0.0] * len(ids)
            for dealt_with, world in worlds:
                draws = list(gen)
                rng.below(gen, 2)  # the next world's continuations draw other words
                for i, value in enumerate(self._tie_values(obs, fast, dealt_with, world, len(ids), draws)):
                    totals[i] += value
        self.stats.searched += 1
        self.stats.seconds += time.process_time() - started
        best = max(totals)
        top = [i for i, t in enumerate(totals) if t == best]
        return ids[top[rng.below(gen, len(top))]]

    def _judged(self, world: State, seat: int, n: int, dealt_with: list[int]) -> list[float]:
        """`_lookahead` on Python, a rule's failure reported as the bot's."""
        try:
            return self._lookahead(world, seat, n)
        except _Failed as failed:
            made = self._ids(world, failed.path)
            raise PlayoutFailure(self.spec, seat, dealt_with, made, failed.error) from None

    def _tie_values(
        self,
        obs: Observation,
        fast: NativeGreedy | None,
        dealt_with: list[int],
        world: State | None,
        n: int,
        draws: list[int],
    ) -> list[float]:
        """The tie-break's value of each choice in one world (native code's where it can)."""
        if world is None and fast is not None:
            values = fast.continued(dealt_with, obs.seat, n, draws, TIE_BREAK_DECISIONS)
            if values is not None:
                self.stats.playouts += fast.playouts
                return values
        if world is None:
            world = obs.world(list(dealt_with))
        try:
            return [self._continued(world, obs.seat, i, list(draws)) for i in range(n)]
        except _Failed as failed:
            made = self._ids(world, failed.path)
            raise PlayoutFailure(self.spec, obs.seat, dealt_with, made, failed.error) from None

    def _lookahead(self, world: State, seat: int, n: int) -> list[float]:
        """The value of each of the `n` choices of `seat` in `world`: the best utility over the
        positions where its own run of decisions stops, as deep as `LOOKAHEAD_APPLIES` allows for
        every choice alike (see the module docstring)."""
        for depth in range(self.depth, 0, -1):
            budget = [LOOKAHEAD_APPLIES if depth > 1 else n]
            values = [self._value(world, seat, [i], depth - 1, budget) for i in range(n)]
            if budget[0] >= 0:
                self.stats.playouts += (LOOKAHEAD_APPLIES if depth > 1 else n) - budget[0]
                return values
        raise AssertionError("one ply always fits")

    def _value(self, st: State, seat: int, path: list[int], depth: int, budget: list[int]) -> float:
        """The best utility after the choices `path` (indices from `st`), looking `depth` more of the
        seat's own decisions ahead; `budget[0]` counts the applies left (below 0: give up)."""
        budget[0] -= 1
        if budget[0] < 0:
            return 0.0
        after = self._apply(st, path[:-1], path[-1])
        engine = self.engine
        if engine.is_terminal(after) or engine.current_player(after) != seat:
            return self.evaluation.utility(after, seat)
        if depth == 0:
            return self._followed(after, seat, path)
        best = -float("inf")
        for j in range(len(engine.legal_ids(after))):
            best = max(best, self._value(after, seat, [*path, j], depth - 1, budget))
            if budget[0] < 0:
                break
        return best

    def _followed(self, st: State, seat: int, path: list[int]) -> float:
        """The utility where the lookahead stopped with `seat` still to decide, after up to `follow`
        more of its decisions each taken greedily (the best one-ply utility, the first of equals):
        the chain stops at another player's decision, the game's end, or a decision of more than
        `FOLLOW_CHOICES` choices (see the module docstring)."""
        engine = self.engine
        for _ in range(self.follow):
            n = len(engine.legal_ids(st))
            if n > FOLLOW_CHOICES:
                break
            best, best_value, best_j = st, -float("inf"), 0
            for j in range(n):
                child = self._apply(st, path, j)
                value = self.evaluation.utility(child, seat)
                if value > best_value:
                    best, best_value, best_j = child, value, j
            self.stats.playouts += n
            st = best
            path = [*path, best_j]
            if engine.is_terminal(st) or engine.current_player(st) != seat:
                return best_value
        return self.evaluation.utility(st, seat)

    def _continued(self, world: State, seat: int, index: int, draws: list[int]) -> float:
        """The utility after choice `index` in `world` and random decisions drawn from `draws` until
        `seat` decides again after another player has (see the module docstring)."""
        engine = self.engine
        path = [index]
        st = self._apply(world, [], index)
        others = False
        while not engine.is_terminal(st) and len(path) <= TIE_BREAK_DECISIONS:
            who = engine.current_player(st)
            if who == seat and others:
                break
            others = others or who != seat
            j = engine.random_choice(st, draws)
            path.append(j)
            try:
                engine.apply_inplace(st, j)
            except GameRuntimeError as err:
                raise _Failed(path, err) from err
        self.stats.playouts += len(path)
        return self.evaluation.utility(st, seat)

    def _ids(self, world: State, path: list[int]) -> list[str]:
        """The choice ids of a path of indices from `world` (its last choice is the one that failed)."""
        ids, st = [], world
        for k, j in enumerate(path):
            ids.append(self.engine.legal_ids(st)[j])
            if k < len(path) - 1:
                st = self.engine.apply(st, j)
        return ids

    def _apply(self, st: State, before: list[int], index: int) -> State:
        try:
            return self.engine.apply(st, index)
        except GameRuntimeError as err:
            raise _Failed([*before, index], err) from err


class _Failed(Exception):
    """A rule failed in greedy's lookahead: the choice indices from the world it was dealt."""

    def __init__(self, path: list[int], error: GameRuntimeError) -> None:
        super().__init__(str(error))
        self.path = path
        self.error = error
