"""Playing on the drawn boards at 1400 px and on a 390 px phone (issue 35): every decision here is
made by a click (a tap on the phone) on the board, never on an id button.

- Patchwork: a patch on offer, drawn with its shape as a grid of squares, is bought by a click; it
  is turned with Rotate, previewed on the quilt where the pointer is (the first tap on a phone),
  sewn by a click (the second tap); its squares then take the patch's colour.
- Porta Nigra: the city at a readable scale (100 % on the phone, scrolling), quarters at least
  40 px to tap, the gate above quarter 3 covering none of it; a quarter clicked places the builder.
- Ticket to Ride: a route of the map claimed by a click (a tap), the map at 80 % or more.
- A big board (tests/games/mosaic, 25x25): cells of 40 px or more, scrolling rather than shrunk, the
  open cell in sight; tiles drawn turned, on cells coloured by who laid them; +, - and Fit (the whole
  board in sight) change the scale and it outlives a decision; Hide folds the board away and Show
  brings it back.
- Carcassonne: the cells the drawn tile fits on are lit; pointing at one (the first tap on a phone)
  shows the tile there turned, Rotate turns it the next way it fits there, a click (the second tap)
  lays it so, and it lies drawn turned; where a follower may go reads as words.
- Boards that grow (issue 37): tests/games/sprawl and Carcassonne's open-table, each cell drawn at
  its coordinates in the cells' bounding box and a margin, the frontier lit and played by clicks,
  the board grown round each tile; choices and the log name cells by coordinates; zoomed in and
  scrolled, a cell stays where it was on the page when the board grows left or up; Fit shows the
  whole board and keeps it whole as it grows.
- A tile laid mirrored (tests/games/turned --variant mirrored): previewed and drawn mirrored.

Screenshots (artefacts/screenshots/): board-play-patchwork-preview-W, board-play-patchwork-sewn-W,
board-play-porta-nigra-W, board-play-ticket-to-ride-W, board-play-mosaic-W, board-play-mosaic-folded-W,
board-play-carcassonne-preview-W, board-play-carcassonne-laid-W, board-play-sprawl-W,
board-play-open-table-preview-W, board-play-open-table-laid-W, board-play-mirrored-preview-W,
board-play-mirrored-laid-W (W: 1400 or 390).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import shot
from test_board import wait_for_decisions

pytestmark = pytest.mark.slow  # a headless Chromium

GAMES = Path(__file__).resolve().parents[1] / "games"
TARGET = "#table g.place.target"
KEEP = "#decision button.choice[data-choice='none']"  # Ticket to Ride: keep the three tickets
BOX = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }"


@pytest.fixture(params=[1400, 390], ids=["wide", "phone"])
def screen(request: Any, browser: Any) -> Iterator[tuple[Any, int]]:
    """A page 1400 px wide, or a 390 px phone with a touch screen."""
    width = int(request.param)
    phone = width < 500
    context = browser.new_context(
        viewport={"width": width, "height": 844 if phone else 1000}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    yield page, width
    context.close()
    assert not errors, errors


def press(page: Any, width: int, locator: Any) -> None:
    """A tap on the phone, a click on the wide screen."""
    locator.tap() if width < 500 else locator.click()


def open_table(screen: Any, serve: Any, game: str, seats: tuple[str, str], seed: int, ready: str) -> Any:
    """(page, width, table): the first seat's page of a new table, once `ready` is on it."""
    page, width = screen
    served = serve(game, [(seats[0], "human"), (seats[1], "random")], seed=seed)
    page.goto(served.link(0))
    page.wait_for_selector(ready)
    return page, width, served.table


def normal(cells: list[tuple[float, float]]) -> list[tuple[int, int]]:
    x0, y0 = min(x for x, _ in cells), min(y for _, y in cells)
    return sorted((round(x - x0), round(y - y0)) for x, y in cells)


def turns(shape: list[list[int]]) -> int:
    """How many ways of lying a shape has when turned a quarter at a time."""
    seen, cells = set(), [(x, y) for x, y in shape]
    for _ in range(4):
        seen.add(tuple(normal([(float(x), float(y)) for x, y in cells])))
        cells = [(-y, x) for x, y in cells]
    return len(seen)


