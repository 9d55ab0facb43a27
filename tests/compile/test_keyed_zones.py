"""Zones keyed by an enum (`discard: {keys: colour}`): one zone per symbol, written `discard(red)`
(or `heap(p, red)` per player), with a key known only while playing looked up in a table; the
mistakes located (E102, E105, E109, E120)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabula.interpreter.base.source import AuthorError, render_report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.run.runtime import GameRuntimeError

MINI = Path(__file__).resolve().parents[2] / "tests" / "games" / "mini"
ZONES = """\
  heap: {per: player, keys: suit, visibility: public}
  stack: {keys: suit, visibility: public}
"""


def mini_with(tmp_path: Path, setup: str, zones: str = ZONES) -> Path:
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    path = folder / "game.yaml"
    text = path.read_text().replace("zones:\n", "enums:\n  suit: [cups, coins]\n\nzones:\n" + zones, 1)
    text = text.replace(
        "    shuffle deck\n", "    shuffle deck\n" + "".join(f"    {x}\n" for x in setup.splitlines())
    )
    path.write_text(text)
    return folder


def test_one_zone_per_key_globally_and_per_player(tmp_path: Path) -> None:
    setup = (
        "move top(deck) to stack(coins)\nlet s = cups\n"
        + "move top(deck) to heap(1, s)\nmove top(deck) to heap(0, s)"
    )
    engine = Engine(load_game(mini_with(tmp_path, setup)))
    g = engine.game
    assert g.zone_families == {"heap": ["cups", "coins"], "stack": ["cups", "coins"]}
    log: list[dict] = []
    st = engine.new_game(2, seed=1, log=log)
    sizes = {
        z.ref(None if o is None else st["names"][o]): len(st["z"][i])
        for i, (z, o) in enumerate(zip(g.zone_layouts, g.zone_owner, strict=True))
        if o is None or o < 2
    }
    assert sizes["stack(coins)"] == 1 and sizes["stack(cups)"] == 0
    assert sizes["heap(P1, cups)"] == 1 and sizes["heap(P2, cups)"] == 1 and sizes["heap(P1, coins)"] == 0
    assert any(str(e["text"]).endswith("deck -> heap(P2, cups)") for e in log)


@pytest.mark.parametrize(
    ("setup", "code", "message"),
    [
        ("move top(deck) to stack", "E102", "zone 'stack' is one zone per key: write stack(key)"),
        ("move top(deck) to heap(0)", "E105", "zone 'heap' takes a player and a key: heap(p, key)"),
        ("move top(deck) to stack(swords)", "E101", "unknown name 'swords'"),
        ("move top(deck) to stack('swords')", "E109", "zone 'stack' has no key 'swords'"),
        ("move top(deck) to stack(1)", "E109", "zone 'stack' has no key 1"),
    ],
)
def test_a_keyed_zone_written_wrong_is_located(tmp_path: Path, setup: str, code: str, message: str) -> None:
    with pytest.raises(AuthorError) as err:
        load_game(mini_with(tmp_path, setup))
    text = render_report(err.value.report)
    assert f"error[{code}]: {message}" in text, text


def test_keys_that_are_no_enum_are_e120(tmp_path: Path) -> None:
    with pytest.raises(AuthorError) as err:
        load_game(mini_with(tmp_path, "", zones="  stack: {keys: suits, visibility: public}\n"))
    text = render_report(err.value.report)
    assert (
        "error[E120]: unknown enum 'suits' for the keys of zone 'stack'" in text
        and "did you mean 'suit'?" in text
    )


def test_a_key_known_only_while_playing_that_is_no_symbol_is_r005(tmp_path: Path) -> None:
    engine = Engine(load_game(mini_with(tmp_path, "set last = 'swords'\nmove top(deck) to stack(last)")))
    with pytest.raises(GameRuntimeError) as err:
        engine.new_game(2, seed=1)
    assert err.value.code == "R005" and str(err.value) == "no entry 'swords' in the mapping"
    assert err.value.span is not None and err.value.span.line == 63  # the move
