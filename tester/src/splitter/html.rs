//! `tester splitter --html FILE`: one self-contained page (inline CSS, SVG and a few lines of
//! script, nothing fetched) with the score distribution per layout and every game's final board —
//! values coloured, scoring groups outlined with their points, stars and hearts marked — sortable
//! by score, so a reader sees where a bot loses points.
//!
//! The groups are found here with their own flood fill over the layout's adjacency (the page
//! checks the bot's points, it does not reuse the library's scorer); the page's total per game
//! must equal the tester's score.

use super::session::{GameRecord, Outcome};
use bot::splitter::layout::{HEART, STAR};
use bot::splitter::stats::{quantile, stats};
use bot::splitter::{official, Board, Dice, Layout, Move};
use std::fmt::Write;

/// One group on a final board.
struct Group {
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
        out.push(Group { points });
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

/// One game as the page's script reads it: layout, game, score, time (ms), dice and moves
/// flattened, each move's time, and the bot's trace when it wrote one (per move: the method and
/// each candidate as [die, x, y, mean, rollouts]).
fn game_json(g: &GameRecord) -> serde_json::Value {
    let round = |ms: f64| (ms * 10.0).round() / 10.0;
    let trace = g.trace.as_ref().map(|moves| {
        moves
            .iter()
            .map(|m| {
                let candidates: Vec<serde_json::Value> = m
                    .candidates
                    .iter()
                    .map(|c| serde_json::json!([c.mv[0], c.mv[1], c.mv[2], c.mean, c.rollouts]))
                    .collect();
                serde_json::json!([m.method, candidates])
            })
            .collect::<Vec<_>>()
    });
    serde_json::json!({
        "l": g.layout,
        "g": g.game,
        "s": g.score,
        "ms": round(g.game_ms),
        "d": g.dice.iter().flatten().collect::<Vec<_>>(),
        "m": g.moves.iter().flatten().collect::<Vec<_>>(),
        "t": g.move_ms.iter().map(|&ms| round(ms)).collect::<Vec<_>>(),
        "r": trace,
    })
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
    let mut layouts = serde_json::Map::new();
    let mut data_games = Vec::new();
    let mut traced = 0;
    for (&layout_no, games) in &outcome.main {
        let layout = official(layout_no);
        layouts.insert(
            layout_no.to_string(),
            serde_json::json!({
                "w": layout.width(),
                "h": layout.height(),
                "codes": (0..layout.cells()).map(|c| layout.code(c)).collect::<Vec<_>>(),
            }),
        );
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
        let _ = write!(
            body,
            "<div class=\"games\" id=\"games-{layout_no}\" data-layout=\"{layout_no}\"></div>"
        );
        for g in games {
            let values = final_values(&layout, g);
            let total: u32 = groups(&layout, &values)
                .iter()
                .map(|g| g.points)
                .sum::<u32>()
                + heart_points(&layout, &values);
            if total != g.score {
                return Err(format!(
                    "layout {layout_no} game {}: the page counts {total} points, the tester {}",
                    g.game, g.score
                ));
            }
            traced += g.trace.is_some() as usize;
            data_games.push(game_json(g));
        }
    }
    let data = serde_json::json!({ "layouts": layouts, "games": data_games });
    // Inside a script element: no `</` may close it early.
    let data = data.to_string().replace("</", "<\\/");
    let why = match traced {
        0 => "Run the bot with <code>--trace {trace}</code> to see, at each roll, every move it weighed.".to_string(),
        n => format!("{n} games carry the bot's trace: at each roll, every move it weighed, with its mean and rollouts."),
    };
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Splitter games</title><style>{STYLE}</style></head><body>\
<h1>Splitter: {}</h1><p>dice seed <code>{}</code>. Strong colours: cells in scoring groups (outlined, points at the group's corner); pale: cells that score nothing; \
star and heart cells are marked in their corner. Under each board, its moves' times (bars to scale within the layout; hover for each). \
Click a game to replay it roll by roll. {why}</p>\
<p>Sort games: <button data-sort=\"game\" data-dir=\"1\">by game</button> <button data-sort=\"score\" data-dir=\"1\">score, lowest first</button> \
<button data-sort=\"score\" data-dir=\"-1\">score, highest first</button> <button data-sort=\"time\" data-dir=\"-1\">time, longest first</button></p>{body}{REPLAY}\
<script type=\"application/json\" id=\"data\">{data}</script><script>{SCRIPT}</script></body></html>\n",
        escape(&command),
        escape(&outcome.seed)
    ))
}

const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");
const REPLAY: &str = include_str!("replay.html");

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
                trace: None,
            });
        }
        outcome.main.insert(2, games.clone());
        games[1].trace = Some(vec![
            crate::splitter::trace::TraceMove {
                method: "rollouts".into(),
                candidates: vec![crate::splitter::trace::Candidate {
                    mv: games[1].moves[0],
                    mean: Some(31.25),
                    rollouts: 96,
                }],
            };
            22
        ]);
        outcome.main.insert(2, games.clone());
        let html = page(&outcome).unwrap();
        // The script's data: every game with its score, time, dice, moves and move times.
        let start = html.find("id=\"data\">").unwrap() + "id=\"data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        let data: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
        let shown = data["games"].as_array().unwrap();
        assert_eq!(shown.len(), 3);
        for (g, d) in games.iter().zip(shown) {
            assert_eq!(
                (d["l"].as_u64(), d["g"].as_u64()),
                (Some(2), Some(g.game as u64))
            );
            assert_eq!(d["s"].as_u64(), Some(g.score as u64));
            assert_eq!(d["ms"].as_f64(), Some(g.game_ms));
            let flat = |v: &serde_json::Value| -> Vec<u64> {
                v.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap())
                    .collect()
            };
            let dice: Vec<u64> = g.dice.iter().flatten().map(|&x| x as u64).collect();
            let moves: Vec<u64> = g.moves.iter().flatten().map(|&x| x as u64).collect();
            assert_eq!((flat(&d["d"]), flat(&d["m"])), (dice, moves));
            assert_eq!(d["t"][21].as_f64(), Some(g.move_ms[21]));
        }
        assert!(shown[0]["r"].is_null());
        let m = &games[1].moves[0];
        assert_eq!(
            shown[1]["r"][0],
            serde_json::json!(["rollouts", [[m[0], m[1], m[2], 31.25, 96]]])
        );
        assert_eq!(data["layouts"]["2"]["codes"].as_array().unwrap().len(), 56);
        assert!(html.contains("bot &lt;a&amp;b&gt;") && html.contains("s&lt;x&gt;"));
        assert!(
            html.contains("1 games carry the bot's trace")
                || html.contains("carry the bot's trace")
        );
        assert!(html
            .contains("median 1.25 s, max 1.50 s (a run of 200 games at this pace: about 250 s)"));
        assert!(!html.contains("http"), "self-contained");
        assert_eq!(
            html.matches("</script>").count(),
            2,
            "the data cannot close its script"
        );
        // A record whose score disagrees with its board is refused.
        games[0].score += 1;
        outcome.main.insert(2, games);
        assert!(page(&outcome).unwrap_err().contains("game 0"));
    }
}
