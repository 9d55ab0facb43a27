"""The generated Python module of one compiled game: one namespace, one source text, one line table.

Stage: compile. Every expression, DSL function, effect block and window of a game becomes a named
Python function whose source is appended to one module text and executed in one namespace. The
namespace holds only:

- data injected by name (constants, property columns, id lists, key tables: plain, picklable values),
- helpers by name (runtime support functions and builtin implementations, resolved by a stable
  reference so a cached game can rebuild them), and
- a fixed list of safe Python builtins.

DSL text never becomes Python text except as identifiers that were resolved against the game (and
prefixed) and as `repr`'d literals, so a game file cannot run Python of its own.

The line table maps each generated line that carries out a DSL statement to that statement's span:
when a rule fails inside generated code, the runtime walks the traceback to the innermost such line
(base/linemap.py, where every module registers), so errors point at the statement without any
bookkeeping while running.
"""

from __future__ import annotations

import ast as pyast
import importlib
import itertools
import re
from collections.abc import Callable
from types import CodeType
from typing import Any

from tabula.interpreter.base.linemap import register
from tabula.interpreter.base.source import Span
from tabula.interpreter.run.builtins import IMPLS

# The only Python builtins generated code may use (it never names anything else).
SAFE_BUILTINS: dict[str, Any] = {
    f.__name__: f
    for f in (
        list,
        range,
        len,
        bool,
        int,
        sum,
        any,
        all,
        min,
        max,
        sorted,
        abs,
        next,
        iter,
        type,
        set,
        tuple,
        zip,
        filter,
        map,
    )
}
SAFE_BUILTINS.update(KeyError=KeyError, TypeError=TypeError, IndexError=IndexError)

# (module, qualified name), or ("builtin", name) for a builtin's implementation (run/builtins.py
# IMPLS): the generated code names it after the builtin (`_h_max_4`), most implementations being lambdas
HelperRef = tuple[str, str]

_WORDS = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
# the fixed prologue lines of generated functions, dropped where the function does not use the name
_PROLOGUE_LINES = frozenset({"S = rt.st", "L = rt.loc", "M = rt.memo", "L = fr[2]"})
_serial = itertools.count()


def resolve_helper(ref: HelperRef) -> Any:
    """The helper object a reference names (used when a cached game is rebuilt)."""
    module, name = ref
    if module == "builtin":
        return IMPLS[name]
    obj: Any = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


