"""Game state as plain, JSON-serialisable data: creation, cheap copies, canonical form and hashes.

Layout (every key is engine-owned; the game's own data lives in z/c/v/m):

| key | contents |
|---|---|
| `z` | one list of component ids per zone instance (index 0 = top of an ordered zone) |
| `loc` | for every component, the zone instance holding it (-1: out of play) |
| `c` | every counter instance, flat |
| `v` | vars: name -> value, or a list with one value per player |
| `m` | marks: name -> one value per component |
| `rv` | 1 for each component revealed to everyone |
| `rng` | the generator's two words |
| `stk` | the frame stack (see runtime.py) |
| `dec` | the pending decision: who, choice ids, values |
| `t` | flow position: stage, round, turn, active player, phase, ending, winners |
| `names`, `o` | player names, rules options |
| `ru` | only once a grant is given `until` an event: [event, component, grant bits] each |
| `rig` | only in scenarios: zone instance -> the order it takes at its next shuffle (rig.py) |

A copy copies each list one level deep: the DSL never mutates a list value in place.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import orjson

from tabula.interpreter.base import rng
from tabula.interpreter.model.game import CompiledGame

State = dict[str, Any]


def new_state(game: CompiledGame, names: list[str], seed: int, options: dict[str, Any]) -> State:
    """A state before setup has run (the engine runs the flow right after)."""
    n = len(names)
    ncomp = len(game.components)
    counters = [0] * game.counter_count
    for c in game.counters.values():
        for p in range(game.max_players if c.per_player else 1):
            for k in range(c.width):
                init = c.initial
                value = init.get(c.keys[k], 0) if isinstance(init, dict) else int(init)
                counters[c.base + p * c.width + k] = value
    marks = {name: [copy.deepcopy(default)] * ncomp for name, default in game.marks.items()}
    for table in game.boards.tables.values():
        if table.geometry.grows:  # a board that grows starts with its first cell, at [0, 0]
            marks["x"][table.cells[0][0]] = marks["y"][table.cells[0][0]] = 0
    return {
        "z": [[] for _ in game.zone_layouts],
        "loc": [-1] * ncomp,
        "c": counters,
        "v": {
            name: ([copy.deepcopy(v.initial) for _ in range(n)] if v.per_player else copy.deepcopy(v.initial))
            for name, v in game.vars.items()
        },
        # values are never changed in place (a write replaces them), so components may share one
        "m": marks,
        "rv": [0] * ncomp,
        "rng": rng.seed_state(seed),
        "stk": [[game.main_block, 0, {}]],
        "dec": None,
        "t": {
            "stage": "setup",
            "round": 0,
            "turn": 0,
            "active": None,
            "phase": 0,
            "phase_id": None,
            **no_ending(),
            "n": n,
            "next": 0,
            "skips": 0,
            "decisions": 0,
        },
        "names": list(names),
        "o": dict(options),
    }


def no_ending() -> dict[str, Any]:
    """The flow's words about an ending (`t`) while none is under way: no ending mode, no trigger,
    no final turns, no end check fired, no declared winners."""
    return {"ending": None, "trigger": None, "final": [], "final_mode": False, "fired": [], "winners": None}


_copy = list.copy


def clone(st: State) -> State:
    """An independent copy, far cheaper than deepcopy (lists are copied one level deep; the copies
    are made by C loops, `map(list.copy, ...)`, as a clone is the inner loop of every search)."""
    v = st["v"]
    dec = st["dec"]
    t = st["t"]
    m = st["m"]
    tt = t.copy()
    vv = v.copy()
    for k, x in vv.items():  # replacing values while iterating is safe: the keys stay the same
        if x.__class__ is list:
            vv[k] = x[:]
    tt["final"] = t["final"][:]
    tt["fired"] = t["fired"][:]
    copy_: State = {
        "z": list(map(_copy, st["z"])),
        "loc": st["loc"][:],
        "c": st["c"][:],
        "v": vv,
        "m": dict(zip(m, map(_copy, m.values()))),  # noqa: B905  (a keyword would slow the call)
        "rv": st["rv"][:],
        "rng": st["rng"][:],
        "stk": [[fr[0], fr[1], fr[2].copy()] for fr in st["stk"]],
        "dec": dec.copy() if dec is not None else None,
        "t": tt,
        "names": st["names"],
        "o": st["o"],
    }
    if "ru" in st:  # the ends of grants given `until` an event (run/support.py reveal_until)
        copy_["ru"] = [e[:] for e in st["ru"]]
    if "rig" in st:  # rigged shuffle orders written by a scenario (rig.py)
        copy_["rig"] = {zone: [list(c) for c in order] for zone, order in st["rig"].items()}
    return copy_


def canonical(st: State) -> str:
    """The canonical JSON text: equal states have equal text."""
    return _canonical_bytes(st).decode()


def _canonical_bytes(doc: Any) -> bytes:
    """`json.dumps(doc, sort_keys=True, separators=(",", ":"))` as bytes, byte for byte. orjson writes
    the same text about 8x faster where the two agree: ASCII text with nothing escaped, string keys,
    integers within 64 bits, no floats (a state holds none: the language has no fractions). Anything
    else (a non-ASCII name, an escaped quote, a number key, a huge integer) is written by json, so a
    hash never depends on which of the two wrote it."""
    try:
        raw = orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # a key that is not a string, an integer past 64 bits
        raw = b""
    if raw and raw.isascii() and b"\\" not in raw:
        return raw
    return json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()


def state_hash(st: State) -> str:
    return hashlib.sha256(_canonical_bytes(st)).hexdigest()


SEMANTIC_HASH_CHARS = 10


def semantic_hash(st: State) -> str:
    """A short hash of everything in the state but the frame stack: `stk` is how the engine keeps
    its place inside a running effect, an encoding of its own that may change while the game does
    not. Trace files (tabula.dev.traces) and the replays of `tabula serve` compare positions by it."""
    body = {k: v for k, v in st.items() if k != "stk"}
    return hashlib.sha256(_canonical_bytes(body)).hexdigest()[:SEMANTIC_HASH_CHARS]


def from_json(text: str) -> State:
    loaded: State = json.loads(text)
    return loaded
