"""Support functions that generated effect code calls: moving components, logging, writes that fail.

Stage: run. Generated code (see effects.py) carries out simple statements inline — counter and var
writes, `let`, control flow — and calls these for the rest. Each is a plain module-level function,
so a cached game rebuilds its namespace by name (module.py `helper`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tabula.interpreter.base import rng
from tabula.interpreter.base.types import a
from tabula.interpreter.model.choices import option_ids, value_id
from tabula.interpreter.model.view import secret_sizes, seen_by, size_seen
from tabula.interpreter.run import boards
from tabula.interpreter.run.budget import number
from tabula.interpreter.run.pyerrors import dsl_text, typed
from tabula.interpreter.run.runtime import GameEnded, GameRuntimeError, Runtime


def zone_label(rt: Runtime, zone: int) -> str:
    """A zone instance in the game's words: `hand(Ann)` or `market`."""
    if zone < 0:
        return "out of play"
    owner = rt.g.zone_owner[zone]
    return rt.g.zone_layouts[zone].ref(rt.st["names"][owner] if owner is not None else None)


def log_moves(rt: Runtime, cids: list[int], src: list[int], dest: int) -> None:
    """Log lines for moves; a component nobody may see on either side reads as 'a hidden <type>'."""
    from tabula.interpreter.model.view import visible_to

    comps = rt.g.components
    n = rt.st["t"]["n"]
    sizes = secret_sizes(rt.g)
    if len(cids) > 5:  # one line, naming every zone they came from (in order)
        froms = ", ".join(zone_label(rt, z) for z in dict.fromkeys(src))
        blind = _size_blind(rt, [*src, dest], range(n)) if sizes else []
        rt.say(f"{len(cids)} components: {froms} -> {zone_label(rt, dest)}", blind)
        return
    for cid, old in zip(cids, src, strict=True):
        after = [q for q in range(n) if visible_to(rt.g, rt.st, cid, q)]
        rt.st["loc"][cid] = old  # look at where it was, to know who saw it there
        before = [q for q in range(n) if visible_to(rt.g, rt.st, cid, q)]
        rt.st["loc"][cid] = dest
        hidden = [q for q in range(n) if q not in after and q not in before]
        route = f"{zone_label(rt, old)} -> {zone_label(rt, dest)}"
        redacted = f"a hidden {comps[cid].type}: {route}"
        blind = _size_blind(rt, [old, dest], range(n)) if sizes else []
        if not blind:
            rt.say(f"{comps[cid].name}: {route}", hidden, redacted)
        elif rt.log is not None:  # a line counting into or out of a secret size: not for those blind to it
            seen = {q: redacted for q in hidden if q not in blind}
            rt.log.append({"text": f"{comps[cid].name}: {route}", "hidden_from": blind, "redacted": ""})
            rt.log[-1] |= {"seen": seen} if seen else {}


def _size_blind(rt: Runtime, zones: list[int], players: Iterable[int]) -> list[int]:
    """The players who may not know the size of one of these zone instances (out of play: known)."""
    return [q for q in players if any(z >= 0 and not size_seen(rt.g, z, q) for z in zones)]


def move_component(rt: Runtime, cid: int, dest: int, top: bool) -> None:
    """Move one component to zone instance `dest` (front when `top`)."""
    st = rt.st
    loc = st["loc"]
    old = loc[cid]
    if old >= 0:
        st["z"][old].remove(cid)
    if top:
        st["z"][dest].insert(0, cid)
    else:
        st["z"][dest].append(cid)
    loc[cid] = dest
    lay = rt.g.zone_layouts[dest]
    if st["rv"][cid] and old != dest and lay.visibility != "public":
        st["rv"][cid] = 0
    if lay.max is not None and len(st["z"][dest]) > lay.max:
        raise over_max(rt, dest)
    if rt.g.boards.growing and dest in rt.g.boards.growing:
        boards.grow(rt, dest)


def over_max(rt: Runtime, dest: int) -> GameRuntimeError:
    """R016: a move would put more components in a zone than its `max:` allows."""
    cap = rt.g.zone_layouts[dest].max
    return GameRuntimeError(
        f"{zone_label(rt, dest)} may hold at most {cap} (max: {cap}), and this move puts "
        f"{len(rt.st['z'][dest])} there",
        None,
        "R016",
    )


