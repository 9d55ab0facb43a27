"""The observation tensor of `tabula.rl.encoding` written as C for one game and player count.

The C function `rl_obs(w, v, o)` reads a native state's words (compile/native/slots.py) and writes
into `o` (zeroed by the caller) exactly what `Encoder.tensor(Engine.view(state, v))` gives: who
sees which component is computed from the words (`rv` grants, `loc`, each zone instance's
visibility and owner), as model/view.py computes it, and everything hidden from `v` is read as
the view reads it (-1, none, 0), so nothing hidden can leak. Counters, vars and marks are written
one by one (the game's declarations are unrolled), components and zones by loops over constant
tables. A game this cannot write (a `visible_to:` expression, a value kind it does not know) gets
None and the reason: the adapters then encode the Python view.
"""

from __future__ import annotations

from tabula.interpreter.base.types import BOOL, COMP, INT, PLAYER, STR
from tabula.interpreter.compile.native.slots import Layout
from tabula.interpreter.model.view import component_marks
from tabula.rl.encoding import Encoder, _mark_type

_VIS = {"public": 0, "owner": 1, "others": 2, "hidden": 3}
_KINDS = {"int", "bool", "sym"}


class NotHeld(Exception):
    """The game has what the C observation does not write (the Python encoder is used)."""


def _sees(vis: str, owner: str | None) -> str:
    """C for model/view.py `sees(vis, owner, v)` (`owner` a C expression, None: a global value)."""
    if vis == "public":
        return "1"
    if vis == "owner":
        return "0" if owner is None else f"({owner} == v)"
    if vis == "others":
        return "1" if owner is None else f"({owner} != v)"
    if vis == "hidden":
        return "0"
    raise NotHeld(f"a visible_to: expression ({vis})")


def _table(name: str, values: list[int], ctype: str = "i64") -> str:
    return f"static const {ctype} {name}[{max(1, len(values))}] = {{{', '.join(map(str, values)) or '0'}}};"


