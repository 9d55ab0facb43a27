"""The typed form: checked DSL lowered to typed statements and expressions (ir.py, lower.py) and the
parts of the language each module lowers."""
