//! Upper bounds on the best total. Every play fills at least one empty cell, so at most K plays
//! (K = open cells) happen and each cell can be "the new cell" of one play only.
//! - U1 = sum of best(i) (each entry at its best standalone position);
//! - U2 = sum of the K largest best(i);
//! - U3 = min over cell prices pi >= 0 of sum(pi) + sum_i max(0, max_p s(i,p) - min_{c in p} pi_c),
//!   the Lagrangian relaxation of "each cell is the new cell of at most one play". Any pi gives a
//!   valid bound; subgradient steps from the uniform price that reproduces U2 improve it.
//! - U4, letter-aware: the best strings of every row and column (`LineDp`) under Lagrangian
//!   prices for the rules that couple them (see `u4`).

use super::automaton::Automaton;
use super::dual::{Descend, Dual, ANY};
use super::layout::{Layout, Pos, DIRS};
use super::table::Table;
use std::time::Instant;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    pub open_cells: usize,
    pub u1: u64,
    pub u2: u64,
    pub u3: u64,
}

/// Compute U1, U2 and U3 (`iterations` subgradient steps, fewer if `deadline` passes first: the
/// first always runs and every step's value is a bound; `lower` is any achievable score, used
/// only to size the steps).
pub fn bounds(
    layout: &Layout,
    words: &[Vec<u8>],
    table: &Table,
    lower: u64,
    iterations: usize,
    deadline: Option<Instant>,
) -> Bounds {
    lagrange_u3(layout, words, table, lower, iterations, deadline).0
}

/// Every entry's best standalone score, largest first.
fn best_first(table: &Table) -> Vec<u64> {
    let mut best: Vec<u64> = (0..table.words()).map(|i| table.best(i)).collect();
    best.sort_unstable_by(|a, b| b.cmp(a));
    best
}

/// U1 and U2 from `best_first` and the number of open cells.
fn counting_bounds(best: &[u64], open_cells: usize) -> (u64, u64) {
    let sum = |xs: &[u64]| xs.iter().fold(0u64, |t, &x| t.saturating_add(x));
    (sum(best), sum(&best[..open_cells.min(best.len())]))
}

/// U2 alone, cheap enough for the solver to stop as soon as a plan reaches it (the plan is then
/// optimal: an all-obstacle board, or one where every entry fits at its best position).
pub fn u2(layout: &Layout, table: &Table) -> u64 {
    counting_bounds(&best_first(table), layout.open_cells()).1
}

/// U1-U3, and the cell prices of the best U3 iterate (steps until `deadline`, as in `bounds`).
fn lagrange_u3(
    layout: &Layout,
    words: &[Vec<u8>],
    table: &Table,
    lower: u64,
    iterations: usize,
    deadline: Option<Instant>,
) -> (Bounds, Vec<f64>) {
    let k = layout.open_cells();
    let best = best_first(table);
    let (u1, u2) = counting_bounds(&best, k);
    // The K-th best score prices every cell at U2 when the cells bind (more entries than cells);
    // with no open cell there is nothing to price.
    let uniform = if k > 0 && best.len() > k {
        best[k - 1] as f64
    } else {
        0.0
    };

    let mut prices: Vec<f64> = (0..layout.cells())
        .map(|c| if layout.is_open(c) { uniform } else { 0.0 })
        .collect();
    let mut best_prices = prices.clone();
    let mut demand = vec![0u32; layout.cells()];
    let mut u3 = f64::INFINITY;
    let mut scale = crate::scruffle::dual::StepScale::new(5);
    let mut span_min = SpanMin::new(words, layout.longest_run());
    for step in 0..=iterations {
        if step > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        demand.iter_mut().for_each(|d| *d = 0);
        let mut value: f64 = prices.iter().sum();
        span_min.update(layout, &prices);
        for (i, word) in words.iter().enumerate() {
            if table.top(i).is_empty() {
                continue;
            }
            let (term, cell) = word_term(table, i, word.len(), &span_min);
            value += term;
            if let Some(c) = cell {
                demand[c] += 1;
            }
        }
        let better = value < u3 - 1e-9;
        if better {
            u3 = value;
            best_prices.copy_from_slice(&prices);
        }
        scale.record(better);
        // Subgradient of the dual in pi_c is 1 - demand_c (open cells only).
        let norm: f64 = (0..layout.cells())
            .filter(|&c| layout.is_open(c))
            .map(|c| (1.0 - demand[c] as f64).powi(2))
            .sum();
        if norm == 0.0 || value <= lower as f64 {
            break;
        }
        let step = scale.theta * (value - lower as f64) / norm;
        for c in 0..layout.cells() {
            if layout.is_open(c) {
                prices[c] = (prices[c] - step * (1.0 - demand[c] as f64)).max(0.0);
            }
        }
    }
    let bounds = Bounds {
        open_cells: k,
        u1,
        u2,
        u3: round_up(u3).min(u2),
    };
    (bounds, best_prices)
}

