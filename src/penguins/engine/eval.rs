//! Penguins position estimate: every player's expected final score, built from
//! - region decomposition: free ice splits into connected regions; a region touched by the
//!   penguins of one player only is that player's, and is solved exactly when small enough;
//! - reach ownership (Voronoi by moves): in shared regions, a tile goes to the player whose
//!   penguins reach it in the fewest slides (ties go to nobody);
//! - mobility: a small bonus per free neighbour of each penguin.
//!
//! Once every region is owned (or empty) outside the placement phase, the estimate is exact: the
//! rest of the game is each player alone with its regions.

use std::time::Instant;

use super::bits::{components, dilate, flood};
use super::solo::{FishMap, Solo};
use crate::penguins::board::{cells_of, ADJACENT, DIRECTIONS};
use crate::penguins::state::State;
use crate::search::MAX_PLAYERS;

/// Tunable weights of the estimate (points are 100 per fish + 1 per tile).
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// Share (percent) of a shared tile's points credited to the player reaching it first.
    pub reach_percent: i32,
    /// Share (percent) of an owned region's points credited when it is too big to solve.
    pub unsolved_percent: i32,
    /// Points per free neighbour of a penguin (up to 3 counted).
    pub mobility: i32,
    /// Points credited per penguin still to place.
    pub unplaced: i32,
    /// Slides explored by the reach search.
    pub reach_depth: u32,
    /// Solver budget (visits) for one owned region inside the estimate.
    pub solve_budget: u64,
    /// Points credited to the player to move (the estimate is otherwise blind to whose turn it
    /// is, which makes odd and even search depths disagree).
    pub tempo: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            reach_percent: 60,
            unsolved_percent: 85,
            mobility: 12,
            unplaced: 500,
            reach_depth: 3,
            solve_budget: 300,
            tempo: 0,
        }
    }
}

/// Expected final score per player, and whether it is exact.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    pub points: [i32; MAX_PLAYERS],
    pub exact: bool,
}

/// Free tiles sorted by who can reach them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Regions {
    /// Free tiles in regions only player p's penguins touch.
    pub owned: [u64; MAX_PLAYERS],
    /// Free tiles in regions touched by two or more players.
    pub shared: u64,
}

pub fn regions(state: &State) -> Regions {
    let mut out = Regions::default();
    for part in components(state.free()) {
        let around = dilate(part);
        let touching: Vec<usize> = (0..state.players())
            .filter(|&p| state.penguins_of(p) & around != 0)
            .collect();
        match touching.as_slice() {
            [] => {}
            [p] => out.owned[*p] |= part,
            _ => out.shared |= part,
        }
    }
    out
}

/// Whether the rest of the game is a set of one-player games (no shared region, no placement,
/// and default end/scoring rules, which the solver assumes).
pub fn isolated(state: &State) -> bool {
    let rules = state.rules();
    if rules.push || rules.score_tiles_under_penguins || rules.end_when_leader_alone {
        return false;
    }
    if state.in_placement() {
        return false;
    }
    let mut seen = 0u64;
    for part in components(state.free()) {
        let around = dilate(part);
        let touching = (0..state.players())
            .filter(|&p| state.penguins_of(p) & around != 0)
            .count();
        if touching > 1 {
            return false;
        }
        seen |= part;
    }
    seen == state.free()
}

/// Groups of `player`'s penguins and owned tiles that interact: (free tiles, penguin cells).
pub fn clusters(state: &State, player: usize, owned: u64) -> Vec<(u64, u64)> {
    let penguins = state.penguins_of(player) & dilate(owned);
    let mut rest = owned;
    let mut out = Vec::new();
    while rest != 0 {
        let seed = rest & rest.wrapping_neg();
        let joined = flood(seed, rest | penguins);
        out.push((joined & owned, joined & penguins));
        rest &= !joined;
    }
    out
}

/// Tiles of `target` that each player reaches strictly first by slides over `free`.
pub fn reach_first(state: &State, free: u64, target: u64, depth: u32) -> [u64; MAX_PLAYERS] {
    let players = state.players();
    let mut first = [0u64; MAX_PLAYERS];
    let mut frontier = [0u64; MAX_PLAYERS];
    let mut seen = [0u64; MAX_PLAYERS];
    for (p, f) in frontier.iter_mut().enumerate().take(players) {
        *f = state.penguins_of(p);
    }
    let mut claimed = 0u64;
    for _ in 0..depth {
        let mut reached = [0u64; MAX_PLAYERS];
        for p in 0..players {
            let mut next = 0;
            for from in cells_of(frontier[p]) {
                for dir in 0..DIRECTIONS {
                    next |= State::slide_targets(from, dir, free);
                }
            }
            reached[p] = next & !seen[p];
            seen[p] |= reached[p];
            frontier[p] = reached[p];
        }
        for p in 0..players {
            let others = (0..players)
                .filter(|&q| q != p)
                .fold(0, |acc, q| acc | reached[q]);
            first[p] |= reached[p] & !others & !claimed & target;
        }
        claimed |= reached.iter().fold(0, |acc, r| acc | r);
    }
    first
}

/// The estimator, with its solver memo.
pub struct Evaluation {
    pub weights: Weights,
    pub solo: Solo,
    /// The board the memo was started on: its entries hold for any position whose tiles are a
    /// subset of it (same fish per tile), i.e. for the rest of that game.
    memo_board: Option<FishMap>,
}

impl Evaluation {
    pub fn new(weights: Weights) -> Self {
        Evaluation {
            weights,
            solo: Solo::new(),
            memo_board: None,
        }
    }

