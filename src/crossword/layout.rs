//! Layouts: which fields are questions, with arrows derived from the runs of letter fields, and a
//! simulated-annealing search that maximises the rating while avoiding hard-to-fill long slots.

use super::grid::{Cell, Grid, Question};
use super::incremental::Incremental;
use super::rate::{length_bin, raw_scores, scores, Counts};
use super::rules::pair_allowed;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Blocked,
    Letter,
    Question,
}

/// The search state: field kinds, plus per question which of its plain runs it leaves unclued
/// (bit 0: the run to its right, bit 1: the run below), so doubles can be traded for coverage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub rows: usize,
    pub cols: usize,
    pub kind: Vec<Kind>,
    pub suppress: Vec<u8>,
}

/// One word slot: the question field and arrow that clue it, and its letter fields in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    pub question: usize,
    pub arrow: u8,
    pub start: usize,
    pub step: usize,
    pub len: usize,
}

impl Slot {
    pub fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len).map(move |k| self.start + k * self.step)
    }
}

/// Arrows, slots and coverage derived from a layout, with the layout's rule defects.
#[derive(Clone, Debug, Default)]
pub struct Derived {
    /// Bit set of arrow types per field.
    pub arrows: Vec<u8>,
    pub slots: Vec<Slot>,
    pub coverage: Vec<u8>,
    /// Letter fields no word covers.
    pub uncovered: usize,
    /// Question fields that clue no word.
    pub idle_questions: usize,
    /// Runs that need a bent arrow (2 * start + vertical, length); kept to reuse the buffer.
    bent_runs: Vec<(usize, usize)>,
}

/// Reusable buffers for the cluster search.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    seen: Vec<u32>,
    stamp: u32,
    parent: Vec<u32>,
    label: Vec<u32>,
}

impl Layout {
    /// Blocked fields from the grid; everything else starts as a letter field.
    pub fn from_grid(grid: &Grid) -> Layout {
        Layout {
            rows: grid.rows,
            cols: grid.cols,
            kind: grid
                .cells
                .iter()
                .map(|c| {
                    if c.is_blocked() {
                        Kind::Blocked
                    } else {
                        Kind::Letter
                    }
                })
                .collect(),
            suppress: vec![0; grid.cells.len()],
        }
    }

    fn is(&self, r: isize, c: isize, k: Kind) -> bool {
        r >= 0
            && c >= 0
            && (r as usize) < self.rows
            && (c as usize) < self.cols
            && self.kind[r as usize * self.cols + c as usize] == k
    }

    /// Bent arrows (1, 2, 4, 5) are allowed here: row 0, column 0, right of or below blocked.
    fn bent_ok(&self, i: usize) -> bool {
        let (r, c) = (i / self.cols, i % self.cols);
        r == 0
            || c == 0
            || self.kind[i - 1] == Kind::Blocked
            || self.kind[i - self.cols] == Kind::Blocked
    }

