"""Images of a board's places (`image:` in `presentation.layout`), read at load from the game's folder.

An image is a file inside the game's folder, named relative to it (`images/gate.svg`): an absolute
path, a `..` or a link that leads outside the folder is an error (P015) and the file is never opened,
so no game file can make a screen show another file of the machine. A file that is missing, of
another type or too big is a warning (P016) and the place is drawn with its shape and colour. The
image travels as a `data:` address inside the board a page receives: no request names a path.
"""

from __future__ import annotations

import base64
from pathlib import Path

MAX_IMAGE_BYTES = 64 * 1024
TYPES = {
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}


class ImageError(Exception):
    """Why an image cannot be used: an error P015 (outside the folder) or a warning P016 (missing,
    type, size)."""

    def __init__(self, severity: str, code: str, message: str, hint: str) -> None:
        super().__init__(message)
        self.severity, self.code, self.hint = severity, code, hint


def inside(folder: Path, name: str) -> Path:
    """The file `name` names inside `folder`; ImageError P015 when it would be outside it."""
    rel = Path(name)
    if rel.is_absolute() or ".." in rel.parts or not name.strip():
        raise ImageError("error", "P015", f"'{name}' is not a file inside the game's folder", _INSIDE)
    root = folder.resolve()
    path = (root / rel).resolve()
    if not path.is_relative_to(root):
        raise ImageError("error", "P015", f"'{name}' leads outside the game's folder", _INSIDE)
    return path


def image_data(folder: Path, name: str) -> str:
    """The image as a `data:` address (see the module docstring); ImageError otherwise."""
    path = inside(folder, name)
    kind = TYPES.get(path.suffix.lower())
    if kind is None:
        raise ImageError(
            "warning", "P016", f"'{name}' is not an image this page draws", f"use one of {', '.join(TYPES)}"
        )
    if not path.is_file():
        raise ImageError(
            "warning", "P016", f"no image file '{name}' in the game's folder", "the place is drawn without it"
        )
    if path.stat().st_size > MAX_IMAGE_BYTES:
        raise ImageError(
            "warning",
            "P016",
            f"'{name}' is larger than {MAX_IMAGE_BYTES // 1024} KB",
            "make it smaller (an SVG, say)",
        )
    return f"data:{kind};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


_INSIDE = "name a file of the game's folder relative to it, e.g. images/gate.svg"
