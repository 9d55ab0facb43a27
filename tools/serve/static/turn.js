// tabula serve: laying a piece that turns on one cell of a board (presentation.pieces: a tile of
// Carcassonne). A decision whose choices each put the action's piece on one cell, turned by some
// degrees, is made on the board: the cells where it may go are lit; pointing at one shows the piece
// there as it would lie (turned as now, or the next way that fits there; it stays there when the
// pointer leaves, for the tools), Rotate (or the key R)
// turns it among the ways that fit on that cell, and a click lays it. On a touch screen the first
// tap shows it there and a second tap (or Place) lays it. The piece, turned as shown, is drawn
// beside the tools (on a phone, in the decision). A piece laid mirrored (choice.mirror) is drawn
// mirrored then turned; its ways are the turns, then the mirrored turns (wayOf). Uses el() and choose() of app.js, svg() of
// board.js, tool() and phone() of frame.js, foldButtons() and showTools() of place.js.
"use strict";

const TURNING = { key: "", deg: 0, at: null, touch: false, piece: null };

// one way a choice lays the piece, in order: its degrees, plus 360 when it is mirrored
function wayOf(c) {
  return c.rotation + (c.mirror ? 360 : 0);
}

// the turning choices of a decision, or null: choices of an action with a piece (dec.pieces) and a
// rotation, each naming one cell of one drawn board; by cell, the choices there (by rotation)
function turningOf(dec) {
  const cells = new Map();
  for (const g of document.querySelectorAll("g.place[data-ids][data-x]")) cells.set(Number(g.dataset.ids), g);
  const cellOf = (c) => (c.targets || []).filter((t) => cells.has(t));
  const pieces = dec.pieces || {};
  const list = dec.choices.filter((c) => c.rotation !== null && c.rotation !== undefined && pieces[c.action] && cellOf(c).length === 1);
  if (!list.length) return null;
  const board = cells.get(cellOf(list[0])[0]).ownerSVGElement;
  const mine = list.filter((c) => c.action === list[0].action && cells.get(cellOf(c)[0]).ownerSVGElement === board);
  const at = new Map();  // the cell's <g> -> its choices, by rotation
  for (const c of mine) {
    const g = cells.get(cellOf(c)[0]);
    if (!at.has(g)) at.set(g, []);
    at.get(g).push(c);
  }
  for (const list2 of at.values()) list2.sort((a, b) => wayOf(a) - wayOf(b));
  const turns = [...new Set(mine.map(wayOf))].sort((a, b) => a - b);
  return { board, piece: pieces[mine[0].action], choices: new Set(mine), at, turns, key: mine.map((c) => c.id).join(" ") };
}

// the choice shown on cell g: the piece turned as now if it fits there, else the next way that does
function turnAt(g) {
  const list = TURNING.piece.at.get(g) || [];
  return list.find((c) => wayOf(c) === TURNING.deg) || list.find((c) => wayOf(c) > TURNING.deg) || list[0] || null;
}

function clearPreview() {
  for (const n of TURNING.piece.board.querySelectorAll(".piece-preview")) n.remove();
  for (const n of TURNING.piece.board.querySelectorAll("g.place.preview")) n.classList.remove("preview");
}

function showTurnAt(g) {
  clearPreview();
  TURNING.at = g;
  const place = document.querySelector(".placing .place-here");
  const say = document.querySelector(".placing .placing-note");
  const choice = g ? turnAt(g) : null;
  if (place) place.disabled = !choice;
  if (!choice) {
    if (say) say.textContent = g ? "it does not fit there" : "point at a lit square of the board";
    drawLook(TURNING.deg);
    return;
  }
  const shape = g.querySelector(".place-shape");
  const [x, y, w, h] = ["x", "y", "width", "height"].map((k) => Number(shape.getAttribute(k)));
  const piece = TURNING.piece.piece;
  g.classList.add("preview");
  if (piece.image) {
    const img = svg("image", { href: piece.image, x: x + 2, y: y + 2, width: w - 4, height: h - 4, class: "piece-preview",
      transform: turnedAbout(choice.rotation, choice.mirror, x + w / 2, y + h / 2), "pointer-events": "none" });
    g.append(img);
  } else {
    const [cx, cy, r] = [x + w / 2, y + h / 2, Math.min(w, h) / 2];
    g.append(svg("polygon", { points: `${cx},${cy - r + 3} ${cx - 5},${cy - r + 11} ${cx + 5},${cy - r + 11}`,
      class: "piece-preview turn-mark", transform: `rotate(${choice.rotation} ${cx} ${cy})`, "pointer-events": "none" }));
  }
  drawLook(wayOf(choice));
  const ways = (TURNING.piece.at.get(g) || []).length;
  const more = ways > 1 ? `, Rotate for the ${ways - 1} other way${ways > 2 ? "s" : ""} it fits` : "";
  if (say) say.textContent = `${choice.label}: ${TURNING.touch ? "tap again, or Place," : "click"} to lay it${more}`;
}

