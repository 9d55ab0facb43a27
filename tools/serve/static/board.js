// tabula serve: the boards a game's presentation lays out (docs/presentation.md, "Boards"), drawn as
// SVG; play on the board (legal targets highlighted, a click chooses); what the last decisions changed,
// marked. Uses el() and card() of app.js. Game text is always set as text, never as HTML.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const XHTML_NS = "http://www.w3.org/1999/xhtml";
const TITLE_HEIGHT = 22;

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function placeShape(p, x, y, w, h) {
  const fill = p.colour || "#efe7d4";
  if (p.shape === "circle") {
    return svg("ellipse", { cx: x + w / 2, cy: y + h / 2, rx: w / 2 - 2, ry: h / 2 - 2, fill, class: "place-shape" });
  }
  const r = p.shape === "round" ? 14 : 0;
  return svg("rect", { x: x + 2, y: y + 2, width: w - 4, height: h - 4, rx: r, ry: r, fill, class: "place-shape" });
}

function placeBody(p, where, owner) {
  const body = document.createElementNS(XHTML_NS, "div");
  body.className = `place-body kind-${p.kind} detail-${p.detail}`;
  body.dataset.where = where;
  if (p.name) body.dataset.ref = `${owner}:${p.name}`;
  if (p.kind === "cards") {
    if (!p.cards.length && !p.ids.length) body.append(el("span", "empty-slot", ""));
    for (const c of p.cards) body.append(card(c));
  } else if (p.kind === "keyed") {
    for (const e of p.entries) body.append(chip(e));
  } else if (p.kind === "text" && !p.text) {
    if (!p.ids.length) body.append(el("span", "empty-slot", ""));  // a board's free cell is plain
  } else if (p.kind === "text") {
    const text = el("span", "place-text", p.text);
    if (p.text_colour) { text.classList.add("player"); text.style.setProperty("--tint", p.text_colour); }
    body.append(text);
  }
  return body;
}

function chip(e) {
  const node = el("span", e.value ? "chip" : "chip zero", `${e.label} ${e.value}`);
  node.dataset.key = e.key;
  if (e.colour) node.style.setProperty("--tint", e.colour);
  return node;
}

// a graph's edge (a route of a map): a line from one space to the other, a row of `segments` when it
// has a length, in its colour; held by a player (a mark naming one: p.text_colour), in the player's
// seat colour, thicker and joined up (a route of the seat's colour stays told apart). A wide clear line under it is what a click hits and what lights up.
function edgeShape(g, p, cell) {
  const [x1, y1, x2, y2] = p.line.map((v) => v * cell);
  const long = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / long, (y2 - y1) / long];
  const held = Boolean(p.text_colour);
  g.classList.toggle("held", held);
  // a band 16 px wide, 32 under a finger (a polygon: a vertical line has no width to click)
  const half = window.matchMedia("(pointer: coarse)").matches ? 16 : 8;
  const [nx, ny] = [-uy * half, ux * half];
  const band = [[x1 + nx, y1 + ny], [x2 + nx, y2 + ny], [x2 - nx, y2 - ny], [x1 - nx, y1 - ny]];
  g.append(svg("polygon", { points: band.map((pt) => pt.join(",")).join(" "), class: "edge-hit" }));
  // a free edge's segments are apart, a held one's joined up, each with a light dot (a train car)
  const n = Math.max(p.segments, 1);
  const gap = n > 1 && !held ? Math.min(3, long / n / 3) : 0;
  const stroke = p.text_colour || p.colour || "#8a8a8a";
  for (let k = 0; k < n; k++) {
    const [a, b] = [(long * k) / n + gap / 2, (long * (k + 1)) / n - gap / 2];
    const ends = { x1: x1 + ux * a, y1: y1 + uy * a, x2: x1 + ux * b, y2: y1 + uy * b };
    g.append(svg("line", { ...ends, class: "edge-rim" }));
    g.append(svg("line", { ...ends, class: "edge-seg", stroke }));
    if (held) g.append(svg("circle", { cx: (ends.x1 + ends.x2) / 2, cy: (ends.y1 + ends.y2) / 2, r: 2, class: "edge-car" }));
  }
  const tip = svg("title");  // its name, and who holds it
  tip.textContent = p.text ? `${p.title}: ${p.text}` : p.title;
  g.append(tip);
}

