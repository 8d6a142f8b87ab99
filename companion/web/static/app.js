// The scoreboard page: draws the latest view of the game and follows changes as server-sent events.
// Every change the page asks for carries the table's PIN (kept on this phone, in localStorage).
// The board is drawn by board.js, the race and the players' records by charts.js.
"use strict";

const RED = new Set(["d", "h"]);
const SUIT = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const WALL = new URLSearchParams(location.search).get("display") === "wall";
const PIN_KEY = "crib-pin";
let view = null;
let claimFor = null;   // the player the pad claims for (null: whoever the game waits for)
let claimValue = "";
let muggins = null;    // {serial, ends} of the offer on show, for its countdown
let lit = null;        // "row:index" of the score whose cards are lit
let drawnFrom = null;  // the view the board was last drawn from, as text: the same view is not redrawn

function $(id) { return document.getElementById(id); }
function tid(name) { return document.querySelector(`[data-testid="${name}"]`); }
function nameOf(i) { return ((view && view.players) || ["Player 1", "Player 2"])[i] || ""; }
// A track's name: its player's, or both partners' ("Ann & Cal") when four play in partnership.
function sideName(i) { return ((view && (view.sides || view.players)) || ["Player 1", "Player 2"])[i] || ""; }
function sideOf(player) { return ((view && view.side_of) || [0, 1])[player]; }

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

// -- words for scores ------------------------------------------------------------------------------

const KIND = {
  fifteen: "fifteen", pair: "a pair", run: "a run", flush: "a flush", nobs: "his nobs", heels: "his heels",
  "thirty-one": "thirty-one", "pair-royal": "a pair royal", "double-pair-royal": "a double pair royal",
  "last-card": "one for last", "three-for-last": "three for last",
};

function itemWords(item) {
  if (item.kind === "run") return `a run of ${item.cards.length}`;
  if (item.kind === "flush") return `a flush of ${item.cards.length}`;
  return KIND[item.kind] || item.kind;
}

// What a score was for, as players say it: play, go, hand, crib, his heels, muggins ...
function label(entry) {
  const kinds = (entry.items || []).map((i) => i.kind);
  if (entry.reason === "play") return kinds.length && kinds.every((k) => k === "last-card") ? "go" : "play";
  return { heels: "his heels", "three-for-last": "three for last", "over-claim": "over-claim" }[entry.reason]
    || entry.reason;
}

// The items a claim most likely left out: the last ones counted whose points make up what was missed
// (players count fifteens, then pairs, runs, flush and nobs, and forget the end of the count).
function missedItems(items, points) {
  let sum = 0;
  const out = [];
  for (let i = items.length - 1; i >= 0 && sum < points; i--) {
    sum += items[i].points;
    out.unshift(items[i]);
  }
  return sum === points ? out : null;
}

// -- the show ---------------------------------------------------------------------------------------

function currentDeal(v) {
  // The deal being played: its scores are open; once the cards are gathered for the next deal, every
  // deal so far is an earlier one.
  const groups = v.deal_history || [];
  if (!groups.length) return null;
  return ["discard", "starter", "play", "show", "game-over"].includes(v.phase) ? groups.length - 1 : null;
}