    /// Derive arrows and slots: every run of 2+ letters gets a clue where the rules allow one.
    pub fn derive(&self, d: &mut Derived) {
        let (rows, cols) = (self.rows, self.cols);
        let n = rows * cols;
        d.arrows.clear();
        d.arrows.resize(n, 0);
        d.coverage.clear();
        d.coverage.resize(n, 0);
        d.slots.clear();
        let mut bent_runs = std::mem::take(&mut d.bent_runs);
        bent_runs.clear();
        let kind = &self.kind;
        // Row by row: each horizontal run of 2+ letters, clued by the question before it.
        for r in 0..rows {
            let base = r * cols;
            let mut c = 0;
            while c < cols {
                if kind[base + c] != Kind::Letter {
                    c += 1;
                    continue;
                }
                let first = c;
                while c < cols && kind[base + c] == Kind::Letter {
                    c += 1;
                }
                let (i, len) = (base + first, c - first);
                if len < 2 {
                    continue;
                }
                if first > 0 && kind[i - 1] == Kind::Question {
                    if self.suppress[i - 1] & 1 == 0 {
                        self.add(d, i - 1, 3, i, 1, len);
                    }
                } else {
                    bent_runs.push((2 * i, len));
                }
            }
        }
        // Column by column: vertical runs, clued by the question above.
        for c in 0..cols {
            let mut r = 0;
            while r < rows {
                if kind[r * cols + c] != Kind::Letter {
                    r += 1;
                    continue;
                }
                let first = r;
                while r < rows && kind[r * cols + c] == Kind::Letter {
                    r += 1;
                }
                let (i, len) = (first * cols + c, r - first);
                if len < 2 {
                    continue;
                }
                if first > 0 && kind[i - cols] == Kind::Question {
                    if self.suppress[i - cols] & 2 == 0 {
                        self.add(d, i - cols, 0, i, cols, len);
                    }
                } else {
                    bent_runs.push((2 * i + 1, len));
                }
            }
        }
        // Bent claims depend on earlier ones: settle them in field order, horizontal first.
        bent_runs.sort_unstable_by_key(|&(key, _)| key);
        // Runs starting at the border or an island: a bent arrow from a neighbouring question.
        for &(key, len) in &bent_runs {
            let (i, horizontal) = (key / 2, key % 2 == 0);
            let (r, c) = ((i / cols) as isize, (i % cols) as isize);
            let options: [(isize, isize, u8); 2] = if horizontal {
                [(r - 1, c, 1), (r + 1, c, 5)]
            } else {
                [(r, c - 1, 4), (r, c + 1, 2)]
            };
            for (qr, qc, arrow) in options {
                if !self.is(qr, qc, Kind::Question) {
                    continue;
                }
                let q = qr as usize * cols + qc as usize;
                if !self.bent_ok(q) || !arrows_accept(d.arrows[q], arrow) {
                    continue;
                }
                let step = if horizontal { 1 } else { cols };
                self.add(d, q, arrow, i, step, len);
                break;
            }
        }
        d.bent_runs = bent_runs;
        d.uncovered = 0;
        d.idle_questions = 0;
        for i in 0..n {
            match self.kind[i] {
                Kind::Letter => d.uncovered += (d.coverage[i] == 0) as usize,
                Kind::Question => d.idle_questions += (d.arrows[i] == 0) as usize,
                Kind::Blocked => {}
            }
        }
    }

    fn add(&self, d: &mut Derived, q: usize, arrow: u8, start: usize, step: usize, len: usize) {
        d.arrows[q] |= 1 << arrow;
        for k in 0..len {
            d.coverage[start + k * step] += 1;
        }
        d.slots.push(Slot {
            question: q,
            arrow,
            start,
            step,
            len,
        });
    }

    /// The rating counts of the derived layout (the same numbers `rate::counts` gives its grid).
    pub fn counts(&self, d: &Derived, scratch: &mut Scratch) -> Counts {
        let mut c = Counts::default();
        self.counts_into(d, scratch, &mut c);
        c
    }

    /// `counts` into a reused `Counts`.
    pub fn counts_into(&self, d: &Derived, scratch: &mut Scratch, c: &mut Counts) {
        let (rows, cols) = (self.rows, self.cols);
        let n = rows * cols;
        c.unblocked = 0;
        c.questions = 0;
        c.doubles = 0;
        c.letters = 0;
        c.uncrossed = 0;
        c.dead = 0;
        c.histogram = [0; 8];
        c.clusters.clear();
        let uncrossed = |i: usize| self.kind[i] == Kind::Letter && d.coverage[i] == 1;
        for i in 0..n {
            match self.kind[i] {
                Kind::Blocked => continue,
                Kind::Question => {
                    c.questions += 1;
                    if d.arrows[i].count_ones() >= 2 {
                        c.doubles += 1;
                    }
                }
                Kind::Letter => {
                    c.letters += 1;
                    if uncrossed(i) {
                        c.uncrossed += 1;
                        let (r, col) = (i / cols, i % cols);
                        if (r > 0 && uncrossed(i - cols))
                            || (r + 1 < rows && uncrossed(i + cols))
                            || (col > 0 && uncrossed(i - 1))
                            || (col + 1 < cols && uncrossed(i + 1))
                        {
                            c.dead += 1;
                        }
                    }
                }
            }
            c.unblocked += 1;
        }
        for s in &d.slots {
            c.histogram[length_bin(s.len)] += 1;
        }
        self.clusters_into(scratch, &mut c.clusters);
    }

