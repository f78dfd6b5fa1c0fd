//! Exact solver for one player alone in its regions: the most points its penguins can still
//! collect when no other penguin can interfere. A memoised depth-first search over (free tiles,
//! live penguins), with a node budget so that it never blows a turn's time.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use super::bits::{dilate, flood};
use crate::penguins::board::{cells_of, ADJACENT, DIRECTIONS};
use crate::penguins::state::{tile_points, State};

/// Fish counts of the board, as three bitboards (fish never change on a tile that exists).
#[derive(Clone, Copy, Debug)]
pub struct FishMap {
    pub tiles: [u64; 3],
}

impl FishMap {
    pub fn of(state: &State) -> Self {
        FishMap {
            tiles: [
                state.tiles_with(1),
                state.tiles_with(2),
                state.tiles_with(3),
            ],
        }
    }

    pub fn points(&self, cell: u8) -> u32 {
        let bit = 1u64 << cell;
        let fish = (self.tiles[0] & bit != 0) as u8
            + 2 * (self.tiles[1] & bit != 0) as u8
            + 3 * (self.tiles[2] & bit != 0) as u8;
        tile_points(fish)
    }

    /// Points of every tile in `bits`.
    pub fn sum(&self, bits: u64) -> u32 {
        (1..=3)
            .map(|k| tile_points(k as u8) * (self.tiles[k - 1] & bits).count_ones())
            .sum()
    }
}

/// The memo is only valid for one board (tile fish counts), so its owner clears it per game
/// or per turn.
#[derive(Default)]
pub struct Solo {
    memo: HashMap<(u64, u64), u32>,
    /// Problems that ran out of budget: not retried until `forget_failures` (once per turn), so
    /// a big region costs the estimate one failed attempt, not one per search node.
    failed: HashSet<(u64, u64)>,
    nodes: u64,
    budget: u64,
    /// Give up (as on an exhausted budget) past this instant; the clock is read every 256 visits.
    pub deadline: Option<Instant>,
}

impl Solo {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn clear(&mut self) {
        self.memo.clear();
        self.failed.clear();
    }

    pub fn forget_failures(&mut self) {
        self.failed.clear();
    }

    /// Visits the last `solve` made (to share a budget between several problems).
    pub fn last_visits(&self) -> u64 {
        self.nodes
    }

    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// The most points penguins on `penguins` collect alone on `free` (tiles without penguins);
    /// `None` when that takes more than `budget` visits.
    pub fn solve(&mut self, fish: &FishMap, free: u64, penguins: u64, budget: u64) -> Option<u32> {
        let key = normalise(free, penguins);
        if self.failed.contains(&key) {
            return None;
        }
        self.nodes = 0;
        self.budget = budget;
        let result = self.best(fish, free, penguins);
        if result.is_none() {
            self.failed.insert(key);
        }
        result
    }

    fn best(&mut self, fish: &FishMap, free: u64, penguins: u64) -> Option<u32> {
        let (free, live) = normalise(free, penguins);
        if live == 0 {
            return Some(0);
        }
        // The budget counts visits, memo hits included: that is what the time goes into.
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        if self.nodes & 255 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.budget = 0;
            return None;
        }
        if let Some(&value) = self.memo.get(&(free, live)) {
            return Some(value);
        }
        let mut best = 0;
        for from in cells_of(live) {
            let gain = fish.points(from);
            for dir in 0..DIRECTIONS {
                for to in cells_of(State::slide_targets(from, dir, free)) {
                    let rest = self.best(fish, free & !(1 << to), live & !(1 << from) | 1 << to)?;
                    best = best.max(gain + rest);
                }
            }
        }
        self.memo.insert((free, live), best);
        Some(best)
    }
}

/// Only penguins that can still move, and tiles they can still reach, matter.
fn normalise(free: u64, penguins: u64) -> (u64, u64) {
    let live = cells_of(penguins)
        .filter(|&c| ADJACENT[c as usize] & free != 0)
        .fold(0u64, |acc, c| acc | 1 << c);
    if live == 0 {
        return (0, 0);
    }
    (flood(dilate(live) & free, free), live)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::penguins::board::{CELLS, VALID};
    use crate::penguins::rules::Rules;
    use crate::search::rng::SplitMix64;

    /// Plain brute force with the rules engine: a one-player game played out every way.
    fn brute(state: &mut State) -> u32 {
        let mut moves = crate::penguins::state::MoveList::new();
        state.legal_moves(&mut moves);
        let moves: Vec<_> = moves.to_vec();
        let mut best = 0;
        for mv in moves {
            let before = state.score(0);
            let undo = state.apply(mv);
            best = best.max(state.score(0) - before + brute(state));
            state.undo(undo);
        }
        best
    }

    #[test]
    fn matches_brute_force_on_random_small_regions() {
        let mut rng = SplitMix64::new(9);
        let mut solo = Solo::new();
        for case in 0..150 {
            // A random patch of 6-12 tiles grown from one cell, with 1-2 penguins on it.
            let mut tiles = 1u64 << (rng.below(CELLS) as u64 & 63);
            tiles &= VALID;
            if tiles == 0 {
                continue;
            }
            let size = 6 + rng.below(7);
            while (tiles.count_ones() as usize) < size {
                let border: Vec<u8> = cells_of(dilate(tiles) & !tiles).collect();
                tiles |= 1 << border[rng.below(border.len())];
            }
            let mut grid = [0u8; CELLS];
            for c in cells_of(tiles) {
                grid[c as usize] = 1 + rng.below(3) as u8;
            }
            let cells: Vec<u8> = cells_of(tiles).collect();
            let count = 1 + rng.below(2);
            let mut penguins = Vec::new();
            while penguins.len() < count {
                let c = cells[rng.below(cells.len())];
                if !penguins.contains(&(0, c)) {
                    penguins.push((0, c));
                }
            }
            let mut state =
                State::from_position(Rules::default(), 1, count, &grid, &penguins, &[0], 0)
                    .unwrap();
            let expected = brute(&mut state);
            let fish = FishMap::of(&state);
            solo.clear();
            let got = solo.solve(&fish, state.free(), state.penguins_of(0), u64::MAX);
            assert_eq!(
                got,
                Some(expected),
                "case {case}: grid {grid:?} penguins {penguins:?}"
            );
            // A tiny budget gives up instead of answering wrongly, and is not retried.
            solo.clear();
            let capped = solo.solve(&fish, state.free(), state.penguins_of(0), 2);
            assert!(capped.is_none() || capped == Some(expected));
        }
    }
}
