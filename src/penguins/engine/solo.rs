//! Exact solver for one player alone in its regions: the most points its penguins can still
//! collect when no other penguin can interfere. A memoised depth-first search over (free tiles,
//! penguins), with a node budget so that it never blows a turn's time.
//!
//! Under the push rule a player alone can still push its own penguins (a slide that stops right
//! before one of them at the sea's edge pushes it; its tile stays, free). The solver plays that
//! too; it needs to know which cells around its penguins are ice outside the problem (tiles under
//! other penguins, other regions): `outer`. Those are taken as they are when the solve starts.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use super::bits::{dilate, flood};
use crate::penguins::board::{cells_of, ADJACENT, DIRECTIONS, NEIGHBOUR, NO_CELL};
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

/// A memo key: free tiles, penguins, and (push rule) the outside ice next to the penguins, or
/// `NO_PUSH` without the push rule.
type Key = (u64, u64, u64);

/// The third key part without the push rule (no real mask has every bit).
const NO_PUSH: u64 = u64::MAX;

/// Room made in the memo at the start of each turn (a 2-player game adds 20-35 thousand entries
/// a turn). The memo only grows there: growing it during a search rehashes every entry at once,
/// which cost single turns 10-20 ms once it held 100-200 thousand; during a search a full memo
/// keeps no new results.
pub const MEMO_HEADROOM: usize = 1 << 16;

/// A fast hasher for the memo's bitboard keys (std's SipHash is built for keys an attacker
/// chooses; these are not): the words are mixed with a multiply-rotate, then SplitMix64's
/// finaliser spreads every bit into the low bits the table indexes with.
#[derive(Default, Clone, Copy)]
pub struct BoardHasher(u64);

impl Hasher for BoardHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

type Memo = HashMap<Key, u32, BuildHasherDefault<BoardHasher>>;

/// The memo is only valid for one board (tile fish counts), so its owner clears it per game
/// or per turn.
pub struct Solo {
    memo: Memo,
    /// Problems that ran out of budget: not retried until `forget_failures` (once per turn), so
    /// a big region costs the estimate one failed attempt, not one per search node.
    failed: HashSet<Key>,
    /// The solve in progress: ice outside the problem (`Some` under the push rule).
    outer: Option<u64>,
    nodes: u64,
    budget: u64,
    /// Give up (as on an exhausted budget) past this instant; the clock is read every 256 visits.
    pub deadline: Option<Instant>,
}

impl Default for Solo {
    fn default() -> Self {
        Self::new()
    }
}

impl Solo {
    pub fn new() -> Self {
        let mut memo = Memo::default();
        memo.reserve(MEMO_HEADROOM);
        Solo {
            memo,
            failed: HashSet::new(),
            outer: None,
            nodes: 0,
            budget: 0,
            deadline: None,
        }
    }

    pub fn clear(&mut self) {
        self.memo.clear();
        self.failed.clear();
    }

