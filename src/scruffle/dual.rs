//! The letter-aware Lagrangian dual that U4 and the exact solver share. Every placement is an
//! occurrence of its spelling in the final string of its row or column, so a plan's total is at
//! most the sum over line segments of their best strings' occurrence scores (`LineDp`), once
//! the rules that couple the lines are priced: "each entry once" (mu >= 0 per spelling, against
//! its copies), "each placement claims its own new cell" (pi >= 0 per claimable cell) and "a row
//! and a column hold the same symbol on their common cell" (lambda per cell and letter, any
//! sign: +lambda in the row, -lambda in the column). Any multipliers give a valid bound.
//!
//! Restrictions make the same dual bound a part of the search space: each cell carries the set
//! of symbols it may hold (`allowed`, 26 letters and blank), so a branch that fixes or forbids a
//! letter is bounded by the same sweeps.

use super::automaton::Automaton;
use super::layout::{Dir, Layout, Segment};
use super::linedp::{LineDp, Path, SegmentBuf};
use super::table::Table;
use rayon::prelude::*;
use std::time::Instant;

/// The symbols a cell may hold: bit `l` for letter `'A' + l`, and `BLANK`.
pub const BLANK: u32 = 1 << 26;
/// Any letter or blank.
pub const ANY: u32 = (1 << 27) - 1;

/// Step weight of the spelling prices, each also scaled by the spelling's best score over the
/// mean (a word worth thousands needs a price in the thousands, a short one a few points).
const MU_WEIGHT: f64 = 0.3;

/// The Lagrangian multipliers.
#[derive(Clone, Debug)]
pub struct Multipliers {
    /// Price of each spelling ("each entry once"), per spelling of the automaton.
    pub mu: Vec<f64>,
    /// Price of each cell ("each placement has its own first new cell").
    pub pi: Vec<f64>,
    /// Letter agreement, by cell and letter: added to the row's value for that letter on that
    /// cell, taken from the column's.
    pub lambda: Vec<[f64; 26]>,
}

/// One problem's dual: what is solved (segments, claimable cells, copies) and the multipliers.
pub struct Dual {
    pub automaton: Automaton,
    pub segments: Vec<Segment>,
    /// Cells that can be a placement's new cell (they carry a price).
    pub claimable: Vec<usize>,
    claim_ok: Vec<bool>,
    /// Entries of each spelling that may still be played.
    pub copies: Vec<f64>,
    mu_step: Vec<f64>,
    pub m: Multipliers,
}

/// How a descent runs.
#[derive(Clone, Copy, Debug)]
pub struct Descend {
    pub sweeps: usize,
    /// Sweeps without a better value before the step halves.
    pub patience: usize,
    pub deadline: Option<Instant>,
    /// Solve the segments of a sweep on all cores (same result as one thread).
    pub parallel: bool,
    /// Leave the multipliers of the best sweep in `Dual::m` (else those of the last).
    pub keep_best: bool,
}

/// The lines' best strings at one set of multipliers, and the dual value they give.
pub struct Sweep {
    pub value: f64,
    /// Per segment (in `Dual::segments` order): its best string and counted occurrences.
    pub paths: Vec<Path>,
    /// Occurrences per spelling.
    pub used: Vec<u32>,
    /// Claims per cell.
    pub claims: Vec<u32>,
    /// The row strings' and the column strings' symbols per cell (0 = blank).
    pub letters: [Vec<u8>; 2],
}

/// The result of a descent.
pub struct Descent {
    /// The best (lowest) dual value seen: a valid bound.
    pub best: f64,
    /// Every sweep's value, in order.
    pub history: Vec<f64>,
    /// The sweep at the best value (with `keep_best`).
    pub at_best: Option<Sweep>,
}

impl Dual {
    /// The whole board: every segment, every open cell claimable, every entry available; step
    /// sizes of the spelling prices from the entries' best standalone scores.
    pub fn whole_board(layout: &Layout, automaton: Automaton, table: &Table) -> Dual {
        let copies: Vec<f64> = automaton.entries.iter().map(|e| e.len() as f64).collect();
        let best_score: Vec<f64> = automaton
            .entries
            .iter()
            .map(|e| table.best(e[0] as usize) as f64)
            .collect();
        let claimable: Vec<usize> = (0..layout.cells()).filter(|&c| layout.is_open(c)).collect();
        Dual::new(
            layout,
            automaton,
            layout.segments(),
            claimable,
            copies,
            &best_score,
        )
    }