    /// Sizes of the 8-connected question clusters, in order of their first field: one raster
    /// pass of union-find over the already-visited neighbours.
    fn clusters_into(&self, sc: &mut Scratch, out: &mut Vec<usize>) {
        let (rows, cols) = (self.rows, self.cols);
        let n = rows * cols;
        if sc.seen.len() != n || sc.stamp == u32::MAX {
            sc.seen = vec![0; n];
            sc.parent = vec![0; n];
            sc.label = vec![0; n];
            sc.stamp = 0;
        }
        sc.stamp += 1;
        let stamp = sc.stamp;
        let q = |i: usize| self.kind[i] == Kind::Question;
        fn find(parent: &mut [u32], mut i: usize) -> usize {
            while parent[i] as usize != i {
                let p = parent[i] as usize;
                parent[i] = parent[p];
                i = p;
            }
            i
        }
        for r in 0..rows {
            for c in 0..cols {
                let i = r * cols + c;
                if !q(i) {
                    continue;
                }
                sc.parent[i] = i as u32;
                let link = |j: usize, parent: &mut [u32]| {
                    let (a, b) = (find(parent, i), find(parent, j));
                    if a != b {
                        // The smaller index stays root, so roots are first fields.
                        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                        parent[hi] = lo as u32;
                    }
                };
                if c > 0 && q(i - 1) {
                    link(i - 1, &mut sc.parent);
                }
                if r > 0 {
                    let up = i - cols;
                    if c > 0 && q(up - 1) {
                        link(up - 1, &mut sc.parent);
                    }
                    if q(up) {
                        link(up, &mut sc.parent);
                    }
                    if c + 1 < cols && q(up + 1) {
                        link(up + 1, &mut sc.parent);
                    }
                }
            }
        }
        for i in 0..n {
            if !q(i) {
                continue;
            }
            let root = find(&mut sc.parent, i);
            if sc.seen[root] != stamp {
                sc.seen[root] = stamp;
                sc.label[root] = out.len() as u32;
                out.push(0);
            }
            out[sc.label[root] as usize] += 1;
        }
    }

    /// The layout as a grid in the style of `template`: letters empty, questions listed in order.
    pub fn to_grid(&self, template: &Grid, d: &Derived) -> Grid {
        let mut g = template.clone();
        for (i, cell) in g.cells.iter_mut().enumerate() {
            *cell = match (self.kind[i], *cell) {
                (Kind::Blocked, Cell::Blocked(b)) => Cell::Blocked(b),
                (Kind::Blocked, _) => Cell::Blocked(b'-'),
                (Kind::Question, _) => Cell::Question,
                (Kind::Letter, _) => Cell::Empty,
            };
        }
        g.questions.clear();
        for i in 0..self.kind.len() {
            for arrow in 0..6u8 {
                if d.arrows[i] & (1 << arrow) != 0 {
                    g.questions.push(Question {
                        row: i / self.cols,
                        col: i % self.cols,
                        arrow,
                    });
                }
            }
        }
        g
    }
}

/// May a field with arrow set `set` take `arrow` too (at most two, an allowed pair)?
fn arrows_accept(set: u8, arrow: u8) -> bool {
    match set.count_ones() {
        0 => true,
        1 => pair_allowed(set.trailing_zeros() as u8, arrow),
        _ => false,
    }
}

