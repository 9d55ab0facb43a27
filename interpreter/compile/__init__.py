"""Stages check + compile: GameDef and DSL ASTs -> CompiledGame (closures and step blocks)."""
