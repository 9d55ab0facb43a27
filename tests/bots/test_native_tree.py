"""Issue 23: IS-MCTS and UCT with the tree walked in native code (compile/native/tree.py) search as
the Python tree does: on the same positions, generator and playout budget, the root's children get
the same visits and the same move is chosen, with the bot's generator left in the same state; an
iteration native code cannot finish hands the tree over to Python, which carries on alike."""

from __future__ import annotations

from typing import Any

import pytest

from tabula.bots import native_search
from tabula.bots.base import Observation, bot_generator
from tabula.bots.search import SearchBot
from tabula.bots.spec import make_bot
from tabula.interpreter.compile.native.tree import Naming, NativeTree
from tabula.interpreter.engine import Engine, load_game

pytestmark = pytest.mark.slow


def engines(game: str) -> tuple[Engine, Engine]:
    nat = Engine(load_game(game), backend="native")
    assert nat.backend == "native", nat.backend_note
    return nat, Engine(nat.game)


def positions(engine: Engine, seed: int, players: int, count: int, every: int = 5) -> list[tuple[Any, int]]:
    """(state, seat) at windows with a choice to make, every `every` decisions of one random game."""
    st, gen, out, k = engine.new_game(players, seed), bot_generator(seed), [], 0
    while not engine.is_terminal(st) and len(out) < count:
        if k % every == 0 and len(engine.legal_ids(st)) > 1 and not engine.native.choosing(st):  # type: ignore[union-attr]
            out.append((engine.clone(st), int(engine.current_player(st))))  # type: ignore[arg-type]
        engine.apply_inplace(st, engine.random_choice(st, gen))
        k += 1
    return out


def search_both(nat: Engine, py: Engine, spec: str, st: Any, seat: int, seed: int) -> tuple[Any, Any]:
    """(move, root visits, generator) of the bot on each backend."""
    out = []
    for engine, state in ((nat, st), (py, nat.plain(st))):
        bot = make_bot(spec, engine)
        assert isinstance(bot, SearchBot)
        gen = bot_generator(seed)
        move = bot.choose(Observation(engine, state, seat), gen)
        out.append((move, bot.visits, gen))
    return out[0], out[1]


def native_iterations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The iterations each native batch ran (a list the searches append to)."""
    used: list[int] = []
    real = native_search.NativeSearch.run

    def counting(self: Any, gen: list[int], timer: Any, playouts: int) -> int:
        done = real(self, gen, timer, playouts)
        used.append(done)
        return done

    monkeypatch.setattr(native_search.NativeSearch, "run", counting)
    return used


@pytest.mark.parametrize(
    ("game", "players", "spec"),
    [
        ("porta-nigra", 2, "ismcts:150"),
        ("porta-nigra", 4, "ismcts:150"),
        ("porta-nigra", 3, "mcts:100"),
        ("porta-nigra", 2, "ismcts:60:depth=200"),  # rollouts to the end: exact rewards
        ("high-card", 3, "ismcts:100"),  # rewards from the score (no bots: evaluate:)
    ],
)
def test_the_native_tree_searches_as_the_python_tree(
    game: str, players: int, spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    nat, py = engines(game)
    used = native_iterations(monkeypatch)
    checked, every = 0, 5 if game == "porta-nigra" else 1
    for k, (st, seat) in enumerate(positions(nat, 7 + players, players, 6, every)):
        on_native, on_python = search_both(nat, py, spec, st, seat, 100 + k)
        assert on_native == on_python
        checked += 1
    assert checked >= 4
    assert sum(used) == checked * int(spec.split(":")[1])  # every iteration ran in native code


def test_an_iteration_native_code_cannot_finish_goes_on_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree handed over after 7 iterations (as after a rule's error in the 8th) is the tree
    Python would have grown: the search ends as the one that never left Python."""
    nat, py = engines("porta-nigra")
    real = NativeTree.run
    calls: list[int] = []

    def stops(self: NativeTree, gen: list[int], max_iter: int, until: float) -> tuple[int, int]:
        done, code = real(self, gen, min(max_iter, 7), until)
        calls.append(done)
        return done, code or 2  # "the 8th stopped on an error (E_BUDGET), gen before it"

    monkeypatch.setattr(NativeTree, "run", stops)
    for k, (st, seat) in enumerate(positions(nat, 3, 2, 3)):
        on_native, on_python = search_both(nat, py, "ismcts:80", st, seat, k)
        assert on_native == on_python
    assert calls == [7, 7, 7]


def test_ids_that_read_as_numbers_keep_the_python_tree() -> None:
    """A name that reads as a number would make a named id and a number's id one: no native tree."""
    nat, _ = engines("high-card")
    assert nat.native is not None
    Naming(nat.native, ["ann", "bob"])
    from tabula.interpreter.compile.native.bridge import NotNative

    with pytest.raises(NotNative):
        Naming(nat.native, ["ann", "12"])


def test_worlds_dealt_natively_under_deal_conditions_search_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """With `bots: deal:` conditions each world is dealt in native code too (runtime tb_deal as
    determinize's _deal_fitting): the same search as the Python tree's (a condition that odd places
    take odd components)."""
    from tabula.bots import base

    def odd_places(c: int, zi: int, pos: int) -> bool | None:
        return None if zi % 2 else (c % 2 == pos % 2)

    monkeypatch.setattr(base, "deal_conditions", lambda game: {"any": odd_places})
    monkeypatch.setattr(base.Observation, "deal_filter", lambda self: odd_places)
    nat, py = engines("porta-nigra")
    dealt: list[Any] = []
    real = native_search.NativeSearch.run

    def counting(self: Any, gen: list[int], timer: Any, playouts: int) -> int:
        dealt.append(self.deal.fits)
        return real(self, gen, timer, playouts)

    monkeypatch.setattr(native_search.NativeSearch, "run", counting)
    for k, (st, seat) in enumerate(positions(nat, 5, 3, 3)):
        on_native, on_python = search_both(nat, py, "ismcts:60", st, seat, k)
        assert on_native == on_python
    assert dealt and all(f is odd_places for f in dealt)


@pytest.mark.parametrize("players", [2, 4])
def test_decisions_inside_effects_search_natively_as_the_python_tree(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Glory to Rome asks every question inside a procedure (windows in loops, two-parameter
    actions): each world is dealt where the replay of the phase so far reaches the decision
    (runtime/search.c `t_world`), and the search is the Python tree's, move, visits and generator."""
    g = load_game("glory-to-rome", {"surrender_allowed": False})
    nat, py = Engine(g, backend="native"), Engine(g)
    used = native_iterations(monkeypatch)
    st, gen, k, checked = nat.new_game(players, 5), bot_generator(5), 0, 0
    while not nat.is_terminal(st) and checked < 8:
        if k % 4 == 0 and len(nat.legal_ids(st)) > 1:
            assert nat.native is not None and nat.native.choosing(st)  # inside an effect
            seat = int(nat.current_player(st))  # type: ignore[arg-type]
            out = []
            for engine, state in ((nat, nat.clone(st)), (py, nat.plain(st))):
                bot = make_bot("ismcts:80", engine)
                bot = getattr(bot, "bot", bot)  # a concession policy's own bot
                assert isinstance(bot, SearchBot)
                g2 = bot_generator(100 + k)
                out.append((bot.choose(Observation(engine, state, seat), g2), bot.visits, g2))
            assert out[0] == out[1]
            checked += 1
        nat.apply_inplace(st, nat.random_choice(st, gen))
        k += 1
    assert checked == 8 and sum(used) == 8 * 80  # every iteration ran in native code
