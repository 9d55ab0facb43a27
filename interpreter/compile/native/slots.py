"""The native state: one flat array of 64-bit words, laid out from the compiled game's tables.

Stage: compile (native). The generator writes these offsets into the C file as `#define`s and the
bridge reads and writes the same words, so a native state converts to the plain-data state
(model/state.py) and back exactly. Words, in order:

| words | contents |
|---|---|
| `RNG` (2) | the generator's two words (xorshift128+, as base/rng.py) |
| `T_*` (18) | the flow: stage, round, turn, active, phase, phase id, players, next, skips, |
| | decisions, the phase frame's pc (-1: none), the work left |
| | ending (ENDINGS), trigger, final mode, final turns queued, end checks fired, |
| | the declared winners (NONE: none declared; else packed as pack_players) |
| `D_*` (4) | the pending decision: kind (0 none, 1 window, 2 a choice), player, number of |
| | options, the choice's site |
| `OPT` | one word per rules option |
| `CNT` | every counter instance, as `state["c"]` |
| `VAR` | one word per var (one per seat for a per-player var); a list: its length, then room |
| | for `list_cap` items |
| `MARK` | one word per mark and component |
| `FINAL`, `FIRED` | the players of the final turns to come; the end checks fired, in order |
| `RV`, `LOC` | revealed flags and the zone instance of every component |
| `RU` | only in a game with `reveal ... until`: the state's `ru` (0: no key; else 1 + its |
| | entries), then room for `ends` entries of three words: the event (its index in `until`), |
| | the component, the grant's bits |
| `GROW` | per board that grows (grown_words): the cells indexed so far, then `2 * slots` words: |
| | an index of its cells by coordinates (key + 1, cell index), derived from the marks x and y |
| | (boards.c `g_words` reads them on from the count; the bridge writes zeros: none indexed) |
| `ZLEN`, `ZONE` | each zone instance's length, then its components (room for every component) |
| `DOPT` | the decision's options, DSTRIDE words each: action index (a choice: its site), then |
| | the arguments (a choice: its value), NONE where the action has fewer |
| `Q_*`, `QUEUE` | the segment under way: answers queued, read, from setup or a phase's start (1) |
| | or a window (0), where a search's dealt world replaces the words (1 + the answers |
| | before it; 0: nowhere); the answers given since the segment's first state |
| `SNAP` | the segment's first state (the words before `Q_LEN`: MAIN_WORDS) |

A segment runs from a window's answer (or the start) to the next window: a choice inside it
stops native code with the words mid-effect, and answering it replays the segment from SNAP
with the answers queued (docs/ARCHITECTURE.md, "Native backend"). KEEP_WORDS (all but SNAP)
is what an error restores.

`None` is the word NONE (the smallest 64-bit integer); a symbol is its number in `symbols`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from tabula.interpreter.load.tiles import part_names
from tabula.interpreter.model.game import CompiledGame

NONE = -(1 << 63)
FLOW_WORDS = (
    "STAGE",
    "ROUND",
    "TURN",
    "ACTIVE",
    "PHASE",
    "PHASE_ID",
    "N",
    "NEXT",
    "SKIPS",
    "DECISIONS",
    "FR_PC",
    "BUDGET",
    "ENDING",
    "TRIGGER",
    "FINAL_MODE",
    "NFINAL",
    "NFIRED",
    "WINNERS",
    "CO",  # the ticket of the coroutine suspended on these words (runtime/segments.c), or 0
    "GEN",  # the words' generation: new (unique) at every native run that writes them (and a load), else 0
)
ENDINGS = (None, "after_turn", "final_turns")  # T_ENDING: an index into this
DEC_WORDS = ("DK", "DP", "DN", "DSITE")
DSTRIDE = 3  # words per option of a game with two-parameter actions: the action (or site), two arguments
QCAP = 256  # answers a segment can hold (a longer one stops native code: the Python backend goes on)


def symbol_table(game: CompiledGame) -> list[str]:
    """Every symbol the game can hold: enum symbols, then texts of properties and constants, then
    the names of its tiles' sides and parts (appended last: the numbers before them stay). Texts a
    rule writes that none of these has are appended after them (Lowering._String)."""
    out: dict[str, None] = {}
    for syms in game.enums.values():
        out.update(dict.fromkeys(syms))
    out.update(dict.fromkeys(game.by_type))  # component types' names (`c.type`)
    for c in game.components:
        out.update({v: None for v in c.props.values() if isinstance(v, str)})
        for v in c.props.values():
            if isinstance(v, list):
                out.update({x: None for x in v if isinstance(x, str)})
    for v in game.constants.values():
        if isinstance(v, str):
            out[v] = None
        elif isinstance(v, dict):
            out.update({k: None for k in v if isinstance(k, str)})
            out.update({x: None for x in v.values() if isinstance(x, str)})
    for name, value in game.options.items():  # a text option's value and its allowed values
        spec = game.option_specs.get(name)
        texts = [value, *((spec.choices or ()) if spec is not None else ())]
        out.update({x: None for x in texts if isinstance(x, str)})
    for tile in game.boards.tiles.values():  # the names of its sides and parts, as features give them
        out.update(dict.fromkeys(part_names(tile.count, 1)))
        out.update(dict.fromkeys(part_names(tile.count, tile.per)))
        for terrains in (tile.parts or {}).values():
            out.update({x: None for x in terrains if isinstance(x, str)})
    return list(out)


def grown_slots(cells: int) -> int:
    """The slots of the index of a board that grows of `cells` cells: a power of two, at least
    twice the cells (so a lookup always meets an empty slot)."""
    n = 16
    while n < 2 * cells:
        n *= 2
    return n


def grown_words(game: CompiledGame) -> dict[str, int]:
    """Per board that grows (by name, sorted): the words of its `GROW` index (the count, then two
    words a slot)."""
    out: dict[str, int] = {}
    for name in sorted(game.boards.tables):
        table = game.boards.tables[name]
        if table.geometry.grows:
            out[name] = 1 + 2 * grown_slots(len(table.cells[0]))
    return out


_ITEM_KINDS = {"sym": "sym", "bool": "bool"}  # a list var's item type -> its words' kind (else int)
TWO_LIST = 2  # where the list of a var of two kinds starts (after its kind word and its number)
PL_MAX = 15  # seats a list of players in one word holds (runtime/values.c pl_pack)


def pack_players(v: Any) -> int:
    """A list of seats as one word: seat + 1 per 4 bits, the first lowest (ValueError: not one)."""
    if not isinstance(v, list) or len(v) > PL_MAX:
        raise ValueError(f"{v!r} is not a native list of players")
    w = 0
    for p in reversed(v):
        if not (isinstance(p, int) and not isinstance(p, bool) and 0 <= p < PL_MAX):
            raise ValueError(f"{v!r} is not a native list of players")
        w = (w << 4) | (p + 1)
    return w


def unpack_players(w: int) -> list[int]:
    out = []
    while w:
        out.append((w & 15) - 1)
        w >>= 4
    return out


def option_kind(value: Any) -> str:
    """How a rules option's value is kept in its word: bool, a text as a symbol, else int."""
    return "bool" if isinstance(value, bool) else "sym" if isinstance(value, str) else "int"


