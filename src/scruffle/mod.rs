//! Scruffle (TopCoder marathon): place list entries on a multiplier board to maximise the sum of
//! independently scored placements. `input` reads the files, `layout` holds the static geometry and
//! scores, `table` the precomputed best positions, `grid` the letters in play, `greedy` and
//! `solver` the search, `baseline` the naive greedy, `bounds` the upper bounds and `exhaustive` the
//! brute-force twin for tiny cases.

pub mod automaton;
pub mod baseline;
pub mod bounds;
pub mod dual;
pub mod exact;
pub mod exhaustive;
pub mod greedy;
pub mod grid;
pub mod hub;
pub mod input;
pub mod insert;
pub mod layout;
pub mod linedp;
pub mod linefill;
pub mod lns;
pub mod plan;
pub mod rebuild;
pub mod region;
pub mod solver;
pub mod spellings;
pub mod table;

pub use input::{Board, Cell};
pub use layout::{Dir, Layout, Placement, Pos};

use crate::words::LetterValues;
use std::time::Instant;

/// Standalone positions kept per entry (the greedy, the baseline and U3 read them): about two
/// million in all, between 64 and 2000 per entry, so short lists still reach past the hot spots
/// that every entry wants.
pub fn keep_positions(words: usize) -> usize {
    (2_000_000 / words.max(1)).clamp(64, 2000)
}

/// One case ready to solve: geometry, scores and the position table.
pub struct Case {
    pub layout: Layout,
    pub words: Vec<Vec<u8>>,
    pub table: table::Table,
}

impl Case {
    pub fn new(board: &Board, words: Vec<Vec<u8>>) -> Case {
        Case::build(board, words, None)
    }

    /// A case whose position table stops growing at `deadline` (entries not reached then are
    /// left out of the search), so reading never eats the whole budget.
    pub fn within(board: &Board, words: Vec<Vec<u8>>, deadline: Instant) -> Case {
        Case::build(board, words, Some(deadline))
    }

    fn build(board: &Board, words: Vec<Vec<u8>>, deadline: Option<Instant>) -> Case {
        let layout = Layout::new(board, &LetterValues::scrabble_english());
        let keep = keep_positions(words.len());
        let table = table::Table::build(&layout, &words, keep, deadline);
        Case {
            layout,
            words,
            table,
        }
    }

    /// `bot scruffle`'s run: the case of `board` and `words` solved within `budget` counted from
    /// `start` (reading included), and the seconds from `start` to the end of the position
    /// table. The table may take at most 40% of the budget; the search ends a little before the
    /// budget to leave room for printing.
    pub fn solve_timed(
        board: &Board,
        words: Vec<Vec<u8>>,
        start: Instant,
        budget: std::time::Duration,
        seed: u64,
    ) -> (Case, solver::Solution, f64) {
        let case = Case::within(board, words, start + budget.mul_f64(0.4));
        let table_done = start.elapsed().as_secs_f64();
        let deadline = start
            + budget
                .mul_f64(0.96)
                .saturating_sub(std::time::Duration::from_millis(25));
        let solution = case.solve(seed, solver::Budget::until(deadline));
        (case, solution, table_done)
    }

    /// The real solver, anytime until the budget ends.
    pub fn solve(&self, seed: u64, budget: solver::Budget) -> solver::Solution {
        let started = std::time::Instant::now();
        let ctx = plan::Context::new(&self.layout, &self.words, &self.table);
        let context_time = started.elapsed().as_secs_f64();
        let mut solution = solver::solve(&ctx, seed, budget);
        solution.stats.timeline.insert(0, ("context", context_time));
        solution
    }

    /// The naive greedy baseline.
    pub fn baseline(&self) -> Vec<Placement> {
        baseline::naive_greedy(&self.layout, &self.words, &self.table, None)
    }

    /// The naive greedy baseline, if it ends before `deadline` (cut short it is another plan).
    pub fn baseline_until(&self, deadline: Instant) -> Option<Vec<Placement>> {
        let plays = baseline::naive_greedy(&self.layout, &self.words, &self.table, Some(deadline));
        (Instant::now() < deadline).then_some(plays)
    }

    pub fn bounds(&self, lower: u64) -> bounds::Bounds {
        self.bounds_until(lower, None)
    }

    /// U1-U3 with U3's steps stopped at `deadline` (still bounds, only looser).
    pub fn bounds_until(&self, lower: u64, deadline: Option<Instant>) -> bounds::Bounds {
        bounds::bounds(&self.layout, &self.words, &self.table, lower, 100, deadline)
    }

    /// The letter-aware bound U4 (see `bounds::u4`).
    pub fn u4(&self, lower: u64, params: bounds::U4Params) -> bounds::U4 {
        bounds::u4(&self.layout, &self.words, &self.table, lower, params)
    }

    /// The exact total of `plays` (the search's own totals saturate at `u64::MAX`).
    pub fn total(&self, plays: &[Placement]) -> num_bigint::BigUint {
        plays
            .iter()
            .map(|p| self.layout.exact_score(&self.words[p.word as usize], p.pos))
            .sum()
    }

    /// Output lines, one per placement, in play order.
    pub fn format(&self, plays: &[Placement]) -> String {
        plays
            .iter()
            .map(|&p| self.layout.format(p) + "\n")
            .collect()
    }
}

#[cfg(test)]
mod claim_tests;
#[cfg(test)]
mod fuzz_tests;
#[cfg(test)]
mod tests;
