"""Expressions to Python source: the expression compiler (one module per family of nodes: names and
calls, operators, functions, aggregates), the builtin registry, and the analyses and rewrites of
generated text (fragments, tree facts, lowering, precharging)."""