@dataclass
class Layout:
    """Offsets of every region of the native state of one game (see the module docstring)."""

    game: CompiledGame
    var_kinds: dict[str, str]  # var -> int (with None), bool, sym, or list:TYPE (a list of TYPE)
    mark_kinds: dict[str, str]
    symbols: list[str] = field(default_factory=list)
    until: list[str] = field(default_factory=list)  # the events grants are given until (ir.Program)
    offsets: dict[str, int] = field(default_factory=dict)
    var_base: dict[str, int] = field(default_factory=dict)
    mark_base: dict[str, int] = field(default_factory=dict)
    size: int = 0
    dec_cap: int = 0
    main: int = 0  # the words of a game state (the rest: the segment under way)
    keep: int = 0  # the words an error restores (all but SNAP)
    list_cap: int = 0  # the items a var holding a list has room for (more stop native code)
    dstride: int = 0  # words per option of the pending decision (DSTRIDE, or 2)
    ends: int = 0  # the grants' ends `RU` has room for (0: no such words; more stop native code)
    room: int = 0  # the options actions of several parameters can offer (lowering/optionroom.py)

    def __post_init__(self) -> None:
        g = self.game
        self.symbols = self.symbols or symbol_table(g)
        ncomp = len(g.components)
        at = 0
        regions: list[tuple[str, int]] = [("RNG", 2)]
        regions += [("T_" + w, 1) for w in FLOW_WORDS] + [("D_" + w[1:], 1) for w in DEC_WORDS]
        regions += [("OPT", len(g.options)), ("CNT", g.counter_count)]
        self.list_cap = max(ncomp, len(self.symbols), g.max_players, 16)
        for name in g.vars:
            self.var_base[name] = sum(n for _, n in regions) + self._var_words_before(name)
        regions.append(("VAR", self._var_words_before(None)))
        base = sum(n for _, n in regions)
        for i, name in enumerate(g.marks):
            self.mark_base[name] = base + i * ncomp
        regions.append(("MARK", len(g.marks) * ncomp))
        regions += [("FINAL", g.max_players), ("FIRED", max(1, len(g.end_checks)))]
        regions += [("RV", ncomp), ("LOC", ncomp), ("GROW", sum(grown_words(g).values()))]
        regions.append(("ZLEN", len(g.zone_layouts)))
        if self.until:
            self.ends = max(32, 2 * ncomp)
            regions.append(("RU", 1 + 3 * self.ends))
        regions.append(("ZONE", len(g.zone_layouts) * ncomp))
        # a choice offers each value once: at most list_cap of them (a game without actions too);
        # a window, an option per component and action, or the product of several parameters' lists
        self.dec_cap = max(self.list_cap, len(g.action_list) * max(ncomp, 1), self.room)
        # a game whose actions have one parameter at most keeps two words an option (smaller states);
        # one with more than two, a word per parameter of the action that has most
        most = max((len(a.params) for a in g.action_list), default=0)
        self.dstride = 1 + most if most > 2 else DSTRIDE if most > 1 else 2
        regions.append(("DOPT", self.dstride * self.dec_cap))
        self.main = sum(n for _, n in regions)
        regions += [("Q_LEN", 1), ("Q_POS", 1), ("Q_START", 1), ("Q_DEAL", 1), ("QUEUE", QCAP)]
        self.keep = sum(n for _, n in regions)
        regions.append(("SNAP", self.main))
        for name, n in regions:
            self.offsets[name] = at
            at += n
        self.size = at

    def var_width(self, name: str) -> int:
        """The words of one instance of var `name`: 1, or a list's length and room for its items;
        a var of two kinds (`two:`) its kind word (0 a number, 1 a list), its number, its list."""
        kind = self.var_kinds[name]
        if kind[:4] == "two:":
            return TWO_LIST + 1 + self.list_cap
        return 1 + self.list_cap if kind.startswith("list:") else 1

    def _var_words_before(self, name: str | None) -> int:
        """The words of the vars declared before `name` (None: of every var)."""
        words = 0
        for other, v in self.game.vars.items():
            if other == name:
                return words
            words += (self.game.max_players if v.per_player else 1) * self.var_width(other)
        return words

    def list_var_words(self) -> list[int]:
        """The word of each list var instance's length, ascending: the list_cap words after it
        past that length are never read (runtime copy_read copies a list var up to its length)."""
        out: list[int] = []
        for name, v in self.game.vars.items():
            kind = self.var_kinds[name]
            if kind.startswith(("list:", "two:")):  # (a var of two kinds: its list's length)
                width, base = self.var_width(name), self.var_base[name] + TWO_LIST * (kind[:4] == "two:")
                out += [base + i * width for i in range(self.game.max_players if v.per_player else 1)]
        return sorted(out)

    @property
    def option_names(self) -> list[str]:
        return list(self.game.options)

    def zone(self, z: int) -> int:
        return self.offsets["ZONE"] + z * len(self.game.components)

    # ------------------------------------------------------------ values
    def encode_var(self, v: Any, kind: str) -> list[int]:
        """A var's plain value as its words (a list: its length, then its items)."""
        if kind[:4] == "two:":  # its kind word, its number (0 if a list), its list (empty if a number)
            word, lst = kind[4:].split(":", 1)
            return [1, 0, *self.encode_var(v, lst)] if isinstance(v, list) else [0, self.encode(v, word), 0]
        if not kind.startswith("list:"):
            return [self.encode(v, kind)]
        if not isinstance(v, list) or len(v) > self.list_cap:
            raise ValueError(f"{v!r} is not a native list")
        item = _ITEM_KINDS.get(kind[5:], "int")
        return [len(v), *(self.encode(x, item) for x in v)]

    def decode_var(self, words: Any, at: int, kind: str) -> Any:
        if kind[:4] == "two:":
            word, lst = kind[4:].split(":", 1)
            return (
                self.decode_var(words, at + TWO_LIST, lst) if words[at] else self.decode(words[at + 1], word)
            )
        if not kind.startswith("list:"):
            return self.decode(words[at], kind)
        item = _ITEM_KINDS.get(kind[5:], "int")
        return [self.decode(x, item) for x in words[at + 1 : at + 1 + words[at]]]

    def encode(self, v: Any, kind: str) -> int:
        """A plain value as a word of `kind` (int, bool or sym); ValueError if it is not one."""
        if kind == "plist":
            return pack_players(v)
        if v is None:
            return NONE
        if kind == "sym":
            if isinstance(v, str) and v in self.symbols:
                return self.symbols.index(v)
        elif kind == "bool":
            if isinstance(v, bool):
                return int(v)
        elif isinstance(v, int) and not isinstance(v, bool) and -(1 << 62) < v < 1 << 62:
            return v
        raise ValueError(f"{v!r} is not a native {kind}")

    def encode_list(self, values: list[Any], kind: str) -> list[Any]:  # words, for a ctypes slice
        """`encode` of each value (a mark's column, the counters): the same words, the common kinds
        without a call per value (a state's conversion runs this over every mark of every card)."""
        if kind == "int":
            return [
                NONE
                if v is None
                else v
                if v.__class__ is int and -(1 << 62) < v < 1 << 62
                else self.encode(v, kind)
                for v in values
            ]
        if kind == "bool":
            return [
                NONE if v is None else int(v) if v.__class__ is bool else self.encode(v, kind) for v in values
            ]
        if kind == "sym":
            index = self.symbol_index
            return [
                NONE if v is None else index[v] if v.__class__ is str and v in index else self.encode(v, kind)
                for v in values
            ]
        return [self.encode(v, kind) for v in values]

    def decode_list(self, words: list[int], kind: str) -> list[Any]:
        """`decode` of each word, as `encode_list` (the same values)."""
        if kind == "int":
            return [None if w == NONE else w for w in words]
        if kind == "bool":
            return [None if w == NONE else w != 0 for w in words]
        if kind == "sym":
            symbols = self.symbols
            return [None if w == NONE else symbols[w] for w in words]
        return [self.decode(w, kind) for w in words]

    @cached_property
    def symbol_index(self) -> dict[str, int]:
        """Each symbol's number (its first place in `symbols`, as list.index gives)."""
        index: dict[str, int] = {}
        for i, name in enumerate(self.symbols):
            index.setdefault(name, i)
        return index

    def decode(self, w: int, kind: str) -> Any:
        if kind == "plist":
            return unpack_players(w)
        if kind == "place" and w != NONE:
            from tabula.interpreter.compile.native.lowering.spatial import decode_place

            return decode_place(self.game, w)
        if w == NONE:
            return None
        if kind == "sym":
            return self.symbols[w]
        if kind == "bool":
            return bool(w)
        return w

    def defines(self) -> list[str]:
        """The layout as C `#define`s."""
        out = [f"#define {name} {at}" for name, at in self.offsets.items()]
        out += [
            f"#define STATE_WORDS {self.size}",
            f"#define MAIN_WORDS {self.main}",
            f"#define KEEP_WORDS {self.keep}",
            f"#define QCAP {QCAP}",
            f"#define NCOMP {len(self.game.components)}",
            f"#define NZONES {len(self.game.zone_layouts)}",
            f"#define DEC_CAP {self.dec_cap}",
            f"#define MAXP {self.game.max_players}",
            f"#define VCAP {self.list_cap}",
            f"#define DSTRIDE {self.dstride}",
            f"#define RU_CAP {self.ends}",
            f"#define GROWS {int(bool(grown_words(self.game)))}",
        ]
        lv = self.list_var_words()
        out.append(f"#define NLVAR {len(lv)}")
        if lv:
            out.append(f"static const i64 LVAR[{len(lv)}] = {{{', '.join(map(str, lv))}}};")
        return out
