"""The whole C translation unit of a game: the prelude, its layout and tables, its generated parts.

Stage: compile (native). Order in the file: the words and errors (runtime/tabula.h), the layout
(`#define`s), the game's constant tables, the checks, zones and generator (runtime/values.c), the
game's functions, effects, phases, windows, actions and scoring (`g_*`, written here from cgen.CGen),
then the flow driver and the entry points the bridge calls (runtime/flow.c). The runtime's files
are read by prelude.py; what depends on the game is written here.
"""

from __future__ import annotations

import hashlib
import json
import re

from tabula.interpreter.base.limits import MAX_LIST_ITEMS
from tabula.interpreter.compile.native.emit import groups_c, prelude
from tabula.interpreter.compile.native.emit.boards_c import boards_c, place_room, zone_grow
from tabula.interpreter.compile.native.emit.cgen import _WHICH, CGen, Env, c_int, ctype
from tabula.interpreter.compile.native.emit.tiles_c import tiles_c
from tabula.interpreter.compile.native.lowering import ir, stackroom, stops
from tabula.interpreter.compile.native.lowering.triggers import DEEP, c_dispatchers
from tabula.interpreter.compile.native.slots import ENDINGS, NONE


def unit(gen: CGen) -> str:
    """The C source of the game; its signature (a hash of everything else) is compiled into it."""
    made = [*_functions(gen), *_effects(gen)]  # (first: what they call picks the runtime pasted)
    parts = [*_checks(gen), *_phases(gen), *_actions(gen), *_scoring(gen), *_dispatch(gen)]
    nested = groups_c.used("\n".join([*made, *parts]))
    fixed = [
        prelude.BODY,
        DEEP,
        prelude.LISTS,
        *[prelude.GROUPS] * nested,
        prelude.SEGMENTS,
        prelude.GRANTS,
        *boards_c(gen.g, gen.tables, gen.lay),
        *tiles_c(gen.g, gen.lay, gen.tables),
    ]
    body = "\n".join([*_tables(gen), *fixed, *made])
    body += "\n" + "\n".join(parts)
    head = "\n".join([prelude.HEAD, *gen.lay.defines()])
    tail = prelude.FLOW + prelude.SEARCH + prelude.NAMES + prelude.VIEWS + prelude.RECOMPUTE
    text = head + "\n" + body + "\n" + tail
    meta = json.dumps(gen.meta() | {"sig": hashlib.sha256(text.encode()).hexdigest()[:16]}, sort_keys=True)
    return text.replace("#define STATE_WORDS", f"#define META {json.dumps(meta)}\n#define STATE_WORDS", 1)


_LIST_MADE = re.compile(r"\(\{ (.*[;}]) (l_\d+); \}\)", re.S)  # ({ ...; l_N; }): a list built in l_N


def _one_block(c: str) -> bool:
    """`c` is one statement expression, `({ ... })` (its brackets close only at its end)."""
    depth = 0
    for i, ch in enumerate(c):
        depth += (ch in "({") - (ch in ")}")
        if depth == 0 and i < len(c) - 1:
            return False
    return depth == 0


def _array(name: str, words: list[int]) -> str:
    return f"static const i64 {name}[{max(len(words), 1)}] = {{{', '.join(map(c_int, words)) or '0'}}};"


