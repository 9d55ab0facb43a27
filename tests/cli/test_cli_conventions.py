"""The command line's conventions (docs/cli.md): exit codes, `--json`, `tabula options`, typed option
values, validated numbers, clear pack mistakes, `coverage --variant`, the pack schema, editor globs
and action labels."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tabula.cli import main as cli
from tabula.interpreter.base import rng
from tabula.interpreter.base.source import Report
from tabula.interpreter.engine import Engine, load_game
from tabula.interpreter.load.yamlsource import load_yaml_file

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "games" / "mini"
HIGH_CARD = ROOT / "gamedefs" / "high-card"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`tabula ARGV` in this process: (exit code, stdout, stderr); argparse's exit is caught too."""
    try:
        code = cli.main(list(argv))
    except SystemExit as stop:
        code = int(stop.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def mini_with_variant(tmp_path: Path) -> Path:
    """Mini with a shipped variant (a bigger pile) and a scenario that holds only with it."""
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    (game / "variants").mkdir()
    (game / "variants" / "big.yaml").write_text("pack: big\nkind: variant\noptions: {target: 20}\n")
    (game / "scenarios" / "big-pile.yaml").write_text(
        "scenario: the pile is big\ngame: ../\nplayers: 2\nthen: [pile == 20]\n"
    )
    return game


# ------------------------------------------------------------------ exit codes


@pytest.mark.parametrize(
    "argv, message",
    [
        (["check"], "the following arguments are required: GAME"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["check", "no-such-game"], "no game folder or bundled game named 'no-such-game'"),
        (["check", str(MINI), "--option", "nope=1"], "unknown rules option 'nope'"),
        (["check", str(MINI), "--option", "target=many"], "option 'target' must be an integer"),
        (["check", "porta-nigra", "--with", "short-game"], "'short-game' is a variant of porta-nigra"),
        (["play", str(MINI), "--players", "7"], "Mini is for 2-3 players, not 7"),
        (["verify", "no/such/dir"], "no such file or folder: no/such/dir"),
        (["coverage", str(MINI), "--games", "-1"], "argument --games: must be at least 0, not -1"),
    ],
)
def test_a_bad_call_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2, out + err
    assert message in err and "Traceback" not in err


def test_an_author_error_exits_1_and_success_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    text = (MINI / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("gain n score(me)", "gain n scor(me)"))
    code, _, err = run(capsys, "check", str(game))
    assert code == 1 and "error[E112]" in err
    assert run(capsys, "check", str(MINI))[0] == 0


def test_exit_codes_are_documented() -> None:
    text = (ROOT / "docs" / "cli.md").read_text()
    for line in ("| 0 |", "| 1 |", "| 2 |", "| 70 |"):
        assert line in text
    assert "docs/cli.md" in (ROOT / "README.md").read_text()


# ------------------------------------------------------------------ --json


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(MINI), "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] is True and data["name"] == "Mini"
    assert (data["components"], data["zones"], data["actions"]) == (4, 3, 3)
    assert data["errors"] == [] and isinstance(data["warnings"], list)


def test_check_json_reports_errors_as_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    text = (MINI / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("pay n pile\n", "pay n pile +\n"))
    code, out, err = run(capsys, "check", str(game), "--json")
    data = json.loads(out)
    assert code == 1 and err == "" and data["ok"] is False
    [error] = data["errors"]
    assert (error["file"], error["line"], error["col"]) == (str(game / "game.yaml"), 38, 18)
    assert error["severity"] == "error" and error["code"].startswith("D")


def test_verify_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = f"scenario: takes two\ngame: {MINI}\nplayers: 2\nseed: 1\nwhen: [take:2]\nthen: [pile == 8]\n"
    (tmp_path / "good.yaml").write_text(good)
    (tmp_path / "bad.yaml").write_text(good.replace("takes two", "wrong").replace("pile == 8", "pile == 7"))
    code, out, _ = run(capsys, "verify", str(tmp_path / "good.yaml"), str(tmp_path / "bad.yaml"), "--json")
    data = json.loads(out)
    assert code == 1 and (data["passed"], data["failed"]) == (1, 1)
    by_name = {s["name"]: s for s in data["scenarios"]}
    assert by_name["takes two"]["passed"] and not by_name["wrong"]["passed"]
    assert any("pile == 7" in f for f in by_name["wrong"]["failures"])


def test_variants_and_options_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants", "porta-nigra", "--json")
    packs = {p["name"]: p for p in json.loads(out)}
    assert code == 0 and packs["short-game"]["kind"] == "variant"
    assert packs["honour-plus"]["kind"] == "expansion"
    code, out, _ = run(capsys, "options", "glory-to-rome", "--variant", "imperium", "--json")
    options = {o["name"]: o for o in json.loads(out)}
    assert options["petition_sizes"] == {
        "name": "petition_sizes",
        "type": "str",
        "default": "3",  # the variant's default
        "choices": ["2", "2,3", "3"],
        "description": options["petition_sizes"]["description"],
    }
    assert options["surrender_allowed"]["type"] == "bool"


def test_coverage_json_and_its_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = mini_with_variant(tmp_path)
    code, out, _ = run(capsys, "coverage", str(game), "--json")
    data = json.loads(out)
    failed = [{"name": "the pile is big", "file": str(game / "scenarios" / "big-pile.yaml")}]
    assert code == 1 and data["failed"] == failed
    code, out, _ = run(capsys, "coverage", str(game), "--variant", "big", "--json")
    data = json.loads(out)
    assert code == 0 and data["passed"] == data["scenarios"] == 2
    assert data["kinds"]["action"]["exercised"] >= 1 and data["kinds"]["phase"]["percent"] == 100.0


# ------------------------------------------------------------------ options


def test_options_lists_name_type_default_description(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "options", str(HIGH_CARD))
    assert code == 0
    assert out.splitlines() == [
        "name    type    default  description",
        "tricks  int >= 1  5        Number of tricks (at most 24 cards / number of players)",
    ] or re.match(r"name +type +default +description\ntricks +int >= 1 +5 +Number of tricks", out)


def test_option_values_from_the_command_line_are_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "check", str(HIGH_CARD), "--option", "tricks=true")
    assert code == 2 and "option 'tricks' must be an integer of at least 1, not the string 'true'" in err
    code, _, err = run(capsys, "check", str(HIGH_CARD), "--option", "tricks=-4")
    assert code == 2 and "not -4" in err
    game = tmp_path / "mini"
    shutil.copytree(MINI, game)
    options = 'options:\n  sizes: {default: "2", choices: ["2", "2,3"]}\n  loud: {default: false}\n'
    text = (MINI / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("options:\n", options))
    argv = ["options", str(game), "--option", "sizes=2,3", "--option", "loud=true", "--option", "target=7"]
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0 and {o["name"]: o["default"] for o in json.loads(out)} == {
        "sizes": "2,3",
        "loud": True,
        "target": 7,
    }
    code, _, err = run(capsys, "check", str(game), "--option", "loud=maybe")
    assert code == 2 and "must be true or false, not the string 'maybe'" in err