    /// A dual over `segments`, with prices on the `claimable` cells, `copies` per spelling and
    /// the spelling prices' step sizes scaled by `best_score` (per spelling).
    pub fn new(
        layout: &Layout,
        automaton: Automaton,
        segments: Vec<Segment>,
        claimable: Vec<usize>,
        copies: Vec<f64>,
        best_score: &[f64],
    ) -> Dual {
        let mean_best = best_score.iter().sum::<f64>() / best_score.len().max(1) as f64;
        let mu_step = best_score
            .iter()
            .map(|&b| MU_WEIGHT * b.max(1.0) / mean_best.max(1.0))
            .collect();
        let mut claim_ok = vec![false; layout.cells()];
        for &c in &claimable {
            claim_ok[c] = true;
        }
        let spellings = automaton.spellings.len();
        Dual {
            automaton,
            segments,
            claimable,
            claim_ok,
            copies,
            mu_step,
            m: Multipliers {
                mu: vec![0.0; spellings],
                pi: vec![0.0; layout.cells()],
                lambda: vec![[0.0; 26]; layout.cells()],
            },
        }
    }

    /// Starting multipliers: `mu(entries of the spelling)` and `pi(cell)`, letters unpriced.
    pub fn start(&mut self, mu: impl Fn(&[u32]) -> f64, pi: impl Fn(usize) -> f64) {
        for (s, e) in self.automaton.entries.iter().enumerate() {
            self.m.mu[s] = mu(e);
        }
        for &c in &self.claimable {
            self.m.pi[c] = pi(c);
        }
        self.m.lambda.iter_mut().for_each(|l| *l = [0.0; 26]);
    }

    /// A segment as the line DP sees it under the multipliers and `allowed`.
    fn fill_input(&self, input: &mut SegmentBuf, layout: &Layout, seg: &Segment, allowed: &[u32]) {
        let sign = if seg.dir == Dir::H { 1.0 } else { -1.0 };
        input.clear();
        for c in seg.cells(layout) {
            let mask = allowed[c];
            let mut bonus = self.m.lambda[c].map(|x| sign * x);
            if mask & (ANY ^ BLANK) != ANY ^ BLANK {
                for (l, b) in bonus.iter_mut().enumerate() {
                    if mask & 1 << l == 0 {
                        *b = f64::NEG_INFINITY;
                    }
                }
            }
            let claim = match self.claim_ok[c] {
                true => self.m.pi[c],
                false => f64::INFINITY,
            };
            input.push(
                layout.letter_mult(c),
                layout.word_factor(c),
                claim,
                bonus,
                mask & BLANK != 0,
            );
        }
    }

    /// Every segment's best string at the current multipliers, and the dual value.
    pub fn evaluate(&self, layout: &Layout, allowed: &[u32], parallel: bool) -> Sweep {
        let a = &self.automaton;
        let cost: Vec<f64> = self
            .m
            .mu
            .iter()
            .zip(&self.copies)
            .map(|(&mu, &n)| if n > 0.0 { mu } else { f64::INFINITY })
            .collect();
        let solve = |(dp, input): &mut (LineDp, SegmentBuf), seg: &Segment| {
            self.fill_input(input, layout, seg, allowed);
            let mut path = Path::default();
            let value = dp.solve(a, &input.view(), &cost, Some(&mut path));
            (value, path)
        };
        let scratch = || (LineDp::new(a, layout.values()), SegmentBuf::default());
        let solved: Vec<(f64, Path)> = if parallel {
            self.segments.par_iter().map_init(scratch, solve).collect()
        } else {
            let mut s = scratch();
            self.segments.iter().map(|seg| solve(&mut s, seg)).collect()
        };
        let cells = layout.cells();
        let mut sweep = Sweep {
            value: 0.0,
            paths: Vec::with_capacity(solved.len()),
            used: vec![0; a.spellings.len()],
            claims: vec![0; cells],
            letters: [vec![0; cells], vec![0; cells]],
        };
        let mut line_part = 0.0;
        for (seg, (v, path)) in self.segments.iter().zip(solved) {
            line_part += v;
            let cell_at = |t: usize| seg.start + t * layout.step(seg.dir);
            for o in &path.occurrences {
                sweep.used[o.spelling as usize] += 1;
                sweep.claims[cell_at(o.claim as usize)] += 1;
            }
            for (t, &l) in path.letters.iter().enumerate() {
                sweep.letters[seg.dir as usize][cell_at(t)] = l;
            }
            sweep.paths.push(path);
        }
        let spelling_part: f64 = self.m.mu.iter().zip(&self.copies).map(|(x, n)| x * n).sum();
        let cell_part: f64 = self.claimable.iter().map(|&c| self.m.pi[c]).sum();
        sweep.value = spelling_part + cell_part + line_part;
        sweep
    }

