"use strict";
// The Splitter report: cards for every game (final boards drawn when they scroll into view), sort
// buttons, and a roll-by-roll replay of any game with the bot's reasons when it wrote a trace.
// Everything comes from the JSON in #data (numbers, and method names the tester checked); text
// from it is set as text, and SVG is built from numbers only.
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const PALE = ["#ffffff", "#e6e6e6", "#9ecae1", "#a1d99b", "#fdd0a2", "#fcbba1", "#dadaeb"];
  const STRONG = ["#ffffff", "#7f7f7f", "#3182bd", "#31a354", "#e6550d", "#de2d26", "#756bb1"];
  const STAR = 2, HEART = 3;
  const DIRS = [[-1, 0], [1, 0], [0, -1], [0, 1]];

  // Layouts: fillable cells, their fillable neighbours, the heart cells.
  const LAYOUTS = {};
  for (const key of Object.keys(D.layouts)) {
    const l = D.layouts[key];
    l.fill = l.codes.map(function (c) { return c !== 0; });
    l.nb = [];
    l.hearts = [];
    for (let c = 0; c < l.w * l.h; c++) {
      const x = c % l.w, y = (c - x) / l.w, out = [];
      if (l.fill[c]) {
        for (const [dx, dy] of DIRS) {
          const nx = x + dx, ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < l.w && ny < l.h && l.fill[ny * l.w + nx]) out.push(ny * l.w + nx);
        }
      }
      l.nb.push(out);
      if (l.codes[c] === HEART) l.hearts.push(c);
    }
    LAYOUTS[key] = l;
  }

  function mirror(l, c) { const x = c % l.w; return c - x + (l.w - 1 - x); }
  function rolls(g) { return g.m.length / 3; }

  // The board after the first k moves of game g, and the cells of move k.
  function boardAt(g, k) {
    const l = LAYOUTS[g.l], v = new Array(l.w * l.h).fill(0);
    let last = null;
    for (let i = 0; i < k; i++) {
      const die = g.m[3 * i], x = g.m[3 * i + 1], y = g.m[3 * i + 2];
      const a = g.d[2 * i], b = g.d[2 * i + 1];
      const other = die === a ? b : a, c = y * l.w + x, mc = mirror(l, c);
      v[c] = die;
      v[mc] = other;
      last = { cell: c, mirror: mc, die: die, other: other, x: x, y: y };
    }
    return { values: v, last: last };
  }

  // Groups of equal values (flood fill over fillable neighbours) and the points of the board as
  // it stands: a group of exactly v cells of value v scores v, twice with a star; +5 when every
  // heart holds the same value.
  function score(l, v) {
    const seen = new Array(v.length).fill(false), groups = [];
    for (let s = 0; s < v.length; s++) {
      if (!v[s] || seen[s]) continue;
      const cells = [s];
      seen[s] = true;
      for (let i = 0; i < cells.length; i++) {
        for (const n of l.nb[cells[i]]) {
          if (!seen[n] && v[n] === v[s]) { seen[n] = true; cells.push(n); }
        }
      }
      const star = cells.some(function (c) { return l.codes[c] === STAR; });
      const points = cells.length === v[s] ? v[s] * (star ? 2 : 1) : 0;
      groups.push({ cells: cells, value: v[s], points: points });
    }
    const h = l.hearts;
    const hearts = h.length > 0 && v[h[0]] !== 0 && h.every(function (c) { return v[c] === v[h[0]]; }) ? 5 : 0;
    const byValue = [0, 0, 0, 0, 0, 0, 0];
    let total = hearts;
    for (const g of groups) { byValue[g.value] += g.points; total += g.points; }
    return { groups: groups, hearts: hearts, byValue: byValue, total: total };
  }

  function parts(sc) {
    const out = [];
    for (let v = 1; v <= 6; v++) out.push(v + "s: " + sc.byValue[v]);
    if (sc.hearts) out.push("hearts: 5");
    return out.join(" \u00b7 ");
  }

  function starPoints(cx, cy, r) {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = Math.PI / 5 * i - Math.PI / 2, rr = i % 2 ? r * 0.45 : r;
      pts.push((cx + rr * Math.cos(a)).toFixed(1) + "," + (cy + rr * Math.sin(a)).toFixed(1));
    }
    return pts.join(" ");
  }

  // A board as SVG markup (numbers only): cells coloured by value, scoring groups strong and
  // outlined with their points, stars and hearts drawn in their corner, and move `mark` (the
  // cell named and its mirror) framed.
  function boardSvg(l, v, S, mark) {
    const sc = score(l, v), groupOf = new Array(v.length).fill(-1);
    sc.groups.forEach(function (g, k) { for (const c of g.cells) groupOf[c] = k; });
    const W = l.w * S + 4, H = l.h * S + 4;
    let out = '<svg class="board" width="' + W + '" height="' + H + '" viewBox="-2 -2 ' + W + " " + H + '">';
    for (let c = 0; c < v.length; c++) {
      const x = (c % l.w) * S, y = Math.floor(c / l.w) * S;
      if (!l.fill[c]) {
        out += '<rect x="' + x + '" y="' + y + '" width="' + S + '" height="' + S + '" fill="#444"/>';
        continue;
      }
      const val = v[c], scoring = groupOf[c] >= 0 && sc.groups[groupOf[c]].points > 0;
      out += '<rect x="' + x + '" y="' + y + '" width="' + S + '" height="' + S + '" fill="' +
        (scoring ? STRONG[val] : PALE[val]) + '" stroke="#bbb" stroke-width="0.5" data-cell="' + c + '" data-value="' + val + '"/>';
      if (val) {
        out += '<text x="' + (x + S / 2) + '" y="' + (y + S * 0.68) + '" class="v" fill="' + (scoring ? "#fff" : "#555") + '">' + val + "</text>";
      }
      const r = S * 0.16;
      if (l.codes[c] === STAR) {
        out += '<polygon points="' + starPoints(x + r + 2, y + r + 2, r) + '" fill="#111"/>';
      } else if (l.codes[c] === HEART) {
        const k = r / 4.5;
        out += '<path transform="translate(' + (x + 2) + "," + (y + 2) + ") scale(" + k.toFixed(3) +
          ')" d="M5 9L1 5A2.2 2.2 0 0 1 5 2.2A2.2 2.2 0 0 1 9 5Z" fill="#c2185b"/>';
      }
    }
    sc.groups.forEach(function (g, k) {
      if (!g.points) return;
      for (const c of g.cells) {
        const cx = c % l.w, cy = Math.floor(c / l.w), x = cx * S, y = cy * S;
        const same = function (nx, ny) {
          return nx >= 0 && ny >= 0 && nx < l.w && ny < l.h && groupOf[ny * l.w + nx] === k;
        };
        for (const [nx, ny, x1, y1, x2, y2] of [[cx - 1, cy, x, y, x, y + S], [cx + 1, cy, x + S, y, x + S, y + S],
          [cx, cy - 1, x, y, x + S, y], [cx, cy + 1, x, y + S, x + S, y + S]]) {
          if (!same(nx, ny)) out += '<line x1="' + x1 + '" y1="' + y1 + '" x2="' + x2 + '" y2="' + y2 + '" class="o"/>';
        }
      }
      const first = Math.min.apply(null, g.cells);
      out += '<text x="' + ((first % l.w) * S + S - 2) + '" y="' + (Math.floor(first / l.w) * S + S - 2) + '" class="p">' + g.points + "</text>";
    });
    if (mark) {
      const frame = function (c, dash) {
        return '<rect x="' + ((c % l.w) * S + 2) + '" y="' + (Math.floor(c / l.w) * S + 2) + '" width="' + (S - 4) +
          '" height="' + (S - 4) + '" fill="none" stroke="#f59f00" stroke-width="4"' + (dash ? ' stroke-dasharray="6 4"' : "") + "/>";
      };
      out += frame(mark.mirror, true) + frame(mark.cell, false);
    }
    return { svg: out + "</svg>", score: sc };
  }

  // One game's move times as a strip of bars against `top` ms.
  function timesSvg(t, top) {
    const bw = 9, h = 24;
    let out = '<svg class="mt" width="' + (t.length * bw + 2) + '" height="' + (h + 2) + '">';
    t.forEach(function (ms, i) {
      const bh = Math.min(h, Math.max(1, ms / Math.max(top, 1e-9) * h));
      out += '<rect x="' + (1 + i * bw) + '" y="' + (h + 1 - bh).toFixed(1) + '" width="' + (bw - 2) + '" height="' +
        bh.toFixed(1) + '" fill="#888"><title>move ' + (i + 1) + ": " + ms.toFixed(1) + " ms</title></rect>";
    });
    return out + "</svg>";
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Cards, in game order per layout; their boards are drawn when they come into view.
  const top = {};
  for (const g of D.games) top[g.l] = Math.max(top[g.l] || 0, Math.max.apply(null, g.t.concat([0])));
  const byId = {};
  const draw = function (card) {
    if (card.dataset.drawn) return;
    card.dataset.drawn = "1";
    const g = byId[card.id], l = LAYOUTS[g.l];
    const b = boardSvg(l, boardAt(g, rolls(g)).values, 26, null);
    card.querySelector(".thumb").innerHTML = b.svg;
    card.querySelector(".times").innerHTML = timesSvg(g.t, top[g.l]);
  };
  const observer = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
    for (const e of entries) if (e.isIntersecting) { draw(e.target); observer.unobserve(e.target); }
  }, { rootMargin: "400px" }) : null;
  const boxes = {};
  const fragments = {};
  for (const g of D.games) {
    const id = "g" + g.l + "-" + g.g;
    byId[id] = g;
    const sc = score(LAYOUTS[g.l], boardAt(g, rolls(g)).values);
    const card = el("div", {
      class: "game", id: id, tabindex: "0", role: "button",
      "data-layout": g.l, "data-game": g.g, "data-score": g.s, "data-time": g.ms
    });
    const title = el("div", { class: "t" });
    title.append("game " + g.g + " \u00b7 ", el("b", {}, String(g.s)), " points \u00b7 " + (g.ms / 1000).toFixed(2) + " s");
    card.append(title, el("div", { class: "thumb" }), el("div", { class: "s" }, parts(sc)), el("div", { class: "times" }));
    (fragments[g.l] = fragments[g.l] || document.createDocumentFragment()).append(card);
  }
  for (const key of Object.keys(fragments)) {
    boxes[key] = document.getElementById("games-" + key);
    boxes[key].append(fragments[key]);
    for (const card of boxes[key].children) observer ? observer.observe(card) : draw(card);
  }

  // Sorting: each layout's cards by a data attribute (ties by game).
  for (const button of document.querySelectorAll("button[data-sort]")) {
    button.addEventListener("click", function () {
      const key = button.dataset.sort, dir = +button.dataset.dir;
      for (const box of Object.values(boxes)) {
        const items = Array.prototype.slice.call(box.children);
        items.sort(function (a, b) {
          const d = (parseFloat(a.dataset[key]) - parseFloat(b.dataset[key])) * dir;
          return d !== 0 ? d : a.dataset.game - b.dataset.game;
        });
        box.append.apply(box, items);
      }
    });
  }

  // The replay.
  const overlay = document.getElementById("replay"), slider = document.getElementById("r-slider");
  let current = null, step = 0, opener = null;
  const DIE_PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
    5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };
  function dieSvg(n, named) {
    let out = '<svg class="die" width="44" height="44" viewBox="0 0 44 44" data-die="' + n + '"><rect x="2" y="2" width="40" height="40" rx="7" fill="' +
      (named ? "#fff3bf" : "#fff") + '" stroke="' + (named ? "#f59f00" : "#555") + '" stroke-width="' + (named ? 3 : 1.5) + '"/>';
    for (const [px, py] of DIE_PIPS[n]) out += '<circle cx="' + (11 + px * 11) + '" cy="' + (11 + py * 11) + '" r="4" fill="#222"/>';
    return out + "</svg>";
  }
  const METHOD = {
    rollouts: "Monte-Carlo: every candidate played out against the same random future dice; its mean is the average result (estimated final points). A candidate clearly behind the leader stops early, with fewer rollouts.",
    exact: "Exact: every later roll placed as well as possible; the mean is the expected final points (on the last roll, the final points).",
    only: "The only free pair of cells: nothing to weigh.",
    floor: "Out of time: the quick fallback move, nothing weighed.",
    policy: "This policy weighs no candidates."
  };
  function whyTable(g, k) {
    const box = document.getElementById("r-why");
    box.replaceChildren();
    if (!g.r) {
      box.append(el("p", {}, "No trace for this game: run the bot with --trace {trace} to see what it weighed."));
      return;
    }
    if (k === 0) { box.append(el("p", {}, "Step forward to see what the bot weighed at each roll.")); return; }
    const [method, cands] = g.r[k - 1];
    const l = LAYOUTS[g.l], a = g.d[2 * (k - 1)], b = g.d[2 * (k - 1) + 1];
    const chosen = [g.m[3 * (k - 1)], g.m[3 * (k - 1) + 1], g.m[3 * (k - 1) + 2]];
    const total = cands.reduce(function (s, c) { return s + c[4]; }, 0);
    box.append(el("p", { class: "method" }, METHOD[method] || method));
    const plural = function (n, word) { return n.toLocaleString("en") + " " + word + (n === 1 ? "" : "s"); };
    box.append(el("p", {}, plural(cands.length, "candidate") + ", " + plural(total, "rollout") + "."));
    const most = Math.max.apply(null, cands.map(function (c) { return c[4]; }));
    const means = cands.filter(function (c) { return c[3] !== null; }).map(function (c) { return c[3]; });
    // Bars from the lowest mean to the highest: the differences that decided.
    const lo = Math.min.apply(null, means), hi = Math.max.apply(null, means);
    const rows = cands.slice().sort(function (p, q) { return (q[3] === null ? -1e9 : q[3]) - (p[3] === null ? -1e9 : p[3]); });
    const table = el("table", { class: "why", id: "r-cands" });
    const head = el("tr");
    for (const h of ["", "move", "mean", "rollouts", ""]) head.append(el("th", {}, h));
    table.append(head);
    rows.forEach(function (c, i) {
      const [die, x, y, mean, n] = c;
      const other = die === a ? b : a, mx = l.w - 1 - x;
      const played = die === chosen[0] && x === chosen[1] && y === chosen[2];
      const tr = el("tr", { class: played ? "chosen" : (n < most ? "dropped" : ""), "data-move": die + " " + x + " " + y,
        "data-mean": mean === null ? "" : mean, "data-rollouts": n });
      const width = mean === null ? 0 : hi === lo ? 120 : 4 + (mean - lo) / (hi - lo) * 116;
      const bar = el("span", { class: "meanbar", style: "width:" + width.toFixed(0) + "px" });
      tr.append(el("td", {}, played ? "played" : String(i + 1)),
        el("td", {}, die + " at (" + x + "," + y + "), " + other + " at (" + mx + "," + y + ")"),
        el("td", {}, mean === null ? "-" : mean.toFixed(2)), el("td", {}, String(n)));
      const cell = el("td");
      cell.append(bar);
      tr.append(cell);
      table.append(tr);
    });
    const scroll = el("div", { class: "scroll" });
    scroll.append(table);
    box.append(scroll);
  }
  function show() {
    const g = current, l = LAYOUTS[g.l], n = rolls(g);
    const at = boardAt(g, step), b = boardSvg(l, at.values, 48, at.last);
    document.getElementById("r-board").innerHTML = b.svg;
    slider.value = step;
    document.getElementById("r-step").textContent = "roll " + step + " of " + n;
    const dice = document.getElementById("r-dice"), move = document.getElementById("r-move");
    if (step > 0) {
      const a = g.d[2 * (step - 1)], d = g.d[2 * (step - 1) + 1], last = at.last;
      dice.innerHTML = dieSvg(a, a === last.die) + dieSvg(d, d === last.die && a !== last.die);
      move.textContent = "Roll " + step + ": dice " + a + " and " + d + ". The bot put " + last.die + " at (" + last.x + "," + last.y +
        ") and " + last.other + " at its mirror (" + (l.w - 1 - last.x) + "," + last.y + "), in " + g.t[step - 1].toFixed(1) + " ms.";
    } else {
      dice.replaceChildren();
      move.textContent = "Before the first roll: " + n + " rolls to come.";
    }
    const sofar = document.getElementById("r-sofar");
    sofar.replaceChildren(el("span", { class: "sofar", id: "r-score", "data-score": b.score.total }, "Score so far: " + b.score.total),
      el("br"), parts(b.score));
    whyTable(g, step);
  }
  function go(k) { step = Math.max(0, Math.min(rolls(current), k)); show(); }
  function open(card) {
    opener = card;
    current = byId[card.id];
    slider.max = rolls(current);
    document.getElementById("r-title").textContent = "Layout " + current.l + ", game " + current.g + ": " + current.s + " points";
    overlay.hidden = false;
    go(0);
    document.getElementById("r-next").focus();
  }
  function close() {
    overlay.hidden = true;
    current = null;
    if (opener) opener.focus();
  }
  for (const box of Object.values(boxes)) {
    box.addEventListener("click", function (e) { const c = e.target.closest(".game"); if (c) open(c); });
    box.addEventListener("keydown", function (e) {
      const c = e.target.closest(".game");
      if (c && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); open(c); }
    });
  }
  document.getElementById("r-first").addEventListener("click", function () { go(0); });
  document.getElementById("r-prev").addEventListener("click", function () { go(step - 1); });
  document.getElementById("r-next").addEventListener("click", function () { go(step + 1); });
  document.getElementById("r-last").addEventListener("click", function () { go(rolls(current)); });
  document.getElementById("r-close").addEventListener("click", close);
  slider.addEventListener("input", function () { go(+slider.value); });
  overlay.addEventListener("click", function (e) { if (e.target === overlay) close(); });
  document.addEventListener("keydown", function (e) {
    if (!current) return;
    const keys = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: rolls(current) };
    if (e.key === "Escape") close();
    else if (e.key in keys && e.target !== slider) { e.preventDefault(); go(keys[e.key]); }
  });
})();
