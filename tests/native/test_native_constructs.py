"""Constructs Glory to Rome needed of the native backend (issue 23, phase 5), each played by a small
fixture game (tests/native/games) against the Python backend, decision by decision."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_native_equivalence import engines, play_both

from tabula.interpreter.base import rng
from tabula.interpreter.compile.native.bridge import NativeState
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.runtime import GameRuntimeError

HERE = Path(__file__).resolve().parent
GAMES = int(os.environ.get("TABULA_NATIVE_GAMES", "10"))


def both_ways(py: Engine, nat: Engine, players: int, seed: int) -> dict[str, Any]:
    """One random game on both backends decision by decision, then as whole playouts (native code
    end to end), whose final states are compared; the Python playout's final state."""
    play_both(py, nat, players, seed)
    st, ns = py.new_game(players, seed), nat.new_game(players, seed)
    py.playout(st, rng.seed_state(seed + 0xB07))
    nat.playout(ns, rng.seed_state(seed + 0xB07))
    assert nat.plain(ns) == st
    return st


def native_walk(nat: Engine, players: int, seed: int) -> Iterator[Any]:
    """The states of one random game on the native backend, each before its decision is taken."""
    st = nat.new_game(players, seed)
    gen = rng.seed_state(seed)
    while not nat.is_terminal(st):
        yield st
        nat.apply_inplace(st, nat.random_choice(st, gen))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_game_ending_inside_effects(players: int) -> None:
    """tests/native/games/verdict: `end_game` in an action, `declare_winner` of a player after a
    choice, of a list in an end check and in flow.finish; the winners and scores compared."""
    py, nat = engines(load_game(HERE / "games" / "verdict"))
    seen: set[str] = set()
    for seed in range(1, 3 * GAMES + 1):
        play_both(py, nat, players, seed)
        st = py.new_game(players, seed)
        py.playout(st, rng.seed_state(seed + 0xB07))
        ns = nat.new_game(players, seed)
        nat.playout(ns, rng.seed_state(seed + 0xB07))
        assert nat.plain(ns) == st and nat.winners(ns) == py.winners(st)
        seen.add("declared" if st["t"]["winners"] is not None else "scored")
        back = nat.backend_form(st)  # declared winners convert to native words and back
        assert nat._live(back) is not None and nat.plain(back) == st
    assert seen == {"declared", "scored"}


def test_declare_winner_of_no_seat_fails_on_both() -> None:
    """`declare_winner num_players + 1` stops native code; Python replays it and says R008."""
    py, nat = engines(load_game(HERE / "games" / "verdict", {"trap": True}))
    failed = 0
    for seed in range(1, GAMES + 1):
        play_both(py, nat, 3, seed)  # compares the error where one is raised
        try:
            py.playout(py.new_game(3, seed), rng.seed_state(seed + 0xB07))
        except GameRuntimeError as err:
            assert err.code == "R008"
            failed += 1
    assert failed > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_vars_holding_lists(players: int) -> None:
    """tests/native/games/ledger: `initial: []` vars given lists of symbols (per player) and of
    players, read before they are set; the plain state (the lists) compared at every decision."""
    game = load_game(HERE / "games" / "ledger")
    py, nat = engines(game)
    assert nat.native is not None and nat.native.lay.var_kinds["seen"] == "list:sym"
    assert nat.native.lay.var_kinds["order"] == "list:player"
    longest = 0
    for seed in range(1, GAMES + 1):
        play_both(py, nat, players, seed)
        st = py.new_game(players, seed)
        py.playout(st, rng.seed_state(seed + 0xB07))
        longest = max(longest, *(len(s) for s in st["v"]["seen"]))
    assert longest >= 3