/// A float bound as an integer that is still a bound: a small relative margin covers rounding.
pub fn round_up(value: f64) -> u64 {
    (value * (1.0 + 1e-9) + 1e-6).ceil().max(0.0) as u64
}

/// The cheapest price over every span, for each word length in use: (price, cell) by direction,
/// length and first cell. Rebuilt once per price vector instead of scanning each span per word.
struct SpanMin {
    /// `slot[len]`: index into `mins` of that length, if some entry has it.
    slot: Vec<Option<usize>>,
    mins: Vec<[Vec<(f64, u32)>; 2]>,
}

impl SpanMin {
    fn new(words: &[Vec<u8>], longest: usize) -> SpanMin {
        let mut slot = vec![None; longest + 1];
        let mut count = 0;
        for w in words {
            if !w.is_empty() && w.len() <= longest && slot[w.len()].is_none() {
                slot[w.len()] = Some(count);
                count += 1;
            }
        }
        SpanMin {
            slot,
            mins: vec![[Vec::new(), Vec::new()]; count],
        }
    }

    fn update(&mut self, layout: &Layout, prices: &[f64]) {
        for dir in DIRS {
            let step = layout.step(dir);
            let (_, limit) = layout.line_shape(dir);
            let mut cur: Vec<(f64, u32)> = prices
                .iter()
                .enumerate()
                .map(|(c, &p)| (p, c as u32))
                .collect();
            for len in 1..self.slot.len() {
                if len > 1 {
                    for (c, m) in cur.iter_mut().enumerate() {
                        if layout.along(dir, c) + len - 1 < limit {
                            let far = c + (len - 1) * step;
                            if prices[far] < m.0 {
                                *m = (prices[far], far as u32);
                            }
                        }
                    }
                }
                if let Some(k) = self.slot[len] {
                    self.mins[k][dir as usize].clone_from(&cur);
                }
            }
        }
    }

    /// The cheapest price on the span of `len` letters at `pos`, and its cell.
    fn get(&self, pos: Pos, len: usize) -> (f64, usize) {
        let k = self.slot[len].expect("a length in use");
        let (p, c) = self.mins[k][pos.dir() as usize][pos.start()];
        (p, c as usize)
    }
}

/// max(0, max_p s(i,p) - min_{c in p} pi_c) for entry `i` with the span minima of the current
/// prices, and the cell achieving it (None when the term is 0 or comes from the tail bound of an
/// incomplete top list).
fn word_term(table: &Table, i: usize, len: usize, span_min: &SpanMin) -> (f64, Option<usize>) {
    let mut best = 0.0;
    let mut cell = None;
    let top = table.top(i);
    for &(s, pos) in top {
        if s as f64 <= best {
            // Later positions score at most s, so they cannot beat `best`.
            return (best, cell);
        }
        let (p, c) = span_min.get(pos, len);
        if s as f64 - p > best {
            best = s as f64 - p;
            cell = Some(c);
        }
    }
    if !table.complete(i) {
        // Positions not kept score at most the last kept one (and prices are >= 0).
        let tail = top.last().map_or(0.0, |t| t.0 as f64);
        if tail > best {
            return (tail, None);
        }
    }
    (best, cell)
}

