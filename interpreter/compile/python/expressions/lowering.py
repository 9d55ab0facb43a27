"""Lowering a generated function's result expression into statements.

A function of the DSL is one expression, and its generated Python was `return <expression>`. Some
forms at the top of that expression cost a Python object each time they run: `any(...)` and
`all(...)` are a generator under `next` (a generator made, started and thrown away), and the
loop-invariant hoisting (aggregates.py) wraps a loop in a lambda called at once. As statements they need
neither: `A and B` tests A and returns it when it is false; a lambda called at once binds its
parameters as locals; an `any` is a `for` loop that returns at the first element that decides.
Everything is evaluated in the same order, as often, and charged the same (a loop's source is still
read once, before its first element); only the objects around it go. The parameter names of the
lambdas and the loop variables are the compiler's fresh names, so making them locals shadows
nothing.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Callable

Finish = Callable[[str], list[str]]  # the statements that end the function with a value's source


def lower(src: str, finish: Finish) -> list[str] | None:
    """The statements (indented by four spaces per level, from column 0) that compute `src` and
    end with `finish(value)`, or None when `src` has nothing to lower (`finish(src)` it is)."""
    try:
        tree = pyast.parse(src, mode="eval")
    except SyntaxError:
        return None
    return _lower(tree.body, finish)


def lowered(src: str, finish: Finish) -> list[str]:
    """The statements of a function's end that computes `src`: `finish(src)` when there is nothing
    to lower."""
    return lower(src, finish) or finish(src)


def returning(value: str) -> list[str]:
    """The end of a plain function: return the value."""
    return [f"return {value}"]


def remembering(value: str) -> list[str]:
    """The end of a remembered function (functions.py `memo_function`): store the value with the
    work it cost (`_w`: the budget before the call), return the value."""
    return [f"r = {value}", "M[K] = (r, _w - rt.budget)", "return r"]


def _src(node: pyast.expr) -> str:
    return pyast.unparse(node)


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _any_loop(node: pyast.expr) -> tuple[pyast.comprehension, pyast.expr | None] | None:
    """(the loop, its test) of `next((True for x in xs if c), False)`, the form of `any` and `all`."""
    if not (
        isinstance(node, pyast.Call)
        and isinstance(node.func, pyast.Name)
        and node.func.id == "next"
        and len(node.args) == 2
        and not node.keywords
        and isinstance(node.args[0], pyast.GeneratorExp)
        and isinstance(node.args[1], pyast.Constant)
        and node.args[1].value is False
    ):
        return None
    gen = node.args[0]
    if not (isinstance(gen.elt, pyast.Constant) and gen.elt.value is True) or len(gen.generators) != 1:
        return None
    loop = gen.generators[0]
    if loop.is_async or not isinstance(loop.target, pyast.Name):
        return None
    test: pyast.expr | None = None
    if len(loop.ifs) == 1:
        test = loop.ifs[0]
    elif loop.ifs:
        test = pyast.BoolOp(pyast.And(), list(loop.ifs))
    return loop, test


def _boolean(node: pyast.expr) -> bool:
    """An expression whose value is always True or False (so its falsy value is `False`)."""
    if isinstance(node, pyast.Compare):  # of numbers, texts, lists and components: a bool
        return True
    if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
        return True
    return isinstance(node, pyast.Constant) and isinstance(node.value, bool)


def _lower(node: pyast.expr, finish: Finish) -> list[str] | None:
    found = _any_loop(node)
    negated = False
    if found is None and isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
        found, negated = _any_loop(node.operand), True
    if found is not None:
        loop, test = found
        hit, miss = ("False", "True") if negated else ("True", "False")
        assert isinstance(loop.target, pyast.Name)
        body = finish(hit) if test is None else [f"if {_src(test)}:", *_indent(finish(hit))]
        return [f"for {loop.target.id} in {_src(loop.iter)}:", *_indent(body), *finish(miss)]
    if isinstance(node, pyast.BoolOp) and isinstance(node.op, pyast.And):
        rest = _lower(node.values[-1], finish)
        if rest is None:
            return None
        lines: list[str] = []
        for i, operand in enumerate(node.values[:-1]):
            if isinstance(operand, pyast.UnaryOp) and isinstance(operand.op, pyast.Not):
                lines += [f"if {_src(operand.operand)}:", *_indent(finish("False"))]
            elif _boolean(operand):
                lines += [f"if not ({_src(operand)}):", *_indent(finish("False"))]
            else:  # `A and B` is A itself when A is false (0, none, an empty list)
                tmp = f"_and{i}"  # never a generated name: those end in _<n>
                lines += [f"{tmp} = {_src(operand)}", f"if not {tmp}:", *_indent(finish(tmp))]
        return lines + rest
    if (
        isinstance(node, pyast.Call)
        and isinstance(node.func, pyast.Lambda)
        and not node.keywords
        and _plain_lambda(node.func, len(node.args))
    ):
        binds = [f"{a.arg} = {_src(v)}" for a, v in zip(node.func.args.args, node.args, strict=True)]
        inner = node.func.body
        return binds + (_lower(inner, finish) or finish(_src(inner)))
    if isinstance(node, pyast.IfExp):
        yes, no = _lower(node.body, finish), _lower(node.orelse, finish)
        if yes is None and no is None:
            return None
        return [
            f"if {_src(node.test)}:",
            *_indent(yes or finish(_src(node.body))),
            "else:",
            *_indent(no or finish(_src(node.orelse))),
        ]
    return None


def _plain_lambda(fn: pyast.Lambda, n_args: int) -> bool:
    """A lambda of positional parameters only, as many as the call gives (the hoisting's form)."""
    a = fn.args
    return (
        not a.posonlyargs
        and not a.kwonlyargs
        and a.vararg is None
        and a.kwarg is None
        and not a.defaults
        and len(a.args) == n_args
    )