/// Search knobs: the fill-difficulty terms added to the rating.
#[derive(Clone, Debug)]
pub struct AnnealOptions {
    /// Slots longer than this cost `long_penalty` per extra letter.
    pub max_len: usize,
    pub long_penalty: f64,
    pub iterations: u64,
    /// Cool by the clock too: the run ends here at the latest, fully cooled.
    pub deadline: Option<Instant>,
    /// Stop here whatever the temperature (does not change the cooling schedule).
    pub hard_stop: Option<Instant>,
    pub start_temperature: f64,
    pub end_temperature: f64,
    /// Per field, how often the fill failed there (empty: none). Slots through hot fields pay
    /// `heat * (length - 3)`, so a repair run shortens words where the fill got stuck.
    pub heat: Vec<f64>,
}

impl Default for AnnealOptions {
    fn default() -> Self {
        AnnealOptions {
            max_len: 9,
            long_penalty: 3.0,
            iterations: 200_000,
            deadline: None,
            hard_stop: None,
            start_temperature: 3.0,
            end_temperature: 0.02,
            heat: Vec::new(),
        }
    }
}

/// Objective of a layout: rating mean minus rule defects and fill-difficulty terms.
pub struct Evaluator {
    derived: Derived,
    scratch: Scratch,
    counts: Counts,
}

impl Default for Evaluator {
    fn default() -> Self {
        Self::new()
    }
}

impl Evaluator {
    pub fn new() -> Evaluator {
        Evaluator {
            derived: Derived::default(),
            scratch: Scratch::default(),
            counts: Counts::default(),
        }
    }

    /// (objective, rating mean, layout is valid).
    pub fn evaluate(&mut self, layout: &Layout, o: &AnnealOptions) -> (f64, f64, bool) {
        layout.derive(&mut self.derived);
        let d = &self.derived;
        layout.counts_into(d, &mut self.scratch, &mut self.counts);
        let mean = scores(&self.counts).mean();
        let shaped = raw_scores(&self.counts).mean();
        let long: usize = d
            .slots
            .iter()
            .map(|s| s.len.saturating_sub(o.max_len))
            .sum();
        let mut hot = 0.0;
        if !o.heat.is_empty() {
            for s in &d.slots {
                let heat: f64 = s.cells().map(|i| o.heat[i]).sum();
                hot += heat * s.len.saturating_sub(3) as f64;
            }
        }
        let defects = d.uncovered + d.idle_questions;
        let objective = -hot + shaped - 20.0 * defects as f64 - o.long_penalty * long as f64;
        (objective, mean, defects == 0)
    }

    pub fn derived(&self) -> &Derived {
        &self.derived
    }
}

/// A starting layout: questions spread at random over a fifth of the free fields.
pub fn random_layout(base: &Layout, rng: &mut Xoshiro256PlusPlus) -> Layout {
    let mut l = base.clone();
    for k in l.kind.iter_mut() {
        if *k != Kind::Blocked {
            *k = if rng.random_bool(0.22) {
                Kind::Question
            } else {
                Kind::Letter
            };
        }
    }
    l
}

/// Simulated annealing from `start`: returns the best valid layout seen (or the last one).
pub fn anneal(start: &Layout, o: &AnnealOptions, seed: u64) -> (Layout, f64) {
    let (layout, objective, _) = anneal_counted(start, o, seed);
    (layout, objective)
}

