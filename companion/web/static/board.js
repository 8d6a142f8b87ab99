// The peg board, drawn to be read from across the table.
//
// On a phone (a narrow board box) each player's track gets its own strip showing only the stretch of
// holes where that player's pegs are, large: holes at least 8 CSS px, numbered every 5 (every 10 in
// bold), the skunk lines marked.  On a wide screen (a tablet or TV as a wall display) the whole board is
// drawn, holes 1-60 above 61-121.  The forward peg is a solid peg ringed in white; the rear peg an
// open ring of the same colour; the points just pegged are a band between them, and the forward peg
// slides along it when it moves.
"use strict";

const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const PITCH = 10;      // SVG units from one hole to the next
  const STREET = 4;      // extra gap between groups of five
  const HOLE_R = 4.2;
  const WINDOW = 30;     // holes in a phone strip (six groups of five)
  const NARROW = 640;    // CSS px: below this the board is drawn as strips
  const last = new Map(); // "track:mode" -> forward peg last drawn, to animate the move

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  // Skunk lines: the match's own (its house rules, in the view's settings); without them the usual,
  // a loser short of target-30 is skunked, short of target-60 double skunked.
  let house = null;      // the settings of the view being drawn
  function lines(target, settings = house) {
    const own = settings && settings.skunk_line !== undefined && settings.skunk_line !== null;
    const skunk = own ? settings.skunk_line : target - 30;
    const double = own ? settings.double_skunk_line : target - 60;
    const out = [{ hole: skunk, name: "skunk", testid: "skunk-line" }];
    if (double && double > 0) out.push({ hole: double, name: "double skunk", testid: "double-skunk-line" });
    return out;
  }

  // x of hole h in a row starting after hole `from` (holes from+1 ...), in SVG units.
  function xOf(h, from) {
    const i = h - from - 1;
    return i * PITCH + (Math.floor((h - 1) / 5) - Math.floor(from / 5)) * STREET;
  }

  // The stretch of one track a phone shows: from a multiple of five at or before the rear peg, at least
  // WINDOW holes, the forward peg never at the edge, the game hole at the end.
  function windowFor(rear, forward, target) {
    let from = Math.max(0, Math.floor(Math.max(0, Math.min(rear, forward) - 1) / 5) * 5);
    let span = Math.max(WINDOW, Math.ceil((forward + 2 - from) / 5) * 5);
    if (from + span > target) {
      from = Math.max(0, target - span);
      from -= from % 5;
      span = target - from;
    }
    return [from, from + span];
  }

  function row(svg, track, from, to, y, target, numbers) {
    const g = el("g", { class: "row", "data-track": track, "data-from": from + 1, "data-to": to }, svg);
    if (from === 0) {
      el("rect", { x: -16, y: y - 6, width: 10, height: 12, rx: 2, class: "start" }, g);
    }
    for (let h = from + 1; h <= to; h++) {
      const x = xOf(h, from);
      const game = h === target;
      el("circle", { cx: x, cy: y, r: game ? HOLE_R * 1.35 : HOLE_R, class: game ? "hole game" : "hole",
        "data-hole": h }, g);
      if (numbers && (h % 5 === 0 || game)) {
        const label = el("text", { x: game ? x + 7 : x, y: game ? y + 2.5 : y + 13.5,
          class: h % 10 === 0 || game ? "num ten" : "num",
          "text-anchor": game ? "start" : "middle" }, g);
        label.textContent = game ? "game" : h;
      }
    }
    for (const line of lines(target)) {
      if (line.hole > from && line.hole <= to) {
        const first = line.hole === from + 1;
        const x = xOf(line.hole, from) - (first ? PITCH / 2 + 1 : (PITCH + ((line.hole - 1) % 5 === 0 ? STREET : 0)) / 2);
        el("line", { x1: x, x2: x, y1: y - 9, y2: y + 8, class: "skunk", "data-testid": line.testid,
          "data-hole": line.hole }, g);
        const t = el("text", { x: x + 1.5, y: y - 10, class: "skunk-name" }, g);
        t.textContent = line.name;
      }
    }
    return g;
  }

  function pegAt(track, score, from, to, y, target) {
    if (score === 0) return from === 0 ? [-11, y] : null;
    const hole = Math.min(score, target);
    if (hole <= from || hole > to) return null;
    return [xOf(hole, from), y];
  }

  function pegs(g, view, track, from, to, y, key) {
    const colour = (view.colours || ["#00c0ff", "#ff6000"])[track];
    const pair = (view.pegs || [])[track] || [0, 0];
    const target = view.target || 121;
    const [rear, forward] = [Math.min(pair[0], pair[1]), pair[1]];
    const r = pegAt(track, rear, from, to, y, target);
    const f = pegAt(track, forward, from, to, y, target);
    if (r && f && forward > rear) {
      el("rect", { x: r[0], y: y - 3, width: f[0] - r[0], height: 6, rx: 3, fill: colour, class: "trail" }, g);
      const gained = el("text", { x: (r[0] + f[0]) / 2, y: y - 8.5, class: "gained", "text-anchor": "middle",
        fill: colour }, g);
      gained.textContent = "+" + (forward - rear);
    }
    if (r) {
      el("circle", { cx: r[0], cy: y, r: 4.6, stroke: colour, class: "peg rear", "data-track": track,
        "data-peg": "rear", "data-score": pair[0] }, g);
    }
    if (f) {
      const peg = el("circle", { cx: f[0], cy: y, r: 5.6, fill: colour, class: "peg forward",
        "data-track": track, "data-peg": "forward", "data-score": forward }, g);
      const before = last.get(key);
      if (before !== undefined && before !== forward && r && forward > before && peg.animate) {
        const start = pegAt(track, before, from, to, y, target) || r;
        peg.animate([{ transform: `translate(${start[0] - f[0]}px, 0)` }, { transform: "translate(0, 0)" }],
          { duration: 700, easing: "ease-out" });
        peg.dataset.moved = String(before);
      }
    }
    last.set(key, forward);
    const t = view.tentative;
    if (t && t.player === track) {
      const p = pegAt(track, Math.min(target, t.score), from, to, y, target);
      if (p) {
        el("circle", { cx: p[0], cy: y, r: 5.6, fill: colour, class: "peg tentative", "data-track": track,
          "data-peg": "tentative", "data-score": t.score }, g);
      }
    }
  }

  // Phone: one strip per player, each only where that player's pegs are.
  function strips(box, view) {
    const target = view.target || 121;
    const names = view.sides || view.players || ["Player 1", "Player 2"];
    for (let track = 0; track < 2; track++) {
      const pair = (view.pegs || [])[track] || [0, 0];
      const [from, to] = windowFor(Math.min(pair[0], pair[1]), pair[1], target);
      const width = xOf(to, from) + (to === target ? 34 : 14) + (from === 0 ? 18 : 6);
      const left = from === 0 ? -18 : -6;
      const strip = document.createElement("div");
      strip.className = `strip p${track}`;
      const title = document.createElement("div");
      title.className = "strip-name";
      title.textContent = `${names[track]} · holes ${from + 1}–${to}`;
      strip.appendChild(title);
      const svg = el("svg", { viewBox: `${left} -22 ${width} 44`, class: "board strip-board",
        "data-testid": `strip-${track}`, role: "img", "aria-label": `${names[track]}'s pegs` }, strip);
      const g = row(svg, track, from, to, 0, target, true);
      pegs(g, view, track, from, to, 0, `${track}:strip`);
      box.appendChild(strip);
    }
  }

  // Wide screens: the whole board, holes 1-60 on top, 61 to the game hole below, both tracks in each.
  function whole(box, view) {
    const target = view.target || 121;
    const half = Math.ceil((target - 1) / 2 / 5) * 5;
    const width = xOf(target, half) + 24;
    const svg = el("svg", { viewBox: `-20 -18 ${Math.max(width + 24, xOf(half, 0) + 24)} 104`, class: "board whole",
      "data-testid": "whole-board", role: "img", "aria-label": "the whole peg board" }, box);
    for (let track = 0; track < 2; track++) {
      const top = row(svg, track, 0, half, track * 20, target, track === 1);
      pegs(top, view, track, 0, half, track * 20, `${track}:top`);
      const bottom = row(svg, track, half, target, 50 + track * 20, target, track === 1);
      pegs(bottom, view, track, half, target, 50 + track * 20, `${track}:bottom`);
    }
  }

  function draw(box, view, wall) {
    house = view.settings || null;
    box.replaceChildren();
    const narrow = !wall && box.clientWidth < NARROW;
    box.dataset.drawn = narrow ? "strips" : "whole";
    (narrow ? strips : whole)(box, view);
  }

  return { draw, lines, windowFor };
})();
