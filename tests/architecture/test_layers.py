"""The layout's three rules, checked on the source: no import cycle, no import from a higher layer, no
module over 600 lines.

Every module of interpreter/, tools/ and grammar/ is read with `ast` (nothing is imported). Every
import statement counts: at module level, inside functions and under `if TYPE_CHECKING:`.
`import a.b` imports `a.b`; `from a.b import c` imports `a.b` (its __init__ when it is a package)
and, when `a.b.c` is a module, that module too; relative imports are resolved against the importing
module. Imports by name at run time (`importlib.import_module`) are not seen. The package maps
tools/ -> `tabula`, interpreter/ -> `tabula.interpreter`, grammar/ -> `tabula.grammar`
(pyproject.toml's package-dir).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"interpreter": "tabula.interpreter", "grammar": "tabula.grammar", "tools": "tabula"}

# ------------------------------------------------------------------ the layer table
# One line per layer, lowest first: rank | layer | its files (a folder ending in / holds all its modules)
# | what it owns. A module may import its own layer and the layers of a lower rank; layers of the same
# rank are independent (neither imports the other).
LAYER_TABLE = """
0  | base      | interpreter/__init__.py interpreter/base/ | spans, diagnostics, limits, types, PRNG: stdlib
0  | grammar   | grammar/                                  | the DSL's Lark grammar (data) and its path
1  | load      | interpreter/load/                         | YAML, bounds, schema, packs, rules options
2  | dsl       | interpreter/dsl/                          | DSL text -> Lark tree -> AST with positions
3  | model     | interpreter/model/                        | compiled game, plain-data state, ids, views
4  | run       | interpreter/run/                          | the machine: runtime, flow, budget, saves
5  | compile   | interpreter/compile/                      | check + compile to a CompiledGame (python/)
6  | authoring | interpreter/authoring/                    | why not, the presentation section of a seat
6  | native    | interpreter/compile/native/               | typed IR, C generator, build, ctypes bridge
7  | engine    | interpreter/engine.py interpreter/loading.py | the public API: load, start, choose, view
8  | scenarios | interpreter/scenarios/                    | rulebook examples as data, and their runner
9  | common    | tools/__init__.py tools/common.py         | shared by commands: options, errors, JSON
10 | bots      | tools/bots/                               | bots by name: random, greedy, mcts, ismcts
10 | pytest    | tools/pytest_plugin.py                    | scenario files as test items
11 | play      | tools/play/                               | `tabula play`: the screen, a seat's board
12 | balance   | tools/balance/                            | bot games: statistics, reports, plots, jobs
12 | serve     | tools/serve/                              | `tabula serve`: the table in a browser
12 | rl        | tools/rl/                                 | OpenSpiel games, PettingZoo environments
12 | lsp       | tools/lsp/                                | `tabula lsp`: the editor's language server
13 | dev       | tools/dev/                                | our tooling: benchmarks, traces, docs, golden
14 | cli       | tools/cli/ tools/__main__.py              | the command line: parsing, dispatch, commands
"""

MAX_LINES = 600
# Modules allowed over MAX_LINES, each with its reason: {"interpreter/x/y.py": "why it stays whole"}.
BIG_MODULES: dict[str, str] = {}


@dataclass(frozen=True)
class Layer:
    rank: int
    name: str
    files: tuple[str, ...]  # files, and folders ending in "/"
    owns: str


def parse_table(text: str) -> list[Layer]:
    layers = []
    for line in text.strip().splitlines():
        rank, name, files, owns = (cell.strip() for cell in line.split("|"))
        layers.append(Layer(int(rank), name, tuple(files.split()), owns))
    return layers


LAYERS = parse_table(LAYER_TABLE)


def layer_of(file: str, layers: Iterable[Layer] = LAYERS) -> Layer | None:
    """The layer whose entry names `file` (a path relative to the root), the longest entry first."""
    best: tuple[int, Layer] | None = None
    for layer in layers:
        for entry in layer.files:
            hit = file.startswith(entry) if entry.endswith("/") else file == entry
            if hit and (best is None or len(entry) > best[0]):
                best = (len(entry), layer)
    return best[1] if best else None


# ------------------------------------------------------------------ the modules and their imports


@dataclass(frozen=True)
class Edge:
    """`source` imports `target`, at `file`:`line`."""

    source: str
    target: str
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.source} imports {self.target}"


@cache
def modules() -> dict[str, str]:
    """Every module of the package by name, with its file relative to the root."""
    found: dict[str, str] = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = [p for p in path.relative_to(ROOT / folder).with_suffix("").parts if p != "__init__"]
            found[".".join([package, *parts])] = path.relative_to(ROOT).as_posix()
    return found


def imports_of(name: str, file: str, source: str, known: Iterable[str]) -> list[Edge]:
    """The imports of module `name` (whose text is `source`) among the `known` modules."""
    known = set(known)
    package = name.split(".") if file.endswith("__init__.py") else name.split(".")[:-1]
    edges: list[Edge] = []
    for node in ast.walk(ast.parse(source, filename=file)):
        if isinstance(node, ast.Import):
            wanted = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: `from .x import y` is x beside this module
                base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
            wanted = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in {resolve(w, known) for w in wanted} - {None, name}:
            edges.append(Edge(name, str(target), file, node.lineno))
    return sorted(edges, key=lambda e: (e.line, e.target))


def resolve(dotted: str, known: set[str]) -> str | None:
    """The module `dotted` names: itself, else its nearest known parent (`a.b.func` is `a.b`); None
    outside the package."""
    while dotted and dotted not in known:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


@cache
def all_edges() -> tuple[Edge, ...]:
    known = modules()
    edges: list[Edge] = []
    for name, file in known.items():
        edges += imports_of(name, file, (ROOT / file).read_text(encoding="utf-8"), known)
    return tuple(edges)


# ------------------------------------------------------------------ the checks


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def enter(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)

    for root in sorted(graph):
        if root in index:
            continue
        enter(root)
        work = [(root, iter(sorted(graph[root])))]
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    enter(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:  # every child of v is done: v closes a component when it is its root
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while not component or component[-1] != v:
                        component.append(stack.pop())
                        on_stack.discard(component[-1])
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def graph_of(edges: Iterable[Edge]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    return graph


def cycle_report(edges: Iterable[Edge]) -> list[str]:
    """One paragraph per cycle: its modules, then every import between them."""
    edges = list(edges)
    out = []
    for component in cycles(graph_of(edges)):
        inside = set(component)
        lines = [str(e) for e in edges if e.source in inside and e.target in inside]
        out.append("\n    ".join([f"cycle of {len(component)} modules: {' '.join(component)}", *lines]))
    return out


def wrong_way(edges: Iterable[Edge], files: Mapping[str, str], layers: list[Layer]) -> list[str]:
    """Every import of a higher layer, or of another layer of the same rank."""
    out = []
    for edge in edges:
        here, there = layer_of(files[edge.source], layers), layer_of(files[edge.target], layers)
        if here is None or there is None or here == there or there.rank < here.rank:
            continue  # a module of no layer fails test_every_module_has_a_layer_and_every_entry_exists
        how = "a higher layer" if there.rank > here.rank else "a layer of the same rank"
        out.append(f"{edge}: {here.name} ({here.rank}) imports {how}, {there.name} ({there.rank})")
    return out


def line_count(file: str) -> int:
    with (ROOT / file).open(encoding="utf-8") as f:
        return sum(1 for _ in f)


# ------------------------------------------------------------------ the tests


def test_every_module_has_a_layer_and_every_entry_exists() -> None:
    assert [f for f in modules().values() if layer_of(f) is None] == [], (
        "files of no layer: add to LAYER_TABLE"
    )
    entries = [entry for layer in LAYERS for entry in layer.files]
    assert [e for e in entries if not (ROOT / e).exists()] == [], "entries of LAYER_TABLE that do not exist"


def test_no_import_cycles() -> None:
    found = cycle_report(all_edges())
    assert not found, f"{len(found)} import cycles:\n" + "\n".join(found)


def test_no_module_imports_a_higher_layer() -> None:
    found = wrong_way(all_edges(), modules(), LAYERS)
    assert not found, f"{len(found)} imports against the layer table:\n" + "\n".join(found)


def test_no_module_is_over_600_lines() -> None:
    big = [
        f"{f}: {n} lines"
        for f in modules().values()
        if (n := line_count(f)) > MAX_LINES and f not in BIG_MODULES
    ]
    assert not big, (
        f"modules over {MAX_LINES} lines (split them, or list them in BIG_MODULES with a reason):\n"
        + ("\n".join(big))
    )


def test_every_big_module_listed_is_still_big() -> None:
    stale = [f for f in BIG_MODULES if f not in modules().values() or line_count(f) <= MAX_LINES]
    assert stale == [], "BIG_MODULES entries that are gone or now small enough: remove them"


# ------------------------------------------------------------------ the checks themselves


def test_the_checks_find_a_cycle_and_an_upward_edge() -> None:
    layers = parse_table(
        "0 | low | a/ | the bottom\n1 | high | b/ | the top\n1 | side | c.py | a peer of high"
    )
    files = {
        "a.x": "a/x.py",
        "a.y": "a/y.py",
        "a.z": "a/z.py",
        "a.w": "a/w.py",
        "b.top": "b/top.py",
        "c": "c.py",
    }
    edges = [
        Edge("a.x", "a.y", "a/x.py", 3),
        Edge("a.y", "a.z", "a/y.py", 4),
        Edge("a.z", "a.x", "a/z.py", 5),  # closes the cycle x -> y -> z -> x
        Edge("a.y", "b.top", "a/y.py", 7),  # upward
        Edge("b.top", "a.w", "b/top.py", 6),  # downward: fine
        Edge("b.top", "c", "b/top.py", 8),  # to a peer
    ]
    assert cycles(graph_of(edges)) == [["a.x", "a.y", "a.z"]]
    assert cycle_report(edges) == [
        "cycle of 3 modules: a.x a.y a.z\n    a/x.py:3: a.x imports a.y\n    a/y.py:4: a.y imports a.z\n"
        "    a/z.py:5: a.z imports a.x"
    ]
    assert wrong_way(edges, files, layers) == [
        "a/y.py:7: a.y imports b.top: low (0) imports a higher layer, high (1)",
        "b/top.py:8: b.top imports c: high (1) imports a layer of the same rank, side (1)",
    ]
    # one edge back from the top closes a bigger cycle; a chain or a module importing itself is none
    assert cycles(graph_of([*edges, Edge("c", "a.y", "c.py", 1)])) == [["a.x", "a.y", "a.z", "b.top", "c"]]
    assert cycles({"p": {"q"}, "q": set(), "r": {"r"}}) == []


def test_imports_are_found_wherever_they_are_written() -> None:
    known = {"pkg", "pkg.a", "pkg.b", "pkg.sub", "pkg.sub.c", "pkg.sub.d"}
    source = """
from typing import TYPE_CHECKING
from . import d
from .. import a
from ..b import thing
import pkg.sub
if TYPE_CHECKING:
    from pkg.a import Name
def later():
    import json
    from pkg.sub.c import helper
"""
    edges = imports_of("pkg.sub.c", "pkg/sub/c.py", source, known)
    assert [(e.target, e.line) for e in edges] == [
        ("pkg.sub", 3),
        ("pkg.sub.d", 3),
        ("pkg", 4),
        ("pkg.a", 4),
        ("pkg.b", 5),
        ("pkg.sub", 6),
        ("pkg.a", 8),
    ]
    package = imports_of("pkg.sub", "pkg/sub/__init__.py", "from .c import x\nfrom . import d\n", known)
    assert [e.target for e in package] == ["pkg.sub.c", "pkg.sub.d"]