class GenModule:
    """See the module docstring."""

    def __init__(self, label: str, unique: str | None = None) -> None:
        # the file name of generated code: tracebacks find the module by it, so it must be unique
        # (a cache key is: the same key gives the same source)
        self.filename = f"<tabula {label} {unique or next(_serial)}>"
        self.ns: dict[str, Any] = {"__builtins__": SAFE_BUILTINS}
        self.parts: list[str] = []
        self.next_line = 1
        self.lines: dict[int, Span] = {}
        self.data: dict[str, Any] = {}
        self.helpers: dict[str, HelperRef] = {}
        self.bindings: dict[str, str] = {}  # local name -> the state part it stands for (ExprBase.bind)
        self._by_id: dict[int, str] = {}
        self._names: set[str] = set()
        register(self)

    # ------------------------------------------------------------ names
    def fresh(self, hint: str) -> str:
        """A new, unique identifier for generated code."""
        base = "".join(ch if ch.isalnum() else "_" for ch in hint) or "x"
        name = f"{base}_{len(self._names)}"
        self._names.add(name)
        return name

    def inject(self, value: Any, hint: str) -> str:
        """A namespace name for a piece of plain data (kept when the game is cached)."""
        key = id(value)
        if key in self._by_id:
            return self._by_id[key]
        name = "_" + self.fresh(hint)
        self.ns[name] = value
        self.data[name] = value
        self._by_id[key] = name
        return name

    def helper(self, fn: Callable[..., Any], ref: HelperRef | None = None) -> str:
        """A namespace name for a support function (rebuilt by reference when the game is cached)."""
        key = id(fn)
        if key in self._by_id:
            return self._by_id[key]
        if ref is None:
            ref = (fn.__module__, fn.__qualname__)
        name = "_h_" + self.fresh(ref[1].split(".")[-1])
        self.ns[name] = fn
        self.helpers[name] = ref
        self._by_id[key] = name
        return name

    # ------------------------------------------------------------ code
    def define(self, text: str, spans: dict[int, Span] | None = None) -> dict[str, Any]:
        """Execute generated source (one or more `def`s) in the namespace; returns what it defined.

        `spans` maps line numbers of `text` (1-based) to the DSL statement each line carries out."""
        if not text.endswith("\n"):
            text += "\n"
        text, spans = self._bind(text, spans)
        offset = self.next_line - 1
        tree = pyast.parse(text, self.filename)
        pyast.increment_lineno(tree, offset)
        exec(compile(tree, self.filename, "exec"), self.ns)  # generated from a checked AST
        self.parts.append(text)
        self.next_line += text.count("\n")
        for line, span in (spans or {}).items():
            self.lines[line + offset] = span
        return {k: self.ns[k] for k in _top_level_names(tree)}  # not a scan of the namespace: linear

    def _bind(self, text: str, spans: dict[int, Span] | None) -> tuple[str, dict[int, Span] | None]:
        """Bind the state parts each function of `text` uses (bindings) on entry, or where the
        function marks with a `#bind` line (after a remembered result is looked up: a hit needs
        none of them), and drop the lines of its fixed prologue (`S = rt.st`, ...) that bind a
        name its code does not use."""
        lines = text.split("\n")
        out: list[str] = []
        moved: dict[int, Span] = {}
        used: list[str] = []
        words: set[str] = set()
        for i, line in enumerate(lines, start=1):
            if line.startswith("def "):
                end = next((j for j in range(i, len(lines)) if lines[j].startswith("def ")), len(lines))
                body = lines[i:end]
                words = set(_WORDS.findall("\n".join(b for b in body if b.strip() not in _PROLOGUE_LINES)))
                used = sorted(words & self.bindings.keys())
                out.append(line)
                if spans and i in spans:
                    moved[len(out)] = spans[i]
                if not any(b.strip() == "#bind" for b in body):
                    out.extend(f"    {name} = {self.bindings[name]}" for name in used)
                continue
            stripped = line.strip()
            if stripped == "#bind":
                pad = line[: len(line) - len(line.lstrip())]
                out.extend(f"{pad}{name} = {self.bindings[name]}" for name in used)
                continue
            if stripped in _PROLOGUE_LINES and stripped.split(" ", 1)[0] not in words:
                continue
            out.append(line)
            if spans and i in spans:
                moved[len(out)] = spans[i]
        return "\n".join(out), (moved if spans else spans)

    def function(self, text: str, name: str, spans: dict[int, Span] | None = None) -> Callable[..., Any]:
        """Define one function and return it."""
        fn: Callable[..., Any] = self.define(text, spans)[name]
        return fn

    def source(self) -> str:
        return "".join(self.parts)

    def names(self) -> set[str]:
        return set(self._names)

    @classmethod
    def rebuild(
        cls,
        filename: str,
        source: str,
        code: CodeType,
        data: dict[str, Any],
        helpers: dict[str, HelperRef],
        lines: dict[int, Span],
        names: list[str],
        bindings: dict[str, str],
    ) -> GenModule:
        """A module as it was compiled, from what the compile cache kept (cache.py)."""
        mod = cls.__new__(cls)
        mod.filename = filename
        mod.ns = {"__builtins__": SAFE_BUILTINS, **data}
        for name, ref in helpers.items():
            mod.ns[name] = resolve_helper(ref)
        exec(code, mod.ns)  # the code generated for this game by this engine (same cache key)
        mod.parts = [source]
        mod.next_line = source.count("\n") + 1
        mod.lines = dict(lines)
        mod.data = dict(data)
        mod.helpers = dict(helpers)
        mod._by_id = {}
        mod._names = set(names)
        mod.bindings = dict(bindings)
        register(mod)
        return mod

    def span_at(self, line: int) -> Span | None:
        return self.lines.get(line)


def _top_level_names(tree: pyast.Module) -> list[str]:
    """The names the top-level statements of a module define (its `def`s and plain assignments)."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (pyast.FunctionDef, pyast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, pyast.Assign):
            names += [t.id for t in node.targets if isinstance(t, pyast.Name)]
    return names