def _tables(gen: CGen) -> list[str]:
    g = gen.g
    out = [_array(name, words) for name, (words, _) in sorted(gen.tables.items())]
    out += [_array(f"TYPE_{t}", ids) for t, ids in g.by_type.items()]
    out.append(_array("PLAYERS_ARR", list(range(g.max_players))))
    out.append(_array("ZONE_PUBLIC", [int(z.visibility == "public") for z in g.zone_layouts]))
    roomy = len(g.components) + 1  # a zone without a max
    out.append(_array("ZONE_MAX", [roomy if z.max is None else z.max for z in g.zone_layouts]))
    # each zone instance's owner (NONE: none), after the word for out of play (LOC -1)
    if gen.g.boards.growing:  # the cell of a board that grows each zone is on (boards.c b_grow)
        out.append(_array("ZONE_GROW", zone_grow(g)))
    out.append(_array("ZONE_HOLDER", [NONE, *(NONE if o is None else o for o in g.zone_owner)]))
    closes = {a.index: int(a.closes) for a in gen.prog.actions or []}
    out.append(_array("ACTION_CLOSES", [closes.get(i, 0) for i in range(len(g.action_list))]))
    out.append(_array("PHASE_STOPS", stops.phase_stops(gen.prog)))  # segments.c checkpoint
    out += [f"#define {w} {i}" for i, w in enumerate(_WHICH)]
    out.append(f"#define MAX_LIST {MAX_LIST_ITEMS}")
    out.append(f"#define LCAP {_list_cap(gen)}")
    out.append(f"#define HAS_ROUNDS {int(g.flow is not None and g.flow.has_rounds)}")
    out.append(f"#define NPHASES {len(gen.prog.phases or [])}")
    out.append(f"#define NCHECKS {len(gen.prog.end_checks or [])}")
    return out


def _list_cap(gen: CGen) -> int:
    """The room of a list value: the longest list the game can make of its components, symbols,
    players or constant tables (a longer one, from `range`, stops native code: E_SIZE)."""
    room = place_room(gen.g, gen.tables)
    return max(stackroom.list_cap(gen.g, len(gen.lay.symbols), gen.tables), room + 1)


def _functions(gen: CGen) -> list[str]:
    fns = gen.prog.functions or {}
    protos, defs = [], []
    for name, (params, body) in fns.items():
        env = {p: gen.fresh("v_" + p) for p, _ in params}
        sig = ", ".join(["X *x", *(f"{ctype(t)} {env[p]}" for p, t in params)])
        ret = ctype(body.ty)
        value = gen.lval(body, env) if ret == "L" else gen.expr(body, env)
        protos.append(f"static {ret} {name}({sig});")
        made = _LIST_MADE.fullmatch(value) if ret == "L" and _one_block(value) else None
        probe = stackroom.PROBE + " " if stackroom.list_nodes(body) else ""
        if made:  # the list made in the return slot: a statement expression's value is copied twice
            defs.append(f"static L {name}({sig}) {{ {probe}CHARGE(1); {made[1]} return {made[2]}; }}")
        else:
            defs.append(f"static {ret} {name}({sig}) {{ {probe}CHARGE(1); return {value}; }}")
    framed = stops.stopping_units(gen.prog)  # (Python charges the frame of one that may stop)
    for name, (params, stmts) in (gen.prog.procedures or {}).items():
        env = {p: gen.fresh("v_" + p) for p, _ in params}
        sig = ", ".join(["X *x", *(f"{ctype(t)} {env[p]}" for p, t in params)])
        protos.append(f"static void {name}({sig});")
        probes = ["    " + stackroom.PROBE] if stackroom.list_nodes(stmts) else []
        probes += ["    CHARGE(1);"] if name in framed else []
        defs += [f"static void {name}({sig}) {{", *probes, *gen.block(stmts, env, 1), "}"]
    for hook, (typed, cards) in (gen.prog.hooks or {}).items():
        sig = ", ".join(["X *x", *(f"{ctype(t)} a{k}" for k, (_, t) in enumerate(typed))])
        call = ", ".join(["x", *(f"a{k}" for k in range(len(typed)))])
        protos.append(f"static void {hook}({sig});")
        defs += [f"static void {hook}({sig}) {{", "    switch (a1) {"]  # a1: the card (`self`)
        for ids, proc in cards:
            defs += [f"    case {c}:" for c in ids] + [f"        {proc}({call}); break;"]
        defs += ["    default: break;", "    }", "}"]
    windows = [_window(gen, 0, w) for w in gen.prog.windows or []]
    protos += [f"static int iw_{w.site}(X *x, i64 p);" for w in gen.prog.windows or []]
    # a window inside a block by its site (runtime flow.c tb_reoffer_inner: its options again)
    inner = [f"    case {w.site}: return iw_{w.site}(x, p);" for w in gen.prog.windows or []]
    top = ["static int g_inner_window(X *x, i64 site, i64 p) {", "    switch (site) {"]
    windows.append([*top, *inner, "    }", "    (void)x; (void)p;", "    return 0;", "}"])
    head = ["static int g_fire(X *x);", "static void g_action(X *x, i64 ai, i64 p, i64 arg, i64 arg2);"]
    tprotos, tdefs = c_dispatchers(gen)
    return [*head, *protos, *tprotos, *defs, *tdefs, *(line for w in windows for line in w)]


