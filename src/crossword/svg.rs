//! An SVG picture of a grid in the style of the organisers' viewer: question fields with "???"
//! (split when they carry two questions), letters, islands shaded, and each arrow drawn in the
//! first field of its word, bent where the word turns.

use super::grid::{Cell, Grid};
use super::rules::ARROWS;
use std::fmt::Write;

const SIZE: f64 = 40.0;

pub fn render(grid: &Grid) -> String {
    let (w, h) = (grid.cols as f64 * SIZE, grid.rows as f64 * SIZE);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="-1 -1 {} {}" font-family="sans-serif">"#,
        w + 2.0,
        h + 2.0
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>"#
    );
    let mut per_field = vec![Vec::new(); grid.cells.len()];
    for q in &grid.questions {
        per_field[grid.index(q.row, q.col)].push(q.arrow);
    }
    for r in 0..grid.rows {
        for c in 0..grid.cols {
            let (x, y) = (c as f64 * SIZE, r as f64 * SIZE);
            let cell = grid.cell(r, c);
            let fill = match cell {
                Cell::Blocked(_) => "#999999",
                Cell::Question => "#f2f2f2",
                _ => "white",
            };
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="{SIZE}" height="{SIZE}" fill="{fill}" stroke="#000" stroke-width="1"/>"##
            );
            match cell {
                Cell::Letter(b) => {
                    let _ = writeln!(
                        s,
                        r#"<text x="{}" y="{}" font-size="20" text-anchor="middle">{}</text>"#,
                        x + SIZE / 2.0 + 3.0,
                        y + SIZE * 0.78,
                        b as char
                    );
                }
                Cell::Question => {
                    let n = per_field[grid.index(r, c)].len().max(1);
                    for k in 0..n {
                        let _ = writeln!(
                            s,
                            r#"<text x="{}" y="{}" font-size="10">???</text>"#,
                            x + 2.0,
                            y + 11.0 + k as f64 * SIZE / 2.0
                        );
                    }
                    if n == 2 {
                        let _ = writeln!(
                            s,
                            r##"<line x1="{x}" y1="{}" x2="{}" y2="{}" stroke="#000"/>"##,
                            y + SIZE / 2.0,
                            x + SIZE,
                            y + SIZE / 2.0
                        );
                    }
                }
                _ => {}
            }
        }
    }
    for q in &grid.questions {
        arrow(&mut s, q.row as f64, q.col as f64, q.arrow);
    }
    s.push_str("</svg>\n");
    s
}

/// Draw arrow `t` of the question at (r, c) inside the start field of its word.
fn arrow(s: &mut String, r: f64, c: f64, t: u8) {
    let (dr, dc, dir) = ARROWS[t as usize];
    let (sx, sy) = ((c + dc as f64) * SIZE, (r + dr as f64) * SIZE);
    let run_down = dir == super::rules::Dir::Down;
    // Entry point: the middle of the edge shared with the question (or, for bent arrows, near it).
    let (ex, ey) = match (dr, dc) {
        (1, 0) => (sx + 6.0, sy + 1.0),
        (-1, 0) => (sx + 6.0, sy + SIZE - 1.0),
        (0, 1) => (sx + 1.0, sy + 6.0),
        _ => (sx + SIZE - 1.0, sy + 6.0),
    };
    let straight = matches!(t, 0 | 3);
    let (tip_x, tip_y) = if run_down {
        (if straight { sx + SIZE / 2.0 } else { ex }, sy + 9.0)
    } else {
        (sx + 9.0, if straight { sy + SIZE / 2.0 } else { ey })
    };
    if straight {
        let (bx, by) = if run_down {
            (tip_x, sy + 2.0)
        } else {
            (sx + 2.0, tip_y)
        };
        line(s, bx, by, tip_x, tip_y);
    } else {
        // Bent: leave the question edge, then turn into the run direction.
        let (mx, my) = (ex, ey);
        let (cx, cy) = if run_down {
            (tip_x, my.clamp(sy + 2.0, sy + 8.0))
        } else {
            (mx.clamp(sx + 2.0, sx + 8.0), tip_y)
        };
        line(s, mx, my, cx, cy);
        line(s, cx, cy, tip_x, tip_y);
    }
    let head = if run_down {
        format!(
            "{},{} {},{} {},{}",
            tip_x - 4.0,
            tip_y - 5.0,
            tip_x + 4.0,
            tip_y - 5.0,
            tip_x,
            tip_y + 2.0
        )
    } else {
        format!(
            "{},{} {},{} {},{}",
            tip_x - 5.0,
            tip_y - 4.0,
            tip_x - 5.0,
            tip_y + 4.0,
            tip_x + 2.0,
            tip_y
        )
    };
    let _ = writeln!(s, r#"<polygon points="{head}" fill="black"/>"#);
}

fn line(s: &mut String, x1: f64, y1: f64, x2: f64, y2: f64) {
    let _ = writeln!(
        s,
        r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="black" stroke-width="1.5"/>"#
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_field_question_and_arrow() {
        let text = "3\n3\n?L?\n?EI\n?AD\n0 0 4\n0 2 0\n1 0 3\n2 0 3\n";
        let svg = render(&Grid::parse(text).unwrap());
        assert_eq!(svg.matches("<rect").count(), 1 + 9);
        assert_eq!(svg.matches("<polygon").count(), 4);
        assert_eq!(svg.matches(">???<").count(), 4);
        assert!(svg.contains(">L</text>") && svg.ends_with("</svg>\n"));
    }
}