function showRow(node, v, title, player, what, cards, entries) {
  node.replaceChildren();
  node.dataset.player = player;
  node.classList.toggle("next", !!v.show_next && v.show_next[0] === player && v.show_next[1] === what);
  const head = document.createElement("div");
  head.className = "row-head p" + sideOf(player);  // a partnership's colour with four players
  const total = entries.reduce((s, e) => s + (e.reason === "muggins" ? 0 : e.points), 0);
  head.textContent = entries.length ? `${title}: ${total}` : title;
  const hand = document.createElement("div");
  hand.className = "cards";
  for (const c of cards) hand.appendChild(cardElement(c));
  if (v.starter) {
    const s = cardElement(v.starter);
    s.classList.add("is-starter");
    s.title = "the starter";
    hand.appendChild(s);
  }
  const chips = document.createElement("div");
  chips.className = "items";
  entries.forEach((entry, e) => {
    (entry.items || []).forEach((item, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "item";
      b.dataset.testid = "item";
      b.dataset.cards = item.cards.join(" ");
      const key = `${what}${player}:${e}:${i}`;
      b.textContent = `${itemWords(item)} ${item.points}`;
      b.addEventListener("click", () => { lit = lit === key ? null : key; light(); });
      b.dataset.key = key;
      chips.appendChild(b);
    });
    if (entry.reason === "muggins") {
      const m = document.createElement("span");
      m.className = "muggins-note";
      m.textContent = `${nameOf(entry.player)} took ${entry.points} by muggins`;
      chips.appendChild(m);
    } else if (/\(claimed/.test(entry.text)) {
      const m = document.createElement("span");
      m.className = "claim-note";
      m.textContent = entry.text.slice(entry.text.indexOf("(claimed"));
      chips.appendChild(m);
    }
  });
  node.append(head, hand, chips);
}

function light() {
  document.querySelectorAll(".show-row").forEach((row) => {
    const chip = lit ? row.querySelector(`.item[data-key="${lit}"]`) : null;
    const cards = chip ? new Set(chip.dataset.cards.split(" ")) : null;
    row.querySelectorAll(".item").forEach((b) => b.classList.toggle("on", b === chip));
    row.querySelectorAll(".card").forEach((c) => {
      c.classList.toggle("lit", !!cards && cards.has(c.dataset.card));
      c.classList.toggle("dim", !!cards && !cards.has(c.dataset.card));
    });
  });
}

function renderShow(v) {
  const box = tid("show");
  const groups = v.deal_history || [];
  const group = groups.length ? groups[groups.length - 1] : [];
  const counted = group.filter((e) => ["hand", "crib", "muggins"].includes(e.reason));
  const showing = v.phase === "show" || (["deal", "game-over", "cut-for-deal"].includes(v.phase) &&
    group.some((e) => e.reason === "hand" || e.reason === "crib"));
  box.classList.toggle("hidden", !showing || v.dealer === null || v.dealer === undefined);
  document.body.classList.toggle("showing", showing);
  if (!showing || v.dealer === null || v.dealer === undefined) return;
  const dealer = v.dealer;
  const pone = v.pone ?? 1 - dealer;
  const laid = v.laid || [];
  const handOf = (p) => laid.filter((r) => r.player === p).map((r) => r.card);
  const crib = (v.crib || []).slice();
  while (crib.length < 4) crib.push("back");
  // Muggins pegged on a hand belongs to the row of the hand it was missed in: the entry just before it.
  const seats = (v.players || []).length || 2;
  const rows = { crib: [] };
  for (let p = 0; p < seats; p++) rows["hand" + p] = [];
  let previous = null;
  for (const e of counted) {
    if (e.reason === "muggins") {
      if (previous) rows[previous].push(e);
      continue;
    }
    previous = e.reason === "crib" ? "crib" : "hand" + e.player;
    (rows[previous] = rows[previous] || []).push(e);
  }
  tid("show-title").textContent = v.phase === "show" ? "the show" : "the show of the last deal";
  showRow(tid("show-pone"), v, `${nameOf(pone)}'s hand (pone)`, pone, "hand", handOf(pone), rows["hand" + pone]);
  // Four players show round the table from the dealer's left: two more hands before the dealer's.
  ["show-second", "show-third"].forEach((id, i) => {
    const node = tid(id);
    node.classList.toggle("hidden", seats < 4);
    const p = (dealer + 2 + i) % seats;
    if (seats >= 4) showRow(node, v, `${nameOf(p)}'s hand`, p, "hand", handOf(p), rows["hand" + p]);
  });
  showRow(tid("show-dealer"), v, `${nameOf(dealer)}'s hand (dealer)`, dealer, "hand", handOf(dealer),
    rows["hand" + dealer]);
  showRow(tid("show-crib"), v, `${nameOf(dealer)}'s crib`, dealer, "crib", crib, rows.crib);
  light();
}

// -- history, deal by deal --------------------------------------------------------------------------

function renderHistory(v) {
  const groups = v.deal_history || [];
  const open = currentDeal(v);
  const deals = v.deals || [];
  const box = tid("history");
  const wasOpen = new Set([...box.querySelectorAll("details[open]")].map((d) => d.dataset.deal));
  box.replaceChildren(...groups.map((group, index) => {
    const d = document.createElement("details");
    d.className = "deal";
    d.dataset.deal = index + 1;
    d.dataset.testid = `deal-${index + 1}`;
    if (index === open || (index !== open && wasOpen.has(String(index + 1)) && index !== groups.length - 1)) {
      d.open = true;
    }
    const row = deals[index];
    const summary = document.createElement("summary");
    const crib = row && row.dealer !== null && row.dealer !== undefined ? ` · ${nameOf(row.dealer)}'s crib` : "";
    const points = row ? ` · ${sideName(0)} +${row.points[0]}, ${sideName(1)} +${row.points[1]}` : "";
    summary.textContent = `deal ${index + 1}${index === open ? " (now)" : ""}${crib}${points}`;
    const list = document.createElement("ol");
    for (const e of group) {
      const li = document.createElement("li");
      li.className = "p" + e.player;
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = label(e);
      const what = document.createElement("span");
      if (e.reason === "muggins") {
        what.textContent = ` ${nameOf(e.player)} +${e.points} by muggins (${e.text})`;
      } else {
        what.textContent = ` ${nameOf(e.player)} +${e.points}: ${e.text}`;
      }
      li.append(tag, what);
      list.appendChild(li);
    }
    d.append(summary, list);
    return d;
  }).reverse());
}

// -- muggins ---------------------------------------------------------------------------------------

function renderMuggins(v) {
  const box = tid("muggins");
  const m = v.muggins;
  if (!m) {
    box.classList.add("hidden");
    muggins = null;
    return;
  }
  box.classList.remove("hidden");
  if (!muggins || muggins.serial !== m.serial) {
    muggins = { serial: m.serial, ends: performance.now() + (m.seconds || 8) * 1000, total: m.seconds || 8 };
  }
  const against = nameOf(m.against);
  const missed = missedItems(m.items || [], m.points);
  const items = m.items || [];
  const whose = m.what === "crib" ? "crib" : m.what === "play" ? "play" : "hand";
  const total = items.reduce((s, i) => s + i.points, 0);
  let text;
  if (missed) {
    text = `${against} missed ${missed.map((i) => `${itemWords(i)}: ${i.points}`).join(", ")}`;
    if (total) text += ` (claimed ${total - m.points} of ${total} for the ${whose})`;
  } else if (items.length) {
    const all = items.map((i) => `${itemWords(i)} ${i.points}`).join(", ");
    text = `${against} left ${m.points} behind: the ${whose} has ${all}, ${total} in all; claimed ${total - m.points}`;
  } else {
    text = `${against} left ${m.points} behind`;
  }
  tid("muggins-missed").textContent = text;
  tid("muggins-caller").textContent = nameOf(m.player);
  const call = tid("call-muggins");
  call.textContent = `${nameOf(m.player)} calls muggins: +${m.points}`;
  call.onclick = () => ask("/api/muggins", { player: m.player });
  tick();
}

function tick() {
  if (!muggins) return;
  const left = Math.max(0, (muggins.ends - performance.now()) / 1000);
  tid("muggins-countdown").textContent = Math.ceil(left);
  tid("muggins-bar").style.width = `${(100 * left) / muggins.total}%`;
  if (left > 0) setTimeout(tick, 200);
}

// -- claims and go ----------------------------------------------------------------------------------

// Whom the pad claims for, unless a player is picked: the one with a score to claim in the play (who
// laid the card, not the next to lay), else the one showing, else the one the game waits for.
function claimer(v) {
  if (claimFor !== null) return claimFor;
  if (!v) return 0;
  if (v.pending_claim) return v.pending_claim.player;
  if (v.phase === "show" && v.show_next) return v.show_next[0];
  const seats = (v.players || []).length || 2;
  return v.turn !== null && v.turn !== undefined && v.turn < seats ? v.turn : 0;
}

function renderMoves(v) {
  const go = tid("go");
  const canGo = v.phase === "play" && !!v.can_go && v.turn !== null && v.turn !== undefined;
  go.disabled = !canGo;
  go.textContent = canGo ? `${nameOf(v.turn)} says go` : "go";
  const pad = tid("claim-pad");
  pad.classList.toggle("hidden", v.mode !== "claims");
  const who = claimer(v);
  const seats = (v.players || []).length || 2;
  for (let i = 0; i < 4; i++) {  // four buttons: the last two only when four play (partners' colours)
    const b = tid("claim-player-" + i);
    b.classList.toggle("hidden", i >= seats);
    b.textContent = nameOf(i);
    b.setAttribute("aria-pressed", String(i === who));
  }
  tid("claim-value").textContent = claimValue || "0";
  tid("claim-send").textContent = `peg ${claimValue || 0} for ${nameOf(who)}`;
}

function press(digit) {
  const next = (claimValue + digit).replace(/^0+(?=\d)/, "");
  if (Number(next) <= 29) claimValue = next;
  renderMoves(view);
}

// -- the whole page --------------------------------------------------------------------------------

function render(v) {
  view = v;
  const names = v.players || ["Player 1", "Player 2"];
  const sides = v.sides || names;
  for (let i = 0; i < 2; i++) {
    tid("name-" + i).textContent = sides[i] || "";
    tid("score-" + i).textContent = (v.scores || [0, 0])[i];
    const won = v.match ? v.match.games_won[i] : 0;
    tid("games-" + i).textContent = v.match ? `games ${won} of ${v.match.games_to_win}` : "";
    tid("player-" + i).classList.toggle("turn", v.turn !== null && v.turn !== undefined && sideOf(v.turn) === i);
    document.querySelectorAll(".n" + i).forEach((n) => { n.textContent = sides[i] || ""; });
  }
  tid("phase").textContent = v.phase_text || v.phase || "";
  tid("house-rules").textContent = v.house_rules || "";
  tid("count").textContent = v.count ?? 0;
  const inPlay = v.phase === "play";
  const cards = inPlay || (v.run || []).length ? (v.run || []) : [];
  tid("run-label").textContent = inPlay ? "on the table" : "on the table (the play)";
  showCards(tid("run"), cards.map((r) => r.card), cards.map((r) => r.player));
  showCards(tid("starter"), v.starter ? [v.starter] : []);
  const crib = (v.crib || []).slice();
  if (["play", "show"].includes(v.phase)) while (crib.length < 4) crib.push("back");
  showCards(tid("crib"), crib);
  tid("crib-owner").textContent = v.dealer === null || v.dealer === undefined ? "dealer" : names[v.dealer];
  tid("last-score").textContent = v.last ? `${names[v.last.player]}: ${v.last.text}` : "\u00a0";
  renderShow(v);
  renderHistory(v);
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
  Charts.race(tid("race"), v);
  renderMuggins(v);
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
  renderMoves(v);
  // the page's first fetch and the event stream's first message carry the same view; drawing it
  // twice would replay the peg's slide and swap the board under anyone looking at it. The whole
  // view is compared, not its version: a restarted table counts its versions from 0 again.
  const seen = JSON.stringify(v);
  if (seen !== drawnFrom) {
    Board.draw(tid("board"), v, WALL);
    drawnFrom = seen;
  }
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
    const players = data.players || [];
    const colours = (view && view.colours) || ["#00c0ff", "#ff6000"];
    const names = (view && view.players) || [];
    const spare = ["#9ccc65", "#ce93d8", "#ffd54f", "#90a4ae"];
    Charts.records(tid("records"), players, (name, i) => {
      const at = names.indexOf(name);
      return at >= 0 ? colours[at] : spare[i % spare.length];
    });
    const body = tid("stats").querySelector("tbody");
    body.replaceChildren(...players.map((p) => {
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
  const input = $("pin");
  const pin = input.value || localStorage.getItem(PIN_KEY) || "";
  const reply = tid("reply");
  reply.textContent = "";
  reply.className = "";
  try {
    const r = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Table-Pin": pin },
      body: JSON.stringify(body || {}),
    });
    if (r.ok) {
      localStorage.setItem(PIN_KEY, pin);
      input.classList.remove("bad");
      reply.textContent = "done";
      return true;
    }
    const data = await r.json().catch(() => ({}));
    reply.className = "bad";
    reply.textContent = typeof data.detail === "string" ? data.detail : r.statusText || "not accepted";
    if (r.status === 403 || r.status === 429) {
      localStorage.removeItem(PIN_KEY);
      input.classList.add("bad");
      input.focus();
    }
  } catch (e) {
    reply.textContent = "the table did not answer";
  }
  return false;
}

// -- a new game and its house rules ---------------------------------------------------------------

// The form opens with the match's own house rules (the settings file's, or those chosen last time).
function openRulesForm() {
  const f = $("rules-fields").elements;
  const s = (view && view.settings) || {};
  f.target.value = s.target || 121;
  f.match_games.value = String(s.match_games || 3);
  f.muggins.value = s.muggins === false ? "off" : (s.muggins_in_play ? "play" : "on");
  f.over_claim.value = s.over_claim || "corrected";
  f.skunk_line.value = s.skunk_line ?? 91;
  f.double_skunk_line.value = s.double_skunk_line ?? 0;
  f.skunk_double_win.checked = s.skunk_double_win !== false;
  f.first_deal.value = s.first_deal || "alternate";
  tid("rules-reply").textContent = "";
  $("rules-form").showModal();
}

// A new target brings the usual lines with it: 30 and 60 holes short (no double skunk near the start).
function usualSkunkLines() {
  const f = $("rules-fields").elements;
  const target = Number(f.target.value);
  if (!(target > 0)) return;
  f.skunk_line.value = Math.max(0, target - 30);
  f.double_skunk_line.value = target - 60 > 1 ? target - 60 : 0;
}

async function startNewGame(e) {
  e.preventDefault();
  const f = $("rules-fields").elements;
  const body = {
    target: Number(f.target.value),
    match_games: Number(f.match_games.value),
    muggins: f.muggins.value !== "off",
    muggins_in_play: f.muggins.value === "play",
    over_claim: f.over_claim.value,
    skunk_line: Number(f.skunk_line.value),
    double_skunk_line: Number(f.double_skunk_line.value),
    skunk_double_win: f.skunk_double_win.checked,
    first_deal: f.first_deal.value,
  };
  if (await ask("/api/new-game", body)) {
    $("rules-form").close();
  } else {
    tid("rules-reply").textContent = tid("reply").textContent;
  }
}

// -- keeping the screen on ---------------------------------------------------------------------------

let wake = null;

async function keepAwake() {
  if (!("wakeLock" in navigator)) {
    document.body.dataset.wake = "unavailable";  // plain HTTP to a name: phones allow it over HTTPS only
    return;
  }
  if (document.visibilityState !== "visible" || wake) return;
  try {
    wake = await navigator.wakeLock.request("screen");
    document.body.dataset.wake = "on";
    if (wake && wake.addEventListener) {
      wake.addEventListener("release", () => { wake = null; document.body.dataset.wake = "off"; });
    }
  } catch (e) {
    document.body.dataset.wake = "refused";  // e.g. battery saver: the page still works
  }
}

function follow() {
  const live = tid("live");
  const source = new EventSource("/api/events");
  source.addEventListener("view", (e) => { live.classList.add("on"); render(JSON.parse(e.data)); });
  source.onerror = () => { live.classList.remove("on"); };
}

async function start() {
  if (WALL) document.body.classList.add("wall");
  $("pin").value = localStorage.getItem(PIN_KEY) || "";
  $("pin-form").addEventListener("submit", (e) => e.preventDefault());
  $("undo").addEventListener("click", () => ask("/api/undo"));
  $("new-game").addEventListener("click", openRulesForm);
  tid("rules-cancel").addEventListener("click", () => $("rules-form").close());
  $("rules-fields").addEventListener("submit", startNewGame);
  $("rules-fields").elements.target.addEventListener("change", usualSkunkLines);
  $("mode").addEventListener("change", (e) => ask("/api/settings", { mode: e.target.value }));
  $("go").addEventListener("click", () => {
    if (view && view.turn !== null && view.turn !== undefined) ask("/api/go", { player: view.turn });
  });
  for (let i = 0; i < 4; i++) {
    tid("claim-player-" + i).addEventListener("click", () => { claimFor = i; renderMoves(view); });
  }
  document.querySelectorAll(".pad [data-digit]").forEach((b) => {
    b.addEventListener("click", () => press(b.dataset.digit));
  });
  tid("pad-clear").addEventListener("click", () => { claimValue = ""; renderMoves(view); });
  tid("claim-send").addEventListener("click", async () => {
    const player = claimer(view);
    if (await ask("/api/claim", { player, points: Number(claimValue || 0) })) {
      claimValue = "";
      claimFor = null;
      renderMoves(view);
    }
  });
  document.addEventListener("visibilitychange", keepAwake);
  window.addEventListener("resize", () => { if (view) Board.draw(tid("board"), view, WALL); });
  keepAwake();
  const r = await fetch("/api/state");
  render(await r.json());
  follow();
}

start();