def _effect(gen: CGen, name: str, stmts: tuple[ir.Stmt, ...] | None, player: bool) -> list[str]:
    env: Env = {"p": "p", "me": "p"} if player else {}
    lines = [f"static void {name}(X *x, i64 p) {{", "    (void)p;"]
    lines += ["    " + stackroom.PROBE] if stackroom.list_nodes(stmts or ()) else []
    return [*lines, *gen.block(stmts or (), env, 1), "}"]


def _effects(gen: CGen) -> list[str]:
    p = gen.prog
    out: list[str] = []
    for name, stmts, player in (
        ("e_setup", p.setup, False),
        ("e_on_start", p.round_on_start, False),
        ("e_on_end", p.round_on_end, False),
        ("e_turn_end", p.turn_on_end, True),
        ("e_finish", p.finish, False),
    ):
        out += _effect(gen, name, stmts, player)
    return out


def _window(gen: CGen, k: int, w: ir.Window) -> list[str]:
    """`w_<phase>` (a phase's window: the decision posed when it has options) or `iw_<site>` (a
    window inside a block: the options only; `pick_action` poses it)."""
    acts = {a.index: a for a in gen.prog.actions or []}
    name = f"w_{k}" if w.site is None else f"iw_{w.site}"
    lines = [f"static int {name}(X *x, i64 p) {{", "    S[D_N] = 0;"]
    for ai in w.actions:
        act = acts[ai]
        env: Env = {"me": "p"}
        if act.param is None:
            test = gen.expr(act.when, env) if act.when is not None else "1"
            lines.append(f"    if ({test}) add_option(x, {ai}, NONE, NONE);")
            continue
        if act.guard is None:
            lines += _options(gen, act, env)
            continue
        # tested before the parameters' lists are made (and charged), as Python's window does
        lines += [f"    if ({gen.expr(act.guard, env)}) {{", *_options(gen, act, env), "    }"]
    if w.site is not None:
        return [*lines, "    return S[D_N] > 0;", "}"]
    lines += ["    if (S[D_N] == 0) return 0;", "    S[D_K] = 1; S[D_P] = p;", "    return 1;", "}"]
    return lines


def _options(gen: CGen, act: ir.Action, env: Env) -> list[str]:
    """An action's options in a window: its parameters' values as nested loops (the second's
    list may use the first, as the Python window's loops), each combination tested."""
    assert act.param is not None
    lines: list[str] = []
    inner = dict(env)
    args: list[str] = []
    for depth, (pname, src) in enumerate(act.params):
        setup, a, n = gen.loop(src, inner, False)
        i, v = gen.fresh("i"), gen.fresh("v_" + pname)
        pad = "    " * (depth + 1)
        lines += [f"{pad}{{", *(f"{pad}    {s}" for s in setup)]
        lines.append(f"{pad}    for (i64 {i} = 0; {i} < {n}; {i}++) {{ i64 {v} = {a.format(i=i)};")
        inner[pname] = v
        args.append(v)
    test = gen.expr(act.when, inner) if act.when is not None else "1"
    pad = "    " * (len(args) + 1)
    add = f"add_option(x, {act.index}, {args[0]}, {args[1] if len(args) > 1 else 'NONE'});"
    if len(args) > 2:  # the third argument on: the words after the two add_option writes
        o = gen.fresh("o")
        rest = " ".join(f"{o}[{3 + j}] = {v};" for j, v in enumerate(args[2:]))
        add = f"{{ {add} i64 *{o} = S + DOPT + DSTRIDE * (S[D_N] - 1); {rest} }}"
    lines.append(f"{pad}    if ({test}) {add}")
    for depth in reversed(range(len(args))):
        pad = "    " * (depth + 1)
        lines += [f"{pad}    }}", f"{pad}}}"]
    return lines


