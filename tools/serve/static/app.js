// tabula serve: the page. It draws what the server sends for one seat (a board built from that
// seat's view) and never holds anything else. Game text is always set as text, never as HTML.
"use strict";

const page = {
  token: "",       // this link's secret (from the address's fragment, never sent in a URL)
  you: null,       // what the token grants: {role: host | seat | spectator, seat}
  info: null,      // the game's public description (/api/info)
  seat: 0,         // whose view is shown
  at: null,        // history position shown (null: now)
  version: -1,     // the table's version last drawn
  data: null,      // the last answer for the seat
  busy: false,
  asked: 0,        // requests for a board made so far: only the newest one's answer is drawn
};

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

const isHost = () => page.you && page.you.role === "host";
const isSpectator = () => page.you && page.you.role === "spectator";

async function request(path, options = {}) {
  return fetch(path, {
    ...options,
    headers: { "Content-Type": "application/json", "X-Tabula-Token": page.token },
  });
}

async function api(path, options = {}) {
  const response = await request(path, options);
  let body = null;
  try { body = await response.json(); } catch (e) { body = null; }
  if (!response.ok) {
    throw new Error((body && body.error) || `${response.status} ${response.statusText}`);
  }
  return body;
}

function say(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = kind;
  box.hidden = !text;
}

// ------------------------------------------------------------------ cards and rows

function card(c) {
  if (c.hidden) {
    const back = el("div", "card back");
    back.append(el("span", "count", c.count > 1 ? `× ${c.count}` : "?"));
    back.title = c.count > 1 ? `${c.count} hidden cards` : "a hidden card";
    if (c.badges.length) back.append(badgeRow(c.badges));  // what its owner was told about it
    return back;
  }
  const node = el("div", "card");
  node.dataset.key = c.key;
  node.dataset.name = c.name;
  node.dataset.ids = (c.ids || []).join(",");
  if (c.colour) node.style.setProperty("--tint", c.colour);
  const title = el("div", "title", c.title);
  if (c.count > 1) title.append(el("span", "count stack", `× ${c.count}`));
  node.append(title);
  if (c.title !== c.name && c.count === 1) node.append(el("div", "name", c.name));
  if (c.shape && c.shape.length) node.append(shapeGrid(c.shape, c.colour));  // board.js
  if (c.image) {  // its picture (a tile), turned as it lies
    const img = el("img", "card-picture");
    img.src = c.image;
    img.alt = c.title;
    if (c.rotation) img.style.transform = `rotate(${c.rotation}deg)`;
    node.append(img);
  }
  if (c.badges.length) node.append(badgeRow(c.badges));
  if (c.text) {
    node.append(el("div", "text", c.text));
    node.title = `${c.name}: ${c.text}`;
  }
  if (c.under && c.under.length) {
    const under = el("div", "under");
    for (const u of c.under) under.append(card(u));
    node.append(under);
  }
  return node;
}

function badgeRow(list) {
  const badges = el("div", "badges");
  for (const b of list) {
    const badge = el("span", "badge", b.text);
    if (b.colour) { badge.style.background = b.colour; badge.classList.add("tinted"); }
    badges.append(badge);
  }
  return badges;
}

function cards(list, secret = false) {
  const row = el("div", "cards");
  // secret: how many it holds is not this seat's to know (size_visibility), so not "empty"
  if (!list.length) row.append(el("span", "empty", secret ? "?" : "empty"));
  for (const c of list) row.append(card(c));
  return row;
}

