// Pictures the page draws itself (inline SVG, nothing fetched from elsewhere): the game's race, both
// scores deal by deal with the skunk lines, and each player's record over the games kept.
"use strict";

const Charts = (() => {
  const NS = "http://www.w3.org/2000/svg";

  function el(name, attrs, parent, text) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  // The race: x is the deal (0 = the start), y the score up to the game hole.
  function race(svg, view) {
    svg.replaceChildren();
    const target = view.target || 121;
    const deals = view.deals || [];
    const colours = view.colours || ["#00c0ff", "#ff6000"];
    const names = view.sides || view.players || ["Player 1", "Player 2"];
    const [left, right, top, bottom] = [30, 312, 10, 168];
    const n = Math.max(deals.length, 4);
    const x = (d) => left + (d / n) * (right - left);
    const y = (s) => bottom - (Math.min(s, target) / target) * (bottom - top);
    el("rect", { x: left, y: top, width: right - left, height: bottom - top, class: "plot" }, svg);
    const marks = [{ at: target, name: "game", cls: "game" }];
    for (const line of Board.lines(target, view.settings)) marks.push({ at: line.hole, name: line.name, cls: "skunk" });
    for (const m of marks) {
      el("line", { x1: left, x2: right, y1: y(m.at), y2: y(m.at), class: `mark ${m.cls}`,
        "data-testid": `race-${m.cls === "game" ? "game" : m.name.replace(" ", "-")}`, "data-score": m.at }, svg);
      el("text", { x: left - 3, y: y(m.at) + 3, "text-anchor": "end", class: "tick" }, svg, m.at);
      el("text", { x: right - 2, y: y(m.at) - 2, "text-anchor": "end", class: "mark-name" }, svg, m.name);
    }
    el("text", { x: left - 3, y: bottom + 3, "text-anchor": "end", class: "tick" }, svg, 0);
    const step = Math.max(1, Math.ceil(n / 8));
    for (let d = 0; d <= n; d += step) {
      el("text", { x: x(d), y: bottom + 14, "text-anchor": "middle", class: "tick" }, svg, d);
    }
    el("text", { x: right, y: bottom + 22, "text-anchor": "end", class: "axis" }, svg, "deal");
    for (let side = 0; side < 2; side++) {
      const points = [[0, 0], ...deals.map((d) => [d.deal, d.scores[side]])];
      el("polyline", { points: points.map(([d, s]) => `${x(d)},${y(s)}`).join(" "), stroke: colours[side],
        class: "race-line", "data-testid": `race-${side}`, "data-scores": points.map((p) => p[1]).join(",") }, svg);
      for (const [d, s] of points.slice(1)) el("circle", { cx: x(d), cy: y(s), r: 2.4, fill: colours[side] }, svg);
      const end = points[points.length - 1];
      el("text", { x: x(end[0]) + 4, y: y(end[1]) + (side ? 10 : -4), fill: colours[side], class: "end" }, svg,
        `${names[side]} ${end[1]}`);
    }
  }

  const MEASURES = [
    { key: "wins", title: "games won", of: "games", digits: 0 },
    { key: "skunks_given", title: "skunks given", digits: 0 },
    { key: "average_hand", title: "average hand", digits: 1 },
    { key: "average_crib", title: "average crib", digits: 1 },
    { key: "average_pegging", title: "pegging per deal", digits: 1 },
  ];

  // Each player's record: one small bar chart per measure, a bar per player.
  function records(box, players, colourOf) {
    box.replaceChildren();
    if (!players.length) {
      const p = document.createElement("p");
      p.className = "empty";
      p.textContent = "No finished games kept yet.";
      box.appendChild(p);
      return;
    }
    for (const m of MEASURES) {
      const card = document.createElement("figure");
      card.className = "record";
      card.dataset.measure = m.key;
      const caption = document.createElement("figcaption");
      caption.textContent = m.title;
      card.appendChild(caption);
      const most = Math.max(1e-9, ...players.map((p) => (m.of ? p[m.of] : p[m.key]) || 0));
      const rowH = 16;
      const svg = el("svg", { viewBox: `0 0 160 ${players.length * rowH + 2}`, role: "img",
        "aria-label": m.title }, card);
      players.forEach((p, i) => {
        const value = p[m.key] || 0;
        const yy = i * rowH + 1;
        el("text", { x: 0, y: yy + 11, class: "who" }, svg, p.name.length > 9 ? p.name.slice(0, 8) + "…" : p.name);
        if (m.of) el("rect", { x: 56, y: yy + 2, width: 70, height: 11, class: "of" }, svg);
        el("rect", { x: 56, y: yy + 2, width: Math.max(1, (value / most) * 70), height: 11, fill: colourOf(p.name, i),
          class: "bar", "data-player": p.name, "data-value": value }, svg);
        const shown = m.of ? `${value}/${p[m.of]}` : value.toFixed(m.digits);
        el("text", { x: 130, y: yy + 11, class: "value" }, svg, shown);
      });
      box.appendChild(card);
    }
  }

  return { race, records };
})();