# ------------------------------------------------------------------ numbers


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", str(MINI), "--players", "0"], "argument --players: must be at least 1, not 0"),
        (["play", str(MINI), "--players", "-1"], "argument --players: must be at least 1, not -1"),
        (["play", str(MINI), "--seat", "-1"], "argument --seat: must be at least 0, not -1"),
        (["play", str(MINI), "--seed", "x"], "argument --seed: must be a whole number, not 'x'"),
        (["coverage", str(MINI), "--players", "0"], "argument --players: must be at least 1, not 0"),
        (
            ["trace", "record", str(MINI), "--players", "2", "--out", "x", "--max-decisions", "-1"],
            "argument --max-decisions: must be at least 1, not -1",
        ),
        (["trace", "check", "x.jsonl.gz", "--first", "0"], "argument --first: must be at least 1, not 0"),
    ],
)
def test_numbers_are_validated(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.splitlines()[-1].endswith(message)


# ------------------------------------------------------------------ packs


@pytest.mark.slow  # compiles variants and expansions of a big game
@pytest.mark.parametrize(
    "argv, message",
    [
        (["--variant", "honour-plus"], "'honour-plus' is an expansion of porta-nigra, not a variant"),
        (["--with", "short-game"], "'short-game' is a variant of porta-nigra, not an expansion"),
        (["--variant", "nofile.yaml"], "no pack file 'nofile.yaml'"),
        (["--with", "gamedefs/porta-nigra/variants/family.yaml"], "this pack is a variant, but it was given"),
    ],
)
def test_pack_mistakes_say_what_they_are(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], message: str
) -> None:
    monkeypatch.chdir(ROOT)
    code, _, err = run(capsys, "check", "porta-nigra", *argv)
    assert code == 2 and message in err
    assert "no variant named 'nofile.yaml'" not in err


