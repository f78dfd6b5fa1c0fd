//! Replay viewer: one self-contained HTML page (inline SVG + script, no network) with the hex
//! board, penguins, scores and step-through controls. Everything the page shows from the replay
//! is set as text (never as HTML), and `tester penguins --view` draws only a replay the checker
//! verified field by field.

use super::replay::Replay;

/// Check a replay's shape before rendering (boards are 8 rows of 8 digits 0-3, one entry per seat).
pub fn check(replay: &Replay) -> Result<(), String> {
    let seats = replay.players.len();
    if !(2..=4).contains(&seats) {
        return Err(format!("{seats} players (expected 2 to 4)"));
    }
    let board_ok = |rows: &[String]| {
        rows.len() == 8
            && rows
                .iter()
                .all(|r| r.len() == 8 && r.bytes().all(|b| (b'0'..=b'3').contains(&b)))
    };
    if !(1..=4).contains(&replay.penguins_per_player) {
        return Err(format!(
            "{} penguins per player (expected 1 to 4)",
            replay.penguins_per_player
        ));
    }
    if !board_ok(&replay.initial_board) {
        return Err("initial_board is not 8 rows of 8 digits 0-3".into());
    }
    for t in &replay.turns {
        if !board_ok(&t.board) || t.player >= seats || t.scores.len() != seats {
            return Err(format!("turn {} is malformed", t.turn));
        }
    }
    if replay.final_scores.len() != seats
        || replay.failures.len() != seats
        || replay.ranks.len() != seats
    {
        return Err("final_scores/failures/ranks do not have one entry per player".into());
    }
    Ok(())
}

