//! `tester arena --replays DIR`: beside each game's replay (`pN-seedS-rotR.json`) its viewer
//! (`.html`, the page of `tester penguins --view`), and `DIR/index.html`, one page that lists every
//! game of the run (seed, seating, scores, ranks, failures) and links each one's viewer; its table
//! sorts by any column. Self-contained and offline like the viewers.

use super::schedule::GameResult;
use super::BotSpec;
use std::fmt::Write;
use std::path::Path;

/// The stem of a game's files in the replay folder.
pub fn stem(players: usize, seed: u64, rotation: usize) -> String {
    format!("p{players}-seed{seed}-rot{rotation}")
}

/// Seat colours, as the viewer draws them.
const COLOURS: [&str; 4] = ["#e8474c", "#3fa7f5", "#f2c230", "#59d46a"];

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The index page of `games` (in plan order).
pub fn render(bots: &[BotSpec], games: &[GameResult]) -> String {
    let mut rows = String::new();
    for (n, g) in games.iter().enumerate() {
        let mut seats = String::new();
        for (seat, &bot) in g.seats.iter().enumerate() {
            let name = bots.get(bot).map_or("?", |b| b.name.as_str());
            let failure = match g.failures.get(seat).and_then(|f| f.as_deref()) {
                Some(kind) => format!(" <span class=\"fail\">{}</span>", escape(kind)),
                None => String::new(),
            };
            let _ = write!(
                seats,
                "<span class=\"seat\" data-seat=\"{seat}\" data-score=\"{}\" data-rank=\"{}\"><span class=\"dot\" style=\"background:{}\"></span>{} <b>{}</b> ({}){failure}</span>",
                g.final_scores.get(seat).copied().unwrap_or(0),
                g.ranks.get(seat).copied().unwrap_or(0),
                COLOURS[seat % 4],
                escape(name),
                g.final_scores.get(seat).copied().unwrap_or(0),
                ordinal(g.ranks.get(seat).copied().unwrap_or(0)),
            );
        }
        let winners: Vec<&str> = g
            .seats
            .iter()
            .enumerate()
            .filter(|&(seat, _)| g.ranks.get(seat) == Some(&1))
            .map(|(_, &bot)| bots.get(bot).map_or("?", |b| b.name.as_str()))
            .collect();
        let winner = match winners.as_slice() {
            [one] => escape(one),
            [] => "-".to_string(),
            many => format!("draw: {}", escape(&many.join(", "))),
        };
        let view = match &g.referee_error {
            Some(e) => format!("<span class=\"fail\">not played: {}</span>", escape(e)),
            None => {
                let file = stem(g.players, g.seed, g.rotation) + ".html";
                format!("<a href=\"{file}\">view</a>")
            }
        };
        let _ = writeln!(
            rows,
            "<tr><td data-v=\"{n}\">{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td data-v=\"{}\">{}</td><td class=\"seats\">{seats}</td><td>{winner}</td><td>{view}</td></tr>",
            n + 1,
            g.players,
            g.players,
            g.seed,
            g.seed,
            g.rotation,
            g.rotation,
            g.turns,
            g.turns,
        );
    }
    let names: Vec<String> = bots
        .iter()
        .map(|b| {
            format!(
                "<b>{}</b> = <code>{}</code>",
                escape(&b.name),
                escape(&b.command)
            )
        })
        .collect();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Penguins arena: {} games</title><style>{STYLE}</style></head><body>\
<h1>Penguins arena: {} games</h1><p>{}</p><p>Each game's viewer steps through it turn by turn. Click a column's heading to sort by it.</p>\
<table id=\"games\"><thead><tr><th data-col=\"0\">#</th><th data-col=\"1\">players</th><th data-col=\"2\">seed</th><th data-col=\"3\">rotation</th><th data-col=\"4\">turns</th>\
<th>seats: bot, score (rank)</th><th>winner</th><th>viewer</th></tr></thead><tbody>\n{rows}</tbody></table><script>{SCRIPT}</script></body></html>\n",
        games.len(),
        games.len(),
        names.join("; ")
    )
}