/// `anneal`, also returning how many moves were evaluated.
pub fn anneal_counted(start: &Layout, o: &AnnealOptions, seed: u64) -> (Layout, f64, u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut inc = Incremental::new(start.clone(), o);
    let (mut cur_obj, _, valid) = inc.objective();
    let mut best = start.clone();
    let mut best_obj = if valid { cur_obj } else { f64::NEG_INFINITY };
    let free: Vec<usize> = (0..start.kind.len())
        .filter(|&i| start.kind[i] != Kind::Blocked)
        .collect();
    if free.is_empty() {
        return (best, best_obj, 0);
    }
    let mut done = 0;
    let ratio = o.end_temperature / o.start_temperature;
    let started = Instant::now();
    let span = o
        .deadline
        .map(|d| d.saturating_duration_since(started).as_secs_f64());
    let mut progress = 0.0;
    for it in 0..o.iterations {
        if it.is_multiple_of(256) {
            // Cool by iterations or by elapsed time, whichever is further along.
            let by_time = span.map_or(0.0, |s| started.elapsed().as_secs_f64() / s.max(1e-9));
            progress = (it as f64 / o.iterations as f64).max(by_time);
            if progress >= 1.0 || o.hard_stop.is_some_and(|h| Instant::now() >= h) {
                break;
            }
        }
        done = it + 1;
        let t = o.start_temperature * ratio.powf(progress);
        let i = free[rng.random_range(0..free.len())];
        let is_question = inc.layout.kind[i] == Kind::Question;
        let suppress_move = is_question && rng.random_bool(0.2);
        let bit = if suppress_move {
            1 << rng.random_range(0..2)
        } else {
            0
        };
        // A plain toggle is undone by toggling back; anything else by a snapshot.
        let snapshot = inc.layout.suppress[i] != 0 || inc.is_near_edge(i);
        if snapshot {
            inc.save();
        }
        if suppress_move {
            inc.flip_suppress(i, bit);
        } else {
            inc.toggle(i);
        }
        let (obj, _, valid) = inc.objective();
        if obj >= cur_obj || rng.random::<f64>() < ((obj - cur_obj) / t).exp() {
            cur_obj = obj;
            if valid && obj > best_obj {
                best_obj = obj;
                best.clone_from(&inc.layout);
            }
        } else if snapshot {
            inc.restore();
        } else if suppress_move {
            inc.flip_suppress(i, bit);
        } else {
            inc.toggle(i);
        }
    }
    (best, best_obj, done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crossword::rate::rate;

    fn grid_of(rows: usize, cols: usize) -> Grid {
        let mut text = format!("{rows}\n{cols}\n");
        for _ in 0..rows {
            text.push_str(&".".repeat(cols));
            text.push('\n');
        }
        Grid::parse(&text).unwrap()
    }

    #[test]
    fn derived_counts_match_the_rater_on_random_layouts() {
        let island = std::fs::read_to_string("../shared/data/crossword/test_cases/island_1.cwg");
        let templates = [
            grid_of(6, 7),
            grid_of(9, 5),
            Grid::parse(&island.unwrap()).unwrap(),
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut scratch = Scratch::default();
        let mut valid = 0;
        for case in 0..400 {
            let template = &templates[case % templates.len()];
            let mut l = random_layout(&Layout::from_grid(template), &mut rng);
            for s in l.suppress.iter_mut() {
                *s = rng.random_range(0..4);
            }
            if case % 4 == 0 {
                // Annealed layouts, to compare valid ones too.
                let o = AnnealOptions {
                    iterations: 3000,
                    ..AnnealOptions::default()
                };
                l = anneal(&l, &o, case as u64).0;
            }
            let mut d = Derived::default();
            l.derive(&mut d);
            let fast = l.counts(&d, &mut scratch);
            let g = l.to_grid(template, &d);
            let r = rate(&g, None);
            assert_eq!(fast, r.counts, "case {case}");
            // Derived arrows never break placement rules; only coverage/idle defects remain.
            let layout_ok = d.uncovered == 0 && d.idle_questions == 0;
            assert_eq!(
                layout_ok,
                r.violations.is_empty(),
                "case {case}: {:?}",
                r.violations
            );
            valid += layout_ok as usize;
        }
        assert!(valid >= 50, "{valid}");
    }

    #[test]
    fn annealing_15x15_reaches_a_valid_high_rated_layout() {
        let template = grid_of(15, 15);
        let base = Layout::from_grid(&template);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let start = random_layout(&base, &mut rng);
        let o = AnnealOptions {
            iterations: 150_000,
            ..AnnealOptions::default()
        };
        let (best, _) = anneal(&start, &o, 1);
        let mut d = Derived::default();
        best.derive(&mut d);
        let r = rate(&best.to_grid(&template, &d), None);
        assert!(r.violations.is_empty(), "{:?}", r.violations);
        assert!(r.mean() > 90.0, "{:?}", r.scores);
    }
}
