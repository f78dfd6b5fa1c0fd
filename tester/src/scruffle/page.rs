//! `tester scruffle score ... --html FILE`: the plan as one self-contained page. The board with its
//! multipliers and obstacles is drawn on a canvas (a 100x100 board is 10,000 cells), the plan in
//! play order runs under a slider, and each placement shows its score, the running total and the
//! cells it adds and crosses; a table lists every placement, in play order or by score. Every
//! number on the page is the independent checker's (`check::check_each`); totals are exact decimal
//! text, never script numbers (they pass any machine integer).

use super::check::{Step, Verdict};
use std::fmt::Write;

/// The page for a valid plan: the board's rows, the words the plan places, each step.
pub fn render(
    names: [&str; 3],
    board: &[u8],
    words: &[u8],
    steps: &[Step],
    verdict: &Verdict,
) -> String {
    let rows: Vec<String> =
        String::from_utf8_lossy(board.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(board))
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect();
    let list: Vec<String> =
        String::from_utf8_lossy(words.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(words))
            .lines()
            .map(|l| l.trim().to_ascii_uppercase())
            .filter(|l| !l.is_empty())
            .collect();
    let steps: Vec<serde_json::Value> = steps
        .iter()
        .map(|s| {
            let mask: String = s.new.iter().map(|&n| if n { '1' } else { '0' }).collect();
            serde_json::json!([
                s.vertical as u8,
                s.index,
                s.x,
                s.y,
                list[s.index],
                s.score.to_string(),
                s.total.to_string(),
                mask
            ])
        })
        .collect();
    let data = serde_json::json!({
        "rows": rows,
        "steps": steps,
        "score": verdict.score.to_string(),
        "placements": verdict.placements,
        "new_cells": verdict.new_cells,
        "crossed_cells": verdict.crossed_cells,
    });
    let data = data.to_string().replace("</", "<\\/");
    let (width, height) = (rows.first().map_or(0, |r| r.len()), rows.len());
    let mut head = String::new();
    let _ = write!(
        head,
        "<h1>Scruffle plan</h1><p>board <code>{}</code> ({width} x {height}), words <code>{}</code> ({} entries), placements <code>{}</code>: \
         <b>{}</b> placements, score <b id=\"total\">{}</b>; {} new cells, {} crossed (covered across and down).</p>",
        escape(names[0]),
        escape(names[1]),
        list.len(),
        escape(names[2]),
        verdict.placements,
        verdict.score,
        verdict.new_cells,
        verdict.crossed_cells
    );
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Scruffle plan: {}</title><style>{STYLE}</style></head><body>\
{head}{BODY}<script type=\"application/json\" id=\"data\">{data}</script><script>{SCRIPT}</script></body></html>\n",
        escape(names[2])
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = include_str!("plan.css");
const BODY: &str = include_str!("plan.html");
const SCRIPT: &str = include_str!("plan.js");

#[cfg(test)]
mod tests {
    use super::super::check::check_each;
    use super::*;

    fn page(board: &str, words: &str, plays: &str) -> (String, serde_json::Value) {
        let mut steps = Vec::new();
        let verdict = check_each(
            ("b<1>", board.as_bytes()),
            ("w", words.as_bytes()),
            ("p", plays.as_bytes()),
            |s| steps.push(s),
        )
        .unwrap();
        let html = render(
            ["b<1>", "w", "p"],
            board.as_bytes(),
            words.as_bytes(),
            &steps,
            &verdict,
        );
        let start = html.find("id=\"data\">").unwrap() + "id=\"data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        let data = serde_json::from_str(&html[start..end]).unwrap();
        (html, data)
    }

    /// Each step carries the checker's score, running total and which letters it adds.
    #[test]
    fn each_placement_carries_its_score_total_and_new_letters() {
        // CAT at (1,0): (3 + 0 + 1) * 2 * 3 = 24; AT down from the A: (0 + 5) = 5, adds only T.
        let (html, data) = page("2D0T\n1151\n", "cat\nat\n", "H 0 1 0\nV 1 2 0\n");
        assert_eq!(data["rows"], serde_json::json!(["2D0T", "1151"]));
        assert_eq!(
            data["steps"][0],
            serde_json::json!([0, 0, 1, 0, "CAT", "24", "24", "111"])
        );
        assert_eq!(
            data["steps"][1],
            serde_json::json!([1, 1, 2, 0, "AT", "5", "29", "01"])
        );
        assert_eq!(data["score"], "29");
        assert_eq!(
            (data["new_cells"].as_u64(), data["crossed_cells"].as_u64()),
            (Some(4), Some(1))
        );
        assert!(html.contains("b&lt;1&gt;"));
        assert!(!html.contains("http"), "self-contained");
        assert_eq!(html.matches("</script>").count(), 2);
    }

    /// Totals beyond any machine integer reach the page exactly, as text.
    #[test]
    fn huge_totals_are_exact_text() {
        let board = "T".repeat(30) + "\n";
        let words = "Z".repeat(30) + "\n";
        let (_, data) = page(&board, &words, "H 0 0 0\n");
        let exact = (num_bigint::BigUint::from(300u32) * num_bigint::BigUint::from(3u32).pow(30))
            .to_string();
        assert_eq!(data["score"], exact);
        assert_eq!(data["steps"][0][6], exact);
    }
}
