"""The pieces of a resumable effect (compile/machines.py): a piece only one jump goes to is written
in place of that jump, and every piece keeps its own place, so a frame resumes at any pc as before."""

from __future__ import annotations

from typing import Any

from tabula.interpreter.compile.python.statements.machines import Machine, jump


def _machine() -> Machine:
    m = Machine()
    m.add("L['a'] = 1")
    m.add("if L['go']:")
    m.add(jump(1), depth=1)
    m.add(jump(2))
    m.enter(m.label())  # 1: only the jump above goes here
    m.add("L['a'] = 2")
    m.add(jump(3))
    m.enter(m.label())  # 2: only the jump above goes here
    m.add("L['a'] = 3")
    m.add(jump(3))
    m.enter(m.label())  # 3: two jumps go here
    m.add("L['b'] = L['a']")
    m.add("return None")
    return m


def _run(text: str, pc: int, go: bool) -> dict[str, Any]:
    ns: dict[str, Any] = {}
    exec(text, ns)
    fr = [0, pc, {"go": go, "a": 0}]
    assert ns["resume_t"](None, fr) is None
    return fr[2]  # type: ignore[return-value]


def test_a_piece_one_jump_goes_to_is_written_in_its_place() -> None:
    text, _ = _machine().assemble("resume_t", ["L = fr[2]"])
    first = text[text.index("pc == 0:") : text.index("pc == 1:")]
    assert "L['a'] = 2" in first and "L['a'] = 3" in first  # 1 and 2 written in place
    assert "L['b'] = L['a']" not in first  # 3 has two jumps: a jump stays


def test_every_pc_still_resumes_where_it_did() -> None:
    text, _ = _machine().assemble("resume_t", ["L = fr[2]"])
    assert _run(text, 0, True) == {"go": True, "a": 2, "b": 2}
    assert _run(text, 0, False) == {"go": False, "a": 3, "b": 3}
    assert _run(text, 1, False) == {"go": False, "a": 2, "b": 2}
    assert _run(text, 2, True) == {"go": True, "a": 3, "b": 3}
    assert _run(text, 3, True) == {"go": True, "a": 0, "b": 0}