function line(ln, owner) {
  const row = el("div", `row kind-${ln.kind}`);
  row.dataset.name = ln.name;
  const label = el("div", "label", ln.label);
  // size null: how many it holds is secret to this seat (size_visibility)
  if (ln.kind === "cards" && (ln.size > 0 || ln.size === null)) label.append(el("span", "size", ln.size ?? "?"));
  row.append(label);
  const value = el("div", "value");
  value.dataset.where = `row:${owner}:${ln.name}`;
  value.dataset.ref = `${owner}:${ln.name}`;
  if (ln.kind === "cards") {
    if (ln.groups.length) {
      // a board: the groups side by side, each card's text on hover only
      const board = el("div", "board");
      for (const [name, group] of ln.groups) {
        const g = el("div", "group");
        g.append(el("div", "group-name", name));
        g.append(cards(group));
        board.append(g);
      }
      value.append(board);
    } else {
      value.append(cards(ln.cards, ln.size === null));
    }
  } else if (ln.kind === "keyed") {
    for (const e of ln.entries) value.append(chip(e));
  } else {
    const text = el("span", ln.known ? "plain" : "plain unknown", ln.text);
    if (ln.colour) { text.classList.add("player"); text.style.setProperty("--tint", ln.colour); }
    value.append(text);
  }
  row.append(value);
  return row;
}

function panel(node, p, open = true) {
  node.replaceChildren();
  const head = el("header", "panel-head");
  if (p.colour) head.style.setProperty("--tint", p.colour);
  head.append(el("h2", null, p.title));
  if (p.summary) head.append(el("div", "summary", p.summary));
  node.append(head);
  const owner = p.player === null ? "table" : p.player;
  if (p.board) node.append(drawBoard(p.board, owner));
  // what the board draws is not listed again (the terminal, which draws no board, lists it)
  const drawn = new Set(p.board ? p.board.places.map((pl) => pl.name).filter(Boolean) : []);
  const body = el("div", "sections");
  for (const s of p.sections) {
    const box = el("div", "section");
    // a section with a board (a zone in groups) or many cards takes the whole width
    const many = s.lines.some((ln) => ln.groups.length || ln.cards.reduce((n, c) => n + (c.hidden ? 1 : 1), 0) > 5);
    if (many) box.classList.add("wide");
    if (s.title) box.append(el("h3", null, s.title));
    const lines = s.lines.filter((ln) => !drawn.has(ln.name));
    if (!lines.length) continue;
    for (const ln of lines) box.append(line(ln, owner));
    body.append(box);
  }
  if (!open) body.hidden = true;
  head.addEventListener("click", () => { body.hidden = !body.hidden; });
  node.append(body);
}

// ------------------------------------------------------------------ the decision

function actionLabel(name) {
  const found = (page.info.actions || []).find((a) => a.name === name);
  return found ? found.label : null;
}

function caption(choice) {
  if (choice.given) return choice.label;
  const i = choice.label.indexOf(": ");
  return i >= 0 ? choice.label.slice(i + 2) : choice.label;
}

function decision(data) {
  const box = $("decision");
  box.replaceChildren();
  const dec = data.board.decision;
  if (!dec) { box.hidden = true; return; }
  box.hidden = false;
  const n = (dec.waiting || []).length;
  const waiting = `waiting for ${n} player${n === 1 ? "" : "s"}…`;
  if (!dec.mine) {
    box.className = "waiting";
    if (dec.answered) box.append(el("p", "answered", `Your answer: ${dec.answered} (hidden from the others until all have answered)`));
    box.append(el("p", null, n ? waiting : `${dec.name} to decide…`));
    return;
  }
  box.className = data.live ? "mine" : "mine past";
  box.append(el("h2", null, dec.prompt || "Your decision"));
  if (n) box.append(el("p", "note", `Everyone answers at once, in secret: ${waiting}`));
  if (!data.live) box.append(el("p", "note", "You are looking at the past: go back to now to decide."));
  const groups = new Map();
  for (const c of dec.choices) {
    const key = actionLabel(c.action) !== null && c.id !== c.action ? c.action : "";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(c);
  }
  for (const [action, list] of groups) {
    const g = el("div", "choice-group");
    if (action && !list.every((c) => c.given)) g.append(el("div", "choice-head", actionLabel(action)));
    const buttons = el("div", "buttons");
    for (const c of list) {
      const b = el("button", "choice");
      b.type = "button";
      b.dataset.choice = c.id;
      b.disabled = !data.live;
      b.append(el("span", "caption", action ? caption(c) : c.label));
      b.append(el("span", "id", c.id));
      b.title = c.id;
      b.addEventListener("click", () => choose(c.id));
      buttons.append(b);
    }
    g.append(buttons);
    box.append(g);
  }
}

