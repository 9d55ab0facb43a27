"""One-ply greedy's children in native code (runtime/search.c `tb_greedy_world`, `tb_greedy_child`).

On the native backend `greedy` at one ply (`depth=1`, no `follow`) applies every legal choice to a
world dealt from its view and evaluates each child. In Glory to Rome most decisions are choices
inside an effect, whose worlds are plain (a native world there cannot resume the effect: it replays
the true segment, docs/ARCHITECTURE.md), so the lookahead ran on the Python backend. Here the world
is dealt into native words as a native search's iteration deals it (compile/native/deal.py
`NativeDeal`: the same draws as `determinize`), each choice is applied to it afresh in native code
(inside an effect: the true segment replayed up to the decision, where the dealt words replace the
true ones), and the child is evaluated from its words (`Evaluation.native_utility`). The tie-break's
random continuations run there too, drawing what `engine.random_choice` draws.

Where native code cannot do it (no native deal, an evaluation Python reads, a rule's error or the
work budget on a child) the answer is None and the bot plays that world on Python from the same
generator words: it fails, or chooses, exactly as it did before.
"""

from __future__ import annotations

from tabula.bots.base import Observation
from tabula.bots.evaluation import Evaluation
from tabula.interpreter.compile.native.bridge import NativeState, NotNative
from tabula.interpreter.compile.native.deal import NativeDeal
from tabula.interpreter.compile.native.tree import NativeTree
from tabula.interpreter.engine import Engine


class NativeGreedy:
    """A decision's worlds and children in native code (see the module docstring)."""

    def __init__(self, engine: Engine, evaluation: Evaluation | None) -> None:
        self.engine = engine
        self.evaluation = evaluation
        self._trees: dict[tuple[str, ...], NativeTree | None] = {}  # by the players' names
        self.tree: NativeTree | None = None
        self.child: NativeState | None = None
        self.playouts = 0  # decisions taken by the last `values` or `continued`

    def ready(self, obs: Observation, judged: bool = True) -> bool:
        """Whether this decision's worlds can be dealt and (`judged`) its children evaluated
        natively. Not `judged`: only where the decision's native deal is made already (making one
        costs more than a plain world: the concession check of a random bot keeps to Python)."""
        native, ev = self.engine.native, self.evaluation
        if native is None or self.engine.watch is not None:
            return False
        if judged and (ev is None or ev.cooperative or ev.native_form(native.has_evaluation) is None):
            return False
        if not judged and not isinstance(obs._native_deal, NativeDeal):
            return False
        deal = obs.native_deal()
        if deal is None:
            return False
        tree = self._tree(deal)
        if tree is None:
            return False
        tree.deal_from(deal.base, deal.c_plan, len(deal.plan), deal.c_naming, len(deal.naming), deal.segment)
        self.tree, self.child = tree, NativeState(tree.world, deal.names, deal.o)
        return True

    def _tree(self, deal: NativeDeal) -> NativeTree | None:
        key = tuple(deal.names)
        if key not in self._trees:
            native = self.engine.native
            assert native is not None
            try:  # its rewards are not read: only the worlds and steps of runtime/search.c are
                self._trees[key] = NativeTree(
                    native,
                    deal.names,
                    depth=0,
                    budget=self.engine.game.work_budget,
                    rewards="score",
                    scale=1.0,
                    cooperative=False,
                    lowest_wins=bool(getattr(self.engine.game, "lowest_wins", False)),
                )
            except NotNative:
                self._trees[key] = None
        return self._trees[key]

    def values(self, gen: list[int], seat: int, n: int) -> list[float] | None:
        """The utility of each of the `n` choices in the world dealt from `gen` (which moves on as
        `Observation.world` moves it); None where native code could not (`gen` then moved all the
        same: the caller deals again from a copy taken before)."""
        return self._children(gen, seat, n, None, 0)

    def after(self, gen: list[int], k: int) -> NativeState | None:
        """The world dealt from `gen` with choice `k` applied (None: native code could not); the
        words are this object's until its next call."""
        tree = self.tree
        assert tree is not None
        if tree.greedy_world(gen) or tree.greedy_child(k)[0]:
            return None
        return self.child

    def continued(
        self, dealt_with: list[int], seat: int, n: int, draws: list[int], limit: int
    ) -> list[float] | None:
        """Greedy's tie-break in the world dealt from `dealt_with`: per choice, the utility after it
        and random decisions drawn from a copy of `draws` (simple.py `_continued`); None where
        native code could not."""
        return self._children(list(dealt_with), seat, n, draws, limit)

    def _children(
        self, gen: list[int], seat: int, n: int, draws: list[int] | None, limit: int
    ) -> list[float] | None:
        """Each choice's utility in the world dealt from `gen`, after it (and, with `draws`, the
        random decisions that follow it); `playouts` counts the decisions taken."""
        tree, ev = self.tree, self.evaluation
        assert tree is not None and self.child is not None and ev is not None
        if tree.greedy_world(gen):
            return None
        out, self.playouts = [], 0
        for k in range(n):
            if draws is None:
                code, made = tree.greedy_child(k)
            else:
                code, made = tree.greedy_child(k, seat, limit, list(draws))
            value = None if code else ev.native_utility(tree.native, self.child, seat)
            if value is None:
                return None
            out.append(value)
            self.playouts += made
        return out
