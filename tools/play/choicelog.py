"""Log lines that name a choice as the decision showed it (`Red: Quarter 2 · Basilica`, not `Red: 1`).

The engine writes a `choose` decision's log line with the choice's id (`Red: 1`): it cannot see the
presentation. `apply_named` applies a choice like `Engine.apply_inplace` and, when the decision's
prompt has a label in `presentation.choices`, gives that line one text per seat (`seen`, read by
`visible_log`): the label rendered on that seat's seat states before the choice (or, for a seat that
learns the choice only once it is carried out, after it). A seat the line is hidden from keeps its
masked line; a label with a part the seat may not know keeps the id; the spectators get a label only
when every seat sees the choice. So the label shows nothing a seat could not see on its own board.
"""

from __future__ import annotations

from typing import Any

from tabula.interpreter.authoring.display import render, symbols
from tabula.interpreter.authoring.presentation import ChoiceLook, Presentation
from tabula.interpreter.engine import Engine
from tabula.interpreter.model.state import State
from tabula.interpreter.run.knowledge import seat_states
from tabula.play.board import SPECTATOR, presentation_of, readable_id

Log = list[dict[str, Any]]


def choice_look(pres: Presentation, dec: dict[str, Any] | None) -> ChoiceLook | None:
    """The `presentation.choices` entry whose prompt starts the prompt of a `choose` decision."""
    if dec is None or dec.get("k") != "choose":
        return None
    prompt = str(dec.get("prompt", ""))
    return next((c for c in pres.choices if c.matches(prompt)), None)


def apply_named(engine: Engine, state: State, choice: str | int, log: Log) -> None:
    """`engine.apply_inplace(state, choice, log)`; the choice's log line then names what was chosen
    with the game's label, for each seat as that seat may see it."""
    pres = presentation_of(engine.game)
    plain = engine.plain(state)
    look = choice_look(pres, plain["dec"]) if pres.choices else None
    before = engine.clone(plain) if look is not None else None
    window: dict[str, Any] | None = (
        {"dec": dict(plain["dec"]), "names": list(plain["names"])} if plain["dec"] else None
    )
    start = len(log)
    engine.apply_inplace(state, choice, log)
    if look is not None and before is not None and len(log) > start:
        name_entry(engine, pres, look, before, engine.plain(state), log[start])
    elif window is not None and len(log) > start and window["dec"].get("k") != "choose":
        name_action(engine, pres, window, log[start])


def name_action(engine: Engine, pres: Presentation, before: dict[str, Any], entry: dict[str, Any]) -> None:
    """Give a window action's line (`Green: use_symbol:buy_black`) the id made readable with the
    game's labels (`Green: use: buy black`) for every seat that sees the line as it is."""
    dec = before["dec"]
    who = before["names"][dec["p"]]
    cid = next((x for x in dec.get("ids") or [] if entry.get("text") == f"{who}: {x}"), None)
    if cid is None:
        return
    action, _, args = cid.partition(":")
    if not any(name in pres.labels for name in (action, *args.split(","))):
        return  # the game labels none of it: the id reads as well as any rewording of it
    text = readable_id(engine.game, pres, symbols(engine.game), cid)
    hidden = set(entry.get("hidden_from") or [])
    viewers = [q for q in range(len(before["names"])) if q not in hidden]
    if not hidden:
        viewers.append(SPECTATOR)
    entry["seen"] = {q: f"{who}: {text}" for q in viewers}


def name_entry(
    engine: Engine, pres: Presentation, look: ChoiceLook, before: State, after: State, entry: dict[str, Any]
) -> None:
    """Give `entry` (the line `who: id` of the decision in `before`) its per-seat texts."""
    dec = before["dec"]
    who = before["names"][dec["p"]]
    ids: list[str] = dec["ids"]
    idx = next((i for i, x in enumerate(ids) if entry.get("text") == f"{who}: {x}"), None)
    if idx is None:
        return
    local = {"choice": dec["v"][idx], "p": dec["p"]}
    hidden = set(entry.get("hidden_from") or [])
    seen: dict[int, str] = {}
    viewers = [q for q in range(len(before["names"])) if q not in hidden]
    if not hidden:
        viewers.append(SPECTATOR)
    for q in viewers:
        label = _label(engine, pres, look, (before, after), q, local)
        if label:
            seen[q] = f"{who}: {label}"
    if seen:
        entry["seen"] = seen


def _label(
    engine: Engine,
    pres: Presentation,
    look: ChoiceLook,
    positions: tuple[State, State],
    viewer: int,
    local: dict[str, Any],
) -> str:
    """The label on `viewer`'s seat states of the first position where the seat knows all of it."""
    if local["choice"] is None and look.none:
        return look.none
    for st in positions:
        shown = render(
            engine.game, look.label, seat_states(engine.game, st, viewer), local, labels=pres.labels
        )
        if shown.known and not shown.error and shown.text.strip():
            return shown.text.strip()
    return ""
