// The scoreboard page: draws the latest view of the game and follows changes as server-sent events.
// Every change the page asks for carries the table's PIN (kept for this tab only, in sessionStorage).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const RED = new Set(["d", "h"]);
const SUIT = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
let layout = null;
let view = null;

function $(id) { return document.getElementById(id); }
function tid(name) { return document.querySelector(`[data-testid="${name}"]`); }

function cardElement(text, by) {
  const el = document.createElement("span");
  el.className = "card";
  if (text === "back") {
    el.classList.add("back");
    el.textContent = "??";
  } else {
    const suit = text.slice(-1);
    el.textContent = text.slice(0, -1) + (SUIT[suit] || suit);
    if (RED.has(suit)) el.classList.add("red");
  }
  el.dataset.card = text;
  if (by !== undefined && by !== null) el.classList.add("by" + by);
  return el;
}

function showCards(node, cards, owners) {
  node.replaceChildren(...(cards || []).map((c, i) => cardElement(c, owners ? owners[i] : undefined)));
}

// Board geometry: the layout file has the board standing up (90 x 500 mm); the page lays it on its side.
function holePoint(track, score) {
  if (!layout) {
    const x = score === 0 ? 8 : 10 + score * (480 / 121);
    return [x, 25 + track * 40];
  }
  if (score === 0) return null;
  const hole = layout.byHole[track + ":" + score];
  return hole ? [layout.size[1] - hole.y_mm, hole.x_mm] : null;
}

function startPoint(track, peg) {
  if (!layout) return [peg === "rear" ? 4 : 10, 25 + track * 40];
  const s = layout.start[track + ":" + peg];
  return s ? [layout.size[1] - s.y_mm, s.x_mm] : null;
}

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  if (layout) svg.setAttribute("viewBox", `0 0 ${layout.size[1]} ${layout.size[0]}`);
  const holes = document.createElementNS(SVG, "g");
  for (let track = 0; track < 2; track++) {
    for (let score = 1; score <= 121; score++) {
      const p = holePoint(track, score);
      if (!p) continue;
      const c = document.createElementNS(SVG, "circle");
      c.setAttribute("cx", p[0]); c.setAttribute("cy", p[1]); c.setAttribute("r", score === 121 ? 2.6 : 1.6);
      c.setAttribute("class", "hole");
      holes.appendChild(c);
    }
  }
  svg.appendChild(holes);
  const pegs = document.createElementNS(SVG, "g");
  pegs.id = "pegs";
  svg.appendChild(pegs);
}

function drawPegs() {
  const g = $("pegs");
  if (!g || !view) return;
  g.replaceChildren();
  const colours = view.colours || ["#00c0ff", "#ff6000"];
  (view.pegs || []).forEach((pair, track) => {
    if (track > 1) return;
    ["rear", "forward"].forEach((kind, i) => {
      const score = pair[i];
      const p = score === 0 ? startPoint(track, kind) : holePoint(track, score);
      if (!p) return;
      const c = document.createElementNS(SVG, "circle");
      c.setAttribute("cx", p[0]); c.setAttribute("cy", p[1]); c.setAttribute("r", 3.2);
      c.setAttribute("fill", colours[track]);
      c.setAttribute("class", "peg " + kind);
      c.dataset.track = track; c.dataset.peg = kind; c.dataset.score = score;
      g.appendChild(c);
    });
  });
  const t = view.tentative;
  if (t) {
    const p = holePoint(t.player, Math.min(121, t.score));
    if (p) {
      const c = document.createElementNS(SVG, "circle");
      c.setAttribute("cx", p[0]); c.setAttribute("cy", p[1]); c.setAttribute("r", 3.2);
      c.setAttribute("fill", colours[t.player]);
      c.setAttribute("class", "peg tentative");
      c.dataset.track = t.player; c.dataset.peg = "tentative"; c.dataset.score = t.score;
      g.appendChild(c);
    }
  }
}

