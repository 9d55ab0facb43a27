"""Observations from a player's view: a fixed-shape tensor and a readable string.

Both are computed from `Engine.view(state, player)` only, so they hold nothing the player may not
see. Seats are relative: the viewer is seat 0, the next player in seat order seat 1, and so on, so
one policy can play any seat. The tensor's shape depends on the game (with its variant and
expansions) and the number of players only. It is the concatenation of these pieces, in order:

- `turn` (2N + 5): the viewer is to move; the game is over; one-hot relative seat of the player
  to move (N); one-hot active player (N, then none); round; turn.
- `counters`: every counter instance's value (a per-player counter: N blocks in relative seats).
- `vars`: every var, encoded by its declared type (a per-player var: N blocks).
- `zones` (2Z): per zone instance, its size and how many of its components the viewer cannot see.
- `components` (C(Z + 3)): per component, the one-hot zone instance holding it (Z); not located
  (hidden from the viewer, or out of play); its position in its zone (0 = top); revealed to all.
- `marks`: per mark, per component of the types having it, its value, encoded by the type of the
  mark's default (a bool, a number, a symbol, anything else: `any`).
- `unknown` (only in games with counters or vars that are not public, `visibility:`, or zones whose
  size is secret, `size_visibility:`): per instance of such a counter (N blocks for a per-player
  one), such a var and such a zone, 1 when the viewer may not see its value (a zone: how many it
  holds); that value then reads 0 (a counter, a zone's size and hidden count) or none (a var) in its
  own piece.

Z counts the zone instances of the game for N players (global zones, then each per-player zone's
instances in relative seat order); C is the number of components. A value of static type `bool`
is one number, `int` two (value, is none), `player` N + 1 (one-hot relative seat, none), `comp`
C + 1 (one-hot component, none or hidden), `str` E + 2 (one-hot over the game's enum symbols,
another string, none), `list[comp]` C + 1 and `list[str]` E + 1 (counts), `list[player]` N (counts);
any other type (`any`, other lists) 9 + E: is none, is bool, the bool, is int, the int, is string,
one-hot symbol (E), another string, is list and the list's length.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from tabula.interpreter.base.types import BOOL, COMP, INT, PLAYER, STR
from tabula.interpreter.model.game import CompiledGame
from tabula.interpreter.model.view import var_unseen

Vector: TypeAlias = npt.NDArray[np.float32]
# writes one value into out[at:at + width]; returns nothing
Writer = Callable[[Vector, int, Any, int], None]


def _mark_type(default: Any) -> str:
    """The static type of a mark, from its default value."""
    if isinstance(default, bool):
        return BOOL
    if isinstance(default, int):
        return INT
    if isinstance(default, str):
        return STR
    return "any"


class Encoder:
    """The observation tensor and string of one game for a fixed number of players."""

    def __init__(self, game: CompiledGame, players: int) -> None:
        self.game = game
        self.n = players
        self.ncomp = len(game.components)
        symbols: list[str] = []
        for syms in game.enums.values():
            symbols.extend(s for s in syms if s not in symbols)
        self.symbols = {s: i for i, s in enumerate(symbols)}
        self._zone_at: list[list[int]] = []  # per viewer: state zone index -> column (-1: not encoded)
        self._build_zones()
        self._marks_of = {name: self._marked(name) for name in game.marks}
        self.pieces: list[tuple[str, int]] = []
        self._build_pieces()
        self.size = sum(w for _, w in self.pieces)

    # ------------------------------------------------------------ layout
    def _build_zones(self) -> None:
        """The zone columns for this player count: global zones, per-player ones in relative seats."""
        g, n = self.game, self.n
        columns: list[tuple[int, int | None]] = []  # (first state index of the zone, relative seat)
        for z in sorted(g.zones.values(), key=lambda z: z.base):
            columns.extend([(z.base, rel) for rel in range(n)] if z.per_player else [(z.base, None)])
        self.nz = len(columns)
        for viewer in range(n):
            at = [-1] * len(g.zone_layouts)
            for col, (base, seat) in enumerate(columns):
                at[base if seat is None else base + (viewer + seat) % n] = col
            self._zone_at.append(at)

    def width(self, t: str) -> int:
        """How many numbers a value of static type `t` takes."""
        n, c, e = self.n, self.ncomp, len(self.symbols)
        return {
            BOOL: 1,
            INT: 2,
            PLAYER: n + 1,
            COMP: c + 1,
            STR: e + 2,
            f"list[{COMP}]": c + 1,
            f"list[{STR}]": e + 1,
            f"list[{PLAYER}]": n,
        }.get(t, 9 + e)

    def _build_pieces(self) -> None:
        g, n = self.game, self.n
        counters = sum(c.width * (n if c.per_player else 1) for c in g.counters.values())
        vars_ = sum(self.width(v.type) * (n if v.per_player else 1) for v in g.vars.values())
        marks = sum(
            self.width(_mark_type(default)) * len(self._marked(name)) for name, default in g.marks.items()
        )
        self.pieces = [
            ("turn", 2 * n + 5),
            ("counters", counters),
            ("vars", vars_),
            ("zones", 2 * self.nz),
            ("components", self.ncomp * (self.nz + 3)),
            ("marks", marks),
        ]
        unknown = sum(c.width * (n if c.per_player else 1) for c in self._secret_counters()) + sum(
            n if v.per_player else 1 for v in self._secret_vars()
        )
        unknown += sum(n if z.per_player else 1 for z in self._secret_sizes())
        if unknown:
            self.pieces.append(("unknown", unknown))

    def _secret_counters(self) -> list[Any]:
        return [c for c in self.game.counters.values() if c.visibility != "public"]

    def _secret_vars(self) -> list[Any]:
        return [v for v in self.game.vars.values() if v.visibility != "public"]

    def _secret_sizes(self) -> list[Any]:
        return sorted(
            (z for z in self.game.zones.values() if z.size_visibility != "public"), key=lambda z: z.base
        )

    def _marked(self, mark: str) -> list[int]:
        """The components that have `mark` (those of the types declaring it)."""
        types = self.game.mark_types.get(mark)
        if types is None:
            return list(range(self.ncomp))
        return [c.id for c in self.game.components if c.type in types]

    # ------------------------------------------------------------ values
    def _rel(self, viewer: int, p: Any) -> int | None:
        if isinstance(p, int) and not isinstance(p, bool) and 0 <= p < self.n:
            return (p - viewer) % self.n
        return None

    def write(self, out: Vector, at: int, v: Any, t: str, viewer: int) -> None:
        """Encode value `v` of static type `t` into out[at:at + width(t)] (already zero)."""
        if t == BOOL:
            out[at] = 1.0 if v else 0.0
        elif t == INT:
            if isinstance(v, int):
                out[at] = float(v)
            else:
                out[at + 1] = 1.0
        elif t == PLAYER:
            rel = self._rel(viewer, v)
            out[at + (self.n if rel is None else rel)] = 1.0
        elif t == COMP:
            ok = isinstance(v, int) and not isinstance(v, bool) and 0 <= v < self.ncomp
            out[at + (v if ok else self.ncomp)] = 1.0
        elif t == STR:
            e = len(self.symbols)
            out[at + (e + 1 if v is None else self.symbols.get(str(v), e))] = 1.0
        elif t.startswith("list[") and isinstance(v, list) and t[5:-1] in (COMP, STR, PLAYER):
            self._write_list(out, at, v, t[5:-1], viewer)
        else:
            self._write_any(out, at, v)

    def _write_list(self, out: Vector, at: int, v: list[Any], t: str, viewer: int) -> None:
        for x in v:
            if t == COMP:
                ok = isinstance(x, int) and 0 <= x < self.ncomp
                out[at + (x if ok else self.ncomp)] += 1.0
            elif t == STR:
                out[at + self.symbols.get(str(x), len(self.symbols))] += 1.0
            else:
                rel = self._rel(viewer, x)
                if rel is not None:
                    out[at + rel] += 1.0

    def _write_any(self, out: Vector, at: int, v: Any) -> None:
        e = len(self.symbols)
        if v is None:
            out[at] = 1.0
        elif isinstance(v, bool):
            out[at + 1] = 1.0
            out[at + 2] = 1.0 if v else 0.0
        elif isinstance(v, int):
            out[at + 3] = 1.0
            out[at + 4] = float(v)
        elif isinstance(v, str):
            out[at + 5] = 1.0
            out[at + 6 + self.symbols.get(v, e)] = 1.0
        elif isinstance(v, list):
            out[at + 7 + e] = 1.0
            out[at + 8 + e] = float(len(v))

    # ------------------------------------------------------------ the tensor
    def tensor(self, view: dict[str, Any], out: Vector | None = None) -> Vector:
        """The observation tensor of a view (written into `out` when given)."""
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        viewer = int(view["viewer"])
        at = 0
        for name, width in self.pieces:
            getattr(self, "_t_" + name)(out, at, view, viewer)
            at += width
        return out

    def _t_turn(self, out: Vector, at: int, view: dict[str, Any], viewer: int) -> None:
        n = self.n
        dec = view["dec"]
        if dec is None:
            out[at + 1] = 1.0
        else:
            mover = self._rel(viewer, dec["p"])
            out[at] = 1.0 if mover == 0 else 0.0
            if mover is not None:
                out[at + 2 + mover] = 1.0
        t = view["t"]
        self.write(out, at + 2 + n, t.get("active"), PLAYER, viewer)
        out[at + 3 + 2 * n] = float(t.get("round") or 0)
        out[at + 4 + 2 * n] = float(t.get("turn") or 0)

    def _t_counters(self, out: Vector, at: int, view: dict[str, Any], viewer: int) -> None:
        values = view["c"]
        for c in self.game.counters.values():
            seats = [(viewer + rel) % self.n for rel in range(self.n)] if c.per_player else [0]
            for p in seats:
                base = c.base + p * c.width
                out[at : at + c.width] = [v or 0 for v in values[base : base + c.width]]  # None: unknown
                at += c.width

    def _t_unknown(self, out: Vector, at: int, view: dict[str, Any], viewer: int) -> None:
        values = view["c"]
        for c in self._secret_counters():
            seats = [(viewer + rel) % self.n for rel in range(self.n)] if c.per_player else [0]
            for p in seats:
                base = c.base + p * c.width
                out[at : at + c.width] = [float(v is None) for v in values[base : base + c.width]]
                at += c.width
        for var in self._secret_vars():
            if var.per_player:
                for rel in range(self.n):
                    out[at] = float(var_unseen(self.game, view, var.name, (viewer + rel) % self.n))
                    at += 1
            else:
                out[at] = float(var_unseen(self.game, view, var.name, None))
                at += 1
        for z in self._secret_sizes():
            for rel in range(self.n) if z.per_player else [0]:
                out[at] = float(
                    view["z"][z.base + (viewer + rel) % self.n if z.per_player else z.base] is None
                )
                at += 1

    def _t_vars(self, out: Vector, at: int, view: dict[str, Any], viewer: int) -> None:
        values = view["v"]
        for name, var in self.game.vars.items():
            w = self.width(var.type)
            v = values.get(name)
            if var.per_player:
                seq = v if isinstance(v, list) else []
                for rel in range(self.n):
                    p = (viewer + rel) % self.n
                    self.write(out, at, seq[p] if p < len(seq) else None, var.type, viewer)
                    at += w
            else:
                self.write(out, at, v, var.type, viewer)
                at += w

    def _t_zones(self, out: Vector, at: int, view: dict[str, Any], viewer: int) -> None:
        for zi, col in enumerate(self._zone_at[viewer]):
            if col >= 0:
                zone = view["z"][zi]
                if zone is None:  # a size secret to the viewer: 0 here, 1 in the `unknown` piece
                    continue
                out[at + 2 * col] = float(len(zone))
                out[at + 2 * col + 1] = float(sum(1 for c in zone if c < 0))

    def _t_components(self, out: Vector, at: int, view: dict[str, Any], viewer: int) -> None:
        stride = self.nz + 3
        zone_at = self._zone_at[viewer]
        block = out[at : at + self.ncomp * stride].reshape(self.ncomp, stride)
        for zi, zone in enumerate(view["z"]):
            col = zone_at[zi]
            if zone is None:  # a secret size: the components seen there, position 0
                for c in (c for c, where in enumerate(view["loc"]) if where == zi and col >= 0):
                    block[c, col] = 1.0
                continue
            for pos, c in enumerate(zone):
                if c >= 0 and col >= 0:
                    block[c, col] = 1.0
                    block[c, self.nz + 1] = float(pos)
        for c, loc in enumerate(view["loc"]):
            if loc < 0:
                block[c, self.nz] = 1.0
        block[:, self.nz + 2] = np.asarray(view["rv"], np.float32)

    def _t_marks(self, out: Vector, at: int, view: dict[str, Any], viewer: int) -> None:
        for name, default in self.game.marks.items():
            t = _mark_type(default)
            w = self.width(t)
            marked = self._marks_of[name]
            values = view["m"].get(name, [])
            vals = [values[c] if c < len(values) else None for c in marked]
            if t == BOOL:  # one number per component: a single slice assignment
                out[at : at + len(marked)] = [1.0 if v else 0.0 for v in vals]
            elif t == "any":
                for k, v in enumerate(vals):
                    if v is None:
                        out[at + k * w] = 1.0  # the is-none flag, without a call: most marks are unset
                    else:
                        self._write_any(out, at + k * w, v)
            else:
                for k, v in enumerate(vals):
                    self.write(out, at + k * w, v, t, viewer)
            at += w * len(marked)
