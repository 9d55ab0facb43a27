"""The fixed C runtime of every game's C file, read from the real C files in compile/native/runtime/.

Stage: compile (native). The runtime is the part of a game's translation unit that does not depend
on the game (as Cython's Utility code and mypyc's lib-rt): words and errors (tabula.h), checks,
zones, the generator and list values (values.c, lists.c; groups.c, lists of lists, only for a
game that makes one), decisions inside effects (segments.c),
boards and paths (boards.h, boards.c, paths.c, only for a game with boards), the flow driver and
the entry points (flow.c), the search tree (search.c), choice ids as text (names.c), players'
views (views.c), a window's options computed again (recompute.c). units.py pastes them, in that
order, around the game's layout, tables and generated parts (`g_*`, cgen.py): the unit stays one
file the compiler reads alone, and the signature compiled into it hashes them.
A library's cache key changes with them: the engine's fingerprint (compile/python/cache.py) hashes
the .c and .h files of the interpreter as well as its Python. tests/native/test_native_runtime_c.py
compiles them alone with -Wall -Wextra -Werror.
"""

from __future__ import annotations

from pathlib import Path

RUNTIME = Path(__file__).resolve().parents[1] / "runtime"
FILES = (
    "tabula.h",
    "values.c",
    "lists.c",
    "groups.c",
    "segments.c",
    "grants.c",
    "boards.h",
    "boards.c",
    "paths.c",
    "regions.c",
    "flow.c",
    "search.c",
    "names.c",
    "views.c",
    "recompute.c",
)


def c_file(name: str) -> str:
    """The text of one runtime file (`name` in FILES)."""
    return (RUNTIME / name).read_text(encoding="utf-8")


HEAD = c_file("tabula.h")
BODY = c_file("values.c")
LISTS = c_file("lists.c")
GROUPS = c_file("groups.c")
SEGMENTS = c_file("segments.c")
GRANTS = c_file("grants.c")
BOARDS_H = c_file("boards.h")
BOARDS = c_file("boards.c")
PATHS = c_file("paths.c")
REGIONS = c_file("regions.c")
FLOW = c_file("flow.c")
SEARCH = c_file("search.c")
NAMES = c_file("names.c")
VIEWS = c_file("views.c")
RECOMPUTE = c_file("recompute.c")