// the piece beside the tools, turned (and mirrored) as shown: `way` as wayOf gives it
function drawLook(way) {
  const look = document.querySelector(".placing .piece-look");
  if (!look) return;
  const piece = TURNING.piece.piece;
  const [deg, mirror] = [way % 360, way >= 360];
  look.replaceChildren();
  look.title = `${piece.title}, ${mirror ? "mirrored, " : ""}turned ${deg}°`;
  if (piece.image) {
    const img = el("img", "piece-picture");
    img.src = piece.image;
    img.alt = look.title;
    img.style.transform = `rotate(${deg}deg)${mirror ? " scaleX(-1)" : ""}`;
    look.append(img);
  } else {
    look.append(el("span", "piece-name", `${piece.title} ${mirror ? "mirrored " : ""}${deg}°`));
  }
  look.dataset.rotation = String(deg);
  look.dataset.mirror = String(mirror);
}

// Rotate: the next way the piece fits on the cell shown, or (no cell shown) the next way it turns
function turnNext() {
  const g = TURNING.at;
  const list = g ? TURNING.piece.at.get(g) || [] : [];
  const ways = list.length ? list.map(wayOf) : TURNING.piece.turns;
  const now = g && turnAt(g) ? wayOf(turnAt(g)) : TURNING.deg;
  TURNING.deg = ways.find((d) => d > now) ?? ways[0];
  showTurnAt(g);
}

function layAt(g) {
  const choice = g && turnAt(g);
  if (choice) choose(choice.id);
}

function turningBar(piece) {
  const bar = el("div", "placing turning");
  bar.append(el("span", "placing-head", "To lay:"), el("span", "piece-look"));
  const rotate = tool("rotate", "Rotate ⟳", "Turn the piece a quarter (R)", turnNext);
  const place = tool("place-here", "Place", "Lay the piece where it is shown", () => layAt(TURNING.at));
  place.disabled = true;
  bar.append(rotate, place, el("span", "placing-note", "point at a lit square of the board"));
  if (piece.turns.length < 2) rotate.disabled = true;
  return bar;
}

// turning mode for a decision, if it is one; returns what it handles ({board, choices})
function startTurning(dec) {
  const piece = turningOf(dec);
  if (!piece) return null;
  if (TURNING.key !== piece.key) Object.assign(TURNING, { key: piece.key, deg: piece.turns[0], at: null });
  TURNING.piece = piece;
  TURNING.at = null;
  piece.board.classList.add("placing-on");
  showTools(piece, turningBar(piece));
  foldButtons(piece);
  for (const [g, list] of piece.at) {
    g.classList.add("target");
    g.setAttribute("aria-label", `lay it here: ${list.map((c) => c.label).join(" · ")}`);
    g.addEventListener("pointerdown", (e) => { TURNING.touch = e.pointerType !== "mouse"; });
    g.addEventListener("pointermove", (e) => { if (e.pointerType === "mouse" && TURNING.at !== g) showTurnAt(g); });
    g.addEventListener("click", (e) => {
      e.stopPropagation();
      if (TURNING.touch && TURNING.at !== g) { showTurnAt(g); return; }
      layAt(g);
    });
  }
  showTurnAt(null);
  return piece;
}

document.addEventListener("keydown", (e) => {
  const typing = e.target instanceof Element && e.target.closest("input, select, textarea");
  if (!TURNING.piece || !TURNING.piece.board.isConnected || typing || e.ctrlKey || e.metaKey) return;
  if (e.key === "r" || e.key === "R") turnNext();
});
