"""Jump threading in resumable effects (compile/machines.py): a piece that only one jump reaches,
and that no saved frame can resume at, is copied into that jump; the rest are left as they are."""

from __future__ import annotations

from tabula.interpreter.compile.effects import Lines
from tabula.interpreter.compile.machines import Machine, _threaded


def _pieces(*bodies: list[str]) -> list[Lines]:
    out = []
    for body in bodies:
        lines = Lines()
        for text in body:
            lines.add(0, text)
        out.append(lines)
    return out


def test_a_piece_reached_by_one_jump_is_copied_into_it_and_the_others_stay() -> None:
    pieces, inlined = _threaded(
        _pieces(
            ["x = 1", "if x: pc = 1; continue", "pc = 2; continue"],  # 1 and 2: one jump each
            ["y = 2", "pc = 3; continue"],
            ["fr[1] = 3; return 1"],  # 3 is where a saved frame resumes
            ["pc = 4; continue"],  # 4: two jumps (here and below)
            ["z = 3", "pc = 4; continue"],
        )
    )
    assert inlined == {1, 2}
    assert [t for t, _ in pieces[0]] == [
        "x = 1",
        "if x:",
        "    y = 2",
        "    pc = 3; continue",
        "fr[1] = 3; return 1",
    ]
    assert [t for t, _ in pieces[3]] == ["pc = 4; continue"]


def test_a_jump_after_a_compound_statement_is_not_taken_for_a_plain_one() -> None:
    pieces, inlined = _threaded(
        _pieces(["if n > 0: n -= 1; pc = 1; continue", "return None"], ["fr[1] = 1; return 1"])
    )
    assert inlined == set()
    assert [t for t, _ in pieces[0]] == ["if n > 0: n -= 1; pc = 1; continue", "return None"]


def test_the_copied_pieces_still_resume_from_a_saved_pc() -> None:
    m = Machine()
    m.add("L['a'] = 1")
    m.add("if L['go']: pc = 1; continue")
    m.add("return None")
    m.enter(m.label())
    m.add("L['a'] = 2")
    m.add("return None")
    text, _ = m.assemble("resume_t", ["L = fr[2]"])
    ns: dict[str, object] = {}
    exec(text, ns)
    run = ns["resume_t"]
    for go, pc, want in ((True, 0, 2), (False, 0, 1), (False, 1, 2)):
        fr = [0, pc, {"go": go}]
        assert run(None, fr) is None and fr[2]["a"] == want  # type: ignore[operator]
