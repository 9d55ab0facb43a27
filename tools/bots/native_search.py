"""A search bot's iterations in native code (interpreter/compile/native/tree.py), where they can run.

`NativeSearch.make` answers for one decision: on the native backend, with worlds dealt into native
words, random rollouts and an evaluation native code computes, the whole iteration (deal, walk
down the tree, expansion, rollout, rewards, backup) runs in the game's library, in batches as long
as the budget's `Timer.batch` allows; the tree stays in C and only the root's visits come back.
Otherwise (the Python backend, greedy rollouts, an evaluation read in Python, ids native code
cannot tell apart) the answer is None and the bot walks its Python tree. The worlds are those of
search.py's loop, `bots: deal:` conditions included (runtime tb_deal deals as determinize's
`_deal_fitting`, the conditions evaluated once a decision); `mcts` deals one world per decision
and copies it.

An iteration native code cannot finish (a rule's error, the work budget) is undone there with the
generator, and the bot carries on in Python from that iteration (`failed`: the tree as rows, the
world, the generator words it was dealt from), which then fails or goes on exactly as it would have.
"""

from __future__ import annotations

from typing import Any

from tabula.bots.base import Observation, Timer
from tabula.bots.evaluation import Evaluation
from tabula.interpreter.compile.native.bridge import NativeState, NotNative
from tabula.interpreter.compile.native.deal import NativeDeal
from tabula.interpreter.compile.native.tree import NativeTree
from tabula.interpreter.engine import Engine


class NativeSearch:
    """One decision's iterations in native code; see the module docstring."""

    def __init__(self, tree: NativeTree, obs: Observation, deal: NativeDeal, redeterminize: bool) -> None:
        self.tree = tree
        self.obs = obs
        self.deal = deal
        self.redeterminize = redeterminize
        self.world: NativeState | None = None
        self.dealt_with: list[int] = []
        # failed: an iteration native code could not finish; (rows, world, dealt_with) for search.py
        self.failed: tuple[list[tuple[Any, ...]], Any, list[int]] | None = None
        if redeterminize:  # every world dealt in native code (`bots: deal:` conditions included)
            tree.deal_from(
                deal.base, deal.c_plan, len(deal.plan), deal.c_naming, len(deal.naming), deal.segment
            )

    @classmethod
    def make(
        cls,
        engine: Engine,
        obs: Observation,
        evaluation: Evaluation,
        depth: int,
        rollout: str,
        redeterminize: bool,
    ) -> NativeSearch | None:
        native = engine.native
        if native is None or engine.watch is not None or rollout != "random":
            return None
        rewards = evaluation.native_form(native.has_evaluation)
        deal = obs.native_deal()
        if rewards is None or deal is None:
            return None
        if deal.inside and not redeterminize:
            return None  # inside an effect only whole native iterations deal their worlds
        try:
            tree = NativeTree(
                native,
                deal.names,
                depth=depth,
                budget=engine.game.work_budget,
                rewards=rewards,
                scale=evaluation.scale,
                cooperative=evaluation.cooperative,
                lowest_wins=bool(getattr(engine.game, "lowest_wins", False)),
            )
        except NotNative:
            return None
        return cls(tree, obs, deal, redeterminize)

    def run(self, gen: list[int], timer: Timer, playouts: int) -> int:
        """Iterations until the budget's next check (`Timer.batch`); how many ran. After an
        iteration native code could not finish, `failed` is set and `gen` is as it was before it."""
        max_iter, until = timer.batch(playouts)
        if self.redeterminize:
            done, code = self.tree.run(gen, max_iter, until)
            if code:
                self._fail(None, list(gen))
            return done
        if self.world is None:  # mcts: one world, copied each iteration
            self.dealt_with = list(gen)
            self.world = self._world(gen)
            self.tree.deal_from(self.world.words)
        done, code = self.tree.run(gen, max_iter, until)
        if code:
            self._fail(self.world, self.dealt_with)
        return done

    def _world(self, gen: list[int], reuse: NativeState | None = None) -> NativeState:
        world: Any = self.obs.world(gen, reuse)  # type: ignore[arg-type]  # native words, opaque to bots
        assert isinstance(world, NativeState)  # obs.native_deal() is there
        return world

    def _fail(self, world: NativeState | None, dealt_with: list[int]) -> None:
        rows = [
            (parent, self.tree.id_of(ka, kb), player, visits, avail, total)
            for parent, ka, kb, player, visits, avail, total in self.tree.nodes()
        ]
        self.failed = (rows, world, dealt_with)

    def root_visits(self) -> dict[str, int]:
        return self.tree.root_visits()