    /// Clears the solver memo when `fish` is not part of the board it was filled for.
    fn sync_memo(&mut self, fish: &FishMap) {
        let same_game = self
            .memo_board
            .is_some_and(|old| (0..3).all(|k| fish.tiles[k] & !old.tiles[k] == 0));
        if !same_game {
            self.solo.clear();
            self.memo_board = Some(*fish);
        }
    }

    /// The exact final scores when the position is isolated and every cluster solves within
    /// `budget`.
    pub fn exact_scores(&mut self, state: &State, budget: u64) -> Option<[i32; MAX_PLAYERS]> {
        if state.is_over() {
            let mut points = [0; MAX_PLAYERS];
            for (p, s) in state.final_scores().into_iter().enumerate() {
                points[p] = s as i32;
            }
            return Some(points);
        }
        if !isolated(state) {
            return None;
        }
        let fish = FishMap::of(state);
        self.sync_memo(&fish);
        let parts = regions(state);
        let mut points = [0; MAX_PLAYERS];
        for (p, slot) in points.iter_mut().enumerate().take(state.players()) {
            let mut total = state.score(p);
            for (free, penguins) in clusters(state, p, parts.owned[p]) {
                total += self.solo.solve(&fish, free, penguins, budget)?;
            }
            *slot = total as i32;
        }
        Some(points)
    }

    /// Solves the one-player regions of `state` within `budget` visits in all, filling the memo
    /// that the search's estimates then hit.
    pub fn presolve(&mut self, state: &State, budget: u64, deadline: Option<Instant>) {
        self.solo.deadline = deadline;
        self.presolve_within(state, budget);
        self.solo.deadline = None;
    }

    fn presolve_within(&mut self, state: &State, budget: u64) {
        let fish = FishMap::of(state);
        self.sync_memo(&fish);
        let parts = regions(state);
        let mut left = budget;
        for p in 0..state.players() {
            for (free, penguins) in clusters(state, p, parts.owned[p]) {
                let _ = self.solo.solve(&fish, free, penguins, left);
                left = left.saturating_sub(self.solo.last_visits());
            }
        }
    }

    pub fn estimate(&mut self, state: &State) -> Estimate {
        if let Some(points) = self.exact_scores(state, self.weights.solve_budget) {
            return Estimate {
                points,
                exact: true,
            };
        }
        let w = self.weights;
        let fish = FishMap::of(state);
        self.sync_memo(&fish);
        let parts = regions(state);
        let free = state.free();
        let first = reach_first(state, free, parts.shared, w.reach_depth);
        let mut points = [0; MAX_PLAYERS];
        for (p, slot) in points.iter_mut().enumerate().take(state.players()) {
            let mut est = state.score(p) as i32;
            for (tiles, penguins) in clusters(state, p, parts.owned[p]) {
                est += match self.solo.solve(&fish, tiles, penguins, w.solve_budget) {
                    Some(v) => v as i32,
                    None => fish.sum(tiles) as i32 * w.unsolved_percent / 100,
                };
            }
            est += fish.sum(first[p]) as i32 * w.reach_percent / 100;
            for cell in cells_of(state.penguins_of(p)) {
                est += w.mobility * (ADJACENT[cell as usize] & free).count_ones().min(3) as i32;
            }
            let unplaced = state
                .penguin_ids(p)
                .filter(|&id| state.penguin_cell(id).is_none())
                .count();
            est += w.unplaced * unplaced as i32;
            if p == state.to_move() {
                est += w.tempo;
            }
            *slot = est;
        }
        Estimate {
            points,
            exact: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::penguins::board::CELLS;
    use crate::penguins::rules::Rules;

    fn position(tiles: &[(u8, u8)], penguins: &[(usize, u8)], players: usize) -> State {
        let mut grid = [0u8; CELLS];
        for &(cell, fish) in tiles {
            grid[cell as usize] = fish;
        }
        State::from_position(Rules::default(), players, 1, &grid, penguins, &[0; 4], 0).unwrap()
    }

    #[test]
    fn separate_rows_are_isolated_and_solved_exactly() {
        // Row 0 (cells 0..7) for player 0, row 2 (16..23) for player 1; row 1 is water.
        let mut tiles: Vec<(u8, u8)> = (0..7).map(|c| (c, 1)).collect();
        tiles.extend((16..23).map(|c| (c, 3)));
        let state = position(&tiles, &[(0, 0), (1, 16)], 2);
        assert!(isolated(&state));
        let mut eval = Evaluation::new(Weights::default());
        let exact = eval.exact_scores(&state, 10_000).unwrap();
        // Each penguin walks its row, collecting every tile but the last one it stands on.
        assert_eq!(exact[0], 6 * 101);
        assert_eq!(exact[1], 6 * 301);
        assert!(eval.estimate(&state).exact);
    }

    #[test]
    fn shared_row_is_not_isolated_and_reach_splits_it() {
        let tiles: Vec<(u8, u8)> = (0..7).map(|c| (c, 2)).collect();
        let state = position(&tiles, &[(0, 0), (1, 6)], 2);
        assert!(!isolated(&state));
        let parts = regions(&state);
        assert_eq!(parts.shared.count_ones(), 5);
        let first = reach_first(&state, state.free(), parts.shared, 3);
        // Both reach every tile of the row in one slide: all ties, nobody owns any.
        assert_eq!(first[0] | first[1], 0);
        let mut eval = Evaluation::new(Weights::default());
        assert!(!eval.estimate(&state).exact);
    }
}
