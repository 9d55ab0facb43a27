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
from tabula.play.board import SPECTATOR, presentation_of
from tabula.play.tidy import readable_id

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
    window: dict[str, Any] | None = (  # the marks: where the cells of a board that grows lie
        {"dec": dict(plain["dec"]), "names": list(plain["names"]), "m": plain["m"]} if plain["dec"] else None
    )
    position = None  # the position before a window whose actions have labels to read on it
    if window is not None and window["dec"].get("k") == "window" and _labelled(engine, pres, window["dec"]):
        position = engine.clone(plain)
    start = len(log)
    engine.apply_inplace(state, choice, log)
    if look is not None and before is not None and len(log) > start:
        name_entry(engine, pres, look, before, engine.plain(state), log[start])
    elif window is not None and len(log) > start and window["dec"].get("k") != "choose":
        name_action(engine, pres, window, log[start], position)


def _labelled(engine: Engine, pres: Presentation, dec: dict[str, Any]) -> bool:
    """Whether an action of the window has labels to read on a position: the presentation's
    (`choices: [{action, label}]`) or the game's own (`label:`)."""
    acts = engine.game.action_list
    names = {acts[v[0]].name for v in dec.get("v") or []}
    return any(pres.action_look(n) is not None or engine.game.actions[n].label is not None for n in names)


def name_action(
    engine: Engine, pres: Presentation, before: dict[str, Any], entry: dict[str, Any], position: State | None
) -> None:
    """Give a window action's line (`Green: use_symbol:buy_black`) the choice's text for every seat
    that sees the line as it is: the label the presentation or the game gives the choice, read on
    that seat's seat states of the position before it (`position`), else the id made readable with
    the game's labels (`Green: use: buy black`)."""
    dec = before["dec"]
    who = before["names"][dec["p"]]
    idx = next((i for i, x in enumerate(dec.get("ids") or []) if entry.get("text") == f"{who}: {x}"), None)
    if idx is None:
        return
    cid = dec["ids"][idx]
    action, _, args = cid.partition(":")
    syms = symbols(engine.game)
    text = readable_id(engine.game, pres, syms, cid, before.get("m"))
    # a cell of a board that grows reads as its coordinates (`lay: x=2, y=-1`), not `lay:land7`
    plain = text != readable_id(engine.game, pres, syms, cid)
    plain = plain or any(name in pres.labels for name in (action, *args.split(",")))
    hidden = set(entry.get("hidden_from") or [])
    viewers = [q for q in range(len(before["names"])) if q not in hidden]
    if not hidden:
        viewers.append(SPECTATOR)
    seen = {}
    for q in viewers:
        label = _action_label(engine, pres, position, q, idx) if position is not None else ""
        if label or plain:
            seen[q] = f"{who}: {label or text}"
    if seen:  # else the game labels none of it: the id reads as well as any rewording of it
        entry["seen"] = seen


def _action_label(engine: Engine, pres: Presentation, position: State, viewer: int, idx: int) -> str:
    """Choice `idx` of the window in `position` as `viewer` reads it there: the presentation's label
    of the action's choices, else the action's own `label:`; empty when the seat may not know it."""
    states = seat_states(engine.game, position, viewer)
    # the arguments are those of the id, which the line shows the seat: read from the decision
    action, args = position["dec"]["v"][idx]
    act = engine.game.action_list[action]
    look = pres.action_look(act.name)
    if look is not None:
        local = {**dict(zip(act.param_names, args, strict=False)), "p": position["dec"]["p"]}
        shown = render(engine.game, look.label, states, local, labels=pres.labels)
        return shown.text.strip() if shown.known and not shown.error else ""
    dec = states[0]["dec"]  # the game's own label: read where the seat's states hold the choice
    if act.label is None or dec is None or len(dec.get("v") or []) <= idx:
        return ""
    found = [dict(engine.labels(st)).get(dec["ids"][idx], "") for st in states]
    return found[0] if found[0] and all(f == found[0] for f in found[1:]) else ""


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