// ------------------------------------------------------------------ the whole page

function seats(data) {
  const nav = $("seats");
  nav.replaceChildren();
  data.seats.forEach((s, i) => {
    const seat = data.board.seats[i];
    const b = el("button", "seat");
    b.type = "button";
    b.dataset.seat = i;
    b.style.setProperty("--tint", seat.colour);
    if (i === page.seat && !isSpectator()) b.classList.add("current");
    if (seat.active) b.classList.add("deciding");
    b.append(el("span", "seat-name", s.name));
    b.append(el("span", "seat-kind", s.kind === "human" ? "person" : `${s.kind} bot`));
    b.title = isHost() ? `Show ${s.name}'s view` : s.name;
    b.disabled = !isHost() && (i !== page.seat || isSpectator());
    b.addEventListener("click", () => switchSeat(i));
    nav.append(b);
  });
}

function players(data) {
  const list = $("player-list");
  list.replaceChildren();
  data.board.seats.forEach((s, i) => {
    const item = el("li", s.active ? "deciding" : "");
    item.style.setProperty("--tint", s.colour);
    item.append(el("strong", null, s.name + (i === page.seat && !isSpectator() ? " (you)" : "")));
    item.append(el("span", "summary", s.summary));
    list.append(item);
  });
}

function finalScores(data) {
  const box = $("final");
  const final = data.board.final;
  box.replaceChildren();
  box.hidden = !final;
  if (!final) return;
  box.append(el("h2", null, "Game over"));
  const table = el("table", "scores");
  const head = el("tr");
  head.append(el("th", null, ""));
  for (const f of final) {
    const th = el("th", f.winner ? "winner" : "", f.name + (f.winner ? " ★" : ""));
    th.style.setProperty("--tint", data.board.seats[f.player].colour);
    head.append(th);
  }
  table.append(head);
  const rows = final.length ? final[0].parts.map((p) => p[0]) : [];
  rows.forEach((label, r) => {
    const tr = el("tr");
    tr.append(el("th", "part", label));
    for (const f of final) tr.append(el("td", null, f.parts[r] ? f.parts[r][1] : ""));
    table.append(tr);
  });
  const total = el("tr", "total");
  total.append(el("th", "part", "Total"));
  for (const f of final) total.append(el("td", null, f.total));
  table.append(total);
  box.append(table);
  const winners = final.filter((f) => f.winner).map((f) => f.name);
  const lowest = data.board.ranking === "lowest" ? " (the lowest score wins)" : "";
  box.append(el("p", "winners", `${winners.length === 1 ? "Winner" : "Winners"}${lowest}: ${winners.join(", ")}`));
}

function history(data) {
  const slider = $("slider");
  slider.max = data.decisions;
  slider.value = data.at;
  const plural = data.decisions === 1 ? "decision" : "decisions";
  $("history-label").textContent = data.live
    ? `${data.decisions} ${plural} so far · ${data.started}`
    : `after decision ${data.at} of ${data.decisions} (the past)`;
  document.body.classList.toggle("past", !data.live);
  $("live").hidden = data.live;
  $("undo").disabled = !data.can_undo || !data.live;
}

function report(data) {
  const box = $("report");
  const r = data.report;
  box.replaceChildren();
  box.hidden = !r;
  if (!r) return;
  box.className = `report ${r.kind}`;
  box.append(el("strong", null, r.message));
  if (r.detail) box.append(el("pre", null, r.detail));
  const close = el("button", "close", "×");
  close.type = "button";
  close.title = "Hide";
  close.addEventListener("click", () => { box.hidden = true; });
  box.append(close);
}