def test_schema_pack(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", "pack")
    schema = json.loads(out)
    assert code == 0 and set(schema["properties"]) >= {"pack", "kind", "options", "add", "replace", "remove"}
    assert schema["properties"]["kind"]["enum"] == ["variant", "expansion"]


# ------------------------------------------------------------------ editors


def glob_regex(glob: str) -> re.Pattern[str]:
    """A VS Code glob (`**` any folders, `*` within a name) as a regex over paths relative to the root."""
    out = ""
    for part in re.split(r"(\*\*/|\*)", glob.removeprefix("./")):
        out += {"**/": "(?:[^/]+/)*", "*": "[^/]*"}.get(part, re.escape(part))
    return re.compile(out + "$")


SCHEMA_FILES = {
    "game": ["gamedefs/*/*.yaml", "tests/games/*/*.yaml"],
    "scenario": ["gamedefs/*/scenarios/**/*.yaml", "tests/games/*/scenarios/*.yaml"],
    "pack": ["gamedefs/*/variants/*.yaml", "gamedefs/*/expansions/*.yaml"],
}


def files_of(kind: str) -> list[Path]:
    return [f for pattern in SCHEMA_FILES[kind] for f in sorted(ROOT.glob(pattern))]


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param("game", marks=pytest.mark.slow),  # every file of the bundled games
        "pack",
        pytest.param("scenario", marks=pytest.mark.slow),  # 300 files to read
    ],
)
def test_every_file_validates_against_its_json_schema(capsys: pytest.CaptureFixture[str], kind: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    code, out, _ = run(capsys, "schema", kind)
    assert code == 0
    validator = jsonschema.Draft7Validator(json.loads(out))
    files = files_of(kind)
    assert len(files) >= 20
    for f in files:
        doc = load_yaml_file(f, Report())
        assert doc is not None
        errors = [e.message for e in validator.iter_errors(doc.data)]
        assert errors == [], f"{f.relative_to(ROOT)}: {errors[:3]}"


def test_the_editor_globs_map_every_file_to_its_one_schema() -> None:
    text = (ROOT / "docs" / "editors.md").read_text()
    block = re.search(r"```json\n(.*?)```", text, re.DOTALL)
    assert block is not None
    mapping = json.loads(block.group(1))["yaml.schemas"]
    kinds = {"game": "tabula-game", "scenario": "tabula-scenario", "pack": "tabula-pack"}
    globs = {k: [glob_regex(g) for s, gs in mapping.items() if v in s for g in gs] for k, v in kinds.items()}
    expected = {kind: files_of(kind) for kind in SCHEMA_FILES}
    assert any("scenarios/variants" in str(p) for p in expected["scenario"])
    for kind, files in expected.items():
        for f in files:
            rel = f.relative_to(ROOT).as_posix()
            matched = [k for k, patterns in globs.items() if any(p.match(rel) for p in patterns)]
            assert matched == [kind], f"{rel} is matched by {matched}, not by the {kind} schema alone"


# ------------------------------------------------------------------ labels


def test_the_label_key_is_documented() -> None:
    text = (ROOT / "docs" / "language.md").read_text()
    assert re.search(r"`label:?`", text) and "{" in text[text.index("label") :]


def test_glory_to_rome_actions_have_labels_that_read_in_the_games_words() -> None:
    game = load_game("glory-to-rome")
    assert all(a.label is not None for a in game.actions.values()), "every action has a label"
    engine = Engine(game)
    st = engine.new_game(3, seed=4)
    gen = rng.seed_state(4)
    seen: dict[str, str] = {}
    for _ in range(150):
        if st["dec"] is None:
            break
        seen.update(engine.labels(st))
        engine.apply_inplace(st, rng.below(gen, len(st["dec"]["ids"])))
    petition = [label for cid, label in seen.items() if cid.startswith("lead_petition:")]
    pattern = re.compile(r"lead \w+ by petition, starting with [A-Z][\w ]+")
    assert petition and all(pattern.fullmatch(p) for p in petition)
    assert seen.get("think") == "think"


def test_trace_record_keeps_typed_option_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "traces"
    argv = ["trace", "record", "high-card", "--players", "2", "--games", "2", "--option", "tricks=3"]
    assert run(capsys, *argv, "--out", str(out))[0] == 0
    [path] = out.glob("*.jsonl.gz")
    assert path.name == "high-card_tricks-3_2p.jsonl.gz"  # the number 3, read as the option's type
    code, text, _ = run(capsys, "trace", "check", str(path))
    assert code == 0 and "2 games replayed, ok" in text
