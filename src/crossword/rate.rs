//! The organisers' six-factor rating (README_challenge.txt, "Rating function details").

use super::grid::{Cell, Grid};
use super::rules::{analyse, Analysis};
use std::collections::HashSet;

/// Ideal share (percent) of word lengths 2, 3, 4, 5, 6, 7, 8, 9+.
pub const IDEAL_HISTOGRAM: [f64; 8] = [0.0, 18.0, 24.0, 20.0, 18.0, 12.0, 4.0, 4.0];

/// The counts every factor is computed from; all depend on the layout only.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counts {
    pub unblocked: usize,
    pub questions: usize,
    pub doubles: usize,
    pub letters: usize,
    pub uncrossed: usize,
    pub dead: usize,
    /// Words per length bin 2, 3, ..., 8, 9+.
    pub histogram: [usize; 8],
    /// Sizes of the 8-connected question clusters.
    pub clusters: Vec<usize>,
}

/// The six scores (each 0..=100) and their mean.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    pub questions: f64,
    pub uncrossed: f64,
    pub histogram: f64,
    pub dead: f64,
    pub clusters: f64,
    pub doubles: f64,
}

impl Scores {
    pub fn as_array(&self) -> [f64; 6] {
        [
            self.questions,
            self.uncrossed,
            self.histogram,
            self.dead,
            self.clusters,
            self.doubles,
        ]
    }

    pub fn mean(&self) -> f64 {
        self.as_array().iter().sum::<f64>() / 6.0
    }
}

pub const SCORE_NAMES: [&str; 6] = [
    "questions",
    "uncrossed",
    "histogram",
    "dead",
    "clusters",
    "doubles",
];

/// Length bin of a word: 0 for 2 letters .. 7 for 9 or more (1-letter words count as 2).
pub fn length_bin(len: usize) -> usize {
    len.clamp(2, 9) - 2
}

/// The six scores from the counts, each clamped at 0.
pub fn scores(c: &Counts) -> Scores {
    let (n, big) = cluster_terms(&c.clusters);
    scores_from(c, n, big, |x| x.max(0.0))
}

/// The six formulas without the clamp at 0: a search sees a slope where the rating is flat.
pub fn raw_scores(c: &Counts) -> Scores {
    let (n, big) = cluster_terms(&c.clusters);
    scores_from(c, n, big, |x| x)
}

/// Number of clusters and the sum of squared sizes of those with 3+ fields.
pub fn cluster_terms(sizes: &[usize]) -> (usize, usize) {
    let big = sizes.iter().filter(|&&s| s >= 3).map(|s| s * s).sum();
    (sizes.len(), big)
}

/// The six formulas, with the cluster terms given apart (`c.clusters` is not read).
pub fn scores_from(c: &Counts, clusters: usize, big: usize, clamp: impl Fn(f64) -> f64) -> Scores {
    let pct = |a: usize, b: usize| {
        if b == 0 {
            0.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };

    let x = pct(c.questions, c.unblocked);
    let questions = clamp(100.0 - (2.0 * (x - 22.0).abs()).powi(2));
    let x = pct(c.uncrossed, c.letters);
    let uncrossed = clamp(100.0 - ((x.max(20.0) - 20.0) / 2.0).powi(2));
    let words: usize = c.histogram.iter().sum();
    let sq: f64 = (0..8)
        .map(|b| (pct(c.histogram[b], words) - IDEAL_HISTOGRAM[b]).powi(2))
        .sum();
    let histogram = clamp(100.0 - sq / 8.0);
    let dead = clamp(100.0 - 400.0 * c.dead as f64 / c.letters.max(1) as f64);
    let clusters = if clusters == 0 {
        100.0
    } else {
        clamp(100.0 - 10.0 * big as f64 / clusters as f64)
    };
    let doubles = if c.doubles == 0 {
        100.0
    } else {
        clamp(100.0 - (pct(c.doubles, c.questions) - 22.0).powi(2))
    };
    Scores {
        questions,
        uncrossed,
        histogram,
        dead,
        clusters,
        doubles,
    }
}

/// Sizes of the 8-connected groups of `true` fields.
pub fn cluster_sizes(rows: usize, cols: usize, is_question: &[bool]) -> Vec<usize> {
    let mut seen = vec![false; rows * cols];
    let mut sizes = Vec::new();
    let mut stack = Vec::new();
    for start in 0..rows * cols {
        if !is_question[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut size = 0;
        while let Some(i) = stack.pop() {
            size += 1;
            let (r, c) = ((i / cols) as isize, (i % cols) as isize);
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (nr, nc) = (r + dr, c + dc);
                    if nr < 0 || nc < 0 || nr >= rows as isize || nc >= cols as isize {
                        continue;
                    }
                    let n = nr as usize * cols + nc as usize;
                    if is_question[n] && !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
        }
        sizes.push(size);
    }
    sizes
}

/// The counts of a grid, given its rule analysis (words and coverage).
pub fn counts(grid: &Grid, analysis: &Analysis) -> Counts {
    let (rows, cols) = (grid.rows, grid.cols);
    let is_question: Vec<bool> = grid.cells.iter().map(|&c| c == Cell::Question).collect();
    let mut per_field = vec![0usize; rows * cols];
    for q in &grid.questions {
        per_field[grid.index(q.row, q.col)] += 1;
    }
    let uncrossed_at = |i: usize| grid.cells[i].is_letter_field() && analysis.coverage[i] == 1;
    let mut c = Counts {
        unblocked: grid.cells.iter().filter(|c| !c.is_blocked()).count(),
        questions: is_question.iter().filter(|&&q| q).count(),
        doubles: per_field.iter().filter(|&&n| n >= 2).count(),
        clusters: cluster_sizes(rows, cols, &is_question),
        ..Counts::default()
    };
    c.letters = c.unblocked - c.questions;
    for i in 0..rows * cols {
        if !uncrossed_at(i) {
            continue;
        }
        c.uncrossed += 1;
        let (r, col) = (i / cols, i % cols);
        let neighbours = [
            (r > 0).then(|| i - cols),
            (r + 1 < rows).then(|| i + cols),
            (col > 0).then(|| i - 1),
            (col + 1 < cols).then(|| i + 1),
        ];
        if neighbours.into_iter().flatten().any(uncrossed_at) {
            c.dead += 1;
        }
    }
    for w in &analysis.words {
        c.histogram[length_bin(w.cells.len())] += 1;
    }
    c
}

/// Everything `bot crossword rate` prints.
#[derive(Clone, Debug)]
pub struct Rating {
    pub counts: Counts,
    pub scores: Scores,
    pub violations: Vec<String>,
    pub filled: bool,
}

impl Rating {
    pub fn mean(&self) -> f64 {
        self.scores.mean()
    }

    /// The +10% bonus: completely filled with valid words, no rule broken.
    pub fn bonus(&self) -> bool {
        self.filled && self.violations.is_empty()
    }
}

/// Rate a grid; with a dictionary, filled words are checked against it.
pub fn rate(grid: &Grid, dictionary: Option<&HashSet<String>>) -> Rating {
    let analysis = analyse(grid, dictionary);
    let counts = counts(grid, &analysis);
    Rating {
        scores: scores(&counts),
        counts,
        violations: analysis.violations,
        filled: grid.is_filled(),
    }
}