/// The page. The replay is embedded as JSON (with `</` escaped so it cannot close the script).
pub fn render(replay: &Replay) -> String {
    let json = serde_json::to_string(replay)
        .expect("a replay always serialises")
        .replace("</", "<\\/");
    let title = format!(
        "Penguins seed {} - {}",
        replay.seed,
        replay
            .players
            .iter()
            .map(|p| escape(p))
            .collect::<Vec<_>>()
            .join(" vs ")
    );
    TEMPLATE
        .replace("{{TITLE}}", &title)
        .replace("{{REPLAY}}", &json)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const TEMPLATE: &str = r##"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{TITLE}}</title>
<style>
body { font-family: sans-serif; background: #0d2538; color: #eee; margin: 1em; }
#board { background: #123a57; border-radius: 8px; }
.panel { display: inline-block; vertical-align: top; margin-left: 1em; min-width: 22em; }
button { font-size: 1em; margin: 0 2px; padding: 3px 8px; cursor: pointer; }
button svg { display: block; }
.controls { display: flex; gap: 2px; margin-bottom: 4px; }
#play .when-playing { display: none; } #play.playing .when-playing { display: inline; } #play.playing .when-stopped { display: none; }
.dot { display: inline-block; width: 0.7em; height: 0.7em; border-radius: 50%; margin-right: 0.3em; }
table { border-collapse: collapse; } td, th { padding: 2px 8px; text-align: left; }
pre { background: #081a28; padding: 6px; max-height: 12em; overflow: auto; font-size: 0.8em; }
.fail { color: #ff7b7b; }
</style></head><body>
<h2>{{TITLE}}</h2>
<svg id="board" width="560" height="470" viewBox="0 0 560 470"></svg>
<div class="panel">
  <div class="controls">
    <button id="first" aria-label="first" title="Start (Home)"><svg viewBox="0 0 16 16" width="16" height="16"><rect x="2" y="3" width="2" height="10" fill="currentColor"/><polygon points="14,3 14,13 5,8" fill="currentColor"/></svg></button>
    <button id="prev" aria-label="back" title="Back one turn (Left arrow)"><svg viewBox="0 0 16 16" width="16" height="16"><polygon points="12,3 12,13 4,8" fill="currentColor"/></svg></button>
    <button id="play" aria-label="play" title="Play / pause"><svg viewBox="0 0 16 16" width="16" height="16"><g class="when-stopped"><polygon points="4,2 4,14 14,8" fill="currentColor"/></g><g class="when-playing"><rect x="3" y="2" width="3.5" height="12" fill="currentColor"/><rect x="9.5" y="2" width="3.5" height="12" fill="currentColor"/></g></svg></button>
    <button id="next" aria-label="forward" title="Forward one turn (Right arrow)"><svg viewBox="0 0 16 16" width="16" height="16"><polygon points="4,3 4,13 12,8" fill="currentColor"/></svg></button>
    <button id="last" aria-label="last" title="End (End)"><svg viewBox="0 0 16 16" width="16" height="16"><polygon points="2,3 2,13 11,8" fill="currentColor"/><rect x="12" y="3" width="2" height="10" fill="currentColor"/></svg></button>
  </div>
  <input id="slider" type="range" min="0" value="0" style="width:100%">
  <p id="info"></p>
  <pre id="turnerr"></pre>
  <table id="scores"></table>
  <p id="result"></p>
  <div id="stderr"></div>
</div>
<script type="application/json" id="replay">{{REPLAY}}</script>
<script>
"use strict";
const R = JSON.parse(document.getElementById("replay").textContent);
const COLORS = ["#e8474c", "#3fa7f5", "#f2c230", "#59d46a"];
const FISH = ["none", "#cfe8f7", "#9fd0ee", "#62b2e2"];
const svg = document.getElementById("board");
const size = 34, w = Math.sqrt(3) * size, h = 2 * size;
const initialPenguins = [];
let step = 0, timer = null;
const slider = document.getElementById("slider");
slider.max = R.turns.length;

function cellName(col, row) { return String.fromCharCode(65 + col) + (row + 1); }
function center(col, row) {
  return [40 + col * w + (row % 2 === 0 ? w / 2 : 0), 40 + row * h * 0.75];
}
function cellCenter(cell) { return center(cell.charCodeAt(0) - 65, +cell.slice(1) - 1); }
function hexPoints(x, y) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push((x + size * 0.97 * Math.cos(a)).toFixed(1) + "," + (y + size * 0.97 * Math.sin(a)).toFixed(1));
  }
  return pts.join(" ");
}
function el(name, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function draw() {
  const board = step === 0 ? R.initial_board : R.turns[step - 1].board;
  const penguins = step === 0 ? initialPenguins : R.turns[step - 1].penguins;
  const last = step === 0 ? null : R.turns[step - 1];
  const lastTo = last ? last.action.split(" ")[2] : null;
  svg.replaceChildren();
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      if (row % 2 === 0 && col === 7) continue;
      const fish = +board[row][col];
      const [x, y] = center(col, row);
      const name = cellName(col, row);
      svg.appendChild(el("polygon", {
        points: hexPoints(x, y),
        fill: fish ? FISH[fish] : "#0d2538",
        stroke: name === lastTo ? "#fff" : "#0a1e2e",
        "stroke-width": name === lastTo ? 3 : 1
      }));
      svg.appendChild(el("text", { x: x - 12, y: y - 12, "font-size": 9, fill: "#335" }, name));
      for (let f = 0; f < fish; f++) svg.appendChild(el("circle", { cx: x + 9 + f * 6, cy: y + 15, r: 2.2, fill: "#124" }));
    }
  }
  for (const [id, owner, cell] of penguins) {
    const [x, y] = cellCenter(cell);
    svg.appendChild(el("circle", { cx: x, cy: y, r: 13, fill: COLORS[owner], stroke: "#000" }));
    svg.appendChild(el("text", { x: x - 4, y: y + 5, "font-size": 13, fill: "#000" }, id));
  }
  // The penguin this move pushed into the sea: a faded, dashed penguin with a cross where it fell.
  if (last && last.pushed) {
    const [x, y] = cellCenter(last.pushed.cell);
    svg.appendChild(el("circle", { cx: x, cy: y, r: 15, fill: COLORS[last.pushed.owner], "fill-opacity": 0.25,
      stroke: "#fff", "stroke-width": 2, "stroke-dasharray": "4 3" }));
    svg.appendChild(el("path", { d: `M${x - 7} ${y - 7}L${x + 7} ${y + 7}M${x + 7} ${y - 7}L${x - 7} ${y + 7}`,
      stroke: "#fff", "stroke-width": 3 }));
  }
  const scores = step === 0 ? R.players.map(() => 0) : last.scores;
  const table = document.getElementById("scores");
  table.replaceChildren(make("tr", {}, make("th", {}, "seat"), make("th", {}, "score"), make("th", {}, "bot")));
  R.players.forEach((p, i) => {
    const f = R.failures[i];
    const out = f && f.turn < step + (step === R.turns.length ? 1 : 0);
    table.append(make("tr", out ? { class: "fail" } : {},
      make("td", {}, make("span", { class: "dot", style: "background:" + COLORS[i] }), String(i)), make("td", {}, String(scores[i])),
      make("td", {}, p + (out ? ` (out: ${f.kind} at turn ${f.turn})` : ""))));
  });
  const outNow = R.failures.map((f, i) => f && f.turn === step - 1 ? `seat ${i} out (${f.kind}); ` : "").join("");
  const info = document.getElementById("info");
  if (last) {
    info.replaceChildren(`turn ${step}/${R.turns.length}: ${outNow}seat ${last.player} `, make("b", {}, last.action),
      ` in ${last.time_ms.toFixed(1)} ms`);
    if (last.pushed) info.append(" \u2014 ", make("b", {},
      `pushed penguin ${last.pushed.id} (seat ${last.pushed.owner}) into the sea from ${last.pushed.cell}`));
    if (last.message) info.append(" \u2014 \u201C" + last.message + "\u201D");
  } else {
    info.replaceChildren(`start (seed ${R.seed}, rules ${R.rules}, ${R.first_turn_ms}/${R.turn_ms} ms)`);
  }
  document.getElementById("turnerr").textContent = last && last.stderr ? last.stderr : "";
  slider.value = step;
}
// An HTML element with attributes and children; a string child becomes a text node, so nothing
// taken from the replay is ever parsed as HTML.
function make(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  e.append(...children);
  return e;
}
function go(s) { step = Math.max(0, Math.min(R.turns.length, s)); draw(); }
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(step - 1);
document.getElementById("next").onclick = () => go(step + 1);
document.getElementById("last").onclick = () => go(R.turns.length);
slider.oninput = () => go(+slider.value);
const playButton = document.getElementById("play");
function stop() { clearInterval(timer); timer = null; playButton.classList.remove("playing"); }
playButton.onclick = () => {
  if (timer) { stop(); return; }
  if (step >= R.turns.length) go(0);
  playButton.classList.add("playing");
  timer = setInterval(() => { if (step >= R.turns.length) stop(); else go(step + 1); }, 400);
};
document.addEventListener("keydown", e => {
  if (e.target === slider) return;
  const keys = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: R.turns.length };
  if (e.key in keys) { e.preventDefault(); go(keys[e.key]); }
});
const result = document.getElementById("result");
result.append(make("b", {}, R.end_reason), make("br"),
  "final: " + R.final_scores.map((s, i) => `seat ${i}: ${s} (rank ${R.ranks[i]})`).join(", "));