def test_a_list_var_past_native_room_goes_on_in_python() -> None:
    """A list longer than a var's native room stops native code; the game goes on in Python, and
    plays on exactly as the Python backend does."""
    py, nat = engines(load_game(HERE / "games" / "ledger", {"flood": True}))
    for seed in range(1, 4):
        assert play_both(py, nat, 2, seed) > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_actions_with_two_parameters(players: int) -> None:
    """tests/native/games/pair: (symbol, component) and (component, component of a list using the
    first) options, ids with keys for copies (`match:S1,S1#2`), taken on both backends."""
    py, nat = engines(load_game(HERE / "games" / "pair"))
    ids: set[str] = set()
    for seed in range(1, GAMES + 1):
        play_both(py, nat, players, seed)
        st = nat.new_game(players, seed)
        ids.update(i.split(":")[0] for i in nat.legal_ids(st) if "," in i)
    assert ids == {"call", "match"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_actions_with_more_than_two_parameters(players: int) -> None:
    """tests/native/games/triple: three parameters (component, component of a list using the
    first, symbol) and four (numbers, a seat, a component), offered by a phase's window and again by
    a window inside an action; options, ids and states compared at every decision. The option is
    one word per parameter more; a native search tree keeps to two (the bot keeps its Python one)."""
    game = load_game(HERE / "games" / "triple")
    py, nat = engines(game)
    assert nat.native is not None and nat.native.stride == 5
    ids: set[str] = set()
    for seed in range(1, GAMES + 1):
        play_both(py, nat, players, seed)
        for st in native_walk(nat, players, seed):
            ids.update(i.split(":")[0] + str(i.count(",")) for i in nat.legal_ids(st) if "," in i)
    assert ids == {"meld2", "bid3"}


@pytest.mark.parametrize("players", [2, 3])
def test_a_window_as_wide_as_its_parameters_domains(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/native/games/wide: eight two-valued parameters, about 215 options where the old room was
    16: the decision's room is the product of the domains (256), so every window is played natively
    (no decision handed to Python, no state in plain data), and the game is the Python one's."""
    py, nat = engines(load_game(HERE / "games" / "wide"))
    assert nat.native is not None and nat.native.lay.dec_cap == 256

    def handed_over(*args: Any) -> None:
        raise AssertionError("a decision was handed to Python")

    monkeypatch.setattr(nat, "_native_failed", handed_over)
    for seed in range(1, GAMES + 1):
        both_ways(py, nat, players, seed)
        widest = 0
        for st in native_walk(nat, players, seed):
            assert isinstance(st, NativeState) and st.plain is None  # in native words
            widest = max(widest, len(nat.legal_ids(st)))
        assert widest > 16


def test_an_action_past_the_native_room_of_parameters_is_refused(tmp_path: Path) -> None:
    """Nine parameters: more than a native option holds (ir.MORE_ARGS), refused (N001 at them)."""
    from tabula.interpreter.compile.native.support import lower_game

    names = "abcdefghi"
    params = ", ".join(f"{n}: '[1, 2]'" for n in names)
    (tmp_path / "game.yaml").write_text(
        "game: {id: many, players: {min: 2, max: 2}}\n"
        "counters: {n: {per: player}}\n"
        f"actions:\n  add:\n    params: {{{params}}}\n    closes_window: true\n"
        f"    do: 'gain {' + '.join(names)} n(me)'\n"
        "flow:\n  turn:\n    phases:\n      - {id: main, do: 'window p: add'}\n"
        "  end_checks:\n    - {id: done, when: turn > 2, end: immediately}\n"
        "scoring: {score: n(p)}\n"
    )
    _, walk = lower_game(load_game(tmp_path))
    (d,) = walk.report.diagnostics
    assert d.code == "N001" and "'add' with 9 parameters (native room: 8)" in d.message


@pytest.mark.parametrize("players", [2, 3, 4])
def test_windows_inside_blocks(players: int) -> None:
    """tests/native/games/nest: windows in a procedure's loop, inside an action (nested), offered
    again until a closing action, a `choose` after one, beside a phase's own window: every
    decision, id and state compared; whole native playouts end as the Python ones do."""
    py, nat = engines(load_game(HERE / "games" / "nest"))
    asked: set[str] = set()
    for seed in range(1, GAMES + 1):
        play_both(py, nat, players, seed)
        st = py.new_game(players, seed)
        py.playout(st, rng.seed_state(seed + 0xB07))
        ns = nat.new_game(players, seed)
        nat.playout(ns, rng.seed_state(seed + 0xB07))
        assert nat.plain(ns) == st
        ns = nat.new_game(players, seed)
        while not nat.is_terminal(ns):  # the decisions native code stopped at, answered first
            assert nat.native is not None
            first = nat.legal_ids(ns)[0].split(":")[0]
            asked.add(first if nat.native.choosing(ns) else "top level: " + first)
            nat.apply_inplace(ns, 0)
    assert {"give", "play", "bonus", "top level: draw"} <= asked
    assert asked & {"C1", "C2", "C3", "C5"}  # the choice after a window


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_choose_and_a_let_before_a_phase_s_window(players: int) -> None:
    """tests/native/games/prelude: a `choose` (behind an `if`) and a `let` before a phase's one
    window, the `let` read after it: the phase is lowered as a block whose window is a decision
    inside it; every decision compared, whole playouts too, and both kinds of decision posed."""
    py, nat = engines(load_game(HERE / "games" / "prelude"))
    asked: set[str] = set()
    for seed in range(1, GAMES + 1):
        both_ways(py, nat, players, seed)
        for ns in native_walk(nat, players, seed):
            assert nat.native is not None and nat.native.choosing(ns)  # both inside the phase's block
            asked.add(nat.legal_ids(ns)[-1].split(":")[0])
    assert {"draw"} < asked  # the window's and the choice's (a card's name)


def test_a_segment_starts_at_a_phase_start() -> None:
    """A decision inside an effect keeps the words at the last phase start as its segment's first
    state (prelude.py `checkpoint`), not the game's start: the answers queued are only those given
    since, and the plain state replayed from there is the Python backend's."""
    py, nat = engines(load_game(HERE / "games" / "nest"))
    a, b = py.new_game(3, 5), nat.new_game(3, 5)
    gen = rng.seed_state(9)
    longest, taken = 0, 0
    while not py.is_terminal(a):
        i = py.random_choice(a, gen)
        py.apply_inplace(a, i)
        nat.apply_inplace(b, i)
        taken += 1
        assert nat.native is not None
        if nat.native.choosing(b):
            base, answers, from_start = nat.native.segment(b)
            assert from_start and nat.native.to_plain(base)["t"]["stage"] == "phase"
            longest = max(longest, len(answers))
        assert nat.plain(b) == a
    assert taken >= 30 and 0 < longest <= 8  # one phase's answers at most


@pytest.mark.parametrize("players", [2, 3, 4])
def test_triggers(players: int) -> None:
    """tests/native/games/listen: the game's own triggers, a component type's under its `active`
    with `self` and `p` pinned, a card's own with a `choose` in a loop, two triggers on one event
    (their order folded into `stamp`), chains of emits, an emit's `me` from an action through a
    procedure and from the flow; compared at every decision, the state at the end as well."""
    py, nat = engines(load_game(HERE / "games" / "listen"))
    lib = nat.native
    assert lib is not None
    chose = 0
    for seed in range(1, GAMES + 1):
        st = both_ways(py, nat, players, seed)
        # the chain storm -> gust -> gale -> squall -> breeze, each round
        assert st["c"][nat.game.counters["breezes"].base] == 12
        ns = nat.new_game(players, seed)
        gen = rng.seed_state(seed)
        while not nat.is_terminal(ns):
            chose += any(i.startswith("P") for i in nat.legal_ids(ns))  # the Oracle's choice
            nat.apply_inplace(ns, nat.random_choice(ns, gen))
    assert chose > 0


def test_a_fan_out_of_triggers_fails_alike() -> None:
    """`fan`: triggers that emit again, ten sparks times the seats at each of four levels, run past
    the work budget: native code stops with its budget number at the round's end, and Python
    replays the decision and reports R002 at the emit."""
    game = load_game(HERE / "games" / "listen", {"fan": 1})
    py, nat = engines(game)
    lib = nat.native
    assert lib is not None
    st = nat.new_game(2, 1)
    gen = rng.seed_state(7)
    while True:
        i = nat.random_choice(st, gen)
        words = lib.array.from_buffer_copy(st.words)  # type: ignore[attr-defined]
        code = lib.apply(words, i, game.work_budget, None)
        if code != 0:
            break
        nat.apply_inplace(st, i)
    assert code == 2  # E_BUDGET
    with pytest.raises(GameRuntimeError) as err:
        nat.apply_inplace(st, i)
    span = err.value.span
    assert err.value.code == "R002" and span is not None
    lines = (HERE / "games" / "listen" / "game.yaml").read_text().splitlines()
    assert lines[span.line - 1].strip().startswith("emit")
    for seed in range(1, 4):
        play_both(py, nat, 3, seed)  # the same decision fails on both, said the same way


def test_an_emit_deeper_than_native_code_goes_on_in_python() -> None:
    """`deep`: a rest emits an event whose trigger emits it again 100 times, past EMIT_DEPTH: native
    code stops there (E_DEPTH), Python runs that decision (its frames go deeper) and the game goes
    on exactly as on the Python backend."""
    game = load_game(HERE / "games" / "listen", {"deep": 100})
    py, nat = engines(game)
    lib = nat.native
    assert lib is not None
    st = nat.new_game(2, 1)
    words = lib.array.from_buffer_copy(st.words)  # type: ignore[attr-defined]
    assert lib.apply(words, nat.legal_ids(st).index("rest"), game.work_budget, None) == 13  # E_DEPTH
    for seed in range(1, 4):
        assert play_both(py, nat, 2, seed) > 0


def test_an_emit_deeper_than_the_native_stack_goes_on_in_python() -> None:
    """tests/native/games/sink: 60 emits deep, each with list values of 20,000 components on the C
    stack (about 0.5 MB a level): native code stops at STACK_ROOM (E_DEPTH) rather than crash, and
    Python runs the decision."""
    game = load_game(HERE / "games" / "sink")
    py, nat = engines(game)
    lib = nat.native
    assert lib is not None
    st = nat.new_game(2, 1)
    words = lib.array.from_buffer_copy(st.words)  # type: ignore[attr-defined]
    assert lib.apply(words, 0, game.work_budget, None) == 13  # E_DEPTH, from the stack's depth
    assert play_both(py, nat, 2, 1) > 0


def test_a_loop_is_charged_its_body_s_weight(tmp_path: Path) -> None:
    """A loop's passes cost the work budget its body's statements each, as Python charges them:
    200,000 passes of twelve statements stop native code too (they cost 200,000 units before), and
    Python reports R002 at the loop."""
    body = "".join("        gain 1 n\n" for _ in range(12))
    (tmp_path / "game.yaml").write_text(
        "game: {id: heavy, players: {min: 2, max: 2}}\n"
        "counters: {n: {}}\n"
        "flow: {turn: {phases: [{id: main, do: 'window p: go'}]}}\n"
        "actions:\n"
        "  go:\n"
        "    closes_window: true\n"
        "    do: |\n"
        "      repeat 200000:\n" + body + "scoring: {score: n}\n"
    )
    game = load_game(tmp_path)
    py, nat = engines(game)
    lib = nat.native
    assert lib is not None
    st = nat.new_game(2, 1)
    words = lib.array.from_buffer_copy(st.words)  # type: ignore[attr-defined]
    assert lib.apply(words, 0, game.work_budget, None) == 2  # E_BUDGET
    with pytest.raises(GameRuntimeError) as err:
        nat.apply_inplace(st, 0)
    assert err.value.code == "R002" and err.value.span is not None and err.value.span.line == 8
    assert play_both(py, nat, 2, 1) == 0  # the first decision fails on both, said the same way


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_trigger_reading_an_argument_an_emit_does_not_pass(players: int) -> None:
    """tests/native/games/absent: `where: big and amount > 1` at emits that pass `amount` and at
    one that passes `big=false` alone (the read never reached): held natively, compared at every
    decision; both triggers fired."""
    py, nat = engines(load_game(HERE / "games" / "absent"))
    fired = {"pts": 0, "quiet": 0}
    for seed in range(1, GAMES + 1):
        play_both(py, nat, players, seed)
        st = py.new_game(players, seed)
        py.playout(st, rng.seed_state(seed + 0xB07))
        for name in fired:
            base = py.game.counters[name].base
            fired[name] += sum(st["c"][base : base + players])
    assert fired["pts"] > 0 and fired["quiet"] > 0


def test_reading_an_argument_not_passed_fails_alike() -> None:
    """With `loud`, `shout` emits `big=true` without `amount`: native code stops where the trigger
    reads it (E_KIND), and Python replays the decision and reports R005 at the emit."""
    game = load_game(HERE / "games" / "absent", {"loud": 1})
    py, nat = engines(game)
    lib = nat.native
    assert lib is not None
    failed = 0
    for seed in range(1, GAMES + 1):
        play_both(py, nat, 3, seed)  # the same decision fails on both, said the same way
        st = nat.new_game(3, seed)
        gen = rng.seed_state(seed + 0xB07)
        while not nat.is_terminal(st):
            i = nat.random_choice(st, gen)
            if nat.legal_ids(st)[i] == "shout":
                words = lib.array.from_buffer_copy(st.words)  # type: ignore[attr-defined]
                assert lib.apply(words, i, game.work_budget, None) == 4  # E_KIND
                with pytest.raises(GameRuntimeError) as err:
                    nat.apply_inplace(st, i)
                assert err.value.code == "R005" and "amount" in err.value.message
                failed += 1
                break
            nat.apply_inplace(st, i)
    assert failed > 0