class ObsWriter:
    """Writes `rl_obs` for one game, layout and player count (see the module docstring)."""

    def __init__(self, enc: Encoder, lay: Layout) -> None:
        self.enc = enc
        self.lay = lay
        self.g = enc.game
        self.n = enc.n
        self.e = len(enc.symbols)
        self.lines: list[str] = []
        self.tables: list[str] = []

    # ------------------------------------------------------------ values
    def none_c(self, t: str, at: str) -> str:
        """C writing the encoding of None for static type `t` at `at`."""
        n, c, e = self.n, len(self.g.components), self.e
        if t == BOOL:
            return ""
        if t == INT:
            return f"o[{at} + 1] = 1;"
        if t == PLAYER:
            return f"o[{at} + {n}] = 1;"
        if t == COMP:
            return f"o[{at} + {c}] = 1;"
        if t == STR:
            return f"o[{at} + {e + 1}] = 1;"
        return f"o[{at}] = 1;"  # `any` and lists (a list's none is not a list)

    def scalar_c(self, t: str, kind: str, x: str, at: str) -> str:
        """C writing the word `x` of `kind` (int, bool, sym) as a value of static type `t`."""
        n, c, e = self.n, len(self.g.components), self.e
        if kind not in _KINDS:
            raise NotHeld(f"a value kept as {kind}")
        if t == BOOL:
            return f"if ({x} != NONE && ({x} || {int(kind == 'sym')})) o[{at}] = 1;"
        if t == INT:
            if kind == "sym":
                return f"o[{at} + 1] = 1;"
            return f"if ({x} == NONE) o[{at} + 1] = 1; else o[{at}] = (float){x};"
        if t == PLAYER:
            if kind != "int":
                return f"o[{at} + {n}] = 1;"
            return f"o[{at} + (({x} >= 0 && {x} < {n}) ? ({x} - v + {n}) % {n} : {n})] = 1;"
        if t == COMP:
            if kind != "int":
                return f"o[{at} + {c}] = 1;"
            return f"o[{at} + (({x} >= 0 && {x} < {c} && seen[{x}]) ? {x} : {c})] = 1;"
        if t == STR:
            if kind == "sym":
                return f"o[{at} + ({x} == NONE ? {e + 1} : SYMENC[{x}])] = 1;"
            return f"o[{at} + ({x} == NONE ? {e + 1} : {e})] = 1;"
        # anything else: tabula.rl.encoding _write_any
        if kind == "int":
            return f"if ({x} == NONE) o[{at}] = 1; else {{ o[{at} + 3] = 1; o[{at} + 4] = (float){x}; }}"
        if kind == "bool":
            return f"if ({x} == NONE) o[{at}] = 1; else {{ o[{at} + 1] = 1; o[{at} + 2] = {x} ? 1 : 0; }}"
        return f"if ({x} == NONE) o[{at}] = 1; else {{ o[{at} + 5] = 1; o[{at} + 6 + SYMENC[{x}]] = 1; }}"

    def list_c(self, t: str, kind: str, base: str, at: str) -> str:
        """C writing the list var whose words start at `base` (length, items) as type `t`."""
        n, c, e = self.n, len(self.g.components), self.e
        item = kind[5:]
        loop = f"for (i64 i = 0; i < w[{base}]; i++) {{ i64 y = w[{base} + 1 + i]; "
        if t == f"list[{COMP}]":
            if item in ("sym", "bool"):
                return loop + f"o[{at} + {c}] += 1; }}"
            return loop + f"o[{at} + ((y >= 0 && y < {c} && seen[y]) ? y : {c})] += 1; }}"
        if t == f"list[{STR}]":
            if item == "sym":
                return loop + f"o[{at} + SYMENC[y]] += 1; }}"
            return loop + f"o[{at} + {e}] += 1; }}"
        if t == f"list[{PLAYER}]":
            if item != "int":
                return ""
            return loop + f"if (y >= 0 && y < {n}) o[{at} + (y - v + {n}) % {n}] += 1; }}"
        return f"o[{at} + {7 + e}] = 1; o[{at} + {8 + e}] = (float)w[{base}];"

    # ------------------------------------------------------------ pieces
    def turn(self, at: int) -> None:
        n = self.n
        self.lines += [
            "if (w[D_K] == 0) o[1] = 1; else {",
            f"  i64 p = w[D_P]; if (p >= 0 && p < {n}) {{ i64 r = (p - v + {n}) % {n}; "
            "o[0] = r == 0; o[2 + r] = 1; }",
            "}",
            "{ i64 x = w[T_ACTIVE]; " + self.scalar_c(PLAYER, "int", "x", str(at + 2 + n)) + " }",
            f"o[{at + 3 + 2 * n}] = (float)w[T_ROUND]; o[{at + 4 + 2 * n}] = (float)w[T_TURN];",
        ]

    def counters(self, at: int) -> int:
        n = self.n
        for cnt in self.g.counters.values():
            wd = cnt.width
            if cnt.per_player:
                sees = _sees(cnt.visibility, "p")
                self.lines.append(
                    f"for (i64 r = 0; r < {n}; r++) {{ i64 p = (v + r) % {n}; if ({sees}) "
                    f"for (i64 k = 0; k < {wd}; k++) o[{at} + r * {wd} + k] = "
                    f"(float)w[CNT + {cnt.base} + p * {wd} + k]; }}"
                )
                at += n * wd
            else:
                sees = _sees(cnt.visibility, None)
                self.lines.append(
                    f"if ({sees}) for (i64 k = 0; k < {wd}; k++) "
                    f"o[{at} + k] = (float)w[CNT + {cnt.base} + k];"
                )
                at += wd
        return at

    def vars(self, at: int) -> int:
        n, lay = self.n, self.lay
        for name, var in self.g.vars.items():
            t, kind = var.type, lay.var_kinds[name]
            width, words = self.enc.width(t), lay.var_width(name)
            base = lay.var_base[name]
            owner = "p" if var.per_player else None
            write = (
                self.list_c(t, kind, "b", "a")
                if kind.startswith("list:")
                else self.scalar_c(t, kind, "w[b]", "a")
            )
            body = f"if ({_sees(var.visibility, owner)}) {{ {write} }} else {{ {self.none_c(t, 'a')} }}"
            if var.per_player:
                self.lines.append(
                    f"for (i64 r = 0; r < {n}; r++) {{ i64 p = (v + r) % {n}; i64 b = {base} + p * {words}; "
                    f"i64 a = {at} + r * {width}; {body} }}"
                )
                at += n * width
            else:
                self.lines.append(f"{{ i64 b = {base}; i64 a = {at}; {body} }}")
                at += width
        return at

    def zone_tables(self) -> None:
        g, n = self.g, self.n
        cols: dict[int, int] = {}
        seat: list[int] = []
        colb: list[int] = []
        col = 0
        for z in sorted(g.zones.values(), key=lambda z: z.base):
            cols[z.base] = col
            col += n if z.per_player else 1
        self.nz = col
        for zi, zl in enumerate(g.zone_layouts):
            q = zi - zl.base
            if zl.per_player:
                seat.append(q)
                colb.append(cols[zl.base] if q < n else -1)
            else:
                seat.append(-1)
                colb.append(cols[zl.base])
        vis = [_VIS.get(zl.visibility, -1) for zl in g.zone_layouts]
        if -1 in vis:
            raise NotHeld("a zone with a visible_to: expression")
        owners = [-1 if o is None else o for o in g.zone_owner]
        self.tables += [
            _table("ZVIS", vis, "signed char"),
            _table("ZOWN", owners),
            _table("ZSEAT", seat),
            _table("ZCOLB", colb),
        ]
        # whether viewer v may know each zone instance's size (model/view.py size_seen)
        sized = [
            _sees(zl.size_visibility, None if g.zone_owner[zi] is None else str(g.zone_owner[zi]))
            for zi, zl in enumerate(g.zone_layouts)
        ]
        self.secret_sizes = any(s != "1" for s in sized)
        cases = " ".join(f"case {zi}: return {s};" for zi, s in enumerate(sized) if s != "1")
        self.tables.append(
            f"static int zsized(i64 zi, i64 v) {{ (void)v; switch (zi) {{ {cases} }} return 1; }}"
        )

    def zones(self, at: int) -> int:
        self.lines.append(
            "for (i64 zi = 0; zi < NZONES; zi++) { i64 col = zcol(zi, v); "
            "if (col < 0 || !zsized(zi, v)) continue; i64 len = w[ZLEN + zi], hid = 0; "
            "for (i64 i = 0; i < len; i++) hid += !seen[w[ZONE + zi * NCOMP + i]]; "
            f"o[{at} + 2 * col] = (float)len; o[{at} + 2 * col + 1] = (float)hid; }}"
        )
        return at + 2 * self.nz

    def components(self, at: int) -> int:
        nz = self.nz
        s = nz + 3
        self.lines += [
            "for (i64 zi = 0; zi < NZONES; zi++) { i64 col = zcol(zi, v); if (col < 0) continue;",
            "  if (!zsized(zi, v)) { for (i64 c = 0; c < NCOMP; c++) "
            f"if (seen[c] && w[LOC + c] == zi) o[{at} + c * {s} + col] = 1; continue; }}",
            "  i64 len = w[ZLEN + zi]; for (i64 i = 0; i < len; i++) { i64 c = w[ZONE + zi * NCOMP + i]; "
            f"if (seen[c]) {{ o[{at} + c * {s} + col] = 1; o[{at} + c * {s} + {nz + 1}] = (float)i; }} }}",
            "}",
            "for (i64 c = 0; c < NCOMP; c++) { i64 r = w[RV + c];",
            f"  if (!seen[c] || w[LOC + c] < 0) o[{at} + c * {s} + {nz}] = 1;",
            f"  o[{at} + c * {s} + {nz + 2}] = r == 1 ? 1 : ((r >> (v + 1)) & 1) ? 2 : 0; }}",
        ]
        return at + len(self.g.components) * s

    def marks(self, at: int) -> int:
        scrubbed = set(component_marks(self.g))
        c = len(self.g.components)
        for k, (name, default) in enumerate(self.g.marks.items()):
            t = _mark_type(default)
            width = self.enc.width(t)
            marked = self.enc._marks_of[name]
            kind = self.lay.mark_kinds.get(name, "int")
            self.tables.append(_table(f"MARKED_{k}", marked))
            base = self.lay.mark_base[name]
            if kind == "plist":
                count = "__builtin_popcountll((x | (x >> 1) | (x >> 2) | (x >> 3)) & 0x1111111111111111LL)"
                write = {
                    BOOL: "if (x) o[a] = 1;",
                    INT: "o[a + 1] = 1;",
                    STR: f"o[a + {self.e}] = 1;",
                }.get(t, f"o[a + {7 + self.e}] = 1; o[a + {8 + self.e}] = (float)({count});")
            else:
                write = self.scalar_c(t, kind, "x", "a")
            scrub = (
                f"if (x >= 0 && x < {c} && !seen[x]) x = -1; " if name in scrubbed and kind == "int" else ""
            )
            self.lines.append(
                f"for (i64 j = 0; j < {len(marked)}; j++) {{ i64 cc = MARKED_{k}[j], a = {at} + j * {width}; "
                f"if (!seen[cc]) {{ {self.none_c(t, 'a')} continue; }} "
                f"i64 x = w[{base} + cc]; {scrub}{write} }}"
            )
            at += width * len(marked)
        return at

    def unknown(self, at: int) -> int:
        n, g = self.n, self.g
        for cnt in self.enc._secret_counters():
            wd = cnt.width
            if cnt.per_player:
                sees = _sees(cnt.visibility, "p")
                self.lines.append(
                    f"for (i64 r = 0; r < {n}; r++) {{ i64 p = (v + r) % {n}; if (!({sees})) "
                    f"for (i64 k = 0; k < {wd}; k++) o[{at} + r * {wd} + k] = 1; }}"
                )
                at += n * wd
            else:
                self.lines.append(
                    f"if (!({_sees(cnt.visibility, None)})) for (i64 k = 0; k < {wd}; k++) o[{at} + k] = 1;"
                )
                at += wd
        for var in self.enc._secret_vars():
            if var.per_player:
                self.lines.append(
                    f"for (i64 r = 0; r < {n}; r++) {{ i64 p = (v + r) % {n}; "
                    f"if (!({_sees(var.visibility, 'p')})) "
                    f"o[{at} + r] = 1; }}"
                )
                at += n
            else:
                self.lines.append(f"if (!({_sees(var.visibility, None)})) o[{at}] = 1;")
                at += 1
        for z in self.enc._secret_sizes():
            if z.per_player:
                self.lines.append(
                    f"for (i64 r = 0; r < {n}; r++) "
                    f"if (!zsized({z.base} + (v + r) % {n}, v)) o[{at} + r] = 1;"
                )
                at += n
            else:
                self.lines.append(f"if (!zsized({z.base}, v)) o[{at}] = 1;")
                at += 1
        del g
        return at

    # ------------------------------------------------------------ the function
    def source(self) -> str:
        g, n = self.g, self.n
        if g.audiences:
            raise NotHeld("a visible_to: expression")
        enc_index = [self.enc.symbols.get(s, self.e) for s in self.lay.symbols]
        self.tables.append(_table("SYMENC", enc_index))
        self.zone_tables()
        self.lines += [
            "unsigned char seen[NCOMP > 0 ? NCOMP : 1];",
            "for (i64 c = 0; c < NCOMP; c++) { i64 r = w[RV + c], l = w[LOC + c];",
            "  seen[c] = (r && (r == 1 || ((r >> (v + 1)) & 1))) || l < 0 || zsee(l, v); }",
        ]
        at = 0
        for name, width in self.enc.pieces:
            start = at
            if name == "turn":
                self.turn(at)
                at += width
            else:
                at = getattr(self, name)(at)
            if at - start != width:
                raise NotHeld(f"the piece {name} is {at - start} numbers, the encoder's {width}")
        head = [
            f"#define RL_N {n}",
            "static inline int zsee(i64 l, i64 v) { switch (ZVIS[l]) { case 0: return 1; "
            "case 1: return ZOWN[l] == v; case 2: return ZOWN[l] != v; default: return 0; } }",
            "static inline i64 zcol(i64 zi, i64 v) { i64 b = ZCOLB[zi]; "
            "if (b < 0 || ZSEAT[zi] < 0) return b; "
            f"return b + (ZSEAT[zi] - v + {n}) % {n}; }}",
        ]
        body = "\n  ".join(self.lines)
        return "\n".join(
            [
                *self.tables,
                *head,
                f"#define RL_OBS_SIZE {self.enc.size}",
                "static void rl_obs(const i64 *w, i64 v, float *o) {",
                "  " + body,
                "}",
            ]
        )


def obs_source(enc: Encoder, lay: Layout) -> str:
    """The C of `rl_obs` for the encoder's game and player count (NotHeld: the reason it cannot)."""
    return ObsWriter(enc, lay).source()
