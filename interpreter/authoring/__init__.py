"""Tools for a designer over a compiled game: why an action is not legal now, the presentation
section and its evaluation for one seat."""