function banner(data) {
  const box = $("banner");
  box.replaceChildren();
  if (!data.live) {
    box.hidden = false;
    box.append(el("span", null, `You are looking at the position after decision ${data.at} of ${data.decisions}. `));
    const back = el("button", "switch", "Back to now");
    back.type = "button";
    back.addEventListener("click", () => { page.at = null; refresh(); });
    box.append(back);
    return;
  }
  const who = data.human_to_decide;
  box.hidden = !(data.live && who !== null && who !== page.seat);
  if (box.hidden) return;
  box.append(el("span", null, `It is ${data.seats[who].name}'s decision. `));
  if (!isHost()) return;
  const b = el("button", "switch", `Show ${data.seats[who].name}'s view`);
  b.type = "button";
  b.addEventListener("click", () => switchSeat(who));
  box.append(b);
}

function dialogSays(id, text) {
  // an error of a dialog's request shows in the dialog (the page behind a modal dialog is covered)
  const box = $(id);
  box.textContent = text;
  box.hidden = !text;
}

function draw(data) {
  const before = page.data;
  if (before && (before.decisions !== data.decisions || before.at !== data.at || before.seat !== data.seat)) {
    $("why-answer").textContent = "";  // an answer about another position
  }
  page.data = data;
  page.version = data.version;
  const board = data.board;
  document.title = `${board.title} · ${isSpectator() ? "spectator" : data.seats[page.seat].name}`;
  $("game-name").textContent = board.title;
  $("status").textContent = board.status;
  seats(data);
  history(data);
  report(data);
  banner(data);
  decision(data);
  finalScores(data);
  panel($("you"), board.you);
  panel($("table"), board.table);
  const others = $("others");
  others.replaceChildren();
  for (const p of board.others) {
    const node = el("section", "panel other");
    panel(node, p);
    others.append(node);
  }
  players(data);
  const log = $("log-lines");
  log.replaceChildren(...data.log.map((t) => el("li", null, t)));
  log.scrollTop = log.scrollHeight;
  markChanges(data);
  showThought(data);
  showThinking(null);
  markTargets(data);
  if (board.problems.length) say(`presentation: ${board.problems.join("; ")}`, "warning");
}

function boardPath() {
  return isSpectator() ? "/api/public" : `/api/seat/${page.seat}`;
}

async function refresh() {
  const at = page.at === null ? "" : `?at=${page.at}`;
  const asked = ++page.asked;
  try {
    const data = await api(`${boardPath()}${at}`);
    // a poll's answer that arrives after a choice's would draw the board before the choice
    if (asked === page.asked) draw(data);
  } catch (e) {
    say(e.message);
  }
}

async function choose(id) {
  if (page.busy) return;
  page.busy = true;
  document.body.classList.add("busy");
  const watch = setInterval(poll, 250);  // while the bots answer: who thinks, and for how long
  try {
    const body = JSON.stringify({ choice: id, decision: page.data.decisions });
    const asked = ++page.asked;
    const data = await api(`/api/seat/${page.seat}/choose`, { method: "POST", body });
    if (asked === page.asked) draw(data);
    say("");
  } catch (e) {
    say(e.message);
  } finally {
    clearInterval(watch);
    page.busy = false;
    document.body.classList.remove("busy");
  }
}

function switchSeat(i) {
  if (!isHost()) return;  // a seat's link shows that seat only
  page.seat = i;
  page.at = null;
  location.hash = `token=${page.token}&seat=${i}`;
  $("why-answer").textContent = "";
  refresh();
}

// a bot thinking now (from /api/version, while the page waits), counted in seconds
function showThinking(busy) {
  const box = $("thinking");
  box.hidden = !busy;
  box.textContent = busy ? `${busy.name} (${busy.kind} bot) is thinking… ${busy.seconds.toFixed(1)} s` : "";
}

