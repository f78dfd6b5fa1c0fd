//! The game's rules on a parsed grid: where each arrow's word lies, and every rule violation
//! (arrow placement, pairs, run starts, coverage, word length, dictionary, duplicates).

use super::grid::{Cell, Grid, Question};
use std::collections::{HashMap, HashSet};

/// Direction a word runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Right,
    Down,
}

impl Dir {
    pub fn step(self) -> (isize, isize) {
        match self {
            Dir::Right => (0, 1),
            Dir::Down => (1, 0),
        }
    }
}

/// Start offset from the question field and run direction of each arrow type 0..=5.
pub const ARROWS: [(isize, isize, Dir); 6] = [
    (1, 0, Dir::Down),
    (1, 0, Dir::Right),
    (0, -1, Dir::Down),
    (0, 1, Dir::Right),
    (0, 1, Dir::Down),
    (-1, 0, Dir::Right),
];

/// Arrow pairs allowed on one field (unordered).
pub const ALLOWED_PAIRS: [(u8, u8); 5] = [(0, 3), (0, 2), (0, 4), (3, 1), (3, 5)];

pub fn pair_allowed(a: u8, b: u8) -> bool {
    ALLOWED_PAIRS
        .iter()
        .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
}

/// Arrow types 1, 2, 4 and 5 are "bent" and only allowed at special fields.
pub fn is_bent(arrow: u8) -> bool {
    matches!(arrow, 1 | 2 | 4 | 5)
}

/// Row 0, column 0, right of a blocked field or below one.
pub fn bent_allowed_at(grid: &Grid, row: usize, col: usize) -> bool {
    row == 0
        || col == 0
        || grid.cell(row, col - 1).is_blocked()
        || grid.cell(row - 1, col).is_blocked()
}

/// The word one question points to: its cells (row-major indices) in reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    pub question: Question,
    pub dir: Dir,
    pub cells: Vec<usize>,
}

impl Word {
    /// The letters, or `None` while a field is empty.
    pub fn text(&self, grid: &Grid) -> Option<String> {
        self.cells
            .iter()
            .map(|&i| match grid.cells[i] {
                Cell::Letter(b) => Some(b as char),
                _ => None,
            })
            .collect()
    }
}

/// Words of every question that points at a letter field, and every rule violation found.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub words: Vec<Word>,
    pub violations: Vec<String>,
    /// How many words cover each field.
    pub coverage: Vec<u32>,
}

fn is_run_stop(cell: Option<Cell>) -> bool {
    !matches!(cell, Some(Cell::Empty) | Some(Cell::Letter(_)))
}