R.failures.forEach((f, i) => {
  if (f) result.append(make("br"), make("span", { class: "fail" }, `seat ${i}: ${f.kind} at turn ${f.turn}: ${f.detail}`));
});
R.stderr.forEach((t, i) => document.getElementById("stderr").append(
  make("details", {}, make("summary", {}, `seat ${i} stderr (${t.length} chars)`), make("pre", {}, t))));
go(0);
</script></body></html>
"##;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::penguins::replay::{Failure, TurnRecord};

    fn sample() -> Replay {
        let board: Vec<String> = (0..8).map(|_| "11112220".to_string()).collect();
        Replay {
            seed: 7,
            rules: "default".into(),
            players: vec!["bot </script> a".into(), "b".into()],
            penguins_per_player: 4,
            first_turn_ms: 1000,
            turn_ms: 50,
            cpu_time: false,
            initial_board: board.clone(),
            turns: vec![TurnRecord {
                turn: 0,
                player: 0,
                action: "MOVE 0 A1".into(),
                message: Some("hi </script>".into()),
                time_ms: 1.5,
                cpu_ms: None,
                board,
                penguins: vec![(0, 0, "A1".into())],
                scores: vec![0, 0],
                stderr: "thinking".into(),
                pushed: None,
            }],
            final_scores: vec![0, 0],
            failures: vec![
                None,
                Some(Failure {
                    kind: "timeout".into(),
                    turn: 1,
                    detail: "no answer".into(),
                }),
            ],
            ranks: vec![1, 2],
            end_reason: "player 1 lost by default".into(),
            stderr: vec![String::new(), "x".into()],
        }
    }

    #[test]
    fn page_embeds_the_replay_without_breaking_out_of_the_script() {
        let page = render(&sample());
        assert_eq!(
            page.matches("</script>").count(),
            2,
            "only the two real closing tags"
        );
        let start = page.find("id=\"replay\">").unwrap() + "id=\"replay\">".len();
        let end = start + page[start..].find("</script>").unwrap();
        let back: Replay = serde_json::from_str(&page[start..end].replace("<\\/", "</")).unwrap();
        assert_eq!(back, sample());
        assert!(page.contains("bot &lt;/script&gt; a"));
    }

    #[test]
    fn check_rejects_malformed_replays() {
        assert!(check(&sample()).is_ok());
        let mut bad = sample();
        bad.initial_board[3] = "1111222".into();
        assert!(check(&bad).unwrap_err().contains("initial_board"));
        let mut bad = sample();
        bad.turns[0].player = 5;
        assert!(check(&bad).unwrap_err().contains("turn 0"));
    }

    #[test]
    fn nothing_taken_from_the_file_is_ever_parsed_as_html() {
        // The page's script writes the replay's text with textContent only; innerHTML only
        // clears.
        for (number, line) in TEMPLATE.lines().enumerate() {
            if let Some(at) = line.find("innerHTML") {
                assert!(
                    line[at..].starts_with("innerHTML = \"\";"),
                    "template line {}: {line}",
                    number + 1
                );
            }
        }
        // The title, the one text Rust writes into the page, is escaped.
        let mut replay = sample();
        replay.players[1] = "<img src=x onerror=alert(1)>".into();
        let page = render(&replay);
        let head = &page[..page.find("<script").unwrap()];
        assert!(!head.contains("<img"), "{head}");
        assert!(
            head.contains("&lt;img src=x onerror=alert(1)&gt;"),
            "{head}"
        );
    }
}