// how long the bots thought over the last decisions (data.thought, the newest last)
function showThought(data) {
  const box = $("thought");
  const list = data.thought || [];
  box.hidden = !list.length;
  box.replaceChildren();
  if (!list.length) return;
  box.append(el("span", "thought-head", "Bots' thinking time: "));
  for (const t of list.slice(-4)) {
    const item = el("span", "thought-item", `${t.name} ${t.seconds.toFixed(2)} s (decision ${t.decision})`);
    item.dataset.decision = t.decision;
    box.append(item);
  }
}

async function poll() {
  try {
    const v = await api("/api/version");
    showThinking(v.thinking);
    if (v.version !== page.version && !page.busy) await refresh();
  } catch (e) {
    // the server is gone or busy: try again on the next tick
  }
}

// ------------------------------------------------------------------ tools

function seatRow(name, kind) {
  const row = el("div", "seat-row");
  const input = el("input");
  input.value = name;
  input.setAttribute("aria-label", "Name");
  const select = el("select");
  for (const k of page.info.seat_kinds) {
    const o = el("option", null, k === "human" ? "person" : `${k} bot`);
    o.value = k;
    if (k === kind) o.selected = true;
    select.append(o);
  }
  row.append(input, select);
  return row;
}

function openNew() {
  const box = $("new-seats");
  box.replaceChildren();
  const seatsNow = page.data ? page.data.seats : [];
  seatsNow.forEach((s) => box.append(seatRow(s.name, s.kind)));
  dialogSays("new-error", "");
  $("new-dialog").showModal();
}

async function startNew(event) {
  event.preventDefault();
  const rows = [...$("new-seats").children];
  const seatsWanted = rows.map((r) => ({ name: r.querySelector("input").value, kind: r.querySelector("select").value }));
  const seed = $("new-seed").value === "" ? null : Number($("new-seed").value);
  try {
    await api("/api/new", { method: "POST", body: JSON.stringify({ seats: seatsWanted, seed }) });
    $("new-dialog").close();
    dialogSays("new-error", "");
    page.seat = Math.min(page.seat, seatsWanted.length - 1);
    page.at = null;
    say("");
    await refresh();
  } catch (e) {
    dialogSays("new-error", e.message);
  }
}

async function openScenarios() {
  const list = $("scenario-list");
  list.replaceChildren();
  for (const path of page.info.scenarios) {
    const item = el("li");
    const b = el("button", "scenario", path);
    b.type = "button";
    b.addEventListener("click", () => startScenario({ path }));
    item.append(b);
    list.append(item);
  }
  if (!page.info.scenarios.length) list.append(el("li", "empty", "this game ships no scenario files"));
  dialogSays("scenario-error", "");
  $("scenario-dialog").showModal();
}

async function startScenario(body) {
  try {
    await api("/api/scenario", { method: "POST", body: JSON.stringify(body) });
    $("scenario-dialog").close();
    page.seat = 0;
    page.at = null;
    say("");
    await refresh();
  } catch (e) {
    dialogSays("scenario-error", e.message);
  }
}

async function loadSave(file) {
  try {
    const text = await file.text();
    let data;
    try { data = JSON.parse(text); } catch (e) { throw new Error(`${file.name} is not a saved game (not JSON)`); }
    await api("/api/load", { method: "POST", body: JSON.stringify(data) });
    page.at = null;
    say("");
    await refresh();
  } catch (e) {
    say(e.message);
  }
}

async function whyNot(event) {
  event.preventDefault();
  const action = $("why-action").value;
  const args = $("why-args").value.trim();
  const name = args ? `${action}:${args}` : action;
  try {
    const answer = await api(`/api/seat/${page.seat}/why?action=${encodeURIComponent(name)}`);
    $("why-answer").textContent = answer.text;
  } catch (e) {
    $("why-answer").textContent = e.message;
  }
}

