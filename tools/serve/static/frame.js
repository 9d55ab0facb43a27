// tabula serve: a board in a frame of its own. The board is drawn at a readable scale (its cells
// no smaller than a fingertip, its text no smaller than 85 %) and scrolls inside the frame rather
// than shrinking to the page; −, + and Fit zoom it (so do Ctrl + the wheel, a touchpad's pinch and
// two fingers), Hide folds it away. Each board's zoom, scroll and folding outlive the redraw after a
// decision: what the middle of the view showed stays there though a board that grows moved it, and
// a board fitted stays fitted as it grows. Uses el() of app.js.
"use strict";

const VIEWS = new Map();  // board ("table", a seat's number) -> { scale, hidden, left, top, fit, spots }
const ZOOM_STEP = 1.25;
const ZOOM_MIN = 0.2;
const ZOOM_MAX = 3;
const FINGER = 40;  // px: the smallest cell a tap should have to hit

function phone() {
  return document.documentElement.clientWidth <= 700;
}

// the width a board has on the page before it scrolls: the left column, or the whole phone
function roomFor() {
  const w = document.documentElement.clientWidth;
  return w > 900 ? w - 420 : w - 46;
}

// at first sight: the whole board when it fits; else shrunk no further than readable (a grid's cells
// FINGER px, a map's names 80 %, a laid-out board's text 85 %, on a phone 100 %), then it scrolls
function firstScale(b, width, map) {
  const fit = roomFor() / width;
  let floor = phone() ? 1 : map ? 0.8 : 0.85;
  if (b.grid && !map) floor = Math.min(1, FINGER / b.cell);
  return Math.min(1, Math.max(fit, floor));
}

// where each cell of the board lies, by its component ids: its middle, in cells
function spotsOf(b) {
  const spots = new Map();
  for (const p of b.places) if (p.ids && p.ids.length) spots.set(p.ids.join(","), [p.x + p.w / 2, p.y + p.h / 2]);
  return spots;
}

// how far (in cells) the cell nearest (mx, my) moved from `before` to `after`: a board that grows
// left or up is drawn further right or down, and the seat's view follows it
function shiftOf(before, after, mx, my) {
  let best = [0, 0];
  let nearest = Infinity;
  for (const [id, [x, y]] of before) {
    const now = after.get(id);
    const d = (x - mx) ** 2 + (y - my) ** 2;
    if (now && d < nearest) [nearest, best] = [d, [now[0] - x, now[1] - y]];
  }
  return best;
}

function tool(cls, text, title, act) {
  const b = el("button", `board-tool ${cls}`, text);
  b.type = "button";
  b.title = title;
  b.setAttribute("aria-label", title);
  b.addEventListener("click", (event) => { event.stopPropagation(); act(); });
  return b;
}

