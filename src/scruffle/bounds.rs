//! Upper bounds on the best total. Every play fills at least one empty cell, so at most K plays
//! (K = open cells) happen and each cell can be "the new cell" of one play only.
//! - U1 = sum of best(i) (each entry at its best standalone position);
//! - U2 = sum of the K largest best(i);
//! - U3 = min over cell prices pi >= 0 of sum(pi) + sum_i max(0, max_p s(i,p) - min_{c in p} pi_c),
//!   the Lagrangian relaxation of "each cell is the new cell of at most one play". Any pi gives a
//!   valid bound; subgradient steps from the uniform price that reproduces U2 improve it.

use super::layout::Layout;
use super::table::Table;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    pub open_cells: usize,
    pub u1: u64,
    pub u2: u64,
    pub u3: u64,
}

/// Compute U1, U2 and U3 (`iterations` subgradient steps; `lower` is any achievable score, used
/// only to size the steps).
pub fn bounds(
    layout: &Layout,
    words: &[Vec<u8>],
    table: &Table,
    lower: u64,
    iterations: usize,
) -> Bounds {
    let k = layout.open_cells();
    let mut best: Vec<u64> = (0..table.words()).map(|i| table.best(i)).collect();
    let u1 = best.iter().sum();
    best.sort_unstable_by(|a, b| b.cmp(a));
    let u2 = best.iter().take(k).sum();
    let lambda = if best.len() > k {
        best[k - 1] as f64
    } else {
        0.0
    };

    let mut prices: Vec<f64> = (0..layout.cells())
        .map(|c| if layout.is_open(c) { lambda } else { 0.0 })
        .collect();
    let mut demand = vec![0u32; layout.cells()];
    let mut u3 = f64::INFINITY;
    let mut theta = 1.0;
    let mut since_better = 0;
    for _ in 0..=iterations {
        demand.iter_mut().for_each(|d| *d = 0);
        let mut value: f64 = prices.iter().sum();
        for (i, word) in words.iter().enumerate() {
            let (term, cell) = word_term(layout, table, i, word.len(), &prices);
            value += term;
            if let Some(c) = cell {
                demand[c] += 1;
            }
        }
        if value < u3 - 1e-9 {
            u3 = value;
            since_better = 0;
        } else {
            since_better += 1;
            if since_better >= 5 {
                theta *= 0.5;
                since_better = 0;
            }
        }
        // Subgradient of the dual in pi_c is 1 - demand_c (open cells only).
        let norm: f64 = (0..layout.cells())
            .filter(|&c| layout.is_open(c))
            .map(|c| (1.0 - demand[c] as f64).powi(2))
            .sum();
        if norm == 0.0 || value <= lower as f64 {
            break;
        }
        let step = theta * (value - lower as f64) / norm;
        for c in 0..layout.cells() {
            if layout.is_open(c) {
                prices[c] = (prices[c] - step * (1.0 - demand[c] as f64)).max(0.0);
            }
        }
    }
    // Rounding: a small relative margin keeps the float sum a true upper bound.
    let u3 = (u3 * (1.0 + 1e-9)).ceil() as u64;
    Bounds {
        open_cells: k,
        u1,
        u2,
        u3: u3.min(u2),
    }
}

/// max(0, max_p s(i,p) - min_{c in p} pi_c) for entry `i`, and the cell achieving it (None when
/// the term is 0 or comes from the tail bound of an incomplete top list).
fn word_term(
    layout: &Layout,
    table: &Table,
    i: usize,
    len: usize,
    prices: &[f64],
) -> (f64, Option<usize>) {
    let mut best = 0.0;
    let mut cell = None;
    let top = table.top(i);
    for &(s, pos) in top {
        if s as f64 <= best {
            // Later positions score at most s, so they cannot beat `best`.
            return (best, cell);
        }
        let (c, p) = layout
            .span(pos, len)
            .map(|c| (c, prices[c]))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("words have at least one letter");
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