/// Check the layout rules and, when `dictionary` is given, the filled words.
pub fn analyse(grid: &Grid, dictionary: Option<&HashSet<String>>) -> Analysis {
    let mut a = Analysis {
        coverage: vec![0; grid.cells.len()],
        ..Analysis::default()
    };
    let mut per_field: HashMap<(usize, usize), Vec<u8>> = HashMap::new();
    for q in &grid.questions {
        per_field.entry((q.row, q.col)).or_default().push(q.arrow);
    }
    for r in 0..grid.rows {
        for c in 0..grid.cols {
            if grid.cell(r, c) != Cell::Question {
                continue;
            }
            match per_field.get(&(r, c)).map(|v| v.as_slice()) {
                None => a
                    .violations
                    .push(format!("question field ({r}, {c}) has no question")),
                Some([_]) => {}
                Some([x, y]) if x == y => a
                    .violations
                    .push(format!("question field ({r}, {c}) has arrow {x} twice")),
                Some([x, y]) if !pair_allowed(*x, *y) => a.violations.push(format!(
                    "question field ({r}, {c}): arrows {x}+{y} are not an allowed pair"
                )),
                Some([_, _]) => {}
                Some(many) => a.violations.push(format!(
                    "question field ({r}, {c}) has {} questions (at most 2)",
                    many.len()
                )),
            }
        }
    }
    for q in &grid.questions {
        let (r, c, t) = (q.row, q.col, q.arrow);
        if is_bent(t) && !bent_allowed_at(grid, r, c) {
            a.violations.push(format!(
                "question ({r}, {c}) type {t}: bent arrows only in row 0, column 0, right of or below a blocked field"
            ));
        }
        let (dr, dc, dir) = ARROWS[t as usize];
        let (sr, sc) = (r as isize + dr, c as isize + dc);
        match grid.cell_at(sr, sc) {
            None => {
                a.violations.push(format!(
                    "question ({r}, {c}) type {t} points outside the grid"
                ));
                continue;
            }
            Some(cell) if !cell.is_letter_field() => {
                a.violations.push(format!(
                    "question ({r}, {c}) type {t} points at a question or blocked field"
                ));
                continue;
            }
            Some(_) => {}
        }
        let (sr_step, sc_step) = dir.step();
        if !is_run_stop(grid.cell_at(sr - sr_step, sc - sc_step)) {
            a.violations.push(format!(
                "question ({r}, {c}) type {t}: word starts in the middle of a run"
            ));
        }
        let mut cells = Vec::new();
        let (mut pr, mut pc) = (sr, sc);
        while !is_run_stop(grid.cell_at(pr, pc)) {
            cells.push(grid.index(pr as usize, pc as usize));
            pr += sr_step;
            pc += sc_step;
        }
        if cells.len() == 1 {
            a.violations.push(format!(
                "question ({r}, {c}) type {t}: word has only 1 letter"
            ));
        }
        for &i in &cells {
            a.coverage[i] += 1;
        }
        a.words.push(Word {
            question: *q,
            dir,
            cells,
        });
    }
    for (i, cell) in grid.cells.iter().enumerate() {
        if cell.is_letter_field() && a.coverage[i] == 0 {
            a.violations.push(format!(
                "letter field ({}, {}) belongs to no word",
                i / grid.cols,
                i % grid.cols
            ));
        }
    }
    let mut seen: HashMap<String, Question> = HashMap::new();
    let mut seen_slots: HashMap<(usize, Dir), Question> = HashMap::new();
    for w in &a.words {
        let q = w.question;
        if let Some(first) = seen_slots.insert((w.cells[0], w.dir), q) {
            a.violations.push(format!(
                "questions ({}, {}) type {} and ({}, {}) type {} point to the same word",
                first.row, first.col, first.arrow, q.row, q.col, q.arrow
            ));
            continue;
        }
        let Some(text) = w.text(grid) else { continue };
        if let Some(dict) = dictionary {
            if !dict.contains(&text) {
                a.violations.push(format!(
                    "word {text} of question ({}, {}) type {} is not in the dictionary",
                    q.row, q.col, q.arrow
                ));
            }
        }
        if let Some(first) = seen.insert(text.clone(), q) {
            a.violations.push(format!(
                "word {text} is used twice: questions ({}, {}) type {} and ({}, {}) type {}",
                first.row, first.col, first.arrow, q.row, q.col, q.arrow
            ));
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violations(text: &str, dict: &[&str]) -> Vec<String> {
        let grid = Grid::parse(text).unwrap();
        let dict: HashSet<String> = dict.iter().map(|s| s.to_string()).collect();
        analyse(&grid, Some(&dict)).violations
    }

    fn has(v: &[String], needle: &str) {
        assert!(
            v.iter().any(|s| s.contains(needle)),
            "{needle:?} not in {v:?}"
        );
    }

    #[test]
    fn readme_example_is_valid_with_its_words() {
        let text = "3\n3\n?L?\n?EI\n?AD\n0 0 4\n0 2 0\n1 0 3\n2 0 3\n";
        assert!(violations(text, &["LEA", "ID", "EI", "AD"]).is_empty());
        let v = violations(text, &["LEA", "ID", "EI"]);
        assert_eq!(v.len(), 1);
        has(
            &v,
            "word AD of question (2, 0) type 3 is not in the dictionary",
        );
    }

    #[test]
    fn every_kind_of_violation_is_reported() {
        // (1,1) carries bent arrow 4 in the interior; (1,0) has no question.
        let v = violations("3\n3\n?AB\n??C\n.DE\n0 0 3\n1 1 4\n", &[]);
        has(&v, "(1, 0) has no question");
        has(&v, "(1, 1) type 4: bent arrows only");
        has(&v, "letter field (2, 0) belongs to no word");
        let v = violations("2\n2\n?A\n?B\n0 0 3\n1 0 3\n", &[]);
        has(&v, "(1, 0) type 3: word has only 1 letter");
        let v = violations("2\n3\n?AB\nCDE\n0 0 3\n0 0 1\n0 0 5\n", &[]);
        has(&v, "has 3 questions");
        has(&v, "points outside the grid");
        let v = violations("2\n3\n?AB\n?DE\n0 0 4\n0 0 1\n1 0 0\n", &[]);
        has(&v, "arrows 4+1 are not an allowed pair");
        has(&v, "points outside the grid");
        let v = violations("1\n4\n?ABC\n0 0 2\n", &[]);
        has(&v, "type 2 points outside the grid");
        let v = violations("2\n4\n?ABC\nDE?F\n0 0 3\n1 2 5\n", &["ABC"]);
        has(&v, "(1, 2) type 5: bent arrows only");
        has(&v, "word starts in the middle of a run");
        has(&v, "letter field (1, 0) belongs to no word");
        let v = violations("2\n3\n?AB\n?AB\n0 0 3\n1 0 3\n", &["AB"]);
        has(&v, "word AB is used twice");
        let v = violations("2\n3\n?AB\n?CD\n0 0 3\n0 0 3\n1 0 3\n", &["AB", "CD"]);
        has(&v, "arrow 3 twice");
        has(&v, "point to the same word");
        let v = violations("2\n3\n??B\n?CD\n0 0 3\n0 1 0\n1 0 3\n", &[]);
        has(&v, "(0, 0) type 3 points at a question or blocked field");
    }

    #[test]
    fn bent_arrows_are_fine_next_to_islands() {
        let grid = Grid::parse("3\n3\n?AB\n-?C\n.D-\n").unwrap();
        assert!(bent_allowed_at(&grid, 0, 2));
        assert!(bent_allowed_at(&grid, 1, 1) && bent_allowed_at(&grid, 2, 0));
        assert!(!bent_allowed_at(&grid, 2, 1) && !bent_allowed_at(&grid, 1, 2));
        let v = violations("3\n3\n?AB\n-?C\n.DE\n0 0 3\n1 1 4\n", &[]);
        assert!(!v.iter().any(|s| s.contains("bent arrows only")), "{v:?}");
        has(&v, "word starts in the middle of a run");
    }
}
