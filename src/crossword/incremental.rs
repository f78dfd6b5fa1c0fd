//! Incremental layout evaluation for the annealer: toggling a field between letter and question
//! updates only the runs through it, their coverage, the fields around them and the clusters
//! touching it. Fields near row 0, column 0 or an island (where bent arrows are claimed in an
//! order-dependent way) fall back to a full re-derivation. Tested against `Evaluator`.

use super::layout::{AnnealOptions, Derived, Kind, Layout, Scratch};
use super::rate::{cluster_terms, length_bin, scores_from, Counts};

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
struct Stats {
    questions: usize,
    letters: usize,
    unblocked: usize,
    doubles: usize,
    uncrossed: usize,
    dead: usize,
    uncovered: usize,
    idle: usize,
    histogram: [usize; 8],
    clusters: usize,
    big: usize,
    long: usize,
    hot: f64,
}

#[derive(Clone, Debug, Default)]
struct Saved {
    kind: Vec<Kind>,
    suppress: Vec<u8>,
    arrows: Vec<u8>,
    coverage: Vec<u8>,
    clue_h: Vec<u32>,
    clue_v: Vec<u32>,
    stats: Stats,
}

/// A layout with its derived state, kept up to date move by move.
pub struct Incremental<'o> {
    o: &'o AnnealOptions,
    pub layout: Layout,
    arrows: Vec<u8>,
    coverage: Vec<u8>,
    /// Per run start field: the question clueing the run starting there (`q * 8 + arrow`).
    clue_h: Vec<u32>,
    clue_v: Vec<u32>,
    /// Fields where a toggle may change bent-arrow claims: always re-derive fully.
    near_edge: Vec<bool>,
    stats: Stats,
    saved: Saved,
    derived: Derived,
    scratch: Scratch,
    counts: Counts,
    mark: Vec<u32>,
    stamp: u32,
    affected: Vec<usize>,
    givers: Vec<usize>,
    stack: Vec<usize>,
    pub full_rebuilds: u64,
}