// where a space's name is written, by the side of its dot the layout chose (p.side): the text's
// anchor point and alignment for a dot at (cx, cy) of radius r (12 px text)
const NAME_AT = {
  below: (cx, cy, r) => [cx, cy + r + 12, "middle"],
  above: (cx, cy, r) => [cx, cy - r - 4, "middle"],
  right: (cx, cy, r) => [cx + r + 3, cy + 4, "start"],
  left: (cx, cy, r) => [cx - r - 3, cy + 4, "end"],
};

// a graph's space: a dot, its name beside it, and what it shows (a mark) after the name
function spaceShape(g, p, x, y, w) {
  const [cx, cy, r] = [x + w / 2, y + w / 2, w / 2];
  g.append(svg("circle", { cx, cy, r, class: "place-shape space-dot" }));
  const [nx, ny, anchor] = (NAME_AT[p.side] || NAME_AT.below)(cx, cy, r);
  const name = svg("text", { x: nx, y: ny, class: "space-name", "text-anchor": anchor });
  name.textContent = p.title;
  if (p.kind === "text" && p.text) {  // a mark of the space: "Denver: Ann", in the player's colour
    const value = svg("tspan", { class: "space-value" });
    if (p.text_colour) value.setAttribute("fill", p.text_colour);
    value.textContent = `: ${p.text}`;
    name.append(value);
  }
  g.append(name);
}

// how a picture lies on a cell: mirrored first (east and west swapped) when `mirror`, then turned
// `rotation` degrees clockwise about the cell's middle (cx, cy)
function turnedAbout(rotation, mirror, cx, cy) {
  return `rotate(${rotation || 0} ${cx} ${cy})${mirror ? ` translate(${2 * cx} 0) scale(-1 1)` : ""}`;
}

// a place's picture: a board cell's tile fills it, turned as it lies (p.rotation, mirrored first
// where p.mirror says); a place that
// holds nothing and has no title is a picture of its own; any other place's picture is a faint
// background, under what the place holds
function placeImage(g, p, x, y, w, h) {
  const tile = Boolean(p.ids && p.ids.length);
  const own = tile || (p.kind === "empty" && !p.title);
  const inset = tile && p.colour ? 5 : tile ? 1 : 4;  // a coloured cell's colour rims its tile
  const img = svg("image", { href: p.image, x: x + inset, y: y + inset, width: Math.max(w - 2 * inset, 1),
    height: Math.max(h - 2 * inset, 1), preserveAspectRatio: "xMidYMid meet", class: own ? "place-image picture" : "place-image" });
  if (p.rotation || p.mirror) img.setAttribute("transform", turnedAbout(p.rotation, p.mirror, x + w / 2, y + h / 2));
  g.append(img);
}

// where on a cell a token stands (a component's `at`): fractions of the cell's width and height
const TOKEN_AT = { n: [0.5, 0.2], ne: [0.8, 0.2], e: [0.8, 0.5], se: [0.8, 0.8], s: [0.5, 0.8], sw: [0.2, 0.8],
  w: [0.2, 0.5], nw: [0.2, 0.2], c: [0.5, 0.5] };

// what lies on a cell besides its tile (a follower on a laid tile): a token in its colour where its
// `at` says, else in a row at the cell's foot
function cellTokens(g, p, x, y, w, h) {
  const r = Math.max(Math.min(w, h) * 0.13, 4);
  p.cards.slice(1).forEach((c, k) => {
    const [fx, fy] = TOKEN_AT[c.at] || [0.2 + 0.3 * (k % 3), 0.85];
    const token = svg("circle", { cx: x + w * fx, cy: y + h * fy, r, fill: c.hidden ? "#8a8a8a" : c.colour || "#5a5a5a",
      class: "cell-token" });
    const tip = svg("title");
    tip.textContent = c.hidden ? "?" : [c.title, ...c.badges.map((b) => b.text)].join(" · ");
    token.append(tip);
    g.append(token);
  });
}

// a turned cell without a picture: a small arrow pointing where its top now is
function turnMark(g, p, x, y, w, h) {
  const [cx, cy, r] = [x + w / 2, y + h / 2, Math.min(w, h) / 2];
  const arrow = svg("polygon", { points: `${cx},${cy - r + 3} ${cx - 5},${cy - r + 11} ${cx + 5},${cy - r + 11}`,
    class: "turn-mark", transform: `rotate(${p.rotation} ${cx} ${cy})` });
  g.append(arrow);
}

