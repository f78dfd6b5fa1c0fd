//! `tester splitter --html FILE`: one self-contained page (inline CSS, SVG and a few lines of
//! script, nothing fetched) with the score distribution per layout and every game's final board —
//! values coloured, scoring groups outlined with their points, stars and hearts marked — sortable
//! by score, so a reader sees where a bot loses points.
//!
//! The groups are found here with their own flood fill over the layout's adjacency (the page
//! checks the bot's points, it does not reuse the library's scorer); the page's total per game
//! must equal the tester's score.

use super::session::{GameRecord, Outcome};
use bot::splitter::layout::{BLOCKED, HEART, STAR};
use bot::splitter::stats::{quantile, stats};
use bot::splitter::{official, Board, Dice, Layout, Move};
use std::fmt::Write;

/// One group on a final board.
struct Group {
    cells: Vec<usize>,
    value: u8,
    /// Points it scores (0 unless its size is exactly its value).
    points: u32,
}

/// The final board of a recorded game, replayed through the rules.
fn final_values(layout: &Layout, record: &GameRecord) -> Vec<u8> {
    let mut board = Board::new(layout, layout.default_rounds());
    for (d, m) in record.dice.iter().zip(&record.moves) {
        let mv = Move {
            die: m[0] as u8,
            x: m[1],
            y: m[2],
        };
        // The tester accepted every recorded move; a refused one would leave its cells empty.
        let _ = board.place(layout, Dice(d[0], d[1]), mv);
    }
    board.values
}

/// Connected groups of equal values, by flood fill over the layout's fillable neighbours.
fn groups(layout: &Layout, values: &[u8]) -> Vec<Group> {
    let mut seen = vec![false; values.len()];
    let mut out = Vec::new();
    for start in 0..values.len() {
        if values[start] == 0 || seen[start] {
            continue;
        }
        let v = values[start];
        let mut cells = vec![start];
        seen[start] = true;
        let mut i = 0;
        while i < cells.len() {
            let c = cells[i];
            i += 1;
            for &n in layout.neighbours(c) {
                if !seen[n] && values[n] == v {
                    seen[n] = true;
                    cells.push(n);
                }
            }
        }
        let star = cells.iter().any(|&c| layout.code(c) == STAR);
        let points = if cells.len() == v as usize {
            v as u32 * if star { 2 } else { 1 }
        } else {
            0
        };
        out.push(Group {
            cells,
            value: v,
            points,
        });
    }
    out
}

/// The heart bonus of a final board.
fn heart_points(layout: &Layout, values: &[u8]) -> u32 {
    let hearts: Vec<usize> = (0..values.len())
        .filter(|&c| layout.code(c) == HEART)
        .collect();
    match hearts.first() {
        Some(&h) if values[h] != 0 && hearts.iter().all(|&c| values[c] == values[h]) => 5,
        _ => 0,
    }
}

const COLOURS: [&str; 7] = [
    "#ffffff", "#e6e6e6", "#9ecae1", "#a1d99b", "#fdd0a2", "#fcbba1", "#dadaeb",
];
const STRONG: [&str; 7] = [
    "#ffffff", "#7f7f7f", "#3182bd", "#31a354", "#e6550d", "#de2d26", "#756bb1",
];

