"""Where a variant's or an expansion's file is: by name beside the game, or a path.

Kept apart from overlay.py (which validates and applies packs with the schema models) so that a
warm start, which only needs the files' paths for the compile cache's key, imports no pydantic."""

from __future__ import annotations

from pathlib import Path


def find_pack(game_folder: Path, ref: str, kind: str) -> Path | None:
    """A pack file from a name (looked up beside the game) or a path."""
    p = Path(ref)
    if p.is_file():
        return p
    folder = "variants" if kind == "variant" else "expansions"
    for candidate in (game_folder / folder / f"{ref}.yaml", game_folder / folder / ref / "pack.yaml"):
        if candidate.is_file():
            return candidate
    return None
