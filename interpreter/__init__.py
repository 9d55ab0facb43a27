"""Tabula: a rules-as-data game interpreter (YAML game definitions + a small DSL)."""