/// Knobs of the U4 subgradient.
#[derive(Clone, Copy, Debug)]
pub struct U4Params {
    /// DP sweeps over every row and column (each gives a valid bound).
    pub iterations: usize,
    /// Stop early when this passes, U3's steps (U4's start) included: the best bound so far is
    /// still valid. Checked between sweeps, so one sweep may overrun it.
    pub deadline: Option<Instant>,
    /// Solve the rows and columns of a sweep on all cores (same result as one thread).
    pub parallel: bool,
}

/// The letter-aware bound.
#[derive(Clone, Debug)]
pub struct U4 {
    pub value: u64,
    /// U1-U3, computed on the way (U4 starts from U3's prices).
    pub simple: Bounds,
    /// DP sweeps done.
    pub sweeps: usize,
    /// The dual value of every sweep, in order.
    pub history: Vec<f64>,
}

/// Share of U3's prices and word terms U4 starts from (at 1 the first sweep is U3 itself, which
/// is several times too high; measured on bench seeds 3, 7, 10 and 13).
const START_SCALE: f64 = 0.1;

/// Sweeps without a better bound before the step halves: a fiftieth of the sweeps, at least 3.
/// A fixed 3 let the step collapse long before the dual converged: at 1,000 sweeps the bound
/// stopped moving near sweep 400 (bench seed 13: 9,369), where waiting 20 sweeps goes on to
/// 9,153; at 300 sweeps a patience of 6 is as good or better (docs/scruffle.md, What was tried).
pub fn patience(sweeps: usize) -> usize {
    (sweeps / 50).max(3)
}

/// U4: every placement is an occurrence of its spelling in the final string of its row or column,
/// so the total is at most the sum over lines of the best string's occurrence scores (`LineDp`),
/// with Lagrangian multipliers (`dual`). Any multipliers give a valid bound; Polyak subgradient
/// steps from a scaled-down U3 price vector tighten it, and the result is never above U3.
pub fn u4(layout: &Layout, words: &[Vec<u8>], table: &Table, lower: u64, params: U4Params) -> U4 {
    let (b3, mut dual) = u4_dual(layout, words, table, lower, params.deadline);
    let allowed = vec![ANY; layout.cells()];
    let descent = dual.descend(
        layout,
        &allowed,
        lower as f64,
        Descend {
            sweeps: params.iterations,
            patience: patience(params.iterations),
            deadline: params.deadline,
            parallel: params.parallel,
            keep_best: false,
        },
    );
    U4 {
        value: b3.u3.min(round_up(descent.best)),
        simple: b3,
        sweeps: descent.history.len(),
        history: descent.history,
    }
}

/// U4's dual of the whole board at its starting multipliers (a scaled-down U3 price vector),
/// and U1-U3 computed on the way (`lower` as in `u4`; U3's steps stop at `deadline`).
pub fn u4_dual(
    layout: &Layout,
    words: &[Vec<u8>],
    table: &Table,
    lower: u64,
    deadline: Option<Instant>,
) -> (Bounds, Dual) {
    let (b3, prices) = lagrange_u3(layout, words, table, lower, 100, deadline);
    let longest = layout.longest_run();
    let a = Automaton::new(words, |i| words[i].len() <= longest);
    let mut dual = Dual::whole_board(layout, a, table);
    let mut span_min = SpanMin::new(words, longest);
    span_min.update(layout, &prices);
    dual.start(
        |entries| {
            let i = entries[0] as usize;
            START_SCALE * word_term(table, i, words[i].len(), &span_min).0
        },
        |c| prices[c] * START_SCALE,
    );
    (b3, dual)
}