    /// Polyak subgradient sweeps aimed at `lower` (a value some plan reaches); the best value
    /// seen is a valid bound.
    pub fn descend(
        &mut self,
        layout: &Layout,
        allowed: &[u32],
        lower: f64,
        how: Descend,
    ) -> Descent {
        let mut out = Descent {
            best: f64::INFINITY,
            history: Vec::new(),
            at_best: None,
        };
        let mut best_m = None;
        let mut scale = StepScale::new(how.patience);
        for _ in 0..how.sweeps {
            if how.deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let sweep = self.evaluate(layout, allowed, how.parallel);
            let value = sweep.value;
            out.history.push(value);
            let better = value < out.best;
            if better {
                out.best = value;
                if how.keep_best {
                    best_m = Some(self.m.clone());
                }
            }
            scale.record(better);
            let stop = !self.step(&sweep, value, lower, scale.theta);
            if better && how.keep_best {
                out.at_best = Some(sweep);
            }
            if stop {
                break;
            }
        }
        if let Some(m) = best_m {
            self.m = m;
        }
        out
    }

    /// One projected subgradient step from `sweep` (value `value`); false when there is no
    /// direction left or the value already meets `lower`.
    fn step(&mut self, sweep: &Sweep, value: f64, lower: f64, theta: f64) -> bool {
        let Sweep {
            used,
            claims,
            letters,
            ..
        } = sweep;
        let m = &mut self.m;
        // Components that would push a price below 0 are left out of the norm (and clamped in
        // the step).
        let mut norm = 0.0;
        for (s, &n) in used.iter().enumerate() {
            let g = self.copies[s] - n as f64;
            if m.mu[s] > 0.0 || g < 0.0 {
                norm += self.mu_step[s] * g * g;
            }
        }
        // Only claimable cells can disagree: the others are fixed or blank in both directions.
        for &c in &self.claimable {
            let g = 1.0 - claims[c] as f64;
            if m.pi[c] > 0.0 || g < 0.0 {
                norm += g * g;
            }
            let (r, v) = (letters[0][c], letters[1][c]);
            if r != v {
                // d/d lambda[c][l] = [row has l] - [column has l]: one component per letter.
                norm += (r != 0) as u8 as f64 + (v != 0) as u8 as f64;
            }
        }
        if norm == 0.0 || value <= lower {
            return false;
        }
        let step = theta * (value - lower) / norm;
        for (s, &n) in used.iter().enumerate() {
            m.mu[s] = (m.mu[s] - self.mu_step[s] * step * (self.copies[s] - n as f64)).max(0.0);
        }
        for &c in &self.claimable {
            m.pi[c] = (m.pi[c] - step * (1.0 - claims[c] as f64)).max(0.0);
            let (r, v) = (letters[0][c], letters[1][c]);
            if r != v {
                if r != 0 {
                    m.lambda[c][(r - b'A') as usize] -= step;
                }
                if v != 0 {
                    m.lambda[c][(v - b'A') as usize] += step;
                }
            }
        }
        true
    }
}

/// The scale of a subgradient step: halved after `patience` steps in a row without a better
/// value (the same rule for U3, U4 and the exact solver's bound).
pub(crate) struct StepScale {
    pub theta: f64,
    since_better: usize,
    patience: usize,
}

impl StepScale {
    pub fn new(patience: usize) -> StepScale {
        StepScale {
            theta: 1.0,
            since_better: 0,
            patience,
        }
    }

    /// Count one step, `better` when its value improved on the best so far.
    pub fn record(&mut self, better: bool) {
        if better {
            self.since_better = 0;
            return;
        }
        self.since_better += 1;
        if self.since_better >= self.patience {
            self.theta *= 0.5;
            self.since_better = 0;
        }
    }
}
