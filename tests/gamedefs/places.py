"""Shared helpers of the game tests: every component is in exactly one place; two components
trading places (the swap test) and what a seat's RL observation makes of it; random games simulated."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from tabula.interpreter.model.game import CompiledGame


def check_places(game: CompiledGame, st: dict[str, Any], in_play: Iterable[int]) -> None:
    """No component is in two zones, every location agrees with the zone lists, and each component
    of `in_play` lies in some zone (the others may be out of play, but then in no zone)."""
    seen: dict[int, int] = {}
    for zi, zone in enumerate(st["z"]):
        for cid in zone:
            assert cid not in seen, f"{game.components[cid].key} is in two zones"
            seen[cid] = zi
    for cid, loc in enumerate(st["loc"]):
        key = game.components[cid].key
        assert seen.get(cid, -1) == loc, f"{key}: location {loc}, found in {seen.get(cid)}"
    for cid in in_play:
        assert st["loc"][cid] >= 0, f"{game.components[cid].key} is nowhere"


def swapped(st: dict[str, Any], a: int, b: int) -> dict[str, Any]:
    """A copy of `st` with components a and b trading places (zones and locations): the swap test
    of hidden information."""
    out: dict[str, Any] = copy.deepcopy(st)
    za, zb = st["loc"][a], st["loc"][b]
    ia, ib = st["z"][za].index(a), st["z"][zb].index(b)
    out["z"][za][ia], out["z"][zb][ib] = b, a
    out["loc"][a], out["loc"][b] = zb, za
    return out


def simulate_random(game: str, players: int, games: int, capsys: Any) -> dict[str, Any]:
    """`tabula simulate GAME` of random bots in this process: its JSON summary, once it has checked
    that every game ended without an error."""
    import json

    from tabula.cli import main as cli

    argv = ["simulate", game, "--players", str(players), "--games", str(games), "--bot", "all=random"]
    assert cli.main([*argv, "--jobs", "1", "--json", "--seed", "0"]) == 0
    summary: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert summary["errors"] == [] and summary["games"] == games and not summary["interrupted"]
    assert sum(summary["endings"].values()) == games
    return summary


def rl_sees_the_same(rules: Any, st: dict[str, Any], other: dict[str, Any], seat: int) -> bool:
    """Whether `seat`'s RL observation (tensor, text and recalled log) of `st` equals that of `other`
    (the swap test's two states): the same for a seat that may not tell them apart."""
    from tabula.rl.encoding import Encoder
    from tabula.rl.match import Match
    from tabula.rl.text import observation_string

    encoder = Encoder(rules.game, len(st["names"]))
    seen = [
        (encoder.tensor(m.view(seat)).tobytes(), observation_string(rules.game, m.view(seat)), m.recall(seat))
        for m in (Match.from_state(rules, st), Match.from_state(rules, other))
    ]
    return seen[0] == seen[1]