async function download(path) {
  // a download with the token in a header (a plain link would need it in the address)
  try {
    const response = await request(path);
    if (!response.ok) throw new Error((await response.json()).error);
    const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
    const link = el("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = name ? name[1] : "download";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  } catch (e) {
    say(e.message);
  }
}

async function openLinks() {
  const list = $("link-list");
  list.replaceChildren();
  try {
    for (const link of await api("/api/links")) {
      const item = el("li");
      item.append(el("strong", null, link.who), " ");
      const field = el("input", "link");
      field.readOnly = true;
      field.value = link.url;
      field.addEventListener("focus", () => field.select());
      item.append(field);
      list.append(item);
    }
    $("links-dialog").showModal();
  } catch (e) {
    say(e.message);
  }
}

function readAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  page.token = params.get("token") || "";
  const seat = Number(params.get("seat"));
  if (Number.isInteger(seat) && seat >= 0) page.seat = seat;
}

function roleTools() {
  // what this link may do: the host everything, a seat its own seat, a spectator look
  document.body.classList.toggle("host", isHost());
  document.body.classList.toggle("spectator", isSpectator());
  for (const id of ["save", "load", "open-scenario", "export", "open-new", "open-links"]) $(id).hidden = !isHost();
  $("undo").hidden = isSpectator();
  $("why").hidden = isSpectator();
  $("you").hidden = isSpectator();  // a spectator has no seat: the panels of every seat are below
  if (page.you.role === "seat") page.seat = page.you.seat;
}

async function main() {
  readAddress();
  if (!page.token) {
    say("This table needs the secret link the host gave you: open that link (it ends in #token=...).");
    return;
  }
  page.info = await api("/api/info");
  page.you = page.info.you;
  roleTools();
  const select = $("why-action");
  for (const a of page.info.actions) {
    const o = el("option", null, a.label === a.name ? a.name : `${a.name} (${a.label})`);
    o.value = a.name;
    select.append(o);
  }
  if (!page.info.actions.length) {  // nothing to ask about: say why rather than show an empty menu
    $("why-form").hidden = true;
    const none = el("p", "note why-none", "This game has no actions to ask about: each decision chooses among what is offered (under Decision), and everything offered is possible.");
    $("why-form").after(none);
  }
  $("why-form").addEventListener("submit", whyNot);
  $("undo").addEventListener("click", async () => {
    const body = JSON.stringify({ decision: page.data.decisions });  // a second click is refused, not a second undo
    try { draw(await api(`/api/seat/${page.seat}/undo`, { method: "POST", body })); say(""); } catch (e) { say(e.message); }
  });
  $("slider").addEventListener("input", () => {
    const v = Number($("slider").value);
    page.at = v >= page.data.decisions ? null : v;
    refresh();
  });
  $("live").addEventListener("click", () => { page.at = null; refresh(); });
  $("load-file").addEventListener("change", (e) => { if (e.target.files[0]) loadSave(e.target.files[0]); e.target.value = ""; });
  $("open-new").addEventListener("click", openNew);
  $("new-form").addEventListener("submit", startNew);
  $("new-cancel").addEventListener("click", () => $("new-dialog").close());
  $("add-seat").addEventListener("click", () => {
    const n = $("new-seats").children.length;
    if (n < page.info.max_players) $("new-seats").append(seatRow(page.info.default_names[n] || `P${n + 1}`, "random"));
  });
  $("remove-seat").addEventListener("click", () => {
    const box = $("new-seats");
    if (box.children.length > page.info.min_players) box.lastChild.remove();
  });
  $("open-scenario").addEventListener("click", openScenarios);
  $("save").addEventListener("click", () => download("/api/save"));
  $("export").addEventListener("click", () => download("/api/export"));
  $("open-links").addEventListener("click", openLinks);
  $("scenario-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) await startScenario({ text: await file.text(), name: file.name });
    e.target.value = "";
  });
  await refresh();
  setInterval(poll, 1000);
}

main().catch((e) => say(e.message));