// a piece's shape ([x, y] squares) as a small grid of squares in its colour
function shapeGrid(cells, colour, size = 9) {
  const w = Math.max(...cells.map((c) => c[0])) + 1;
  const h = Math.max(...cells.map((c) => c[1])) + 1;
  const root = svg("svg", { width: w * size + 2, height: h * size + 2, viewBox: `-1 -1 ${w * size + 2} ${h * size + 2}`,
    class: "shape-grid", role: "img" });
  root.setAttribute("aria-label", `a shape of ${cells.length} squares`);
  for (const [cx, cy] of cells) {
    root.append(svg("rect", { x: cx * size, y: cy * size, width: size, height: size, fill: colour || "#8c8373", class: "shape-square" }));
  }
  return root;
}

// one board: each place a shape with its title, and what it holds in an HTML box inside the SVG; a
// map (a graph's spaces and edges) has its edges under its spaces. Drawn at a readable scale in a
// frame that scrolls, zooms and folds away (boardFrame)
function drawBoard(b, owner) {
  const width = b.width * b.cell;
  const height = b.height * b.cell;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "layout", role: "group" });
  const edges = svg("g", { class: "edges" });
  root.append(edges);
  b.places.forEach((p, i) => {
    const [x, y, w, h] = [p.x * b.cell, p.y * b.cell, p.w * b.cell, p.h * b.cell];
    const g = svg("g", { class: `place shape-${p.shape}` });
    g.dataset.place = p.title || p.name;
    if (p.name) g.dataset.name = p.name;
    if (p.choice !== null) g.dataset.choice = p.choice;
    if (p.ids && p.ids.length) {  // a board's cell or edge: that very one, and where it lies
      g.dataset.ids = p.ids.join(",");
      g.dataset.x = p.x;
      g.dataset.y = p.y;
    }
    if (p.shape === "edge" && p.line) {
      edgeShape(g, p, b.cell);
      edges.append(g);
      return;
    }
    if (p.shape === "dot") {
      spaceShape(g, p, x, y, w);
      root.append(g);
      return;
    }
    const picture = p.image && p.kind === "empty" && !p.title && !(p.ids && p.ids.length);
    if (!picture) g.append(placeShape(p, x, y, w, h));  // a picture of its own needs no frame
    if (p.ids && p.ids.length && p.colour) g.classList.add("coloured");  // a cell its presentation colours
    if (p.ids && p.ids.length && !p.image && !p.text && !(p.cards || []).length) g.classList.add("free-cell");
    if (p.image) placeImage(g, p, x, y, w, h);
    else if (p.rotation) turnMark(g, p, x, y, w, h);
    if (p.image && p.ids && p.ids.length && p.cards && p.cards.length > 1) cellTokens(g, p, x, y, w, h);
    let top = y + 4;
    if (p.title && !(p.ids && p.ids.length && p.image)) {  // a tile's picture is its face
      const title = svg("text", { x: x + w / 2, y: y + 17, class: "place-title", "text-anchor": "middle" });
      // how many it holds; a board's cell holding one shows just that one (a small cell's title fits)
      const counted = p.kind === "cards" && (p.size === null || p.size > (p.ids && p.ids.length ? 1 : 0));
      title.textContent = counted ? `${p.title} (${p.size ?? "?"})` : p.title;
      g.append(title);
      top = y + TITLE_HEIGHT;
    }
    if (p.ids && p.ids.length && p.image) {  // a tile's picture is what it shows: its name on hover
      const tip = svg("title");
      tip.textContent = [p.title, ...p.cards.map((c) => c.title), p.text].filter(Boolean).join(": ");
      g.append(tip);
    } else if (p.kind !== "empty") {
      const box = svg("foreignObject", { x: x + 6, y: top, width: Math.max(w - 12, 1), height: Math.max(y + h - top - 6, 1) });
      box.append(placeBody(p, `place:${owner}:${i}`, owner));
      g.append(box);
    }
    root.append(g);
  });
  const map = edges.childElementCount > 0;
  if (map) root.classList.add("map");
  return boardFrame(b, String(owner), root, map);
}

