"""Check and compile DSL expressions into Python source.

Stage: check + compile (one walk). Each AST node is resolved — names, arity, attribute names, static
types — and, if it resolves, turned into a fragment of Python source. Fragments are composed into the
functions of the game's generated module (`module.py`): a whole expression, a DSL function, or an
expression written inline into an effect's function. Evaluating a condition is then plain bytecode.

What the compiler does to make that bytecode small (each is semantics-preserving for the pure,
side-effect-free expressions of the DSL):

- **constant folding**: comparisons, `and`/`or`/`not`, `if-else`, arithmetic and `in` of literals;
  with `Scope.known` a name can stand for a literal (a component type's ability compiled once per
  component knows `self`, so `self.name == 'Road'` folds to true or false);
- **inlining**: a small, non-recursive DSL function is written into its caller with its arguments
  substituted (an argument used more than once, or inside a loop, must be a plain name or literal);
- **short-circuits**: `first`, `any`, `all` stop at the first deciding element;
  `count`/`sum` build a list and measure it (faster than a generator in CPython);
- **hoisting**: the `and`-conjuncts of a generator's `where` that do not use its variable are tested
  once, before the loop, not once per element;
- `bool(...)` only where an operand is not already true/false.

The generated code can only reach what is injected into its namespace: the state through `rt`, the
game's constants, property columns and the builtin registry. Every problem goes into the Report with
the node's span; a game with any error is never run.

`ExprCompiler` is one visitor with a method per kind of node (`_Name` for `ast.Name`, ...); its
methods are kept in a module per family, each a class that `ExprCompiler` puts together:

- exprbase.py: the state, the namespace, the entry points, the dispatch, the loops being compiled;
- functions.py: calls of DSL functions (inlining, remembering), named values, rules and options;
- names.py: names, calls, counters, attributes and indexes;
- operators.py: operators, with constant folding;
- builtins.py and aggregates.py: builtin functions; `count(x for x in L where c)` and the other
  generators (functions of an `ExprBase`, not methods);
- here: literals and list comprehensions.

Below them: fragments.py (facts about generated source text), analysis.py (facts about the DSL's
trees and functions), module.py (the generated module) and run/builtins.py (what generated code
calls besides the budget).
"""

from __future__ import annotations

from tabula.interpreter.base.types import ANY, BOOL, INT, NONE, STR, Scope, join, list_of
from tabula.interpreter.compile.python.expressions.aggregates import aggregate_code
from tabula.interpreter.compile.python.expressions.fragments import Code
from tabula.interpreter.compile.python.expressions.names import NameCompiler
from tabula.interpreter.compile.python.expressions.operators import OperatorCompiler
from tabula.interpreter.dsl import ast


class ExprCompiler(NameCompiler, OperatorCompiler):
    """Resolves DSL expressions against one game's names and generates Python code for them."""

    # ------------------------------------------------------------ literals
    def _Number(self, n: ast.Number, scope: Scope) -> Code:
        return repr(n.value), INT

    def _String(self, n: ast.String, scope: Scope) -> Code:
        return repr(n.value), STR

    def _Bool(self, n: ast.Bool, scope: Scope) -> Code:
        return repr(n.value), BOOL

    def _NoneLit(self, n: ast.NoneLit, scope: Scope) -> Code:
        return "None", NONE

    def _ListLit(self, n: ast.ListLit, scope: Scope) -> Code:
        items = [self.code(x, scope) for x in n.items]
        t = NONE
        for _, it in items:
            t = join(t, it)
        return "[" + ", ".join(src for src, _ in items) + "]", list_of(ANY if t == NONE else t)

    # ------------------------------------------------------------ list comprehensions
    def _ListComp(self, n: ast.ListComp, scope: Scope) -> Code:
        return aggregate_code(self, "list", n.gen, scope)