def move(rt: Runtime, v: Any, dest: int, many: bool, top: bool) -> None:
    """`move X to Z [top]`: X a component, a list of components, or (when `many`) a zone's contents."""
    if v is None:
        return
    if isinstance(v, int) and not isinstance(v, bool):
        items = [v] if not many else list(rt.st["z"][v])
    else:
        items = list(v)
    if top:
        items.reverse()
    st = rt.st
    loc = st["loc"]
    src = [loc[c] for c in items] if rt.log is not None else []
    zones = st["z"]
    rv = st["rv"]
    for cid in items:  # move_component, written out
        old = loc[cid]
        if old >= 0:
            zones[old].remove(cid)
        if top:
            zones[dest].insert(0, cid)
        else:
            zones[dest].append(cid)
        loc[cid] = dest
        if rv[cid] and old != dest and rt.g.zone_layouts[dest].visibility != "public":
            rv[cid] = 0
    cap = rt.g.zone_layouts[dest].max
    if cap is not None and len(zones[dest]) > cap:
        raise over_max(rt, dest)
    if items and rt.g.boards.growing and dest in rt.g.boards.growing:
        boards.grow(rt, dest)
    if rt.log is not None and items:
        log_moves(rt, items, src, dest)


def move_one(rt: Runtime, cid: Any, dest: int, top: bool) -> None:
    """`move X to Z` for X statically a component (or none)."""
    if cid is None:
        return
    if not isinstance(cid, int) or isinstance(cid, bool):
        move(rt, cid, dest, False, top)
        return
    if rt.log is None:
        move_component(rt, cid, dest, top)
        return
    old = rt.st["loc"][cid]
    move_component(rt, cid, dest, top)
    log_moves(rt, [cid], [old], dest)


def draw(rt: Runtime, src: int, dst: int, n: int) -> None:
    """`draw N from A to B`: the first N components of A (fewer when it runs out)."""
    zone = rt.st["z"][src]
    moved: list[int] = []
    for _ in range(max(n, 0)):
        if not zone:
            break
        moved.append(zone[0])
        move_component(rt, zone[0], dst, False)
    if rt.log is not None and moved:
        log_moves(rt, moved, [src] * len(moved), dst)


def shuffle(rt: Runtime, zone: int) -> None:
    if "rig" in rt.st:  # a scenario fixed this zone's order after its next shuffle (rig.py)
        from tabula.interpreter.run import rig

        rig.shuffle(rt.g, rt.st, zone)
    else:
        rng.shuffle(rt.st["rng"], rt.st["z"][zone])
    if rt.log is not None:
        rt.say(f"shuffle {zone_label(rt, zone)}")


def reveal(rt: Runtime, v: Any, value: int) -> None:
    items = [v] if isinstance(v, int) else list(v or [])
    rv = rt.st["rv"]
    for cid in items:
        rv[cid] = value
    if "ru" in rt.st:
        _for_good(rt, items)


def _for_good(rt: Runtime, cids: list[int]) -> None:
    """A `reveal`, `reveal ... to` or `conceal` without `until` of these components: the ends of
    their earlier grants (`ru`) are dropped (what it shows now is shown for good)."""
    rest = [e for e in rt.st["ru"] if e[1] not in cids]
    if rest:
        rt.st["ru"] = rest
    else:
        del rt.st["ru"]


def _grant_bits(rt: Runtime, to: Any, words: str) -> int:
    """The `rv` bits of these players (a player or a list: bit p + 1), R008 for a value that is not."""
    who = to if isinstance(to, list) else [to]
    n = rt.st["t"]["n"]
    for p in who:
        if type(p) is not int or not 0 <= p < n:
            raise GameRuntimeError(f"{words} needs players of the game, got {to!r}", None, "R008")
    return sum(1 << (p + 1) for p in set(who))


def reveal_to(rt: Runtime, v: Any, to: Any) -> None:
    """`reveal X to P`: X is shown to these players (a grant, bit p + 1 of `rv`; 1 is everyone),
    until X moves into a zone that is not public or is concealed (model/view.py `visible_to`)."""
    grant = _grant_bits(rt, to, "'reveal ... to'")
    rv = rt.st["rv"]
    items = [v] if isinstance(v, int) else list(v or [])
    for cid in items:
        if rv[cid] != 1:  # revealed to everyone already
            rv[cid] |= grant
    if "ru" in rt.st:
        _for_good(rt, items)


def reveal_until(rt: Runtime, v: Any, to: Any, event: str) -> None:
    """`reveal X [to P] until EVENT`: the grant (to everyone when `to` is None), and its end kept in
    the state: `ru` holds [EVENT, component, grant bits] until `end_grants` runs for EVENT. The key
    is made by the first such grant, so a game without one keeps its states."""
    if to is None:
        reveal(rt, v, 1)
        bits = 1
    else:
        reveal_to(rt, v, to)
        bits = _grant_bits(rt, to, "'reveal ... to'")
    ends = rt.st.setdefault("ru", [])
    ends.extend([event, cid, bits] for cid in ([v] if isinstance(v, int) else list(v or [])))


