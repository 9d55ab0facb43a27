"""Charging a function's loops before its body runs, instead of through a call at each loop.

A comprehension's source goes through `each(rt, xs)` (budget.py): one call that charges its
items to the work budget. Where the body of a generated function certainly evaluates that source
(not under a condition, nor inside another loop) and the source cannot fail to evaluate (a name,
a zone, a constant), the function reads the source into a local first, charges its length in the
statement that charges the call itself, and the body iterates the local: the same units, charged
a little earlier, without a call per loop.
"""

from __future__ import annotations

import ast as pyast

# sources read into a local before the body: they cannot raise, so reading them first moves no error
_PLAIN = (pyast.Name, pyast.Constant, pyast.Load, pyast.BinOp, pyast.Add, pyast.Sub, pyast.Mult)


def _plain_source(node: pyast.expr) -> bool:
    """A name, or the zones' list at an index computed from names and numbers (`Z[(14 + v_p)]`),
    or the zone-or-list choice of a parameter (`Z[v_L] if v_L.__class__ is int else v_L`)."""
    if isinstance(node, pyast.Name):
        return True
    if isinstance(node, pyast.Subscript):
        return (
            isinstance(node.value, pyast.Name)
            and node.value.id == "Z"
            and all(isinstance(x, _PLAIN) for x in pyast.walk(node.slice))
        )
    if isinstance(node, pyast.IfExp):
        test = node.test
        return (
            isinstance(test, pyast.Compare)
            and isinstance(test.left, pyast.Attribute)
            and test.left.attr == "__class__"
            and isinstance(test.left.value, pyast.Name)
            and _plain_source(node.body)
            and _plain_source(node.orelse)
        )
    return False


class _Hoist(pyast.NodeTransformer):
    """Replaces the `each(rt, xs)` calls evaluated whenever the expression is, by locals."""

    def __init__(self, each: str) -> None:
        self.each = each
        self.sources: list[tuple[str, pyast.expr]] = []
        self.bound: set[str] = set()  # parameters of the lambdas around: not known before the body

    def visit(self, node: pyast.AST) -> pyast.AST:
        return self.expr(node) if isinstance(node, pyast.expr) else node

    def expr(self, node: pyast.expr) -> pyast.expr:
        if (
            isinstance(node, pyast.Call)
            and isinstance(node.func, pyast.Name)
            and node.func.id == self.each
            and len(node.args) == 2
            and not node.keywords
            and _plain_source(node.args[1])
            and not self.bound & {n.id for n in pyast.walk(node.args[1]) if isinstance(n, pyast.Name)}
        ):
            name = f"_src{len(self.sources)}"  # never a generated name: those end in _<n>
            self.sources.append((name, node.args[1]))
            return pyast.Name(name, pyast.Load())
        # only the parts evaluated whenever this node is: a branch, a later operand of and/or or of
        # a chained comparison, and a comprehension's element, test or inner loops are left alone
        if isinstance(node, pyast.IfExp):
            node.test = self.expr(node.test)
        elif isinstance(node, pyast.BoolOp):
            node.values[0] = self.expr(node.values[0])
        elif isinstance(node, pyast.Compare):
            node.left = self.expr(node.left)
            node.comparators[0] = self.expr(node.comparators[0])
        elif isinstance(node, (pyast.ListComp, pyast.GeneratorExp, pyast.SetComp)):
            node.generators[0].iter = self.expr(node.generators[0].iter)
        elif isinstance(node, pyast.Call):
            node.args = [self.expr(a) for a in node.args]
            if isinstance(node.func, pyast.Lambda):  # called at once: its body runs after its arguments
                saved = set(self.bound)
                self.bound |= {a.arg for a in node.func.args.args}
                node.func.body = self.expr(node.func.body)
                self.bound = saved
        elif isinstance(node, (pyast.BinOp, pyast.UnaryOp, pyast.Subscript, pyast.Tuple, pyast.List)):
            self.generic_visit(node)
        return node


def precharge(src: str, each: str) -> tuple[list[str], str, str]:
    """(statements reading the sources into locals, the expression using them, the units to add to
    the call's own charge: "" when there is nothing to move) for a function body `src`."""
    try:
        tree = pyast.parse(src, mode="eval")
    except SyntaxError:
        return [], src, ""
    hoist = _Hoist(each)
    tree.body = hoist.expr(tree.body)
    if not hoist.sources:
        return [], src, ""
    reads = [f"{name} = {pyast.unparse(node)}" for name, node in hoist.sources]
    charge = " + ".join(f"len({name})" for name, _ in hoist.sources)
    return reads, pyast.unparse(tree), charge