    /// Makes room for `MEMO_HEADROOM` more results (between searches: this may rehash).
    pub fn make_room(&mut self) {
        self.memo.reserve(MEMO_HEADROOM);
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
    /// `None` when that takes more than `budget` visits. `outer`: under the push rule, the ice
    /// that is neither `free` nor under `penguins` (else `None`).
    pub fn solve(
        &mut self,
        fish: &FishMap,
        free: u64,
        penguins: u64,
        outer: Option<u64>,
        budget: u64,
    ) -> Option<u32> {
        self.outer = outer;
        let key = self.normalise(free, penguins);
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

    /// The part of a problem that matters: penguins that can still move, tiles they can still
    /// reach, and under the push rule every penguin they could push one day (a chain through
    /// penguins from those tiles) with the outside ice next to them.
    fn normalise(&self, free: u64, penguins: u64) -> Key {
        let live = cells_of(penguins)
            .filter(|&c| ADJACENT[c as usize] & free != 0)
            .fold(0u64, |acc, c| acc | 1 << c);
        if live == 0 {
            return (0, 0, 0);
        }
        let area = flood(dilate(live) & free, free);
        match self.outer {
            None => (area, live, NO_PUSH),
            Some(outer) => {
                let kept = flood(area, area | penguins) & penguins;
                (area, kept, outer & dilate(kept))
            }
        }
    }

    fn best(&mut self, fish: &FishMap, free: u64, penguins: u64) -> Option<u32> {
        let key = self.normalise(free, penguins);
        let (free, penguins, _) = key;
        if penguins == 0 {
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
        if let Some(&value) = self.memo.get(&key) {
            return Some(value);
        }
        let mut best = 0;
        for from in cells_of(penguins) {
            let gain = fish.points(from);
            for dir in 0..DIRECTIONS {
                for to in cells_of(State::slide_targets(from, dir, free)) {
                    let mut after = (free & !(1 << to), penguins & !(1 << from) | 1 << to);
                    if let Some(victim) = self.pushed(free, penguins, to, dir) {
                        after = (after.0 | 1 << victim, after.1 & !(1 << victim));
                    }
                    let rest = self.best(fish, after.0, after.1)?;
                    best = best.max(gain + rest);
                }
            }
        }
        if self.memo.len() < self.memo.capacity() {
            self.memo.insert(key, best);
        }
        Some(best)
    }

    /// Under the push rule, the penguin cell a slide in `dir` ending on `to` pushes into the sea:
    /// the next cell is a penguin whose own next cell is not ice.
    fn pushed(&self, free: u64, penguins: u64, to: u8, dir: usize) -> Option<u8> {
        let outer = self.outer?;
        let victim = NEIGHBOUR[to as usize][dir];
        if victim == NO_CELL || penguins >> victim & 1 == 0 {
            return None;
        }
        let beyond = NEIGHBOUR[victim as usize][dir];
        let ice = free | penguins | outer;
        (beyond == NO_CELL || ice >> beyond & 1 == 0).then_some(victim)
    }
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

    /// Without and with the push rule (no early end: a lone player would end the game at once).
    #[test]
    fn matches_brute_force_on_random_small_regions() {
        let mut rng = SplitMix64::new(9);
        let mut solo = Solo::new();
        let mut pushes_possible = 0;
        for case in 0..240 {
            let push = case % 2 == 1;
            let rules = Rules::parse(if push {
                "league2,no-early-end"
            } else {
                "league1,no-early-end"
            })
            .unwrap();
            // A random patch of 6-12 tiles grown from one cell, with 1-2 penguins on it (1-3 and
            // at most 9 tiles with the push rule, so that pushes among them happen).
            let mut tiles = 1u64 << (rng.below(CELLS) as u64 & 63);
            tiles &= VALID;
            if tiles == 0 {
                continue;
            }
            let size = if push {
                6 + rng.below(4)
            } else {
                6 + rng.below(7)
            };
            while (tiles.count_ones() as usize) < size {
                let border: Vec<u8> = cells_of(dilate(tiles) & !tiles).collect();
                tiles |= 1 << border[rng.below(border.len())];
            }
            let mut grid = [0u8; CELLS];
            for c in cells_of(tiles) {
                grid[c as usize] = 1 + rng.below(3) as u8;
            }
            let cells: Vec<u8> = cells_of(tiles).collect();
            let count = 1 + rng.below(if push { 3 } else { 2 });
            let mut penguins = Vec::new();
            while penguins.len() < count {
                let c = cells[rng.below(cells.len())];
                if !penguins.contains(&(0, c)) {
                    penguins.push((0, c));
                }
            }
            let mut state =
                State::from_position(rules, 1, count, &grid, &penguins, &[0], 0).unwrap();
            let expected = brute(&mut state);
            if push && count > 1 {
                pushes_possible += 1;
            }
            let fish = FishMap::of(&state);
            let outer = push.then_some(0);
            solo.clear();
            let got = solo.solve(&fish, state.free(), state.penguins_of(0), outer, u64::MAX);
            assert_eq!(
                got,
                Some(expected),
                "case {case}: grid {grid:?} penguins {penguins:?}"
            );
            // A tiny budget gives up instead of answering wrongly, and is not retried.
            solo.clear();
            let capped = solo.solve(&fish, state.free(), state.penguins_of(0), outer, 2);
            assert!(capped.is_none() || capped == Some(expected));
        }
        assert!(pushes_possible > 50, "{pushes_possible}");
    }
}