def end_grants(rt: Runtime, event: str) -> None:
    """EVENT was emitted (or its moment of the flow passed: `turn_end`, `round_end`): every grant
    given `until` it ends (a grant to everyone: the component is concealed, unless a later
    `reveal` showed it to everyone for good)."""
    ends = rt.st["ru"]
    rv = rt.st["rv"]
    for ev, cid, bits in ends:
        if ev != event:
            continue
        if bits == 1:
            rv[cid] = 0 if rv[cid] == 1 else rv[cid]
        elif rv[cid] != 1:
            rv[cid] = (rv[cid] | bits) ^ bits
    rest = [e for e in ends if e[0] != event]
    if rest:
        rt.st["ru"] = rest
    else:
        del rt.st["ru"]


def hide_from(rt: Runtime, v: Any, who: Any) -> None:
    """`hide X from P`: what `reveal` showed these players of X is shown to them no more; X revealed
    to everyone stays shown to the other players of the game only. Their zone's visibility is
    unchanged (a card in a zone P sees stays seen by P)."""
    bits = _grant_bits(rt, who, "'hide ... from'")
    everyone = sum(1 << (p + 1) for p in range(rt.st["t"]["n"]))
    rv = rt.st["rv"]
    for cid in [v] if isinstance(v, int) else list(v or []):
        rv[cid] = ((everyone if rv[cid] == 1 else rv[cid]) | bits) ^ bits


def template(rt: Runtime, parts: list[Any], values: list[Any]) -> str:
    """A template's text: literal parts, and each `{expr}` value shown by name (its type in `parts`)."""
    out = []
    it = iter(values)
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        else:
            out.append(value_id(rt.g, rt.st["names"], next(it), p[0]).replace("+", ", "))
    return "".join(out)


def watched(rt: Runtime, event: str, me: Any, base: dict[str, Any]) -> None:
    """An event nothing triggers on, shown to the run's watcher (scenario `check ... at:`)."""
    if "me" not in base:
        base["me"] = me if me is not None else rt.st["t"]["active"]
    rt.watch(event, base)  # type: ignore[misc]


def render_template(rt: Runtime, parts: list[Any]) -> str:
    """A template of literal parts and (closure, type) pairs, as text now (action labels)."""
    out = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        else:
            f, t = p
            out.append(value_id(rt.g, rt.st["names"], f(rt), t).replace("+", ", "))
    return "".join(out)


def say(
    rt: Runtime, parts: list[Any], values: list[Any], secrets: list[list[tuple[str, Any]]] | None = None
) -> None:
    """A `log` line. With `secrets` (per value, the counters and vars that are not public it reads:
    visibility and owner), the players who may not see one of them read it with those values as `?`."""
    text = template(rt, parts, values)
    if not secrets:
        rt.say(text)
        return
    players = range(rt.st["t"]["n"])
    blind = [
        q for q in players if any(not seen_by(rt.g, rt.st, v, o, q) for reads in secrets for v, o in reads)
    ]
    if not blind:
        rt.say(text)
        return
    rt.say(text, blind, _redacted(rt, parts, values, secrets))


def _redacted(rt: Runtime, parts: list[Any], values: list[Any], secrets: list[list[tuple[str, Any]]]) -> str:
    """The line with every value that reads a secret counter or var written `?`."""
    out = []
    it = iter(zip(values, secrets, strict=True))
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        else:
            value, reads = next(it)
            out.append("?" if reads else value_id(rt.g, rt.st["names"], value, p[0]).replace("+", ", "))
    return "".join(out)


def write_failure(what: str, op: str, old: Any, v: Any, lo: int | None, hi: int | None) -> None:
    """Called by generated writes whose checks failed: raises, the runtime adds the statement's
    location (returns only for a sum that is merely large: the write goes on)."""
    if type(v) is not int:
        raise GameRuntimeError(f"the amount must be a number, got {dsl_text(v)}", None, "R004")
    if v < 0 and op in ("gain", "pay"):
        raise GameRuntimeError(f"cannot {op} a negative amount ({v}) of {what}", None, "R009")
    new = old + v if op in ("+=", "gain") else old - v
    if lo is not None and new < lo:
        raise GameRuntimeError(
            f"{what} would fall to {new} (it holds {old}); below its minimum {lo}", None, "R009"
        )
    if hi is not None and new > hi:
        raise GameRuntimeError(
            f"{what} would rise to {new} (it holds {old}); above its maximum {hi}", None, "R009"
        )
    number(None, new)  # only large: at most MAX_NUMBER_DIGITS digits (R003), else written


def fits(rt: Runtime, v: Any, want: str) -> bool:
    """Whether value `v` is of DSL type `want` in this game (none fits every var, not a list item)."""
    if want.startswith("list["):
        inner = want[5:-1]
        return v.__class__ is list and all(x is not None and fits(rt, x, inner) for x in v)
    if want == "player":
        return v.__class__ is int and 0 <= v < rt.st["t"]["n"]
    if want == "comp":
        return v.__class__ is int and 0 <= v < len(rt.g.components)
    return want == "any" or v.__class__ is _CLASSES[want]


