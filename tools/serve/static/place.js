// tabula serve: placing a piece on a board by pointing at it. A decision whose choices are sets of
// cells of one board (a `placements` choice: `a1+b1+b2`) is not a list of buttons to read: the
// piece follows the pointer over the board as a preview (green where it fits, red where it does
// not), Rotate and Mirror (or the keys R and M) turn it among the ways it fits somewhere, and a
// click places it. On a touch screen the first tap shows the piece there and a second tap (or
// Place) places it. The cells where the piece, as it is turned now, may be put are highlighted.
// Uses el() and choose() of app.js, shapeGrid() of board.js.
"use strict";

const PLACING = { key: "", turn: 0, at: null, touch: false, piece: null };

function near(v) {
  return Math.round(v * 100) / 100;
}

function normal(points) {
  const mx = Math.min(...points.map((q) => q[0]));
  const my = Math.min(...points.map((q) => q[1]));
  return points.map(([x, y]) => [near(x - mx), near(y - my)]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

function shapeKey(points) {
  return points.map((q) => q.join(",")).join(";");
}

// the placement choices of a decision, or null: choices naming two cells or more, all drawn on one
// board; each way the piece is turned (its cells from their top left), with the choice putting its
// anchor (the cell nearest its middle) on each cell
function placementsOf(dec) {
  const cells = new Map();
  for (const g of document.querySelectorAll("g.place[data-ids][data-x]")) cells.set(Number(g.dataset.ids), g);
  const list = dec.choices.filter((c) => (c.targets || []).length >= 2 && c.targets.every((t) => cells.has(t)));
  if (list.length < 2) return null;
  const board = cells.get(list[0].targets[0]).ownerSVGElement;
  const mine = list.filter((c) => c.targets.every((t) => cells.get(t).ownerSVGElement === board));
  const turns = new Map();
  for (const c of mine) {
    const points = c.targets.map((t) => [Number(cells.get(t).dataset.x), Number(cells.get(t).dataset.y)]);
    const shape = normal(points);
    const key = shapeKey(shape);
    if (!turns.has(key)) turns.set(key, { key, shape, anchor: anchorOf(shape), at: new Map() });
    const turn = turns.get(key);
    const [mx, my] = [Math.min(...points.map((q) => q[0])), Math.min(...points.map((q) => q[1]))];
    turn.at.set(`${near(mx + turn.anchor[0])},${near(my + turn.anchor[1])}`, c);
  }
  const at = new Map();
  for (const g of board.querySelectorAll("g.place[data-ids][data-x]")) at.set(`${near(Number(g.dataset.x))},${near(Number(g.dataset.y))}`, g);
  return { board, choices: new Set(mine), turns: [...turns.values()], cells: at, key: mine.map((c) => c.id).join(" ") };
}

function anchorOf(shape) {
  const w = Math.max(...shape.map((q) => q[0]));
  const h = Math.max(...shape.map((q) => q[1]));
  let best = shape[0];
  for (const q of shape) {
    if (Math.hypot(q[0] - w / 2, q[1] - h / 2) < Math.hypot(best[0] - w / 2, best[1] - h / 2) - 1e-9) best = q;
  }
  return best;
}

// another way of turning the piece: the shape turned (or mirrored) as asked, if it fits somewhere;
// else the next way that does (a hex board's, or one that fits nowhere now)
function turnPiece(how) {
  const piece = PLACING.piece;
  let shape = piece.turns[PLACING.turn].shape;
  for (let k = 0; k < 4; k++) {
    shape = normal(shape.map(([x, y]) => (how === "mirror" ? [-x, y] : [-y, x])));
    const found = piece.turns.findIndex((t) => t.key === shapeKey(shape));
    if (found >= 0) { PLACING.turn = found; break; }
    if (how === "mirror" || k === 3) { PLACING.turn = (PLACING.turn + 1) % piece.turns.length; break; }
  }
  showTurn();
}

function cellKey(g) {
  return `${near(Number(g.dataset.x))},${near(Number(g.dataset.y))}`;
}

// the piece as turned now with its anchor on cell g: its cells, and the choice if it fits there
function pieceAt(g) {
  const turn = PLACING.piece.turns[PLACING.turn];
  const [x, y] = cellKey(g).split(",").map(Number);
  const cells = turn.shape.map(([dx, dy]) => PLACING.piece.cells.get(`${near(x + dx - turn.anchor[0])},${near(y + dy - turn.anchor[1])}`));
  return { cells: cells.filter(Boolean), choice: turn.at.get(cellKey(g)) || null };
}

function preview(g) {
  const board = PLACING.piece.board;
  for (const n of board.querySelectorAll(".preview, .preview-bad")) n.classList.remove("preview", "preview-bad");
  PLACING.at = g ? cellKey(g) : null;
  const place = document.querySelector(".placing .place-here");
  if (!g) { if (place) place.disabled = true; return; }
  const { cells, choice } = pieceAt(g);
  for (const c of cells) c.classList.add(choice ? "preview" : "preview-bad");
  if (place) place.disabled = !choice;
  const say = document.querySelector(".placing .placing-note");
  if (say) say.textContent = choice ? `it fits: ${PLACING.touch ? "tap again, or Place," : "click"} to place it here` : "it does not fit there";
}

function placeAt(g) {
  const { choice } = pieceAt(g);
  if (choice) choose(choice.id);
}

// the cells where the piece, turned as it is now, may be put
function showTurn() {
  const piece = PLACING.piece;
  const turn = piece.turns[PLACING.turn];
  for (const [key, g] of piece.cells) g.classList.toggle("target", turn.at.has(key));
  const look = document.querySelector(".placing .piece-look");
  if (look) look.replaceChildren(shapeGrid(turn.shape.map((q) => [Math.round(q[0]), Math.round(q[1])]), "#e67e22", 12));
  const again = PLACING.at && piece.cells.get(PLACING.at);
  preview(again || null);
}

function placingBar(piece) {
  const bar = el("div", "placing");
  bar.append(el("span", "placing-head", "Your piece:"), el("span", "piece-look"));
  const rotate = tool("rotate", "Rotate ⟳", "Turn the piece a quarter (R)", () => turnPiece("rotate"));
  const mirror = tool("mirror", "Mirror ⇋", "Turn the piece over (M)", () => turnPiece("mirror"));
  const place = tool("place-here", "Place", "Place the piece where it is shown", () => {
    const g = PLACING.at && piece.cells.get(PLACING.at);
    if (g) placeAt(g);
  });
  place.disabled = true;
  bar.append(rotate, mirror, place, el("span", "placing-note", "point at a square of the board"));
  if (piece.turns.length < 2) { rotate.disabled = true; mirror.disabled = true; }
  return bar;
}

// the decision's buttons of the placements folded under a line, a pointer to the board above them
function foldButtons(piece) {
  const box = document.getElementById("decision");
  const buttons = [...box.querySelectorAll("button.choice")].filter((b) => [...piece.choices].some((c) => c.id === b.dataset.choice));
  if (!buttons.length) return;
  const group = buttons[0].closest(".choice-group") || buttons[0].parentElement;
  const fold = el("details", "placements-list");
  fold.append(el("summary", null, `or pick from the list (${buttons.length} places)`));
  group.replaceWith(fold);
  fold.append(group);
  const go = el("button", "to-board", "Place it on the board ↓");
  go.type = "button";
  go.addEventListener("click", () => piece.board.closest(".board-frame").scrollIntoView({ block: "start" }));
  fold.before(go);
}

// the piece and its tools: above the board, or on a phone in the decision, which stays in reach
// (sticky) while the board is scrolled through
function showTools(piece, bar) {
  if (phone()) $("decision").querySelector("h2").after(bar);
  else piece.board.closest(".board-frame").querySelector(".board-bar").after(bar);
}

// placing mode for a decision, if it is one; returns what it handles ({board, choices})
function startPlacing(dec) {
  const piece = placementsOf(dec);
  if (!piece) return null;
  if (PLACING.key !== piece.key) Object.assign(PLACING, { key: piece.key, turn: 0, at: null });
  PLACING.piece = piece;
  piece.board.classList.add("placing-on");  // where the piece may go: a lighter highlight
  showTools(piece, placingBar(piece));
  foldButtons(piece);
  for (const g of piece.cells.values()) {
    g.addEventListener("pointerdown", (e) => { PLACING.touch = e.pointerType !== "mouse"; });
    g.addEventListener("pointermove", (e) => { if (e.pointerType === "mouse" && PLACING.at !== cellKey(g)) preview(g); });
    g.addEventListener("click", (e) => {
      e.stopPropagation();
      if (PLACING.touch && PLACING.at !== cellKey(g)) { preview(g); return; }
      placeAt(g);
    });
  }
  piece.board.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse") preview(null); });
  showTurn();
  return piece;
}

document.addEventListener("keydown", (e) => {
  const typing = e.target instanceof Element && e.target.closest("input, select, textarea");
  if (!PLACING.piece || !PLACING.piece.board.isConnected || typing || e.ctrlKey || e.metaKey) return;
  if (e.key === "r" || e.key === "R") turnPiece("rotate");
  if (e.key === "m" || e.key === "M") turnPiece("mirror");
});
