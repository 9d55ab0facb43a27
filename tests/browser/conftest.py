"""Browser tests: `tabula serve` driven by Playwright in Debian's headless Chromium.

The tests need `/usr/bin/chromium` (`apt-get install -y chromium`; Playwright's own browser
download is not used) and skip, saying so, when it is absent. Each test serves a table in a thread
of the test process (uvicorn on a free port), so it can compare the page with the true game state.
Screenshots are written to `artefacts/screenshots/` (or `$TABULA_ARTEFACTS/screenshots/`); the
folder is not tracked by git.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tabula.interpreter.run.knowledge import hidden_from
from tabula.serve.access import Keys
from tabula.serve.app import create_app
from tabula.serve.model import GameSpec, SeatSpec
from tabula.serve.table import Table

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(os.environ.get("TABULA_ARTEFACTS", ROOT / "artefacts")) / "screenshots"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("browser tests need Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@dataclass
class Served:
    """A served table: its address and the keys of its links."""

    table: Table
    url: str
    keys: Keys

    def link(self, seat: int | None = None, token: str | None = None) -> str:
        """The host's link showing `seat` (or the link of `token`: a seat's, the spectators')."""
        shown = f"&seat={seat}" if seat is not None else ""
        return f"{self.url}#token={token or self.keys.host}{shown}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def serve() -> Iterator[Callable[..., Served]]:
    """serve(game, [(name, kind), ...], seed, variant=None, **options): a table served on a free
    local port."""
    import uvicorn

    servers: list[uvicorn.Server] = []

    def start(
        game: str, seats: list[tuple[str, str]], seed: int = 7, variant: str | None = None, **options: Any
    ) -> Served:
        spec = GameSpec(game, variant=variant, options=options)
        table = Table(spec, [SeatSpec(n, k) for n, k in seats], seed)
        port = _free_port()
        app = create_app(table)
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        server = uvicorn.Server(config)
        threading.Thread(target=server.run, daemon=True).start()
        deadline = time.monotonic() + 20
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        servers.append(server)
        return Served(table, f"http://127.0.0.1:{port}/", app.state.keys)

    yield start
    for server in servers:
        server.should_exit = True


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    pg.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    pg.errors = errors
    yield pg
    context.close()
    assert not [e for e in errors if "status of 400" not in e], errors


def shot(page: Any, name: str, full: bool = True) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full)
    return path


# ------------------------------------------------------------------ what a seat may see


def hidden_keys(table: Table, seat: int) -> set[str]:
    g = table.game
    return {g.components[c].key for c in hidden_from(g, table.state, seat)}


def only_hidden_names(table: Table, seat: int) -> set[str]:
    """Names every component of which is hidden from `seat` (so the name itself must not show)."""
    g = table.game
    hidden = set(hidden_from(g, table.state, seat))
    visible = {g.components[c].name for c in range(len(g.components)) if c not in hidden}
    return {g.components[c].name for c in hidden} - visible


def assert_no_hidden_in_json(text: str, table: Table, seat: int) -> None:
    for key in hidden_keys(table, seat):
        assert f'"{key}"' not in text, f"{key}, hidden from seat {seat}, was sent to it"


# keys each (table, seat) was shown at an earlier check: a card seen face up (a refill tile on its
# discard pile) and hidden again later (the pile shuffled back) is rightly named by the old log line
_ONCE_SEEN: dict[tuple[int, int], set[str]] = {}


def assert_page_shows_only_its_seat(page: Any, table: Table, seat: int) -> None:
    """No card on the page is hidden from `seat`, and no hidden card's key or lone name is in it
    (but the key of a card the seat was shown at an earlier check, which the log may name)."""
    keys = page.eval_on_selector_all(".card[data-key]", "els => els.map(e => e.dataset.key)")
    hidden = hidden_keys(table, seat)
    assert not set(keys) & hidden, f"cards hidden from seat {seat} on its page: {set(keys) & hidden}"
    seen = _ONCE_SEEN.setdefault((id(table), seat), set())
    seen |= {c.key for c in table.game.components} - hidden
    html = page.content()
    words = set(re.findall(r"[\w#-]+", html))
    for key in hidden - seen:
        if " " in key:  # a name of several words: look for it as it is
            assert not re.search(rf"(?<![\w#-]){re.escape(key)}(?![\w])", html), (
                f"{key} in the page of seat {seat}"
            )
        else:
            assert key not in words, f"{key} in the page of seat {seat}"
    # the board as it is now (the log tells of the past, when a card now hidden may have been seen)
    text = page.eval_on_selector_all("#left, #players", "els => els.map(e => e.innerText).join('\\n')")
    # the game's own words: its labels and the cards' printed texts (a Wall's text names the Bridge)
    labels = " ".join([*table.game.presentation.labels.values(), *(c.text for c in table.game.components)])
    words = set(re.findall(r"[\w-]+", text))
    for name in only_hidden_names(table, seat):
        if re.search(rf"\b{re.escape(name)}\b", labels):
            continue  # the name is also a word of the game's own (an action or a card's text names a card)
        if " " not in name and name not in words:
            continue
        found = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)
        assert not found, (
            f"'{name}' on the page of seat {seat}: ...{text[max(found.start() - 200, 0) : found.end() + 50]}"
        )
