"use strict";
// The Scruffle plan page: the board on a canvas (multipliers and obstacles drawn once), the letters
// of the first k placements over it, placement k's cells marked as added or crossed; a slider,
// buttons and keys to move k, and a table of every placement. The numbers are the checker's
// (exact totals as text); the words are A-Z only, and text is always set as text.
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const H = D.rows.length, W = H ? D.rows[0].length : 0, N = D.steps.length;
  const S = Math.max(8, Math.min(36, Math.floor(840 / Math.max(W, H, 1))));
  const canvas = document.getElementById("board"), ctx = canvas.getContext("2d");
  canvas.width = W * S;
  canvas.height = H * S;

  // Cells of step i's word (0-based), and per cell the placement that first put its letter
  // there (1-based; N + 1 = never) and that letter.
  function cells(s) {
    const out = [];
    for (let k = 0; k < s[4].length; k++) out.push(s[0] ? (s[3] + k) * W + s[2] : s[3] * W + s[2] + k);
    return out;
  }
  const first = new Int32Array(W * H).fill(N + 1), letter = new Array(W * H).fill("");
  D.steps.forEach(function (s, i) {
    cells(s).forEach(function (c, k) {
      if (s[7][k] === "1") { first[c] = i + 1; letter[c] = s[4][k]; }
    });
  });

  // The board's multipliers, drawn once.
  function colour(ch) {
    if (ch === "#") return "#333";
    if (ch === "D") return "#f4a6c6";
    if (ch === "T") return "#d62728";
    const d = ch.charCodeAt(0) - 48;
    if (d === 0) return "#bdbdbd";
    if (d === 1) return "#ffffff";
    const t = (d - 2) / 7, mix = function (a, b) { return Math.round(a + (b - a) * t); };
    return "rgb(" + mix(222, 66) + "," + mix(235, 146) + "," + mix(247, 198) + ")";
  }
  const background = document.createElement("canvas");
  background.width = canvas.width;
  background.height = canvas.height;
  const bg = background.getContext("2d");
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      bg.fillStyle = colour(D.rows[y][x]);
      bg.fillRect(x * S, y * S, S, S);
    }
  }
  if (S >= 10) {
    bg.strokeStyle = "rgba(0,0,0,0.15)";
    bg.lineWidth = 1;
    bg.beginPath();
    for (let x = 0; x <= W; x++) { bg.moveTo(x * S + 0.5, 0); bg.lineTo(x * S + 0.5, H * S); }
    for (let y = 0; y <= H; y++) { bg.moveTo(0, y * S + 0.5); bg.lineTo(W * S, y * S + 0.5); }
    bg.stroke();
  }

  let step = 0, timer = null;
  const slider = document.getElementById("slider");
  slider.max = N;

  function drawBoard() {
    ctx.drawImage(background, 0, 0);
    // Placed letters on a pale ground, so they read over any multiplier.
    ctx.fillStyle = "#fff8dc";
    for (let c = 0; c < W * H; c++) {
      if (first[c] <= step) ctx.fillRect((c % W) * S, Math.floor(c / W) * S, S, S);
    }
    const current = step > 0 ? D.steps[step - 1] : null;
    if (current) {
      cells(current).forEach(function (c, k) {
        ctx.fillStyle = current[7][k] === "1" ? "#74c476" : "#fd8d3c";
        ctx.fillRect((c % W) * S, Math.floor(c / W) * S, S, S);
      });
    }
    ctx.fillStyle = "#111";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.font = "bold " + Math.max(7, Math.round(S * 0.72)) + "px sans-serif";
    for (let c = 0; c < W * H; c++) {
      if (first[c] <= step) ctx.fillText(letter[c], (c % W) * S + S / 2, Math.floor(c / W) * S + S / 2 + 0.5);
    }
    if (current) {
      const n = current[4].length;
      const w = (current[0] ? 1 : n) * S, h = (current[0] ? n : 1) * S;
      ctx.lineWidth = 5;
      ctx.strokeStyle = "#fff";
      ctx.strokeRect(current[2] * S - 2, current[3] * S - 2, w + 4, h + 4);
      ctx.lineWidth = 3;
      ctx.strokeStyle = "#c92a2a";
      ctx.strokeRect(current[2] * S - 2, current[3] * S - 2, w + 4, h + 4);
    }
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function counts(s) {
    let adds = 0;
    for (const m of s[7]) if (m === "1") adds++;
    return [adds, s[7].length - adds];
  }

  // The table: one row per placement.
  const tbody = document.getElementById("rows"), rows = [];
  const fragment = document.createDocumentFragment();
  D.steps.forEach(function (s, i) {
    const [adds, crosses] = counts(s);
    const tr = el("tr", { "data-step": i + 1 });
    const name = (s[0] ? "V " : "H ") + s[4] + " " + s[2] + "," + s[3];
    const named = el("td");
    named.append(el("span", { class: "w", title: name }, name));
    tr.append(el("td", {}, String(i + 1)), named);
    for (const text of [s[5], s[6], adds, crosses]) tr.append(el("td", {}, String(text)));
    rows.push(tr);
    fragment.append(tr);
  });
  tbody.append(fragment);
  tbody.addEventListener("click", function (e) {
    const tr = e.target.closest("tr");
    if (tr) go(+tr.dataset.step);
  });
  // Exact decimal texts compared as numbers: longer is larger, else by characters.
  function byDecimal(a, b) { return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0); }
  for (const button of document.querySelectorAll("button[data-order]")) {
    button.addEventListener("click", function () {
      const order = rows.slice();
      if (button.dataset.order === "score") {
        order.sort(function (p, q) {
          const a = D.steps[p.dataset.step - 1][5], b = D.steps[q.dataset.step - 1][5];
          return byDecimal(b, a) || p.dataset.step - q.dataset.step;
        });
      }
      tbody.append.apply(tbody, order);
    });
  }

  const box = document.querySelector(".scroll");
  let marked = null;
  function show() {
    drawBoard();
    slider.value = step;
    document.getElementById("step").textContent = "placement " + step + " of " + N;
    const now = document.getElementById("now");
    if (marked) marked.classList.remove("current");
    marked = null;
    if (step === 0) {
      now.replaceChildren(el("p", { class: "big" }, "The empty board: " + N + " placements to come, " + D.score + " points in all."));
      now.dataset.step = 0;
      now.dataset.total = "0";
      return;
    }
    const s = D.steps[step - 1], [adds, crosses] = counts(s);
    now.replaceChildren(
      el("p", { class: "big" }, "Placement " + step + " of " + N + ": " + (s[0] ? "V" : "H") + " " + s[4] + " at (" + s[2] + ", " + s[3] + "), word " + s[1]),
      el("p", {}, "score " + s[5] + "; total so far " + s[6]),
      el("p", {}, "adds " + adds + " cell" + (adds === 1 ? "" : "s") + ", crosses " + crosses));
    Object.assign(now.dataset, { step: step, score: s[5], total: s[6], adds: adds, crosses: crosses });
    marked = rows[step - 1];
    marked.classList.add("current");
    const top = marked.offsetTop;
    if (top < box.scrollTop + 20 || top > box.scrollTop + box.clientHeight - 20) box.scrollTop = top - box.clientHeight / 2;
  }
  function go(k) { step = Math.max(0, Math.min(N, k)); show(); }
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    document.getElementById("play").classList.remove("playing");
  }
  document.getElementById("first").addEventListener("click", function () { stop(); go(0); });
  document.getElementById("prev").addEventListener("click", function () { stop(); go(step - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); go(step + 1); });
  document.getElementById("last").addEventListener("click", function () { stop(); go(N); });
  slider.addEventListener("input", function () { stop(); go(+slider.value); });
  // Playing shows the whole plan in about 20 seconds, however long it is.
  document.getElementById("play").addEventListener("click", function () {
    if (timer) { stop(); return; }
    if (step >= N) go(0);
    const per = Math.max(1, Math.round(N / 400));
    document.getElementById("play").classList.add("playing");
    timer = setInterval(function () { if (step >= N) stop(); else go(step + per); }, 50);
  });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider) return;
    const keys = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: N };
    if (e.key in keys) { e.preventDefault(); stop(); go(keys[e.key]); }
  });
  canvas.addEventListener("mousemove", function (e) {
    const r = canvas.getBoundingClientRect();
    const x = Math.floor((e.clientX - r.left) / S), y = Math.floor((e.clientY - r.top) / S);
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    const ch = D.rows[y][x], c = y * W + x;
    const kind = ch === "#" ? "obstacle" : ch === "D" ? "double word" : ch === "T" ? "triple word" : "letter x" + ch;
    const here = first[c] <= step ? ", letter " + letter[c] + " (placement " + first[c] + ")" : "";
    document.getElementById("cell").textContent = "(" + x + ", " + y + "): " + kind + here;
  });
  go(N);
})();