/// One game's final board as an SVG: cells coloured by value (scoring groups strong, others
/// pale), a thick outline around each scoring group, its points at its first cell, stars and
/// hearts marked in the corner of their cells.
fn board_svg(layout: &Layout, values: &[u8], groups: &[Group]) -> String {
    const S: usize = 26;
    let (w, h) = (layout.width(), layout.height());
    let mut group_of = vec![usize::MAX; values.len()];
    for (k, g) in groups.iter().enumerate() {
        for &c in &g.cells {
            group_of[c] = k;
        }
    }
    let mut svg = format!(
        "<svg width=\"{}\" height=\"{}\" viewBox=\"-2 -2 {} {}\">",
        w * S + 4,
        h * S + 4,
        w * S + 4,
        h * S + 4
    );
    for c in 0..values.len() {
        let (x, y) = ((c % w) * S, (c / w) * S);
        if layout.code(c) == BLOCKED {
            let _ = write!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{S}\" height=\"{S}\" fill=\"#444\"/>"
            );
            continue;
        }
        let v = values[c] as usize;
        let scoring = group_of[c] != usize::MAX && groups[group_of[c]].points > 0;
        let fill = if scoring { STRONG[v] } else { COLOURS[v] };
        let text = if scoring { "#fff" } else { "#555" };
        let _ = write!(
            svg,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{S}\" height=\"{S}\" fill=\"{fill}\" stroke=\"#bbb\" stroke-width=\"0.5\"/>"
        );
        if v > 0 {
            let _ = write!(
                svg,
                "<text x=\"{}\" y=\"{}\" fill=\"{text}\" class=\"v\">{v}</text>",
                x + S / 2,
                y + S / 2 + 5
            );
        }
        let mark = match layout.code(c) {
            STAR => "\u{2605}",
            HEART => "\u{2665}",
            _ => "",
        };
        if !mark.is_empty() {
            let _ = write!(
                svg,
                "<text x=\"{}\" y=\"{}\" class=\"m\">{mark}</text>",
                x + 2,
                y + 9
            );
        }
    }
    // Outlines: every edge of a scoring group's cell that does not face the same group.
    for (k, g) in groups.iter().enumerate() {
        if g.points == 0 {
            continue;
        }
        for &c in &g.cells {
            let (cx, cy) = (c % w, c / w);
            let (x, y) = (cx * S, cy * S);
            let same = |nx: isize, ny: isize| {
                nx >= 0
                    && ny >= 0
                    && (nx as usize) < w
                    && (ny as usize) < h
                    && group_of[ny as usize * w + nx as usize] == k
            };
            let (cx, cy) = (cx as isize, cy as isize);
            for (nx, ny, x1, y1, x2, y2) in [
                (cx - 1, cy, x, y, x, y + S),
                (cx + 1, cy, x + S, y, x + S, y + S),
                (cx, cy - 1, x, y, x + S, y),
                (cx, cy + 1, x, y + S, x + S, y + S),
            ] {
                if !same(nx, ny) {
                    let _ = write!(
                        svg,
                        "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" class=\"o\"/>"
                    );
                }
            }
        }
        let first = g.cells.iter().min().copied().unwrap_or(0);
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{}\" class=\"p\">{}</text>",
            (first % w) * S + S - 2,
            (first / w) * S + S - 2,
            g.points
        );
    }
    svg.push_str("</svg>");
    svg
}

/// The score histogram of one layout as an SVG bar chart (one bar per score).
fn histogram_svg(scores: &[u32]) -> String {
    let (lo, hi) = (
        scores.iter().min().copied().unwrap_or(0),
        scores.iter().max().copied().unwrap_or(0),
    );
    let mut counts = vec![0usize; (hi - lo + 1) as usize];
    for &s in scores {
        counts[(s - lo) as usize] += 1;
    }
    let top = counts.iter().max().copied().unwrap_or(1).max(1);
    let (bw, height) = (14usize, 120usize);
    let mut svg = format!(
        "<svg width=\"{}\" height=\"{}\">",
        counts.len() * bw + 10,
        height + 30
    );
    for (i, &n) in counts.iter().enumerate() {
        let bh = n * height / top;
        let x = 5 + i * bw;
        let _ = write!(
            svg,
            "<rect x=\"{x}\" y=\"{}\" width=\"{}\" height=\"{bh}\" fill=\"#3182bd\"><title>{} points: {n} games</title></rect>",
            height - bh + 5,
            bw - 2,
            lo as usize + i
        );
        if (lo as usize + i).is_multiple_of(5) {
            let _ = write!(
                svg,
                "<text x=\"{}\" y=\"{}\" class=\"a\">{}</text>",
                x + bw / 2,
                height + 20,
                lo as usize + i
            );
        }
    }
    svg.push_str("</svg>");
    svg
}

/// One game's move times as a strip of bars (heights against `top` ms), each with its time as a
/// tooltip.
fn moves_svg(move_ms: &[f64], top: f64) -> String {
    let (bw, height) = (9usize, 24.0);
    let mut svg = format!(
        "<svg class=\"mt\" width=\"{}\" height=\"{}\">",
        move_ms.len() * bw + 2,
        height as usize + 2
    );
    for (i, &ms) in move_ms.iter().enumerate() {
        let bh = (ms / top.max(1e-9) * height).clamp(1.0, height);
        let _ = write!(
            svg,
            "<rect x=\"{}\" y=\"{:.1}\" width=\"{}\" height=\"{bh:.1}\" fill=\"#888\"><title>move {}: {ms:.1} ms</title></rect>",
            1 + i * bw,
            height + 1.0 - bh,
            bw - 2,
            i + 1
        );
    }
    svg.push_str("</svg>");
    svg
}

