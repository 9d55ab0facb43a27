"""The checks behind the server's diagnostics, in process: an open pack is checked applied to the game,
an open scenario file as `tabula verify` reads it, and a file's text given in place of the disk's."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tabula.lsp.folder import Memo, check_folder, place_of

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # each test checks High Card two or three times
PACK = """pack: broken
kind: variant
description: a variant with a mistake
game: high-card
replace:
  functions.tricks_to_play.expr: min(option(tricks), count(cards) // num_players)
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "high-card"
    shutil.copytree(ROOT / "gamedefs" / "high-card", folder)
    return folder


def test_files_belong_to_their_game_folder_by_kind(game: Path) -> None:
    assert place_of(game / "rules.yaml") == (game, "game")
    assert place_of(game / "scenarios" / "sub" / "x.yaml") == (game, "scenario")
    assert place_of(game / "README.md") is None
    assert place_of(game.parent / "other.yaml") is None  # a YAML file of no game: left alone
    assert place_of(game / "variants" / "x.yaml") == (game, "variant")


def test_an_open_pack_gets_the_diagnostics_check_gives_with_it(game: Path) -> None:
    pack = game / "variants" / "broken.yaml"
    pack.parent.mkdir()
    pack.write_text("pack: broken\nkind: variant\ngame: high-card\n")  # on disk: harmless
    found = check_folder(game, {pack: PACK}, [pack], Memo()).diagnostics
    pack.write_text(PACK)
    cli = subprocess.run(
        [sys.executable, "-m", "tabula", "check", str(game), "--variant", str(pack), "--json"],
        capture_output=True,
        text=True,
    )
    expected = json.loads(cli.stdout)["errors"]
    assert expected and all(Path(e["file"]) == pack for e in expected)
    got = [(d.code, d.span.line, d.span.col) for d in found[pack.absolute()] if d.span is not None]
    assert got == [(e["code"], e["line"], e["col"]) for e in expected]
    assert list(found) == [pack.absolute()]  # the game's own files are clean


def test_an_open_scenario_file_is_read_as_verify_reads_it(game: Path) -> None:
    scenario = game / "scenarios" / "deal-size.yaml"
    text = scenario.read_text().replace("seed: 5", "seed: 5\nsede: 6")
    found = check_folder(game, {scenario: text}, [scenario], Memo()).diagnostics
    codes = [(d.code, d.span.line) for d in found[scenario.absolute()] if d.span is not None]
    line = text.splitlines().index("sede: 6") + 1
    assert codes and codes[0][1] == line
    assert check_folder(game, {}, [scenario], Memo()).diagnostics == {}