fn ordinal(rank: usize) -> String {
    let suffix = match (rank % 10, rank % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{rank}{suffix}")
}

/// Write the index into the replay folder.
pub fn write(dir: &str, bots: &[BotSpec], games: &[GameResult]) -> Result<(), String> {
    let path = Path::new(dir).join("index.html");
    std::fs::write(&path, render(bots, games))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

const STYLE: &str = "body{font-family:sans-serif;margin:1em 2em;color:#222}table{border-collapse:collapse;font-size:13px}\
td,th{padding:2px 8px;border-bottom:1px solid #eee;text-align:right}td.seats,td:nth-child(7),td:nth-child(8){text-align:left}\
th[data-col]{cursor:pointer;text-decoration:underline dotted}.seat{margin-right:1em;white-space:nowrap}\
.dot{display:inline-block;width:.7em;height:.7em;border-radius:50%;margin-right:.3em}.fail{color:#c92a2a}";

/// Sorting by a column: numbers in `data-v`, a second click reverses.
const SCRIPT: &str = "(function(){const body=document.querySelector('#games tbody');let last=null,dir=1;\
for(const th of document.querySelectorAll('th[data-col]')){th.addEventListener('click',function(){const col=+th.dataset.col;\
dir=last===col?-dir:1;last=col;const rows=Array.prototype.slice.call(body.rows);\
rows.sort(function(a,b){return (a.cells[col].dataset.v-b.cells[col].dataset.v)*dir||a.cells[0].dataset.v-b.cells[0].dataset.v;});\
body.append.apply(body,rows);});}})();";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_a_row_with_its_scores_and_a_link_and_names_are_escaped() {
        let bots = vec![
            BotSpec {
                name: "a<b>".into(),
                command: "x & y".into(),
            },
            BotSpec {
                name: "c".into(),
                command: "z".into(),
            },
        ];
        let game = |seed: u64,
                    rotation: usize,
                    scores: Vec<u32>,
                    ranks: Vec<usize>,
                    error: Option<&str>| GameResult {
            players: 2,
            seed,
            rotation,
            seats: if rotation == 0 {
                vec![0, 1]
            } else {
                vec![1, 0]
            },
            commands: vec![],
            final_scores: scores,
            ranks,
            failures: vec![None, Some("timeout".into())],
            failure_details: vec![None, None],
            turns: 40,
            max_turn_ms: vec![],
            first_turn_ms: vec![],
            later_turn_ms: vec![],
            later_turn_cpu_ms: vec![],
            referee_error: error.map(String::from),
            moves: String::new(),
        };
        let games = vec![
            game(3, 0, vec![50, 40], vec![1, 2], None),
            game(3, 1, vec![45, 45], vec![1, 1], None),
            game(4, 0, vec![0, 0], vec![1, 1], Some("cannot start")),
        ];
        let page = render(&bots, &games);
        assert_eq!(page.matches("<tr><td").count(), 3);
        assert!(page.contains("<a href=\"p2-seed3-rot0.html\">view</a>"));
        assert!(page.contains("<a href=\"p2-seed3-rot1.html\">view</a>"));
        assert!(page.contains("not played: cannot start"));
        assert!(page.contains("data-score=\"50\" data-rank=\"1\""));
        assert!(page.contains("draw: c, a&lt;b&gt;"));
        assert!(page.contains("<b>a&lt;b&gt;</b> = <code>x &amp; y</code>"));
        assert!(!page.contains("a<b>"));
        assert!(!page.contains("http"));
        assert_eq!(
            (ordinal(1), ordinal(2), ordinal(3), ordinal(4), ordinal(11)),
            (
                "1st".into(),
                "2nd".into(),
                "3rd".into(),
                "4th".into(),
                "11th".into()
            )
        );
    }
}