impl<'o> Incremental<'o> {
    pub fn new(layout: Layout, o: &'o AnnealOptions) -> Incremental<'o> {
        let (rows, cols) = (layout.rows, layout.cols);
        let n = rows * cols;
        let blocked: Vec<bool> = layout.kind.iter().map(|&k| k == Kind::Blocked).collect();
        let near_edge = (0..n)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                if r < 3 || c < 3 {
                    return true;
                }
                // A bent claimant sits next to a run start by the island; its own plain runs
                // reach two fields further: stay 4 away.
                let (r0, r1) = (r.saturating_sub(4), (r + 4).min(rows - 1));
                let (c0, c1) = (c.saturating_sub(4), (c + 4).min(cols - 1));
                (r0..=r1).any(|rr| (c0..=c1).any(|cc| blocked[rr * cols + cc]))
            })
            .collect();
        let mut inc = Incremental {
            o,
            layout,
            arrows: Vec::new(),
            coverage: Vec::new(),
            clue_h: vec![NONE; n],
            clue_v: vec![NONE; n],
            near_edge,
            stats: Stats::default(),
            saved: Saved::default(),
            derived: Derived::default(),
            scratch: Scratch::default(),
            counts: Counts::default(),
            mark: vec![0; n],
            stamp: 0,
            affected: Vec::new(),
            givers: Vec::new(),
            stack: Vec::new(),
            full_rebuilds: 0,
        };
        inc.rebuild();
        inc
    }

    /// Re-derive everything from the layout.
    fn rebuild(&mut self) {
        self.full_rebuilds += 1;
        let l = &self.layout;
        l.derive(&mut self.derived);
        l.counts_into(&self.derived, &mut self.scratch, &mut self.counts);
        let d = &self.derived;
        let c = &self.counts;
        let (n, big) = cluster_terms(&c.clusters);
        let mut st = Stats {
            questions: c.questions,
            letters: c.letters,
            unblocked: c.unblocked,
            doubles: c.doubles,
            uncrossed: c.uncrossed,
            dead: c.dead,
            uncovered: d.uncovered,
            idle: d.idle_questions,
            histogram: c.histogram,
            clusters: n,
            big,
            ..Stats::default()
        };
        self.clue_h.fill(NONE);
        self.clue_v.fill(NONE);
        for s in &d.slots {
            let map = if s.step == 1 {
                &mut self.clue_h
            } else {
                &mut self.clue_v
            };
            map[s.start] = (s.question * 8) as u32 + s.arrow as u32;
            st.long += s.len.saturating_sub(self.o.max_len);
            if !self.o.heat.is_empty() {
                let heat: f64 = s.cells().map(|i| self.o.heat[i]).sum();
                st.hot += heat * s.len.saturating_sub(3) as f64;
            }
        }
        self.arrows.clone_from(&d.arrows);
        self.coverage.clone_from(&d.coverage);
        self.stats = st;
    }

    /// (objective, rating mean, layout valid) — the same numbers as `Evaluator::evaluate`.
    pub fn objective(&self) -> (f64, f64, bool) {
        let st = &self.stats;
        let c = Counts {
            unblocked: st.unblocked,
            questions: st.questions,
            doubles: st.doubles,
            letters: st.letters,
            uncrossed: st.uncrossed,
            dead: st.dead,
            histogram: st.histogram,
            clusters: Vec::new(),
        };
        let mean = scores_from(&c, st.clusters, st.big, |x| x.max(0.0)).mean();
        let shaped = scores_from(&c, st.clusters, st.big, |x| x).mean();
        let defects = st.uncovered + st.idle;
        let objective =
            -st.hot + shaped - 20.0 * defects as f64 - self.o.long_penalty * st.long as f64;
        (objective, mean, defects == 0)
    }

    pub fn save(&mut self) {
        let s = &mut self.saved;
        s.kind.clone_from(&self.layout.kind);
        s.suppress.clone_from(&self.layout.suppress);
        s.arrows.clone_from(&self.arrows);
        s.coverage.clone_from(&self.coverage);
        s.clue_h.clone_from(&self.clue_h);
        s.clue_v.clone_from(&self.clue_v);
        s.stats = self.stats.clone();
    }

    pub fn restore(&mut self) {
        let s = &self.saved;
        self.layout.kind.clone_from(&s.kind);
        self.layout.suppress.clone_from(&s.suppress);
        self.arrows.clone_from(&s.arrows);
        self.coverage.clone_from(&s.coverage);
        self.clue_h.clone_from(&s.clue_h);
        self.clue_v.clone_from(&s.clue_v);
        self.stats = s.stats.clone();
    }

    pub fn is_near_edge(&self, i: usize) -> bool {
        self.near_edge[i]
    }

    /// Flip one "leave this run unclued" bit of a question (full re-derivation).
    pub fn flip_suppress(&mut self, i: usize, bit: u8) {
        let cols = self.layout.cols;
        let step = if bit == 1 { 1 } else { cols };
        let run = self
            .next_in_line(i, step)
            .filter(|&nx| self.layout.kind[nx] == Kind::Letter);
        let (Some(start), false) = (run, self.near_edge[i]) else {
            self.layout.suppress[i] ^= bit;
            self.rebuild();
            return;
        };
        // Only the run after the question gains or loses its clue.
        let len = self.run_len(start, step);
        self.stamp += 1;
        self.affected.clear();
        self.givers.clear();
        self.givers.push(i);
        for k in 0..len {
            self.touch_with_neighbours(start + k * step);
        }
        let before = self.local_sums();
        self.remove_run(start, len, step);
        self.layout.suppress[i] ^= bit;
        self.add_run(start, len, step);
        let after = self.local_sums();
        self.apply_local(before, after);
    }

    fn apply_local(&mut self, before: [usize; 5], after: [usize; 5]) {
        let st = &mut self.stats;
        st.uncrossed = st.uncrossed + after[0] - before[0];
        st.dead = st.dead + after[1] - before[1];
        st.uncovered = st.uncovered + after[2] - before[2];
        st.doubles = st.doubles + after[3] - before[3];
        st.idle = st.idle + after[4] - before[4];
    }

    /// Turn a letter field into a question or back (its suppress bits are cleared).
    pub fn toggle(&mut self, i: usize) {
        let new_kind = match self.layout.kind[i] {
            Kind::Letter => Kind::Question,
            Kind::Question => Kind::Letter,
            Kind::Blocked => return,
        };
        if self.near_edge[i] || !self.runs_are_plain(i) {
            self.layout.kind[i] = new_kind;
            self.layout.suppress[i] = 0;
            self.rebuild();
            return;
        }
        let cols = self.layout.cols;
        // Old runs through or next to the field, both directions.
        let mut old: [(usize, usize, usize); 4] = [(0, 0, 0); 4];
        let mut n_old = 0;
        for step in [1, cols] {
            for (start, len) in self.runs_around(i, step) {
                old[n_old] = (start, len, step);
                n_old += 1;
            }
        }
        // Fields whose coverage or neighbourhood may change, and questions whose arrows may.
        self.stamp += 1;
        self.affected.clear();
        self.givers.clear();
        self.touch_with_neighbours(i);
        for &(start, len, step) in &old[..n_old] {
            for k in 0..len {
                self.touch_with_neighbours(start + k * step);
            }
            // The question before a run clues it (or will, once a 1-letter run grows).
            if let Some(p) = self.prev_in_line(start, step) {
                self.givers.push(p);
            }
        }
        self.givers.extend([i, i - 1, i - cols]);
        self.givers.sort_unstable();
        self.givers.dedup();
        let before = self.local_sums();
        let (clusters_before, big_before) = self.clusters_around(i);
        for &(start, len, step) in &old[..n_old] {
            self.remove_run(start, len, step);
        }
        self.layout.kind[i] = new_kind;
        self.layout.suppress[i] = 0;
        match new_kind {
            Kind::Question => {
                self.stats.questions += 1;
                self.stats.letters -= 1;
            }
            _ => {
                self.stats.questions -= 1;
                self.stats.letters += 1;
            }
        }
        for step in [1, cols] {
            for (start, len) in self.runs_around(i, step) {
                self.add_run(start, len, step);
            }
        }
        let after = self.local_sums();
        let (clusters_after, big_after) = self.clusters_around(i);
        self.apply_local(before, after);
        let st = &mut self.stats;
        st.clusters = st.clusters + clusters_after - clusters_before;
        st.big = st.big + big_after - big_before;
    }

    /// Every run touching field `i` along `step` starts right after a question (no bent clue).
    fn runs_are_plain(&self, i: usize) -> bool {
        let cols = self.layout.cols;
        [1, cols].into_iter().all(|step| {
            let first = self.line_start_of(i, step, true);
            // `first` is the first letter of the run ending at or before i (or i itself).
            match self.prev_in_line(first, step) {
                Some(p) => self.layout.kind[p] == Kind::Question || first == i,
                None => false,
            }
        })
    }

    fn prev_in_line(&self, i: usize, step: usize) -> Option<usize> {
        let cols = self.layout.cols;
        if step == 1 {
            (!i.is_multiple_of(cols)).then(|| i - 1)
        } else {
            (i >= cols).then(|| i - cols)
        }
    }

    fn next_in_line(&self, i: usize, step: usize) -> Option<usize> {
        let (rows, cols) = (self.layout.rows, self.layout.cols);
        if step == 1 {
            (i % cols + 1 < cols).then(|| i + 1)
        } else {
            (i / cols + 1 < rows).then(|| i + cols)
        }
    }

    /// Walk back from `i` (exclusive unless `include_self`) over letters: the run's first field.
    fn line_start_of(&self, i: usize, step: usize, include_self: bool) -> usize {
        let kind = &self.layout.kind;
        let mut first = i;
        if !include_self || kind[i] != Kind::Letter {
            // Start from the letter before i, if any.
            match self.prev_in_line(i, step) {
                Some(p) if kind[p] == Kind::Letter => first = p,
                _ => return i,
            }
        }
        while let Some(p) = self.prev_in_line(first, step) {
            if kind[p] != Kind::Letter {
                break;
            }
            first = p;
        }
        first
    }

    fn run_len(&self, start: usize, step: usize) -> usize {
        let mut len = 1;
        let mut j = start;
        while let Some(nx) = self.next_in_line(j, step) {
            if self.layout.kind[nx] != Kind::Letter {
                break;
            }
            len += 1;
            j = nx;
        }
        len
    }

    /// Runs (start, length) along `step` that contain `i` or end/start right next to it.
    fn runs_around(&self, i: usize, step: usize) -> arrayvec::ArrayVec<(usize, usize), 2> {
        let mut out = arrayvec::ArrayVec::new();
        let kind = &self.layout.kind;
        if kind[i] == Kind::Letter {
            let start = self.line_start_of(i, step, true);
            out.push((start, self.run_len(start, step)));
            return out;
        }
        if let Some(p) = self.prev_in_line(i, step) {
            if kind[p] == Kind::Letter {
                let start = self.line_start_of(p, step, true);
                out.push((start, self.run_len(start, step)));
            }
        }
        if let Some(nx) = self.next_in_line(i, step) {
            if kind[nx] == Kind::Letter {
                out.push((nx, self.run_len(nx, step)));
            }
        }
        out
    }

    fn touch(&mut self, j: usize) {
        if self.mark[j] != self.stamp {
            self.mark[j] = self.stamp;
            self.affected.push(j);
        }
    }

    fn touch_with_neighbours(&mut self, j: usize) {
        self.touch(j);
        for step in [1, self.layout.cols] {
            if let Some(p) = self.prev_in_line(j, step) {
                self.touch(p);
            }
            if let Some(nx) = self.next_in_line(j, step) {
                self.touch(nx);
            }
        }
    }

    fn uncrossed(&self, j: usize) -> bool {
        self.layout.kind[j] == Kind::Letter && self.coverage[j] == 1
    }

    fn dead(&self, j: usize) -> bool {
        if !self.uncrossed(j) {
            return false;
        }
        [1, self.layout.cols].into_iter().any(|step| {
            self.prev_in_line(j, step)
                .is_some_and(|p| self.uncrossed(p))
                || self
                    .next_in_line(j, step)
                    .is_some_and(|nx| self.uncrossed(nx))
        })
    }

    /// [uncrossed, dead, uncovered] over the affected fields, [doubles, idle] over the givers.
    fn local_sums(&self) -> [usize; 5] {
        let mut s = [0; 5];
        for &j in &self.affected {
            s[0] += self.uncrossed(j) as usize;
            s[1] += self.dead(j) as usize;
            s[2] += (self.layout.kind[j] == Kind::Letter && self.coverage[j] == 0) as usize;
        }
        for &q in &self.givers {
            if self.layout.kind[q] == Kind::Question {
                s[3] += (self.arrows[q].count_ones() >= 2) as usize;
                s[4] += (self.arrows[q] == 0) as usize;
            }
        }
        s
    }

    fn slot_terms(&self, start: usize, len: usize, step: usize) -> (usize, f64) {
        let long = len.saturating_sub(self.o.max_len);
        let mut hot = 0.0;
        if !self.o.heat.is_empty() {
            let heat: f64 = (0..len).map(|k| self.o.heat[start + k * step]).sum();
            hot = heat * len.saturating_sub(3) as f64;
        }
        (long, hot)
    }

    fn remove_run(&mut self, start: usize, len: usize, step: usize) {
        let map = if step == 1 {
            &mut self.clue_h
        } else {
            &mut self.clue_v
        };
        let clue = std::mem::replace(&mut map[start], NONE);
        if clue == NONE || len < 2 {
            return;
        }
        let (q, arrow) = ((clue / 8) as usize, clue % 8);
        self.arrows[q] &= !(1 << arrow);
        for k in 0..len {
            self.coverage[start + k * step] -= 1;
        }
        self.stats.histogram[length_bin(len)] -= 1;
        let (long, hot) = self.slot_terms(start, len, step);
        self.stats.long -= long;
        self.stats.hot -= hot;
    }

    /// Clue a run from the question before it (plain arrows only; callers checked that).
    fn add_run(&mut self, start: usize, len: usize, step: usize) {
        if len < 2 {
            return;
        }
        let q = start - step;
        let (arrow, bit) = if step == 1 { (3u8, 1u8) } else { (0u8, 2u8) };
        if self.layout.kind[q] != Kind::Question || self.layout.suppress[q] & bit != 0 {
            return;
        }
        self.arrows[q] |= 1 << arrow;
        for k in 0..len {
            self.coverage[start + k * step] += 1;
        }
        let map = if step == 1 {
            &mut self.clue_h
        } else {
            &mut self.clue_v
        };
        map[start] = (q * 8) as u32 + arrow as u32;
        self.stats.histogram[length_bin(len)] += 1;
        let (long, hot) = self.slot_terms(start, len, step);
        self.stats.long += long;
        self.stats.hot += hot;
    }

    /// (number, sum of squared sizes >= 3) of the clusters touching the 3x3 block around `i`.
    fn clusters_around(&mut self, i: usize) -> (usize, usize) {
        let (rows, cols) = (self.layout.rows, self.layout.cols);
        self.stamp += 1;
        let stamp = self.stamp;
        let (r, c) = (i / cols, i % cols);
        let (mut count, mut big) = (0, 0);
        for rr in r.saturating_sub(1)..=(r + 1).min(rows - 1) {
            for cc in c.saturating_sub(1)..=(c + 1).min(cols - 1) {
                let s = rr * cols + cc;
                if self.layout.kind[s] != Kind::Question || self.mark[s] == stamp {
                    continue;
                }
                self.mark[s] = stamp;
                self.stack.push(s);
                let mut size = 0;
                while let Some(j) = self.stack.pop() {
                    size += 1;
                    let (jr, jc) = (j / cols, j % cols);
                    for nr in jr.saturating_sub(1)..=(jr + 1).min(rows - 1) {
                        for nc in jc.saturating_sub(1)..=(jc + 1).min(cols - 1) {
                            let k = nr * cols + nc;
                            if self.layout.kind[k] == Kind::Question && self.mark[k] != stamp {
                                self.mark[k] = stamp;
                                self.stack.push(k);
                            }
                        }
                    }
                }
                count += 1;
                if size >= 3 {
                    big += size * size;
                }
            }
        }
        (count, big)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crossword::grid::Grid;
    use crate::crossword::layout::{random_layout, Evaluator};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn matches_full_evaluation_over_random_move_sequences() {
        let island = std::fs::read_to_string("../shared/data/crossword/test_cases/island_2.cwg");
        let mut plain = String::from("14\n17\n");
        for _ in 0..14 {
            plain.push_str(&".".repeat(17));
            plain.push('\n');
        }
        let templates = [
            Grid::parse(&island.unwrap()).unwrap(),
            Grid::parse(&plain).unwrap(),
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut fast_moves = 0;
        for (t, template) in templates.iter().enumerate() {
            let mut heat = vec![0.0; template.cells.len()];
            for h in heat.iter_mut() {
                *h = rng.random_range(0.0..0.3);
            }
            let o = AnnealOptions {
                max_len: 6,
                heat,
                ..AnnealOptions::default()
            };
            let start = random_layout(&Layout::from_grid(template), &mut rng);
            let mut inc = Incremental::new(start, &o);
            let mut full = Evaluator::new();
            let free: Vec<usize> = (0..template.cells.len())
                .filter(|&i| !template.cells[i].is_blocked())
                .collect();
            for step in 0..3000 {
                let i = free[rng.random_range(0..free.len())];
                inc.save();
                let rebuilds = inc.full_rebuilds;
                if inc.layout.kind[i] == Kind::Question && rng.random_bool(0.3) {
                    inc.flip_suppress(i, 1 << rng.random_range(0..2));
                } else {
                    inc.toggle(i);
                }
                fast_moves += (inc.full_rebuilds == rebuilds) as usize;
                let (a, b, c) = inc.objective();
                let (x, y, z) = full.evaluate(&inc.layout, &o);
                assert!(
                    (a - x).abs() < 1e-6 && (b - y).abs() < 1e-9 && c == z,
                    "template {t} step {step}: {a} {b} {c} vs {x} {y} {z}"
                );
                if rng.random_bool(0.5) {
                    inc.restore();
                    let (a2, ..) = inc.objective();
                    let (x2, ..) = full.evaluate(&inc.layout, &o);
                    assert!((a2 - x2).abs() < 1e-6, "restore at step {step}");
                }
            }
        }
        assert!(fast_moves > 2000, "{fast_moves}");
    }
}