def piece_look(page: Any) -> list[tuple[int, int]]:
    squares = page.eval_on_selector_all(
        ".placing .piece-look rect", "els => els.map(e => [+e.getAttribute('x'), +e.getAttribute('y')])"
    )
    return normal([(x / 12, y / 12) for x, y in squares])


def test_patchwork_a_patch_is_bought_turned_and_sewn_on_the_quilt(screen: Any, serve: Any) -> None:
    page, width, table = open_table(screen, serve, "patchwork", ("Ann", "Bob"), 3, "#table .card.target")
    patches = {c.name: c.props for c in table.game.components if c.type == "patch"}
    # the patches on offer: each with its shape as a grid of squares, its text without ASCII art
    offered = page.eval_on_selector_all(
        "#table .card.target",
        "els => els.map(e => [e.dataset.name, e.querySelectorAll('.shape-grid rect').length, e.innerText])",
    )
    assert 1 <= len(offered) <= 3  # the ones Ann can pay for
    for name, squares, text in offered:
        assert squares == patches[name]["size"] and "#" not in text, (name, squares, text)
    legal = set(table.engine.legal_ids(table.state))
    pick = next(n for n, _, _ in offered if f"buy:{n}" in legal and turns(patches[n]["shape"]) > 1)
    before = len(table.choices)
    press(page, width, page.locator(f"#table .card.target[data-name='{pick}']"))
    wait_for_decisions(page, before)
    assert table.choices[before] == f"buy:{pick}"
    page.wait_for_selector(".placing")
    # the id buttons are folded away: the board is where the patch goes
    assert not page.locator("#decision button.choice").first.is_visible()
    first = piece_look(page)
    press(page, width, page.locator(".placing .rotate"))
    turned = piece_look(page)
    assert turned != first and len(turned) == patches[pick]["size"]
    cell = page.locator("#you g.place.target").first
    before = len(table.choices)
    if width < 500:
        cell.tap()  # the first tap shows the patch there, and places nothing
        assert len(table.choices) == before
    else:
        cell.hover()
    shown = page.eval_on_selector_all(
        "#you g.place.preview", "els => els.map(e => [e.dataset.choice, +e.dataset.x, +e.dataset.y])"
    )
    assert page.locator("#you g.place.preview-bad").count() == 0
    assert normal([(x, y) for _, x, y in shown]) == turned  # the patch as it is turned now
    shot(page, f"board-play-patchwork-preview-{width}", full=False)
    press(page, width, cell)
    wait_for_decisions(page, before)
    assert sorted(table.choices[before].split("+")) == sorted(n for n, _, _ in shown)
    page.wait_for_selector("#decision button.choice", state="attached")
    # the squares it covers are filled with the patch's colour, the colour of its card
    fills = page.eval_on_selector_all(
        "#you g.place.coloured > .place-shape", "els => els.map(e => e.getAttribute('fill'))"
    )
    tint = page.eval_on_selector(f"#you .card[data-name='{pick}']", "e => e.style.getPropertyValue('--tint')")
    assert len(fills) == patches[pick]["size"] and set(fills) == {tint}, (fills, tint)
    shot(page, f"board-play-patchwork-sewn-{width}")


def table_scale(page: Any) -> float:
    """The scale the table's board is drawn at (1: its cells at their `cell` pixels)."""
    return float(page.get_attribute("#table .board-frame", "data-scale") or 0)


def in_sight(page: Any) -> None:
    """Fit: the whole table's board in sight, its width or its height the most its frame has."""
    board = page.eval_on_selector("#table .board-view svg", BOX)
    view = page.eval_on_selector(
        "#table .board-view",
        "e => [e.clientWidth, parseFloat(getComputedStyle(e).maxHeight), e.scrollWidth, e.scrollHeight,"
        " e.clientHeight]",
    )
    assert board[2] <= view[0] and board[3] <= view[1], (board, view)
    assert view[2] <= view[0] and view[3] <= view[4], view  # nothing to scroll to
    assert view[0] - board[2] < 10 or view[1] - board[3] < 10, (board, view)


def disjoint(a: list[float], b: list[float]) -> bool:
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


