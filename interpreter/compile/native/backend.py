"""The native backend of one game, ready or not: `prepare(game)`.

Stage: compile (native). A game whose typed form is complete is built (or found in the cache) and
loaded; otherwise the answer is None and one line saying why, and the engine runs the game on the
Python backend. The answer is kept for the process (per compiled game).
"""

from __future__ import annotations

import ctypes
import json

from tabula.interpreter.compile.native import build
from tabula.interpreter.compile.native.bridge import NativeGame
from tabula.interpreter.compile.native.emit.cgen import CGen
from tabula.interpreter.compile.native.emit.units import unit
from tabula.interpreter.compile.native.lowering.optionroom import option_room
from tabula.interpreter.compile.native.slots import Layout
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.model.game import CompiledGame

_prepared: dict[int, tuple[CompiledGame, NativeGame | None, str]] = {}


def var_kinds(game: CompiledGame, lists: dict[str, str], anys: dict[str, str]) -> dict[str, str]:
    """How each var is kept: a word of int, bool or sym, or (`list:TYPE`) a list of values of a
    scalar type; `lists` gives a list var's item type (lowering learned it; none known: int),
    `anys` a var of type `any`'s (`sym`: it holds symbols; `two:WORD:list:ITEM` or, as lowering
    gives it, `int|list[int]`: a word and a list, slots.py; else a number word)."""
    out = {name: {"bool": "bool", "str": "sym"}.get(v.type, "int") for name, v in game.vars.items()}
    out.update({name: "sym" for name, ty in anys.items() if ty == "sym"})
    out.update({name: ty for name, ty in anys.items() if ty[:4] == "two:"})
    for name, ty in anys.items():
        if "|" in ty:
            word, lst = ty.split("|")
            out[name] = (
                f"two:{'sym' if word == 'sym' else 'int'}:list:{lst[5:-1] if lst != 'list[any]' else 'int'}"
            )
    for name, v in game.vars.items():
        if v.type.startswith("list["):
            out[name] = "list:" + lists.get(name, "int")
    return out


def c_source(game: CompiledGame) -> tuple[str | None, list[str]]:
    """The game's C file, or None and the rendered reasons it cannot be written yet."""
    prog, walk = lower_game(game)
    if walk.report.diagnostics:
        return None, [d.message for d in walk.report.diagnostics]
    kinds = var_kinds(game, walk.low.list_vars, walk.low.any_vars)
    room = option_room(prog.actions or [], game, walk.low.tables, len(walk.low.symbols))
    until = list(prog.until_events or [])
    layout = Layout(game, kinds, walk.low.mark_kinds, symbols=walk.low.symbols, until=until, room=room)
    return unit(CGen(game, prog, layout, walk.low.tables)), []


def prepare(game: CompiledGame) -> tuple[NativeGame | None, str]:
    """The game's native library, or None and why not (one line)."""
    known = _prepared.get(id(game))
    if known is not None and known[0] is game:
        return known[1], known[2]
    native, why = _prepare(game)
    _prepared[id(game)] = (game, native, why)
    return native, why


def is_built(game: CompiledGame) -> bool:
    """Whether `prepare(game)` would cost nothing: answered in this process already, or a compiler is
    found and the cache holds the game's library (or the verdict that the backend does not hold it)."""
    known = _prepared.get(id(game))
    if known is not None and known[0] is game:
        return True
    compiler, _ = build.find_compiler()
    if compiler is None or not game.cache_key:
        return compiler is None  # no compiler: nothing to build, the Python backend at once
    key = build.native_key(game.cache_key, compiler)
    return build.cached(key) is not None or build.cached_refusal(key) is not None


def _prepare(game: CompiledGame) -> tuple[NativeGame | None, str]:
    compiler, why = build.find_compiler()
    if compiler is None:
        return None, why
    key = build.native_key(game.cache_key, compiler) if game.cache_key else None
    data = build.cached(key) if key else None
    cpu = 0.0
    if data is None:
        refused = build.cached_refusal(key) if key else None
        if refused is not None:
            return None, refused
        try:
            source, missing = c_source(game)
        except Exception as err:  # a fault of the lowering must not take the game away: Python plays
            return None, f"the native backend failed to lower this game ({type(err).__name__}: {err})"[:300]
        if source is None:
            why = f"{len(missing)} construct(s) not in the native backend yet (tabula check --native)"
            if key:
                build.remember_refusal(key, why)
            return None, why
        try:
            built = build.build(source, compiler, key)
        except build.BuildError as err:  # the game still runs, on Python: say why in one line
            return None, " ".join(str(err).split())[:300]
        data, cpu = built.data, built.cpu
    try:
        lib = build.load(data)
    except OSError as err:  # a compiler that wrote something else than a library
        return None, " ".join(f"the C compiler's library does not load: {err}".split())[:300]
    lib.tb_meta.restype = ctypes.c_char_p
    meta = json.loads(lib.tb_meta().decode())
    kinds = var_kinds(game, meta.get("lists", {}), meta.get("anys", {}))
    until, room = meta.get("until", []), meta.get("room", 0)
    layout = Layout(game, kinds, meta["marks"], symbols=meta.get("symbols", []), until=until, room=room)
    if meta["words"] != layout.size:
        raise build.BuildError(f"the library native-{key}.so does not match the game's layout")
    args = {int(k): v for k, v in meta.get("args", {}).items()}
    native = NativeGame(game, lib, layout, cpu, args, meta.get("sites"))
    native.views.learn(meta.get("views", {}))  # choices' prompts, simultaneous steps (views.py)
    return native, ""
