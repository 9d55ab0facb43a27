"""The Tabula DSL grammar, shipped as package data.

`GRAMMAR_PATH` is the `.lark` file the parser (interpreter/dsl/parser.py) loads.
"""

from pathlib import Path

GRAMMAR_PATH = Path(__file__).with_name("tabula.lark")

__all__ = ["GRAMMAR_PATH"]