def _phases(gen: CGen) -> list[str]:
    out: list[str] = []
    for k, ph in enumerate(gen.prog.phases or []):
        if ph.window is not None:
            out += _window(gen, k, ph.window)
        env: Env = {"p": "p", "me": "p"}
        out += [f"static int ph_{k}(X *x, i64 p) {{", "    if (S[T_FR_PC] == 0) {"]
        out += gen.block(ph.before, env, 2)
        out.append("        S[T_FR_PC] = 1;")
        out.append("    }")
        if ph.window is not None:
            who = gen.expr(ph.window.player, env)
            out += [
                "    if (S[T_FR_PC] == 1) {",
                "        while (g_fire(x)) {}",
                f"        if (w_{k}(x, PK(x, {who}))) return 1;",
                "        S[T_FR_PC] = 2;",
                "    }",
            ]
        out += gen.block(ph.after, env, 1)
        out += ["    return 0;", "}"]
    return out


def _checks(gen: CGen) -> list[str]:
    """g_fire: Runtime.fire_end_checks (each check not fired whose test holds is recorded; their
    effects run last pushed first, as frames on a stack), and each check's effect and ending."""
    checks = gen.prog.end_checks or []
    env: Env = {"p": "p", "me": "p"}
    out: list[str] = []
    for k, chk in enumerate(checks):
        out += [f"static void c_{k}(X *x, i64 p) {{", "    (void)p;", *gen.block(chk.body, env, 1)]
        if chk.mode == "immediately":
            out.append("    longjmp(x->endjb, 1);")
        else:
            mode = ENDINGS.index(chk.mode)
            out.append(f"    if (S[T_ENDING] == 0) {{ S[T_ENDING] = {mode}; S[T_TRIGGER] = S[T_ACTIVE]; }}")
        out.append("}")
    out += ["static int fired(X *x, i64 k) {", "    for (i64 i = 0; i < S[T_NFIRED]; i++)"]
    out += ["        if (S[FIRED + i] == k) return 1;", "    return 0;", "}"]
    out += ["static int g_fire(X *x) {", "    i64 p = S[T_ACTIVE], order[NCHECKS + 1], k = 0; (void)p;"]
    for j, chk in enumerate(checks):
        test = gen.expr(chk.when, env)
        out.append(
            f"    if (!fired(x, {j}) && ({test})) {{ S[FIRED + S[T_NFIRED]++] = {j}; order[k++] = {j}; }}"
        )
    out += ["    CHARGE(k);", "    for (i64 j = k - 1; j >= 0; j--) {", "        switch (order[j]) {"]
    out += [f"        case {j}: c_{j}(x, p); break;" for j in range(len(checks))]
    return [*out, "        }", "    }", "    return k > 0;", "}"]


def _actions(gen: CGen) -> list[str]:
    out: list[str] = []
    for act in gen.prog.actions or []:
        env: Env = {"me": "p"}
        if act.param is not None:
            env[act.param[0]] = "arg"
        if act.param2 is not None:
            env[act.param2[0]] = "arg2"
        out += [f"static void a_{act.index}(X *x, i64 p, i64 arg, i64 arg2) {{", "    (void)arg; (void)arg2;"]
        for j, (pname, _) in enumerate(act.more):  # read before its windows reuse x->more
            env[pname] = f"arg{3 + j}"
            out.append(f"    i64 arg{3 + j} = x->more[{j}];")
        out += ["    " + stackroom.PROBE] if stackroom.list_nodes(act.body) else []
        out += [*gen.block(act.body, env, 1), "}"]
    return out