_CLASSES = {"int": int, "bool": bool, "str": str}


def store_checked(rt: Runtime, v: Any, want: str, what: str) -> Any:
    """`v`, to be stored in var `what` declared of type `want`; raises (R010, at the `set`) when it
    is not of that type, so a wrong value is found where it is written, not where it is next read."""
    if v is None or fits(rt, v, want):
        return v
    raise GameRuntimeError(f"set {what}: {dsl_text(v)} is not {a(want)}", None, "R010")


def number_checked(v: Any, what: str) -> Any:
    """`v`, to be set into a counter (`what`): raises (R010, at the `set`) unless it is a number."""
    if v.__class__ is int:
        return v
    raise GameRuntimeError(f"set {what}: {dsl_text(v)} is not a number", None, "R010")


def end_game() -> None:
    raise GameEnded()


def declare_winner(rt: Runtime, v: Any) -> None:
    """`declare_winner P` / `declare_winner [P, Q]`: the game ends with these winners."""
    who = sorted(v) if isinstance(v, list) else [v]
    n = rt.st["t"]["n"]
    for p in who:
        if type(p) is not int or not 0 <= p < n:
            raise GameRuntimeError(
                f"declare_winner needs a player of the game (0 to {n - 1}) or a list of them, got {typed(v)}",
                None,
                "R008",
            )
    raise GameEnded(who)


def ending(rt: Runtime, mode: str) -> None:
    """Appended to an end check's effect: records how the game will end."""
    if mode == "immediately":
        raise GameEnded()
    t = rt.st["t"]
    if t["ending"] is None:
        t["ending"] = mode
        t["trigger"] = t["active"]
        rt.memo.clear()


def choose(
    rt: Runtime, values: Any, optional: bool, t: str, by: Any, parts: list[Any], shown: list[Any], var: str
) -> None:
    """`choose var from L [by P] [prompt "..."] [optional]`: the pending decision, one id per value
    (a repeated id keeps its first value)."""
    if by.__class__ is not int or not 0 <= by < rt.st["t"]["n"]:
        raise GameRuntimeError(f"'choose ... by' needs a player of the game, got {typed(by)}", None, "R008")
    values = list(values)
    if optional:
        values.append(None)
    if not values:
        raise GameRuntimeError(
            "this choice has no options (guard the action or effect with a condition)", None, "R011"
        )
    ids = option_ids(rt.g, rt.st["names"], values, t)
    if len(set(ids)) != len(ids):
        seen: dict[str, int] = {}
        for i, x in enumerate(ids):
            seen.setdefault(x, i)
        keep = sorted(seen.values())
        values = [values[i] for i in keep]
        ids = [ids[i] for i in keep]
    rt.st["dec"] = {
        "t": t,
        "k": "choose",
        "p": by,
        "ids": ids,
        "v": values,
        "var": var,
        "prompt": template(rt, parts, shown),
    }


def repeat_count(n: Any) -> int:
    """`repeat N:`'s count: a number (R004 otherwise; true/false is no number)."""
    if n.__class__ is not int:
        raise GameRuntimeError(f"repeat needs a number, got {typed(n)}", None, "R004")
    return int(n)


def over_budget(rt: Runtime) -> None:
    from tabula.interpreter.run.runtime import over_budget as raise_over

    raise_over()


def add_single(
    rt: Runtime, ids: list[str], values: list[Any], prefix: str, ai: int, items: list[Any], t: str
) -> None:
    """Append a window's choices for an action of one parameter (`prefix` is "action:"), given the
    legal values themselves: the common case, without a list per combination to build and take apart."""
    ids.extend(map(prefix.__add__, option_ids(rt.g, rt.st["names"], items, t)))
    values.extend([[ai, [v]] for v in items])


def add_options(
    rt: Runtime,
    ids: list[str],
    values: list[Any],
    name: str,
    ai: int,
    legal: list[list[Any]],
    types: list[str],
) -> None:
    """Append a window's choices for one action: ids per parameter column, so that repeated component
    names get unique keys (Road#2)."""
    g = rt.g
    names = rt.st["names"]
    if len(types) == 1:
        column = option_ids(g, names, [combo[0] for combo in legal], types[0])
        ids.extend(map((name + ":").__add__, column))
        values.extend([[ai, combo] for combo in legal])
        return
    columns = [option_ids(g, names, [combo[k] for combo in legal], t) for k, t in enumerate(types)]
    for row, combo in enumerate(legal):
        ids.append(name + ":" + ",".join(col[row] for col in columns))
        values.append([ai, combo])