// ------------------------------------------------------------------ play on the board

// choice id -> the words a thing on the board may be named by: the whole id, each argument, and each
// item of an argument that is a list (a placement `lay:a1+b1` names the cells a1 and b1; so does
// `a1+b1`, a list answering a `choose`)
function choiceWords(id) {
  const words = [id];
  const colon = id.indexOf(":");
  if (colon >= 0) {
    for (const arg of id.slice(colon + 1).split(",")) {
      words.push(arg);
      if (arg.includes("+")) words.push(...arg.split("+"));
    }
  } else if (id.includes("+")) {
    words.push(...id.split("+"));
  }
  return words;
}

function addTo(found, key, c) {
  if (!found.has(key)) found.set(key, []);
  if (!found.get(key).includes(c)) found.get(key).push(c);
}

// the choices naming each word (a key, a place's choice) and each component (by id): a card is a
// target only when a choice names that very component, not another card of the same name
function targetsOf(dec) {
  const words = new Map();
  const comps = new Map();
  for (const c of dec.choices) {
    for (const w of choiceWords(c.id)) addTo(words, w, c);
    for (const id of c.targets || []) addTo(comps, id, c);
  }
  return { words, comps };
}

function choicesFor(node, targets) {
  // a board place names its cell both ways: by component when the choices name components (then a
  // cell of the same name on another player's board is no target), else by its name
  if (node.dataset.ids !== undefined && (node.tagName === "g" ? targets.comps.size : true)) {
    const found = [];
    for (const id of node.dataset.ids.split(",").filter(Boolean)) {
      for (const c of targets.comps.get(Number(id)) || []) if (!found.includes(c)) found.push(c);
    }
    return found.length ? found : null;
  }
  return targets.words.get(node.dataset.choice ?? node.dataset.key) || null;
}

// highlight what a click may choose now; a thing with one choice makes it, with more it shows them
function markTargets(data) {
  const dec = data.board.decision;
  if (!dec || !dec.mine || !data.live) return;
  // a piece to put on a board (place.js), or to lay turned on one cell (turn.js)
  const placing = startPlacing(dec) || startTurning(dec);
  const targets = targetsOf(placing ? { choices: dec.choices.filter((c) => !placing.choices.has(c)) } : dec);
  const things = document.querySelectorAll(".card[data-ids], .chip[data-key], g.place[data-choice], g.place[data-ids]");
  for (const node of things) {
    if (placing && node.tagName === "g" && node.ownerSVGElement === placing.board) continue;
    const list = choicesFor(node, targets);
    if (!list) continue;
    node.classList.add("target");
    const labels = list.map((c) => c.label).join(" · ");
    node.setAttribute("aria-label", `choose: ${labels}`);
    if (node instanceof HTMLElement) node.title = `${node.title ? node.title + "\n" : ""}click: ${labels}`;
    node.addEventListener("click", (event) => {
      event.stopPropagation();
      if (list.length === 1) choose(list[0].id);
      else offer(list);
    });
  }
  revealTargets();
}

function offer(list) {
  const ids = new Set(list.map((c) => c.id));
  for (const b of document.querySelectorAll("#decision button.choice")) {
    b.classList.toggle("offered", ids.has(b.dataset.choice));
  }
  $("decision").scrollIntoView({ block: "nearest" });
}

// ------------------------------------------------------------------ what changed

// what the last decision changed, as the server says (data.changes): the components that moved, and
// the zones, counters and vars (owner:name, a keyed counter's key owner:name:key) whose value changed
function markChanges(data) {
  const ch = data.changes;
  if (!ch) return;
  const changed = new Set(ch.changed);
  const moved = new Set(ch.moved);
  for (const node of document.querySelectorAll("[data-ref]")) {
    const ref = node.dataset.ref;
    if (!changed.has(ref)) continue;
    node.classList.add("changed");
    for (const chipNode of node.querySelectorAll(".chip[data-key]")) {
      if (changed.has(`${ref}:${chipNode.dataset.key}`)) chipNode.classList.add("changed");
    }
  }
  for (const c of document.querySelectorAll(".card[data-ids]")) {
    if (c.dataset.ids.split(",").some((id) => id && moved.has(Number(id)))) c.classList.add("moved");
  }
}
