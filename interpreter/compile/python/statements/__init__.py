"""Statements (effects) to Python functions and resumable blocks: the effect compiler, one module per
family of statements (writes, moves, control, calls), and the generated state machines of effects
that can stop for a decision."""
