"""Issue 24, item 4: a rule failing in a bot's playout, on a world the bot dealt from its view, is
reported as that (the bot, the world's generator state, the choices on it), not as the real game
failing; simulate then writes no scenario of the real game, which did not fail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tabula.balance.match import Config, play_game
from tabula.bots.base import Observation, PlayoutFailure
from tabula.bots.spec import make_bot
from tabula.cli import main as cli
from tabula.interpreter.base import rng
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.model.state import state_hash
from tabula.interpreter.run.runtime import GameRuntimeError

ROOT = Path(__file__).resolve().parents[2]


def failing_apply(seen: list[Any]) -> Any:
    """Engine.apply (what bots call on their worlds; the real game moves by apply_inplace) failing."""

    def apply(self: Engine, st: Any, choice: Any) -> Any:
        seen.append((self.clone(st), choice))
        raise GameRuntimeError("a rule that fails only on this world", None)

    return apply


def test_the_failure_names_the_bot_the_world_and_the_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = Engine(load_game(ROOT / "gamedefs" / "porta-nigra"))
    st = engine.new_game(2, 4)
    seen: list[Any] = []
    monkeypatch.setattr(Engine, "apply", failing_apply(seen))
    gen = rng.seed_state(11)
    with pytest.raises(PlayoutFailure) as caught:
        make_bot("greedy:2", engine).choose(Observation(engine, st, 0), gen)
    fail = caught.value
    world, choice = seen[0]
    choice = engine.legal_ids(st)[choice]  # greedy applies by index: its world poses the same ids
    assert fail.spec == "greedy:2" and fail.seat == 0 and fail.choices == [choice]
    # the generator state it names deals that very world again
    again = Observation(engine, st, 0).determinize(list(fail.world_gen))
    assert state_hash(again) == state_hash(world)
    text = fail.describe("error: a rule that fails only on this world")
    assert "inside a playout of the bot greedy:2 (seat 0)" in text and "not in the real game" in text
    assert f"the choices on it: {choice}" in text


def test_a_search_playout_failure_is_recorded_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    from tabula.bots import search

    def rollout(self: Any, st: Any, gen: list[int], moves: list[str], rolled: list[Any]) -> list[float]:
        moves.append("imagined")
        raise GameRuntimeError("a rule that fails only on this world", None)

    monkeypatch.setattr(search.SearchBot, "_rollout", rollout)
    rec = play_game(Config("porta-nigra", 2, bots=("ismcts:5", "random")), 0, 3)
    assert rec.in_playout and rec.error is not None
    assert "inside a playout of the bot ismcts:5 (seat 0)" in rec.error
    assert "the choices on it: " in rec.error and rec.error.split("the choices on it: ")[1].split("\n")[
        0
    ].endswith("imagined")
    assert f"at decision {rec.decisions} of the real game" in rec.error


def test_simulate_reports_a_playout_failure_and_writes_no_scenario(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(Engine, "apply", failing_apply([]))
    argv = ["simulate", "porta-nigra", "--games", "2", "--seed", "5", "--bot", "0=greedy", "--jobs", "1"]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert "inside a playout of the bot greedy (seat 0)" in err and "not in the real game" in err
    assert "--seed 5 --bot 0=greedy --bot 1=random" in err  # the replay command
    assert not list(tmp_path.glob("failed-*.yaml"))
