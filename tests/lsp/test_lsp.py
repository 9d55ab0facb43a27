"""`tabula lsp` driven over stdio with JSON-RPC, as an editor drives it, on a copy of High Card: the
diagnostics of an unsaved edit are `tabula check`'s, and go away when it is undone; completion,
hover, definition and references answer from the game's names."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from lspclient import Client

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # a server process and a check of the game: about two seconds a test
NO_PYGLS = "tabula lsp needs the lsp extra (pygls): pip install -e '.[lsp]'"
WRONG = "expr: c.rank * 4 + c.suit"  # '+' of a number and a symbol: T005
RIGHT = "expr: c.rank * 4 + suit_order[c.suit]"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "high-card"
    shutil.copytree(ROOT / "gamedefs" / "high-card", folder)
    return folder


@pytest.fixture
def client(game: Path) -> Iterator[Client]:
    if importlib.util.find_spec("pygls") is None:
        pytest.skip(NO_PYGLS)
    c = Client(game, "--delay", "0.05")
    c.initialize()
    yield c
    if c.process.poll() is None:
        c.process.kill()


def line_of(path: Path, text: str) -> int:
    """The 0-based line of `path` holding `text`."""
    return next(i for i, line in enumerate(path.read_text().splitlines()) if text in line)


def test_an_unsaved_type_error_is_reported_as_check_reports_it_and_cleared_when_fixed(
    game: Path, client: Client
) -> None:
    rules = game / "rules.yaml"
    original = rules.read_text()
    client.open(rules)
    seen, first = client.diagnostics(rules)
    assert first == []
    client.change(rules, original.replace(RIGHT, WRONG), 2)
    seen, found = client.diagnostics(rules, seen)
    assert rules.read_text() == original  # the edit stays in the editor
    rules.write_text(original.replace(RIGHT, WRONG))
    cli = subprocess.run(
        [sys.executable, "-m", "tabula", "check", str(game), "--json"], capture_output=True, text=True
    )
    rules.write_text(original)
    expected = json.loads(cli.stdout)["errors"]
    assert [
        (d["code"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1) for d in found
    ] == [(e["code"], e["line"], e["col"]) for e in expected]
    assert expected[0]["code"] == "T005" and found[0]["severity"] == 1
    assert found[0]["range"]["end"]["character"] + 1 == expected[0]["end_col"]
    client.change(rules, original, 3)
    _, fixed = client.diagnostics(rules, seen)
    assert fixed == []
    assert client.close() == 0


def test_completion_offers_declared_names_builtins_and_enum_values(game: Path, client: Client) -> None:
    rules = game / "rules.yaml"
    client.open(rules)
    line = line_of(rules, "move c to table")
    result = client.at("textDocument/completion", rules, line, len("      move c to "))
    items = {(i["label"], i.get("detail")) for i in result["items"]}
    assert ("hand", "zone") in items and ("tricks", "counter") in items and ("strength", "function") in items
    assert ("count", "count(L)") in items
    assert ("hearts", "value of enum suit") in items
    assert ("c", "a parameter or local name") in items  # the action's parameter
    after_dot = client.at(
        "textDocument/completion", rules, line_of(rules, "set c.played_by"), len("      set c.")
    )
    labels = {i["label"] for i in after_dot["items"]}
    assert {"played_by", "rank", "name"} <= labels and "hand" not in labels


def test_hover_shows_a_card_a_builtin_and_a_declaration(game: Path, client: Client) -> None:
    cards, flow = game / "cards.yaml", game / "flow.yaml"
    client.open(flow)
    h5 = client.at("textDocument/hover", cards, line_of(cards, "name: H5"), len("      - {name: H"))
    assert "**H5**" in h5["contents"]["value"] and "rank: 5" in h5["contents"]["value"]
    line = line_of(flow, "shuffle deck")
    shuffle_line = flow.read_text().splitlines()[line_of(flow, "let best = max(")]
    builtin = client.at(
        "textDocument/hover", flow, line_of(flow, "let best = max("), shuffle_line.index("max") + 1
    )
    assert "max" in builtin["contents"]["value"]
    deck = client.at("textDocument/hover", flow, line, len("    shuffle d"))
    assert "zone **deck**" in deck["contents"]["value"] and "visibility: hidden" in deck["contents"]["value"]


def test_definition_jumps_to_the_declaring_line(game: Path, client: Client) -> None:
    flow, table = game / "flow.yaml", game / "table.yaml"
    client.open(flow)
    found = client.at(
        "textDocument/definition", flow, line_of(flow, "move table to won"), len("      move ta")
    )
    assert found == [
        {
            "uri": table.as_uri(),
            "range": {
                "start": {"line": line_of(table, "table: {"), "character": 2},
                "end": {"line": line_of(table, "table: {"), "character": 7},
            },
        }
    ]
    # a YAML file broken while typing: its error is shown, and the names known before still answer
    seen, _ = client.diagnostics(flow)
    client.change(flow, flow.read_text() + "broken: [\n", 2)
    _, broken = client.diagnostics(flow, seen)
    assert [d["code"][0] for d in broken] == ["Y"]
    again = client.at(
        "textDocument/definition", flow, line_of(flow, "move table to won"), len("      move ta")
    )
    assert again == found


def test_references_finds_every_use_across_the_folder(game: Path, client: Client) -> None:
    rules = game / "rules.yaml"
    client.open(rules)
    line = line_of(rules, "  strength:")
    found = client.at("textDocument/references", rules, line, 4, context={"includeDeclaration": False})
    places = sorted((f["uri"].rsplit("/", 1)[1], f["range"]["start"]["line"]) for f in found)
    flow = game / "flow.yaml"
    uses = [i for i, text in enumerate(flow.read_text().splitlines()) if "strength(" in text]
    assert places == [("flow.yaml", i) for i in uses] and len(uses) == 2
    with_declaration = client.at(
        "textDocument/references", rules, line, 4, context={"includeDeclaration": True}
    )
    assert len(with_declaration) == 3


def test_without_pygls_the_command_says_how_to_install_it() -> None:
    # a None entry in sys.modules makes pygls unfindable, as when the extra is not installed
    code = (
        "import sys; sys.modules['pygls'] = None; from tabula.cli.main import main; sys.exit(main(['lsp']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert "pip install 'tabula[lsp]'" in done.stderr