/// A layout's time figures: per game and per move, and what a 200-game run takes at this pace.
fn time_summary(games: &[GameRecord]) -> String {
    let sorted = |mut xs: Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        xs
    };
    let game = sorted(games.iter().map(|g| g.game_ms).collect());
    let moves = sorted(
        games
            .iter()
            .flat_map(|g| g.move_ms.iter().copied())
            .collect(),
    );
    let mean = game.iter().sum::<f64>() / game.len().max(1) as f64;
    format!(
        "<p>Time per game: median {:.2} s, max {:.2} s (a run of 200 games at this pace: about {:.0} s). Time per move: median {:.1} ms, max {:.1} ms.</p>",
        quantile(&game, 0.5) / 1000.0,
        quantile(&game, 1.0) / 1000.0,
        mean * 200.0 / 1000.0,
        quantile(&moves, 0.5),
        quantile(&moves, 1.0)
    )
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The whole page for the main command's games of `outcome`. Errs if a board's points disagree
/// with the score the tester recorded (then the page would mislead).
pub fn page(outcome: &Outcome) -> Result<String, String> {
    let command = outcome
        .main
        .values()
        .flatten()
        .next()
        .map(|g| g.command.clone())
        .unwrap_or_default();
    let mut body = String::new();
    for (&layout_no, games) in &outcome.main {
        let layout = official(layout_no);
        let scores: Vec<u32> = games.iter().map(|g| g.score).collect();
        let s = stats(&scores.iter().map(|&x| x as f64).collect::<Vec<_>>());
        let _ = write!(
            body,
            "<h2>Layout {layout_no}</h2><p>{} games: mean <b>{:.2}</b>, sd {:.2}, {}, min {}, max {}</p>{}",
            s.n,
            s.mean,
            s.sd,
            s.ci_text(2),
            scores.iter().min().unwrap_or(&0),
            scores.iter().max().unwrap_or(&0),
            histogram_svg(&scores)
        );
        body.push_str(&time_summary(games));
        let top = games
            .iter()
            .flat_map(|g| g.move_ms.iter().copied())
            .fold(0.0, f64::max);
        body.push_str("<div class=\"games\">");
        for g in games {
            let values = final_values(&layout, g);
            let groups = groups(&layout, &values);
            let hearts = heart_points(&layout, &values);
            let total: u32 = groups.iter().map(|g| g.points).sum::<u32>() + hearts;
            if total != g.score {
                return Err(format!(
                    "layout {layout_no} game {}: the page counts {total} points, the tester {}",
                    g.game, g.score
                ));
            }
            let mut by_value = [0u32; 7];
            for gr in &groups {
                by_value[gr.value as usize] += gr.points;
            }
            let parts: Vec<String> = (1..=6)
                .map(|v| format!("{v}s: {}", by_value[v]))
                .chain((hearts > 0).then(|| "hearts: 5".to_string()))
                .collect();
            let _ = write!(
                body,
                "<div class=\"game\" data-score=\"{}\" data-game=\"{}\" data-time=\"{:.0}\"><div class=\"t\">game {} &middot; <b>{}</b> points &middot; {:.2} s</div>{}<div class=\"s\">{}</div>{}</div>",
                g.score,
                g.game,
                g.game_ms,
                g.game,
                g.score,
                g.game_ms / 1000.0,
                board_svg(&layout, &values, &groups),
                parts.join(" &middot; "),
                moves_svg(&g.move_ms, top)
            );
        }
        body.push_str("</div>");
    }
    Ok(format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Splitter games</title><style>{STYLE}</style></head><body>\
<h1>Splitter: {}</h1><p>dice seed <code>{}</code>. Strong colours: cells in scoring groups (outlined, points at the group's corner); pale: cells that score nothing. \
&#9733; star, &#9829; heart. Under each board, its moves' times (bars to scale within the layout; hover for each).</p><p>Sort games: <button onclick=\"sortGames('game',1)\">by game</button> <button onclick=\"sortGames('score',1)\">score, lowest first</button> \
<button onclick=\"sortGames('score',-1)\">score, highest first</button> <button onclick=\"sortGames('time',-1)\">time, longest first</button></p>{body}<script>{SCRIPT}</script></body></html>\n",
        escape(&command),
        escape(&outcome.seed)
    ))
}

