"""`tabula lsp`: the Language Server Protocol server on stdin and stdout (docs/editors.md).

pygls is an optional extra (`pip install 'tabula[lsp]'`): without it the command says how to
install it and exits 2. Its arguments are defined here, without importing pygls, so that
`tabula lsp --help` works either way.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys

INSTALL = "tabula lsp needs pygls: pip install 'tabula[lsp]' (or pip install -e '.[lsp]' in a checkout)"


def lsp_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--delay",
        type=float,
        default=0.3,
        metavar="SECONDS",
        help="wait this long after the last change before checking (default 0.3)",
    )


def run_lsp(args: argparse.Namespace) -> int:
    """Serve until the editor says exit."""
    if importlib.util.find_spec("pygls") is None:
        print(INSTALL, file=sys.stderr)
        return 2
    from tabula import __version__
    from tabula.lsp.server import make_server

    make_server(__version__, max(args.delay, 0.0)).start_io()
    return 0
