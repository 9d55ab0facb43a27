"""The stable action index of tabula.rl: every id a game offers has one fixed index, computed from the
compiled game alone; ids it cannot hold are refused loudly. Needs no RL library."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from tabula.interpreter.engine import BUNDLED, Engine
from tabula.rl.__main__ import main
from tabula.rl.actions import ActionIndex, IdMapper, UnindexedChoice
from tabula.rl.match import Match, Ruleset, Setup
from tabula.rl.strings import game_strings, source_files

SIZES = {"high-card": 267, "porta-nigra": 1808, "glory-to-rome": 86771}
CONFIGS = [
    (Setup("high-card"), [2, 3, 4]),
    (Setup("porta-nigra"), [2, 3, 4]),
    (Setup("porta-nigra", expansions=("honour-plus",)), [3]),
    (Setup("glory-to-rome"), [2, 3, 4, 5]),
    (Setup("glory-to-rome", variant="imperium"), [4]),
    (Setup("glory-to-rome", expansions=("all-44-buildings",)), [3]),
]


def _plain(cid: str) -> str:
    """An id with copy numbers removed: a bare name and its first copy's key share an index."""
    return re.sub(r"#[0-9]+", "", cid)


@pytest.mark.slow  # enumerates every action of the bundled games
@pytest.mark.parametrize("game", sorted(SIZES))
def test_bundled_sizes(game: str) -> None:
    assert Ruleset.get(Setup(game)).index.size == SIZES[game]


@pytest.mark.slow  # every action offered in random games of six configurations
@pytest.mark.parametrize(
    ("setup", "counts"), CONFIGS, ids=[f"{s.game}-{s.variant}-{'+'.join(s.expansions)}" for s, _ in CONFIGS]
)
def test_every_offered_id_has_one_index(setup: Setup, counts: list[int]) -> None:
    rules = Ruleset.get(setup)
    index = rules.index
    for players in counts:
        for seed in range(2):
            m = Match.start(rules, players, seed)
            gen = random.Random(seed)
            while not m.is_over():
                legal = m.legal()  # raises if two ids of one decision shared an index
                assert len(legal) == len(rules.engine.legal_ids(m.st))
                for i, cid in legal.items():
                    assert 0 <= i < index.size
                    assert _plain(index.id_of(i, m.names)) == _plain(cid)
                m.apply(gen.choice(sorted(legal)))


def test_the_index_does_not_depend_on_play() -> None:
    game, strings = Ruleset.compiled("glory-to-rome", "", ())
    a, b = ActionIndex(game, strings), ActionIndex(game, strings)
    assert a.layout() == b.layout()
    # the same id in two games of different sizes, at different moments, has the same index
    names5 = ["P1", "P2", "P3", "P4", "P5"]
    assert a.index("lead:Road", names5[:2]) == a.index("lead:Road", names5)
    assert a.index("add:Road#2,Bar#1", names5) == b.index("add:Road#2,Bar#1", names5[:3])


def test_bare_names_and_keys() -> None:
    index = Ruleset.get(Setup("glory-to-rome")).index
    names = ["P1", "P2"]
    # a bare name stands for its first copy; other copies have indices of their own
    assert index.index("take:Road", names) == index.index("take:Road#1", names)
    assert index.index("take:Road#2", names) == index.index("take:Road#1", names) + 1
    assert index.id_of(index.index("take:Road#2", names), names) == "take:Road#2"


def test_declared_sources_restrict_parameters() -> None:
    index = Ruleset.get(Setup("glory-to-rome")).index
    sizes = {name.split("(")[0]: size for name, _, size in index.layout()}
    comp = len(Ruleset.get(Setup("glory-to-rome")).game.components) + 1  # with none
    assert sizes["lead_jack"] == 6  # r: roles, a constant of six roles
    assert sizes["found"] == 2 * comp  # k: site_kinds (two), c: any component
    assert sizes["add"] == comp * comp


def test_custom_player_names_map_to_seat_order() -> None:
    rules = Ruleset.get(Setup("porta-nigra"))
    index = rules.index
    seats = rules.seat_names(3)
    custom = ["Ann", "Bob", "Cy"]
    for p in range(3):
        assert index.index(custom[p], custom) == index.index(seats[p], seats)
    m = Match.start(rules, custom, 4)
    assert m.names == custom
    with pytest.raises(UnindexedChoice):
        index.index("Dee", custom)


def test_unknown_ids_fail_loudly() -> None:
    index = Ruleset.get(Setup("porta-nigra")).index
    names = ["Red", "Green"]
    with pytest.raises(UnindexedChoice, match=r"outside the action index's range 0\.\.200"):
        index.index("201", names)
    with pytest.raises(UnindexedChoice, match="list of values"):
        index.index("C1+C2", names)
    with pytest.raises(UnindexedChoice, match="arguments outside the action index of 'play'"):
        index.index("play:no-such-card", names)
    with pytest.raises(UnindexedChoice, match="declared"):
        index.index("made_at_run_time", names)
    wider = ActionIndex(index.game, game_strings(index.game, []), (0, 500))
    assert wider.index("201", names) > 0
    with pytest.raises(ValueError, match="outside"):
        index.id_of(index.size, names)


def test_strings_come_from_data_and_dsl_literals() -> None:
    game, strings = Ruleset.compiled("glory-to-rome", "", ())
    assert {"laborer", "in_town", "Domus Aurea", "last_card_drawn", "neighbours_only"} <= set(strings)
    assert not [s for s in strings if s.startswith("Petition:")]  # prompts are not DSL literals
    files = source_files(game, "imperium", ())
    assert files[-1].name == "imperium.yaml"


def _custom_game(tmp_path: Path, rules_extra: str) -> Path:
    folder = tmp_path / "custom"
    shutil.copytree(BUNDLED / "high-card", folder)
    with (folder / "rules.yaml").open("a", encoding="utf-8") as f:
        f.write(rules_extra)
    return folder


def test_a_list_parameter_is_refused(tmp_path: Path) -> None:
    folder = _custom_game(
        tmp_path,
        "  pass_two:\n    params: {cs: '[[a] for a in hand(me)]'}\n    do: pass\n",
    )
    with pytest.raises(UnindexedChoice, match="parameter 'cs' offers lists"):
        Ruleset(Setup(str(folder)))


def test_literal_strings_of_a_game_get_indices(tmp_path: Path) -> None:
    folder = _custom_game(
        tmp_path,
        "  call:\n    params: {side: \"['heads', 'tails']\"}\n    do: pass\n",
    )
    rules = Ruleset(Setup(str(folder)))
    names = ["North", "East"]
    heads, tails = rules.index.index("call:heads", names), rules.index.index("call:tails", names)
    assert heads != tails
    assert {"heads", "tails"} <= set(rules.index.values.static)


def test_the_id_mapper_checks_each_decision() -> None:
    rules = Ruleset.get(Setup("high-card"))
    engine: Engine = rules.engine
    st = engine.new_game(2, 1)
    m = IdMapper(rules.index, engine.player_names(st))
    legal = m.legal(engine.legal_ids(st))
    assert sorted(legal.values()) == sorted(engine.legal_ids(st))
    with pytest.raises(UnindexedChoice, match="share action"):
        m.legal(["play:C1", "play:C1"])


def test_the_sizes_command_reports_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["high-card", "--option", "nope=1"]) == 1
    assert "unknown rules option 'nope'" in capsys.readouterr().err
    assert main(["no-such-game"]) == 1
    assert "no game folder or bundled game named 'no-such-game'" in capsys.readouterr().err
