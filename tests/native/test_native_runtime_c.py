"""The native backend's fixed C runtime (issue 33): real files in compile/native/runtime/, every one
pasted into a game's C file, compiled on their own with -Wall -Wextra -Werror, and part of the cache
key of every library built from them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tabula.interpreter.compile.native.backend import c_source, var_kinds
from tabula.interpreter.compile.native.emit import prelude, units
from tabula.interpreter.compile.native.emit.boards_c import boards_c
from tabula.interpreter.compile.native.emit.cgen import CGen
from tabula.interpreter.compile.native.slots import Layout
from tabula.interpreter.compile.native.support import lower_game
from tabula.interpreter.compile.python import cache
from tabula.interpreter.engine import load_game

HERE = Path(__file__).resolve().parent
GCC = shutil.which("gcc")
FLAGS = ["-std=gnu11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-function", "-Wno-unused-const-variable"]
RAILS = HERE / "games" / "rails"  # boards, placements and paths: every runtime file is used
SPREAD = HERE / "games" / "spread"  # boards that grow: boards.c's b_grow and values.c's call of it

# What the game's generated part gives the flow driver (units.py writes them per game): stand-ins.
GAME_PARTS = r"""
static int g_has(int w) { return w == W_SETUP; }
static void g_effect(X *x, int w, i64 p) { (void)x; (void)w; (void)p; }
static i64 g_value(X *x, int w) { (void)x; return w; }
static int g_skip(X *x, i64 p) { (void)x; (void)p; return 0; }
static int g_fire(X *x) { (void)x; return 0; }
static int g_phase(X *x, i64 k, i64 p) { (void)x; (void)k; (void)p; return 0; }
static int g_window(X *x, i64 k, i64 p) { (void)x; (void)k; (void)p; return 0; }
static int g_inner_window(X *x, i64 site, i64 p) { (void)x; (void)site; (void)p; return 0; }
static void g_action(X *x, i64 ai, i64 p, i64 arg, i64 arg2) {
    (void)x; (void)ai; (void)p; (void)arg; (void)arg2;
}
static void g_score(X *x, i64 p, i64 *out) { (void)x; out[0] = p; }
static int g_has_eval(void) { return 0; }
static i64 g_eval(X *x, i64 p) { (void)x; return p; }
"""


def generator(where: str | Path) -> CGen:
    game = load_game(where)
    prog, walk = lower_game(game)
    assert not walk.report.diagnostics
    return CGen(
        game,
        prog,
        Layout(game, var_kinds(game, walk.low.list_vars, walk.low.any_vars), walk.low.mark_kinds),
        walk.low.tables,
    )


def includes(text: str) -> str:
    """`text` with each runtime file pasted in it written as an #include of the real file."""
    for name in prelude.FILES:
        text = text.replace(prelude.c_file(name), f'\n#include "{name}"\n')
    return text


def runtime_unit(gen: CGen) -> str:
    """The runtime files in a game's order, each #included, around the game's own layout and tables
    (generated, as in its C file) and stand-ins for its generated functions."""
    return "\n".join(
        [
            '#include "tabula.h"',
            '#define META "{}"',
            *gen.lay.defines(),
            *units._tables(gen),
            '#include "values.c"',
            '#include "lists.c"',
            '#include "groups.c"',
            '#include "segments.c"',
            '#include "grants.c"',
            includes("\n".join(boards_c(gen.g, gen.tables, gen.lay))),
            GAME_PARTS,
            '#include "flow.c"',
            '#include "search.c"',
            '#include "names.c"',
            '#include "views.c"',
            '#include "recompute.c"',
        ]
    )


def test_every_runtime_file_is_pasted_into_a_game_with_boards() -> None:
    source, why = c_source(load_game(RAILS))
    assert source is not None, why
    for name in prelude.FILES:  # but groups.c, pasted only into a game making lists of lists
        assert (prelude.c_file(name) in source) == (name != "groups.c"), name
    nested, why = c_source(load_game(HERE / "games" / "heaps"))
    assert nested is not None and prelude.GROUPS in nested, why
    assert source.index(prelude.FLOW) < source.index(prelude.SEARCH)
    assert set(prelude.FILES) == {p.name for p in prelude.RUNTIME.iterdir() if p.suffix in (".c", ".h")}


@pytest.mark.skipif(GCC is None, reason="no gcc")
@pytest.mark.parametrize("where", ["glory-to-rome", RAILS, SPREAD], ids=["glory-to-rome", "rails", "spread"])
def test_the_runtime_compiles_alone_with_warnings_as_errors(where: str | Path, tmp_path: Path) -> None:
    """-Wno-unused-function as the build's: the runtime is a library of static helpers, of which
    each game calls some; -Wno-unused-const-variable: the game's tables are read by its own code,
    absent here. -O2 for the warnings only the optimiser finds (maybe-uninitialized)."""
    gen = generator(where)
    text = runtime_unit(gen)
    if isinstance(where, Path):  # the boards' files are in too
        assert '#include "boards.c"' in text and '#include "paths.c"' in text
    c_file = tmp_path / "runtime.c"
    c_file.write_text(text)
    flags = [*FLAGS, "-O2", "-c", "-o", str(tmp_path / "runtime.o")]
    run = subprocess.run(
        [str(GCC), *flags, "-I", str(prelude.RUNTIME), str(c_file)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]


@pytest.mark.skipif(GCC is None, reason="no gcc")
def test_a_warning_in_a_runtime_file_fails_the_compile(tmp_path: Path) -> None:
    """The check above can fail: the same unit with an unused variable in flow.c does not build."""
    folder = tmp_path / "runtime"
    shutil.copytree(prelude.RUNTIME, folder)
    flow = folder / "flow.c"
    flow.write_text(flow.read_text().replace("int tb_words(void) {", "int tb_words(void) { int unused;", 1))
    c_file = tmp_path / "runtime.c"
    c_file.write_text(runtime_unit(generator("high-card")))
    flags = [*FLAGS, "-fsyntax-only"]
    run = subprocess.run(
        [str(GCC), *flags, "-I", str(folder), str(c_file)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode != 0 and "unused" in run.stderr


def test_a_changed_runtime_file_changes_the_cache_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """A library's key builds on the engine's fingerprint: it must hash the C files as well."""
    monkeypatch.setattr(cache, "_fingerprint", None)
    before = cache.engine_fingerprint()
    real = Path.read_bytes
    flow = prelude.RUNTIME / "flow.c"

    def edited(path: Path) -> bytes:
        data = real(path)
        return data + b"/* changed */\n" if path.resolve() == flow else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    monkeypatch.setattr(cache, "_fingerprint", None)
    assert cache.engine_fingerprint() != before