function boardFrame(b, key, root, map) {
  const width = b.width * b.cell;
  const height = b.height * b.cell;
  if (!VIEWS.has(key)) VIEWS.set(key, { scale: firstScale(b, width, map), hidden: false, left: null, top: null, fit: false, spots: null });
  const state = VIEWS.get(key);
  const frame = el("div", "board-frame");
  frame.dataset.board = key;
  const view = el("div", "board-view");
  view.append(root);
  const level = el("span", "zoom-level", "");
  const scaleTo = (s, px = view.clientWidth / 2, py = view.clientHeight / 2, fit = false) => {
    s = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, s));
    state.fit = fit;
    const [cx, cy] = [(view.scrollLeft + px) / state.scale, (view.scrollTop + py) / state.scale];
    state.scale = s;
    root.style.width = `${width * s}px`;
    root.style.height = `${height * s}px`;
    frame.dataset.scale = s.toFixed(3);
    level.textContent = `${Math.round(s * 100)} %`;
    view.scrollLeft = cx * s - px;
    view.scrollTop = cy * s - py;
  };
  const fold = (hidden) => {
    state.hidden = hidden;
    view.hidden = hidden;
    frame.classList.toggle("folded", hidden);
    toggle.textContent = hidden ? "Show board" : "Hide";
    toggle.setAttribute("aria-expanded", String(!hidden));
  };
  // the whole board in sight: its width in the frame's, its height in the most the frame may have
  const fitAll = () => {
    const high = parseFloat(getComputedStyle(view).maxHeight) || window.innerHeight;
    scaleTo(Math.min(Math.max(view.clientWidth - 2, 50) / width, Math.max(high - 2, 50) / height), 0, 0, true);
  };
  const toggle = tool("board-toggle", "Hide", "Hide or show the board", () => fold(!state.hidden));
  const bar = el("div", "board-bar");
  bar.append(
    tool("zoom-out", "−", "Zoom out (Ctrl + wheel, pinch)", () => scaleTo(state.scale / ZOOM_STEP)),
    level,
    tool("zoom-in", "+", "Zoom in (Ctrl + wheel, pinch)", () => scaleTo(state.scale * ZOOM_STEP)),
    tool("zoom-fit", "Fit", "The whole board in sight", fitAll),
    toggle,
  );
  frame.append(bar, view);
  scaleTo(state.scale, 0, 0, state.fit);
  fold(state.hidden);
  view.addEventListener("scroll", () => { state.left = view.scrollLeft; state.top = view.scrollTop; });
  view.addEventListener("wheel", (event) => {
    if (!event.ctrlKey && !event.metaKey) return;  // a plain wheel scrolls, as everywhere
    event.preventDefault();
    const r = view.getBoundingClientRect();
    scaleTo(state.scale * (event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP), event.clientX - r.left, event.clientY - r.top);
  }, { passive: false });
  pinch(view, state, scaleTo);
  const spots = spotsOf(b);
  requestAnimationFrame(() => {  // in the page now: back where the seat left it
    if (state.fit && !state.hidden) fitAll();  // fitted: the board as it has grown
    else if (state.left !== null) {
      const unit = b.cell * state.scale;
      const middle = [(state.left + view.clientWidth / 2) / unit, (state.top + view.clientHeight / 2) / unit];
      const [dx, dy] = state.spots ? shiftOf(state.spots, spots, ...middle) : [0, 0];
      view.scrollLeft = state.left + dx * unit;
      view.scrollTop = state.top + dy * unit;
    }
    state.spots = spots;
  });
  return frame;
}

// two fingers on the board zoom it about their middle; one finger scrolls it (touch-action)
function pinch(view, state, scaleTo) {
  const fingers = new Map();
  let start = null;
  const spread = () => { const [a, b] = [...fingers.values()]; return Math.hypot(a.x - b.x, a.y - b.y) || 1; };
  view.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "touch") return;
    fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (fingers.size === 2) start = { d: spread(), s: state.scale };
  });
  view.addEventListener("pointermove", (e) => {
    if (!fingers.has(e.pointerId)) return;
    fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (fingers.size !== 2 || !start) return;
    const [a, b] = [...fingers.values()];
    const r = view.getBoundingClientRect();
    scaleTo(start.s * (spread() / start.d), (a.x + b.x) / 2 - r.left, (a.y + b.y) / 2 - r.top);
  });
  const lift = (e) => { fingers.delete(e.pointerId); if (fingers.size < 2) start = null; };
  view.addEventListener("pointerup", lift);
  view.addEventListener("pointercancel", lift);
}

// a board whose seat has not scrolled it yet shows its targets: the middle of all of them (a big
// board's open cells round the tiles laid) when they are not all in sight
function revealTargets() {
  for (const frame of document.querySelectorAll(".board-frame")) {
    const state = VIEWS.get(frame.dataset.board);
    const view = frame.querySelector(".board-view");
    const targets = view ? [...view.querySelectorAll("g.place.target, .place-body .target")] : [];
    if (!state || state.left !== null || !targets.length) continue;
    const v = view.getBoundingClientRect();
    const boxes = targets.map((t) => t.getBoundingClientRect());
    const [left, top] = [Math.min(...boxes.map((b) => b.left)), Math.min(...boxes.map((b) => b.top))];
    const [right, bottom] = [Math.max(...boxes.map((b) => b.right)), Math.max(...boxes.map((b) => b.bottom))];
    if (left >= v.left && right <= v.right && top >= v.top && bottom <= v.bottom) continue;  // all in sight
    view.scrollLeft += (left + right) / 2 - (v.left + v.width / 2);
    view.scrollTop += (top + bottom) / 2 - (v.top + v.height / 2);
  }
}