function render(v) {
  view = v;
  const names = v.players || ["Player 1", "Player 2"];
  for (let i = 0; i < 2; i++) {
    tid("name-" + i).textContent = names[i] || "";
    tid("score-" + i).textContent = (v.scores || [0, 0])[i];
    const won = v.match ? v.match.games_won[i] : 0;
    tid("games-" + i).textContent = v.match ? `games ${won} of ${v.match.games_to_win}` : "";
    tid("player-" + i).classList.toggle("turn", v.turn === i);
    document.querySelectorAll(".n" + i).forEach((n) => { n.textContent = names[i] || ""; });
  }
  tid("phase").textContent = v.phase_text || v.phase || "";
  tid("count").textContent = v.count ?? 0;
  // In the play: the cards of the current count. In the show: every card laid, which are the hands.
  const showing = v.phase === "show" || v.phase === "game-over";
  const cards = showing && !(v.run || []).length ? (v.laid || []) : (v.run || []);
  tid("run-label").textContent = showing ? "the hands" : "on the table";
  showCards(tid("run"), cards.map((r) => r.card), cards.map((r) => r.player));
  showCards(tid("starter"), v.starter ? [v.starter] : []);
  showCards(tid("crib"), v.crib || []);
  tid("crib-owner").textContent = v.dealer === null || v.dealer === undefined ? "dealer" : names[v.dealer];
  tid("last-score").textContent = v.last ? `${names[v.last.player]}: ${v.last.text}` : "\u00a0";
  const hist = tid("history");
  hist.replaceChildren(...(v.history || []).map((h) => {
    const li = document.createElement("li");
    li.className = "p" + h.player;
    li.textContent = `${names[h.player]} ${h.points}: ${h.text}`;
    return li;
  }));
  const body = tid("deals").querySelector("tbody");
  body.replaceChildren(...(v.deals || []).map((d) => {
    const tr = document.createElement("tr");
    for (const cell of [d.deal, `+${d.points[0]} = ${d.scores[0]}`, `+${d.points[1]} = ${d.scores[1]}`]) {
      const td = document.createElement("td");
      td.textContent = cell;
      tr.appendChild(td);
    }
    return tr;
  }));
  const mug = tid("muggins");
  if (v.muggins) {
    mug.classList.remove("hidden");
    mug.replaceChildren();
    const text = document.createElement("span");
    text.textContent = `Muggins! ${names[v.muggins.against]} left ${v.muggins.points} behind ` +
      `(${v.muggins.text}). ${names[v.muggins.player]} may call it. `;
    const call = document.createElement("button");
    call.textContent = `${names[v.muggins.player]} calls muggins`;
    call.dataset.testid = "call-muggins";
    call.addEventListener("click", () => ask("/api/muggins", { player: v.muggins.player }));
    mug.append(text, call);
  } else {
    mug.classList.add("hidden");
  }
  const corr = tid("correction");
  if (v.correction) {
    corr.classList.remove("hidden");
    tid("correction-message").textContent = v.correction.message;
    tid("correction-choices").replaceChildren(...(v.correction.choices || []).map((c, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = c;
      b.dataset.testid = "choice-" + c;
      if (i === v.correction.highlighted) {  // where the knobs point: a press answers with this card
        b.classList.add("highlighted");
        b.setAttribute("aria-current", "true");
      }
      b.addEventListener("click", () => ask("/api/correct", { card: c, zone: v.correction.zone, seen: v.correction.seen || "" }));
      return b;
    }));
  } else {
    corr.classList.add("hidden");
  }
  const note = tid("notice");
  note.classList.toggle("hidden", !v.notice);
  note.textContent = v.notice || "";
  const win = tid("winner");
  if (v.winner !== null && v.winner !== undefined) {
    const skunk = ["", " \u2014 a skunk!", " \u2014 a double skunk!"][v.skunk || 0];
    win.textContent = `${names[v.winner]} wins${skunk}`;
    win.classList.remove("hidden");
  } else {
    win.classList.add("hidden");
  }
  const mode = tid("mode");
  if (document.activeElement !== mode) mode.value = v.mode || "auto";
  drawPegs();
  refreshStats(v);
  document.body.dataset.version = v.version;
}

let statsKey = null;

async function refreshStats(v) {
  // Statistics change only when a game ends (or an undo takes a win back): fetch them then.
  const key = JSON.stringify([v.match && v.match.games ? v.match.games.length : 0, v.winner]);
  if (key === statsKey) return;
  statsKey = key;
  try {
    const r = await fetch("/api/stats");
    if (!r.ok) return;
    const data = await r.json();
    const body = tid("stats").querySelector("tbody");
    body.replaceChildren(...(data.players || []).map((p) => {
      const tr = document.createElement("tr");
      tr.dataset.player = p.name;
      const cells = [p.name, p.games, p.wins, p.matches_won, p.skunks_given, p.skunked,
        p.average_hand.toFixed(1), p.average_crib.toFixed(1), p.average_pegging.toFixed(1)];
      for (const cell of cells) {
        const td = document.createElement("td");
        td.textContent = cell;
        tr.appendChild(td);
      }
      return tr;
    }));
  } catch (e) { /* the next change tries again */ }
}

async function ask(path, body) {
  const pin = $("pin").value || sessionStorage.getItem("pin") || "";
  const reply = tid("reply");
  reply.textContent = "";
  try {
    const r = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Table-Pin": pin },
      body: JSON.stringify(body || {}),
    });
    if (r.ok) {
      sessionStorage.setItem("pin", pin);
      reply.textContent = "done";
    } else {
      const data = await r.json().catch(() => ({}));
      reply.textContent = data.detail ? (typeof data.detail === "string" ? data.detail : "not accepted") : r.statusText;
    }
  } catch (e) {
    reply.textContent = "the table did not answer";
  }
}

function follow() {
  const live = tid("live");
  const source = new EventSource("/api/events");
  source.addEventListener("view", (e) => { live.classList.add("on"); render(JSON.parse(e.data)); });
  source.onerror = () => { live.classList.remove("on"); };
}

async function start() {
  $("pin").value = sessionStorage.getItem("pin") || "";
  $("pin-form").addEventListener("submit", (e) => e.preventDefault());
  $("undo").addEventListener("click", () => ask("/api/undo"));
  $("new-game").addEventListener("click", () => {
    if (confirm("Abandon this game and start a new one?")) ask("/api/new-game");
  });
  $("mode").addEventListener("change", (e) => ask("/api/settings", { mode: e.target.value }));
  try {
    const r = await fetch("/api/layout");
    if (r.ok) {
      const data = await r.json();
      layout = { size: data.size_mm, byHole: {}, start: {} };
      for (const h of data.holes) layout.byHole[h.track + ":" + h.hole] = h;
      for (const s of data.start_holes || []) layout.start[s.track + ":" + s.peg] = s;
    }
  } catch (e) { layout = null; }
  drawBoard();
  const r = await fetch("/api/state");
  render(await r.json());
  follow();
}

start();
