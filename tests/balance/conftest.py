"""Shared by the balance tests: checking the PNG files that --plot writes."""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import pytest


def _assert_png(path: Path) -> None:
    """A real PNG image, larger than a thumbnail, that matplotlib reads back at its stated size."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 100 and height > 100
    import matplotlib.image

    assert matplotlib.image.imread(path).shape[:2] == (height, width)


@pytest.fixture
def assert_png() -> Callable[[Path], None]:
    return _assert_png