def test_porta_nigra_the_city_readable_and_a_quarter_chosen_on_it(screen: Any, serve: Any) -> None:
    page, width, table = open_table(screen, serve, "porta-nigra", ("Red", "Green"), 7, TARGET)
    scale = table_scale(page)
    assert scale >= (1 if width < 500 else 0.85), scale  # not shrunk to the phone
    quarters = page.eval_on_selector_all("#table g.place.target", f"els => els.map({BOX})")
    assert len(quarters) == 4 and all(w >= 40 and h >= 40 for _, _, w, h in quarters)
    font = page.eval_on_selector(
        "#table .card[data-name='BAS-A1'] .title", "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert font * scale >= 10.5  # a site's name: 12.5 px at the board's scale
    # the gate is a picture of its own, above quarter 3: it covers none of the quarter's places
    gate = page.eval_on_selector("#table image.picture", BOX)
    for name in ("Quarter 3 · Porta Nigra", "Porta Nigra sites", "Black shop"):
        assert disjoint(gate, page.eval_on_selector(f"#table g.place[data-place='{name}']", BOX)), name
    quarter = page.locator("#table g.place.target[data-choice='1'] .place-shape")
    page.locator("#table g.place.target[data-choice='1']").scroll_into_view_if_needed()
    before = len(table.choices)
    if width < 500:
        quarter.tap(position={"x": 30, "y": 30})
    else:
        quarter.click(position={"x": 30, "y": 30})
    wait_for_decisions(page, before)
    assert table.choices[before] == "1"
    shot(page, f"board-play-porta-nigra-{width}")


def test_ticket_to_ride_a_route_claimed_on_the_map(screen: Any, serve: Any) -> None:
    page, width, table = open_table(screen, serve, "ticket-to-ride", ("Ann", "Bob"), 5, KEEP)
    before = len(table.choices)
    press(page, width, page.locator(KEEP))
    wait_for_decisions(page, before)
    page.wait_for_selector("#table g.place.target")
    assert table_scale(page) >= (1 if width < 500 else 0.8)
    free = [c for c in table.engine.legal_ids(table.state) if c.startswith("claim:") and "#" not in c]
    route = free[0].removeprefix("claim:")
    before = len(table.choices)
    press(page, width, page.locator(f"#table g.place[data-choice='{route}'] .edge-hit"))
    wait_for_decisions(page, before)
    assert table.choices[before] == f"claim:{route}"
    shot(page, f"board-play-ticket-to-ride-{width}")


def test_a_big_board_scrolls_zooms_folds_and_draws_turned_tiles(screen: Any, serve: Any) -> None:
    page, width, table = open_table(screen, serve, str(GAMES / "mosaic"), ("Ann", "Bob"), 3, TARGET)
    view, board = "#table .board-view", "#table .board-view svg"
    a1, b2 = (page.eval_on_selector(f"#table g.place[data-choice='{c}']", BOX) for c in ("a1", "b2"))
    assert b2[0] - a1[0] >= 39 and b2[1] - a1[1] >= 39, (a1, b2)  # a fingertip's cell, not shrunk
    assert page.eval_on_selector(view, "e => e.scrollHeight > e.clientHeight + 100")  # so it scrolls
    # the open cell, in the middle of the board, is scrolled into sight
    assert not disjoint(page.eval_on_selector("#table g.place.target", BOX), page.eval_on_selector(view, BOX))
    for _ in range(2):  # Ann lays a tile, Bob lays the next, turned a quarter more
        before = len(table.choices)
        target = page.locator("#table g.place.target").first
        name = target.get_attribute("data-choice")
        press(page, width, target)
        wait_for_decisions(page, before)
        assert table.choices[before] == f"lay:{name}"
        page.wait_for_selector("#table g.place.target")
    owner = table.engine.view(table.state, 0)["m"]["owner"]
    cells = {table.game.components[c].name: p for c, p in enumerate(owner) if p is not None}
    assert sorted(cells.values()) == [0, 0, 1, 1]
    drawn = page.eval_on_selector_all(
        "#table g.place.coloured",
        """els => els.map(e => [e.dataset.choice, e.querySelector('.place-shape').getAttribute('fill'),
             (e.querySelector('image.picture') || {getAttribute: () => null}).getAttribute('transform')])""",
    )
    seats = {0: "#c0392b", 1: "#2e86de"}
    assert {n: f for n, f, _ in drawn} == {n: seats[p] for n, p in cells.items()}
    turned = sorted(t.split(" ")[0] if t else "none" for _, _, t in drawn)
    assert turned == ["none", "rotate(180", "rotate(270", "rotate(90"], turned  # 0, 90, 180, 270
    # zoom: + is 125 %, Fit the whole board in sight; the scale outlives the next decision
    w0 = page.eval_on_selector(board, "e => e.getBoundingClientRect().width")
    press(page, width, page.locator("#table .zoom-in"))
    w1 = page.eval_on_selector(board, "e => e.getBoundingClientRect().width")
    assert w1 == pytest.approx(w0 * 1.25, rel=0.01)
    press(page, width, page.locator("#table .zoom-fit"))
    in_sight(page)
    press(page, width, page.locator("#table .zoom-in"))
    scale = page.get_attribute("#table .board-frame", "data-scale")
    before = len(table.choices)
    press(page, width, page.locator("#table g.place.target").first)
    wait_for_decisions(page, before)
    page.wait_for_selector("#table g.place.target")
    assert page.get_attribute("#table .board-frame", "data-scale") == scale
    shot(page, f"board-play-mosaic-{width}")
    # Hide folds the board away, and it stays folded after a decision; Show brings it back
    press(page, width, page.locator("#table .board-toggle"))
    assert not page.locator(view).is_visible()
    assert page.locator("#table .board-frame.folded").count() == 1
    shot(page, f"board-play-mosaic-folded-{width}", full=False)
    press(page, width, page.locator("#table .board-toggle"))
    assert page.locator(view).is_visible()


def test_carcassonne_a_tile_turned_and_laid_by_clicks_on_the_board(screen: Any, serve: Any) -> None:
    page, width, table = open_table(screen, serve, "carcassonne", ("Ann", "Bob"), 5, TARGET)
    fits: dict[str, list[int]] = {}  # cell -> the turns the drawn tile fits there
    for cid in table.engine.legal_ids(table.state):
        if cid.startswith("lay:"):
            cell, turn = cid.removeprefix("lay:").split(",")
            fits.setdefault(cell, []).append(int(turn))
    lit = page.eval_on_selector_all("#table g.place.target", "els => els.map(e => e.dataset.choice)")
    assert sorted(lit) == sorted(fits)  # every cell the tile fits on, and no other
    assert not page.locator("#decision button.choice").first.is_visible()  # folded: the board lays it
    cell = next(c for c, turns in sorted(fits.items()) if len(turns) >= 2)
    first, second = sorted(fits[cell])[:2]
    target = page.locator(f"#table g.place.target[data-choice='{cell}']")
    target.scroll_into_view_if_needed()
    if width < 500:  # the board scrolled to, the decision stays in reach under the jump bar
        box = page.eval_on_selector("#decision", BOX)
        assert 0 <= box[1] <= 40 and box[1] + box[3] <= 844 * 0.35, box
    before = len(table.choices)
    if width < 500:
        target.tap()  # the first tap shows the tile there, and lays nothing
        assert len(table.choices) == before
    else:
        target.hover()
    shown = f"#table g.place[data-choice='{cell}'] image.piece-preview"
    assert page.get_attribute(shown, "transform").startswith(f"rotate({first * 90} ")
    press(page, width, page.locator(".placing .rotate"))  # the next way it fits on that cell
    assert page.get_attribute(shown, "transform").startswith(f"rotate({second * 90} ")
    assert page.get_attribute(".placing .piece-look", "data-rotation") == str(second * 90)
    picture = page.eval_on_selector(".placing .piece-look img", "e => e.style.transform")
    assert picture == f"rotate({second * 90}deg)", picture
    shot(page, f"board-play-carcassonne-preview-{width}", full=False)
    press(page, width, target)
    wait_for_decisions(page, before)
    assert table.choices[before] == f"lay:{cell},{second}"
    page.wait_for_selector("#decision button.choice", state="attached")
    # the tile lies on the cell, its picture turned as it was laid
    laid = page.get_attribute(f"#table g.place[data-choice='{cell}'] image.picture", "transform") or "-"
    assert laid.startswith(f"rotate({second * 90} "), laid
    # where a follower may go reads as words, not ids (claim:n)
    captions = page.eval_on_selector_all("#decision button.choice .caption", "es => es.map(e => e.innerText)")
    assert "no follower" in captions and all(len(c) > 2 for c in captions), captions
    assert any(c.startswith("a follower on the ") for c in captions), captions
    shot(page, f"board-play-carcassonne-laid-{width}")


# ------------------------------------------------------------------ boards that grow (issue 37)


def grown_cells(table: Any, board: str) -> dict[str, tuple[int, int]]:
    """The cells a board that grows has now, by name: their x/y marks."""
    g, marks = table.game, table.state["m"]
    return {
        g.components[c].name: (marks["x"][c], marks["y"][c])
        for c in g.boards.tables[board].cells[0]
        if marks["x"][c] is not None
    }


def drawn_cells(page: Any) -> dict[str, tuple[float, float, float, float]]:
    """The table's drawn cells by name (their choice), each with its box on the page."""
    found = page.eval_on_selector_all(
        "#table g.place[data-ids]", f"els => els.map(e => [e.dataset.choice, e.dataset.place, ({BOX})(e)])"
    )
    return {name: tuple(box) for name, _, box in found}


def assert_drawn_where_they_lie(page: Any, table: Any, board: str) -> None:
    """Every cell the board has is drawn once, titled with its coordinates, at its x/y (a cell's
    width apart per step), in the bounding box of the cells with a margin of one cell."""
    cells = grown_cells(table, board)
    titles = page.eval_on_selector_all(
        "#table g.place[data-ids]", "els => els.map(e => [e.dataset.choice, e.dataset.place])"
    )
    assert sorted(titles) == sorted([n, f"{x},{y}"] for n, (x, y) in cells.items())
    boxes = drawn_cells(page)
    first = next(iter(cells))
    fx, fy = cells[first]
    size = 56 * table_scale(page)  # a cell's pitch on the page: 56 px at 100 %
    assert size >= 39, size  # a fingertip's cell
    for name, (x, y) in cells.items():
        bx, by = boxes[name][0] - boxes[first][0], boxes[name][1] - boxes[first][1]
        assert bx == pytest.approx((x - fx) * size, abs=1.5) and by == pytest.approx((y - fy) * size, abs=1.5)
    view = page.get_attribute("#table .board-view svg", "viewBox").split()
    xs, ys = [x for x, _ in cells.values()], [y for _, y in cells.values()]
    assert float(view[2]) == pytest.approx((max(xs) - min(xs) + 3) * 56)  # the cells, a cell each side
    assert float(view[3]) == pytest.approx((max(ys) - min(ys) + 3) * 56)


def edge_cell(page: Any, table: Any, axes: tuple[int, ...], low: bool) -> tuple[str, int]:
    """A lit cell of the board that grows on its edge (the lowest x or y, or the highest), and the
    axis (0: x, 1: y): a tile laid there grows the board that way."""
    cells = grown_cells(table, "table")
    lit = page.eval_on_selector_all(TARGET, "els => els.map(e => e.dataset.choice)")
    for axis in axes:
        edge = (min if low else max)(xy[axis] for xy in cells.values())
        for name in lit:
            if cells[name][axis] == edge:
                return name, axis
    raise AssertionError(f"no lit cell on the edge {axes}: {lit}")


def test_sprawl_a_growing_board_is_drawn_and_played_by_clicks(screen: Any, serve: Any) -> None:
    page, width = screen
    served = serve(str(GAMES / "sprawl"), [("Ann", "human"), ("Bob", "random")], seed=1)
    table = served.table
    page.goto(served.link(0))
    page.wait_for_selector(TARGET)
    assert_drawn_where_they_lie(page, table, "table")  # one cell, [0, 0], the open one
    # the choice reads as the cell's coordinates, not the order it was added in (lay:table1)
    assert page.locator("#decision button.choice .caption").first.inner_text() == "x=0, y=0"
    for _ in range(3):  # Ann lays a tile on a lit cell, Bob (a bot) lays the next
        legal = {c.removeprefix("lay:") for c in table.engine.legal_ids(table.state)}
        lit = page.eval_on_selector_all(TARGET, "els => els.map(e => e.dataset.choice)")
        assert sorted(lit) == sorted(legal)  # the frontier cells the tile may go on, lit
        cell = min(lit, key=grown_cells(table, "table").__getitem__)  # leftmost: it grows left
        before = len(table.choices)
        target = page.locator(f"#table g.place.target[data-choice='{cell}']")
        target.scroll_into_view_if_needed()
        press(page, width, target)
        wait_for_decisions(page, before)
        assert table.choices[before] == f"lay:{cell}"
        page.wait_for_selector(TARGET)
        # the tile lies on the cell clicked, drawn there; the board grew round it
        laid = page.eval_on_selector_all(
            "#table g.place[data-ids] .card", "els => els.map(e => e.closest('g.place').dataset.choice)"
        )
        assert cell in laid
        assert_drawn_where_they_lie(page, table, "table")
    xy = grown_cells(table, "table")[cell]
    title = page.eval_on_selector(f"#table g.place[data-choice='{cell}'] .place-title", "e => e.textContent")
    assert title == f"{xy[0]},{xy[1]}"  # its coordinates; the one tile on it needs no count
    log = page.eval_on_selector_all("#log-lines li", "els => els.map(e => e.innerText)")
    assert f"Ann: lay: x={xy[0]}, y={xy[1]}" in log, log
    # zoom: + is 125 %, as on a board of fixed size
    board = "#table .board-view svg"
    w0 = page.eval_on_selector(board, "e => e.getBoundingClientRect().width")
    press(page, width, page.locator("#table .zoom-in"))
    assert page.eval_on_selector(board, "e => e.getBoundingClientRect().width") == pytest.approx(
        w0 * 1.25, rel=0.01
    )
    # zoomed in and scrolled, a tile laid on the left edge grows the board left: what the seat looks
    # at stays where it was (the view scrolls as far), rather than moving a cell right
    while page.get_attribute("#table .board-frame", "data-scale") != "3.000":
        press(page, width, page.locator("#table .zoom-in"))
    cell, axis = edge_cell(page, table, (0, 1), low=True)
    target = page.locator(f"#table g.place.target[data-choice='{cell}']")
    target.scroll_into_view_if_needed()
    shape = f"#table g.place[data-choice='{cell}'] .place-shape"  # (its title may stick out)
    at = page.eval_on_selector(shape, BOX)
    lowest = min(xy[axis] for xy in grown_cells(table, "table").values())
    before = len(table.choices)
    press(page, width, target)
    wait_for_decisions(page, before)
    page.wait_for_selector(TARGET)
    assert min(xy[axis] for xy in grown_cells(table, "table").values()) < lowest  # grown left or up
    now = page.eval_on_selector(shape, BOX)
    assert now[:2] == pytest.approx(at[:2], abs=1.5), (at, now)
    # Fit: the whole board in sight, and it stays so as the board grows the way it is fitted
    press(page, width, page.locator("#table .zoom-fit"))
    in_sight(page)
    fitted = float(page.get_attribute("#table .board-frame", "data-scale"))
    box, view = (
        page.eval_on_selector("#table .board-view svg", BOX),
        page.eval_on_selector("#table .board-view", "e => e.clientWidth"),
    )
    lay, _ = edge_cell(page, table, (0,) if view - box[2] < 10 else (1,), low=False)
    before = len(table.choices)
    press(page, width, page.locator(f"#table g.place.target[data-choice='{lay}']"))
    wait_for_decisions(page, before)
    page.wait_for_selector(TARGET)
    in_sight(page)
    assert float(page.get_attribute("#table .board-frame", "data-scale")) < fitted  # refitted, smaller
    shot(page, f"board-play-sprawl-{width}")


def test_carcassonne_open_table_the_growing_table_drawn_and_a_tile_laid(screen: Any, serve: Any) -> None:
    page, width = screen
    served = serve("carcassonne", [("Ann", "human"), ("Bob", "random")], seed=5, variant="open-table")
    table = served.table
    page.goto(served.link(0))
    page.wait_for_selector(TARGET)
    assert_drawn_where_they_lie(page, table, "land")
    # the start tile lies on [0, 0], drawn from its sides
    assert page.locator("#table g.place[data-place='0,0'] image.picture").count() == 1
    fits: dict[str, list[int]] = {}
    for cid in table.engine.legal_ids(table.state):
        if cid.startswith("lay:"):
            cell, turn = cid.removeprefix("lay:").split(",")
            fits.setdefault(cell, []).append(int(turn))
    lit = page.eval_on_selector_all(TARGET, "els => els.map(e => e.dataset.choice)")
    assert sorted(lit) == sorted(fits)  # the frontier cells the drawn tile fits on, and no other
    # the folded buttons read as the cells' coordinates (lay the tile on x=1, y=0, turned 90°)
    captions = page.eval_on_selector_all(".choice .caption", "es => es.map(e => e.textContent)")
    assert captions and all(c.startswith("lay the tile on x=") for c in captions), captions
    cell = next(c for c, turns in sorted(fits.items()) if len(turns) >= 2)
    first, second = sorted(fits[cell])[:2]
    target = page.locator(f"#table g.place.target[data-choice='{cell}']")
    target.scroll_into_view_if_needed()
    before = len(table.choices)
    if width < 500:
        target.tap()  # the first tap shows the tile there, and lays nothing
        assert len(table.choices) == before
    else:
        target.hover()
    shown = f"#table g.place[data-choice='{cell}'] image.piece-preview"
    assert page.get_attribute(shown, "transform").startswith(f"rotate({first * 90} ")
    press(page, width, page.locator(".placing .rotate"))
    assert page.get_attribute(shown, "transform").startswith(f"rotate({second * 90} ")
    shot(page, f"board-play-open-table-preview-{width}", full=False)
    x, y = grown_cells(table, "land")[cell]
    press(page, width, target)
    wait_for_decisions(page, before)
    assert table.choices[before] == f"lay:{cell},{second}"
    page.wait_for_selector("#decision button.choice", state="attached")
    laid = page.get_attribute(f"#table g.place[data-choice='{cell}'] image.picture", "transform") or "-"
    assert laid.startswith(f"rotate({second * 90} "), laid
    assert page.get_attribute(f"#table g.place[data-choice='{cell}']", "data-place") == f"{x},{y}"
    assert_drawn_where_they_lie(page, table, "land")  # grown round the tile laid
    log = page.eval_on_selector_all("#log-lines li", "els => els.map(e => e.innerText)")
    assert f"Ann: lay the tile on x={x}, y={y}, turned {second * 90}°" in log, log
    shot(page, f"board-play-open-table-laid-{width}")


def test_a_tile_laid_mirrored_is_previewed_and_drawn_mirrored(screen: Any, serve: Any) -> None:
    """tests/games/turned --variant mirrored: a hook whose mirror image is no turn of it; Rotate
    goes through the turns and then the mirrored turns, each previewed as it would lie."""
    page, width = screen
    served = serve(str(GAMES / "turned"), [("Ann", "human"), ("Bob", "random")], seed=5, variant="mirrored")
    table = served.table
    page.goto(served.link(0))
    page.wait_for_selector(TARGET)
    ways = sorted(
        int(c.split(",")[1]) for c in table.engine.legal_ids(table.state) if c.startswith("lay:b1,")
    )
    assert ways == [2, 6]  # b1: the hook turned 180°, or mirrored then turned 180°
    target = page.locator(f"{TARGET}[data-choice='b1']")
    before = len(table.choices)
    if width < 500:
        target.tap()
    else:
        target.hover()
    shown = "#table g.place[data-choice='b1'] image.piece-preview"
    assert "scale" not in page.get_attribute(shown, "transform")
    press(page, width, page.locator(".placing .rotate"))  # the next way: mirrored
    assert page.get_attribute(shown, "transform").endswith("scale(-1 1)")
    assert page.get_attribute(shown, "transform").startswith("rotate(180 ")
    assert page.get_attribute(".placing .piece-look", "data-mirror") == "true"
    assert "scaleX(-1)" in page.eval_on_selector(".placing .piece-look img", "e => e.style.transform")
    shot(page, f"board-play-mirrored-preview-{width}", full=False)
    press(page, width, target)
    wait_for_decisions(page, before)
    assert table.choices[before] == "lay:b1,6"
    page.wait_for_selector("#decision button.choice", state="attached")
    laid = page.get_attribute("#table g.place[data-choice='b1'] image.picture", "transform") or "-"
    assert laid.startswith("rotate(180 ") and laid.endswith("scale(-1 1)"), laid
    centre = page.get_attribute("#table g.place[data-choice='b2'] image.picture", "transform")
    assert centre is None  # the cross, neither turned nor mirrored
    shot(page, f"board-play-mirrored-laid-{width}")
