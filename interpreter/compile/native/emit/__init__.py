"""The C text of a game: the generator (cgen.py, statements.py, units.py) and the fixed runtime
parts it writes."""
