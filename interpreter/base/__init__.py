"""The base of every stage: positions and diagnostics, documented limits, static types, the random
generator. Imports the standard library only."""
