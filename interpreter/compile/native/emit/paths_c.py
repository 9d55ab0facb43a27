"""The C of paths on boards: `path_exists(a, b [, L])` and `longest_path(E [, 'prop'])`.

Stage: compile (native). Their C is runtime/paths.c, after boards_c.py's tables; this module
writes the tables it reads. Each walks as run/boards.py walks, step for step, so that the work
budget is charged the same units in the same order: the shortest path search pops (distance, cell
id, push number) in Python's heap order and charges 1 + the moves of each cell it expands; the
longest trail tries the edges in the order Python's adjacency lists hold them, one unit per edge
tried. Per board: its moves (`BMO_k` offsets, `BMN_k` counts, `BMD_k` the incident edges of a
graph's space, else the neighbour cells), a graph's edge ends (`BEA_k`, `BEB_k`) and edge ids per
copy (`BE_k`); per component, the edge it is (`EDGE_AT`, `EDGE_IX`).
"""

from __future__ import annotations

from tabula.interpreter.compile.native.lowering.spatial import board_index
from tabula.interpreter.model.game import CompiledGame


def _array(name: str, words: list[int]) -> str:
    return f"static const i64 {name}[{max(len(words), 1)}] = {{{', '.join(map(str, words)) or '0'}}};"


def moves_c(game: CompiledGame) -> tuple[list[str], list[str]]:
    """Each board's moves and edges as C tables, and the BOARD fields that name them (in order:
    mo, mn, md, ne, ea, eb, eids)."""
    out: list[str] = []
    fields: list[str] = []
    ncomp = len(game.components)
    at, ix = [-1] * ncomp, [-1] * ncomp
    for k, name in enumerate(board_index(game)):
        t = game.boards.tables[name]
        geo = t.geometry
        graph = geo.kind == "graph"
        lists = geo.incident if graph else geo.neighbours
        offs: list[int] = []
        flat: list[int] = []
        for moves in lists:
            offs.append(len(flat))
            flat += moves
        out += [
            _array(f"BMO_{k}", offs),
            _array(f"BMN_{k}", [len(m) for m in lists]),
            _array(f"BMD_{k}", flat),
        ]
        ne = len(geo.edges) if graph and t.edges and t.edges[0] else 0
        out += [_array(f"BEA_{k}", [a for a, _ in geo.edges]), _array(f"BEB_{k}", [b for _, b in geo.edges])]
        out.append(_array(f"BE_{k}", [e for ids in t.edges for e in ids] if ne else []))
        for copy, ids in enumerate(t.edges if ne else []):
            for i, e in enumerate(ids):
                at[e], ix[e] = k * 256 + copy, i
        fields.append(f"BMO_{k}, BMN_{k}, BMD_{k}, {ne}, BEA_{k}, BEB_{k}, BE_{k}")
    out += [_array("EDGE_AT", at), _array("EDGE_IX", ix)]
    return out, fields
