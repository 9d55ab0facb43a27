"""The contract between compile and run: the compiled game, the state as plain data, choice ids and
per-player views. Imports base and load (the option specs a game carries)."""
