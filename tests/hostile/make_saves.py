"""Writes the save files of the hostile corpus (saves/*.json): `python tests/hostile/make_saves.py`.

Each file is a real save of the corpus's base game (tests/hostile/base, two players, seed 4, after
two choices) tampered with in one way. The files are data checked in; this script is their recipe,
and `test_the_save_files_are_current` fails when the engine's save format moves, so that they are
made again (and their expected codes in CASES.txt looked at) rather than silently testing nothing.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SAVES = HERE / "saves"
Doc = dict[str, Any]


def base_save() -> tuple[Doc, Any]:
    """The untampered save (as a dict) and the engine, at a window of Ann's with cards in both hands."""
    from tabula.interpreter.engine import Engine, load_game

    engine = Engine(load_game(HERE / "base"))
    st = engine.new_game(["Ann", "Bob"], seed=4)
    engine.apply_inplace(st, "take:1")
    engine.apply_inplace(st, "take:1")
    return json.loads(engine.to_json(st)), engine


def _state(change: Callable[[dict[str, Any]], None]) -> Callable[[Doc], Doc]:
    def tamper(doc: Doc) -> Doc:
        change(doc["state"])
        return doc

    return tamper


def _set(path: str, value: Any) -> Callable[[Doc], Doc]:
    def change(st: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = st
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        node[int(last) if isinstance(node, list) else last] = value

    return _state(change)


def _hand(doc: Doc, seat: int) -> list[int]:
    from tabula.interpreter.engine import load_game

    game = load_game(HERE / "base")
    return list(doc["state"]["z"][game.zones["hand"].index(seat)])


def _play_opponents_card(doc: Doc) -> Doc:
    # The attack of the issue: Ann's window is edited to offer the card in Bob's hand.
    bob_card = _hand(doc, 1)[0]
    dec = doc["state"]["dec"]
    i = next(i for i, x in enumerate(dec["ids"]) if x.startswith("play_card:"))
    dec["v"][i] = [dec["v"][i][0], [bob_card]]
    return doc


def _two_zones(doc: Doc) -> Doc:
    card = _hand(doc, 0)[0]
    doc["state"]["z"][0].append(card)
    return doc


def _loc_lies(doc: Doc) -> Doc:
    card = _hand(doc, 0)[0]
    doc["state"]["loc"][card] = 0
    return doc


def _deep_json(doc: Doc) -> str:
    return '{"format": "tabula-save", "state": ' + "[" * 100_000 + "]" * 100_000 + "}"


TAMPERINGS: dict[str, Callable[[Doc], Doc | str]] = {
    "truncated": lambda doc: json.dumps(doc)[: len(json.dumps(doc)) // 2],
    "not-json": lambda doc: "this is not a save\n",
    "nan": lambda doc: json.dumps(doc).replace('"decisions": 2', '"decisions": NaN'),
    "int-5000-digits": lambda doc: json.dumps(doc).replace('"decisions": 2', '"decisions": ' + "9" * 5000),
    "nested-100000": _deep_json,
    "bare-state": lambda doc: doc["state"],
    "version-2": lambda doc: {**doc, "version": 2},
    "no-version": lambda doc: {k: v for k, v in doc.items() if k != "version"},
    "other-game": lambda doc: {**doc, "game": "porta-nigra"},
    "other-layout": lambda doc: {**doc, "layout": "0" * 16},
    "missing-loc": _state(lambda st: st.pop("loc")),
    "extra-key": _state(lambda st: st.update(x=1)),
    "counter-text": _set("c.0", "3"),
    "counter-none": _set("c.0", None),
    "counters-short": _state(lambda st: st["c"].pop()),
    "names-count": _set("names", ["Ann", "Bob", "Cid"]),
    "names-twice": _set("names", ["Ann", "Ann"]),
    "stage-dunder": _set("t.stage", "_init__"),
    "active-seat-9": _set("t.active", 9),
    "rng-zero": _set("rng", [0, 0]),
    "rng-too-big": _set("rng", [1 << 64, 1]),
    "option-unknown": _state(lambda st: st["o"].update(cheat=True)),
    "mark-short": _state(lambda st: st["m"]["seen"].pop()),
    "reveal-3": _set("rv.0", 3),
    "var-missing": _state(lambda st: st["v"].clear()),
    "component-in-two-zones": _two_zones,
    "loc-lies": _loc_lies,
    "unknown-component": _state(lambda st: st["z"][0].append(999)),
    "frame-unknown-block": _set("stk.0.0", 9999),
    "frame-pc-past-end": _set("stk.1.1", 9999),
    "decision-for-seat-7": _set("dec.p", 7),
    "decision-unknown-kind": _set("dec.k", "auction"),
    "decision-ids-twice": _state(lambda st: st["dec"]["ids"].__setitem__(1, st["dec"]["ids"][0])),
    "decision-values-short": _state(lambda st: st["dec"]["v"].pop()),
    "window-unknown-action": _state(lambda st: st["dec"]["v"].__setitem__(0, [99, []])),
    "window-wrong-arity": _state(lambda st: st["dec"]["v"].__setitem__(0, [st["dec"]["v"][0][0], [1, 2, 3]])),
    "window-plays-opponents-card": _play_opponents_card,
    "decision-other-player": _set("dec.p", 1),
    "no-decision-mid-game": _set("dec", None),
    # held to the game's types (issue 26): each a JSON value of another type, refused at its path
    "state-list": lambda doc: {**doc, "state": []},
    "names-number": _set("names.0", 5),
    "counter-bool": _set("c.0", True),
    "counter-4215-digits": _set("c.0", 2**14000),
    "counter-fraction": _set("c.1", 1.5),
    "counter-below-min": _set("c.1", -1),  # score(Ann): only gain and pay write it, min 0
    "option-text": _set("o.target", "ten"),
    "option-bool": _set("o.target", True),
    "option-list": _set("o.target", [10]),
    "mark-number": _set("m.seen.0", 7),
    "mark-object": _set("m.seen.1", {"seen": True}),
    "mark-not-a-list": _set("m.seen", True),
    "flow-round-list": _set("t.round", []),
    "flow-stage-object": _set("t.stage", {"x": 1}),
    "frame-locals-list": _set("stk.1.2", []),
    "decision-list": _set("dec", []),
    "decision-kind-list": _set("dec.k", ["window"]),
    "decision-kind-object": _set("dec.k", {"k": "window"}),
    "decision-prompt-object": _set("dec.prompt", {}),
    "decision-ids-object": _set("dec.ids", {"take:1": 0}),
    "decision-player-text": _set("dec.p", "0"),
}


def make(name: str, doc: Doc) -> str:
    tampered = TAMPERINGS[name](copy.deepcopy(doc))
    text = tampered if isinstance(tampered, str) else json.dumps(tampered, sort_keys=True, indent=1) + "\n"
    assert text != json.dumps(doc, sort_keys=True, indent=1) + "\n", f"{name} changed nothing"
    assert "NaN" in text or "9" * 5000 in text or name not in ("nan", "int-5000-digits"), name
    return text


def main() -> None:
    doc, _ = base_save()
    SAVES.mkdir(exist_ok=True)
    for old in SAVES.glob("*.json"):
        old.unlink()
    (SAVES / "untampered.json").write_text(json.dumps(doc, sort_keys=True, indent=1) + "\n")
    for name in TAMPERINGS:
        (SAVES / f"{name}.json").write_text(make(name, doc))
    print(f"wrote {len(TAMPERINGS) + 1} save files to {SAVES}")


if __name__ == "__main__":
    main()