const STYLE: &str = "body{font-family:sans-serif;margin:1em 2em;color:#222}.games{display:flex;flex-wrap:wrap;gap:10px}\
.game{border:1px solid #ddd;padding:4px;font-size:12px}.t{margin-bottom:2px}.s{color:#555;max-width:214px}\
text.v{font-size:13px;text-anchor:middle;font-weight:bold}text.m{font-size:9px;fill:#000}\
text.p{font-size:9px;text-anchor:end;fill:#fff;font-weight:bold}text.a{font-size:10px;text-anchor:middle}\
line.o{stroke:#000;stroke-width:2.5;stroke-linecap:square}svg.mt{display:block;margin-top:2px}";

const SCRIPT: &str = "function sortGames(key,dir){document.querySelectorAll('.games').forEach(function(box){\
var items=Array.prototype.slice.call(box.children);items.sort(function(a,b){\
var d=(parseFloat(a.dataset[key])-parseFloat(b.dataset[key]))*dir;return d!==0?d:a.dataset.game-b.dataset.game;});\
items.forEach(function(el){box.appendChild(el);});});}";

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's own groups give the library's score on random boards (independent twins), and a
    /// page lists every game with its score.
    #[test]
    fn page_points_match_the_score_and_every_game_is_shown() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for n in [1, 2] {
            let layout = official(n);
            for _ in 0..300 {
                let values: Vec<u8> = (0..layout.cells())
                    .map(|c| {
                        if layout.is_fillable(c) {
                            rng.random_range(0..=6)
                        } else {
                            0
                        }
                    })
                    .collect();
                let mine: u32 = groups(&layout, &values)
                    .iter()
                    .map(|g| g.points)
                    .sum::<u32>()
                    + heart_points(&layout, &values);
                assert_eq!(mine, bot::splitter::score(&layout, &values));
            }
        }
        let layout = official(2);
        let mut outcome = Outcome {
            seed: "s<x>".into(),
            ..Outcome::default()
        };
        let mut games = Vec::new();
        for game in 0..3u32 {
            let dice = bot::splitter::game_dice("html", game, 22);
            let mut board = Board::new(&layout, 22);
            let mut moves = Vec::new();
            for &d in &dice {
                let mv = board.legal_moves(&layout, d)[0];
                board.place(&layout, d, mv).unwrap();
                moves.push([mv.die as usize, mv.x, mv.y]);
            }
            games.push(GameRecord {
                command: "bot <a&b>".into(),
                layout: 2,
                game,
                int_seed: 0,
                dice: dice.iter().map(|d| [d.0, d.1]).collect(),
                moves,
                score: bot::splitter::score(&layout, &board.values),
                move_ms: (0..22).map(|m| 5.0 + m as f64 + game as f64).collect(),
                game_ms: 1000.0 + 250.0 * game as f64,
                error: None,
                log: vec![],
            });
        }
        outcome.main.insert(2, games.clone());
        let html = page(&outcome).unwrap();
        assert_eq!(html.matches("class=\"game\"").count(), 3);
        for g in &games {
            assert!(html.contains(&format!(
                "data-score=\"{}\" data-game=\"{}\"",
                g.score, g.game
            )));
        }
        assert!(html.contains("bot &lt;a&amp;b&gt;") && html.contains("s&lt;x&gt;"));
        // Time beside the score: each game's, each move's, and the layout's pace.
        for (game, time) in [(0, "1.00 s"), (1, "1.25 s"), (2, "1.50 s")] {
            assert!(
                html.contains(&format!(
                    "game {game} &middot; <b>{}</b> points &middot; {time}",
                    games[game].score
                )),
                "game {game}"
            );
        }
        assert!(html.contains("<title>move 22: 28.0 ms</title>"));
        assert!(html
            .contains("median 1.25 s, max 1.50 s (a run of 200 games at this pace: about 250 s)"));
        assert!(!html.contains("http"), "self-contained");
        // A record whose score disagrees with its board is refused.
        games[0].score += 1;
        outcome.main.insert(2, games);
        assert!(page(&outcome).unwrap_err().contains("game 0"));
    }
}
