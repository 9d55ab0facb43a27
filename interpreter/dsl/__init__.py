"""The DSL stage: grammar -> Lark tree -> frozen AST with positions."""