def _scoring(gen: CGen) -> list[str]:
    p = gen.prog
    env: Env = {"p": "p"}
    lines = ["static void g_score(X *x, i64 p, i64 *out) {"]
    lines.append(f"    out[0] = {gen.num(p.score, env) if p.score is not None else '0'};")
    for k, e in enumerate(p.tiebreak or []):
        lines.append(f"    out[{k + 1}] = N(x, {gen.expr(e, env)});")
    lines += ["}", f"static int g_has_eval(void) {{ return {int(p.evaluate is not None)}; }}"]
    lines += ["static i64 g_eval(X *x, i64 p) {", "    (void)x; (void)p;"]
    lines.append(f"    return {gen.num(p.evaluate, env) if p.evaluate is not None else '0'};")
    return [*lines, "}"]


def _dispatch(gen: CGen) -> list[str]:
    p = gen.prog
    has = {
        "W_SETUP": p.setup,
        "W_ON_START": p.round_on_start,
        "W_ON_END": p.round_on_end,
        "W_TURN_END": p.turn_on_end,
        "W_FINISH": p.finish,
        "W_COUNT": p.round_count,
        "W_FIRST": p.round_first,
        "W_ENDS": p.ends_when,
        "W_PLAYER": p.turn_player,
    }
    present = [w for w, v in has.items() if v is not None]
    out = ["static int g_has(int w) {", "    switch (w) {"]
    out += [f"    case {w}: return 1;" for w in present]
    out += ["    default: return 0;", "    }", "}"]
    out += ["static void g_effect(X *x, int w, i64 p) {", "    switch (w) {"]
    for w, fn in (
        ("W_SETUP", "e_setup"),
        ("W_ON_START", "e_on_start"),
        ("W_ON_END", "e_on_end"),
        ("W_TURN_END", "e_turn_end"),
        ("W_FINISH", "e_finish"),
    ):
        out.append(f"    case {w}: {fn}(x, p); break;")
    out += [
        "    }",
        "}",
        "static i64 g_value(X *x, int w) {",
        "    i64 p = NONE; (void)p;",
        "    switch (w) {",
    ]
    for w, e in (
        ("W_COUNT", p.round_count),
        ("W_FIRST", p.round_first),
        ("W_ENDS", p.ends_when),
        ("W_PLAYER", p.turn_player),
    ):
        if e is not None:
            value = gen.expr(e, {})
            out.append(f"    case {w}: return {value if w == 'W_ENDS' else f'N(x, {value})'};")
    skip = gen.expr(p.skip_if, {"p": "p", "me": "p"}) if p.skip_if is not None else "0"
    out += [
        "    }",
        "    return 0;",
        "}",
        f"static int g_skip(X *x, i64 p) {{ (void)x; (void)p; return {skip}; }}",
    ]
    out += ["static int g_phase(X *x, i64 k, i64 p) {", "    switch (k) {"]
    out += [f"    case {k}: return ph_{k}(x, p);" for k in range(len(p.phases or []))]
    out += ["    }", "    return 0;", "}", "static int g_window(X *x, i64 k, i64 p) {", "    switch (k) {"]
    out += [
        f"    case {k}: return w_{k}(x, p);" for k, ph in enumerate(p.phases or []) if ph.window is not None
    ]
    out += [
        "    }",
        "    return 0;",
        "}",
        "static void g_action(X *x, i64 ai, i64 p, i64 arg, i64 arg2) {",
        "    switch (ai) {",
    ]
    out += [f"    case {a.index}: a_{a.index}(x, p, arg, arg2); break;" for a in p.actions or []]
    out += ["    }", "}"]
    return out
