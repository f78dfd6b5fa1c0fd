//! Penguins position estimate: every player's expected final score, built from
//! - region decomposition: free ice splits into connected regions; a region touched by the
//!   penguins of one player only is that player's, and is solved exactly when small enough;
//! - reach ownership (Voronoi by moves): in shared regions, a tile goes to the player whose
//!   penguins reach it in the fewest slides (ties go to nobody), weighted above its own points;
//! - mobility: a small bonus per free neighbour of each penguin;
//! - push danger (push rule): a penalty per penguin standing at the sea's edge in line with an
//!   opponent's penguin that can slide next to it (a pushed penguin's own future is lost with it,
//!   and that part needs no term: it is simply no longer on the board).
//!
//! Once every region is owned (or empty) outside the placement phase, the estimate is exact: the
//! rest of the game is each player alone with its regions.

use std::time::Instant;

use super::bits::{components, dilate, flood, slide_reach};
use super::solo::{FishMap, Solo};
use crate::penguins::board::{cells_of, nearest_along, opposite, ADJACENT, DIRECTIONS};
use crate::penguins::board::{NEIGHBOUR, NO_CELL, RAY};
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
    /// Push rule: points charged per penguin an opponent can push with its next slide...
    pub threat: i32,
    /// ... and the share (percent) of it charged when it is that penguin's owner's turn (it may
    /// still step away or strike first).
    pub threat_to_move_percent: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            // 130 rather than 60: against mcts_gameframe at 25x our playouts, 100 games paired,
            // 40 / 60 / 80 / 100 / 130 won 45 / 77 / 79 / 82 / 87%; above the tile's own points,
            // it also stands for the rest of a shared region, which tends to go to whoever
            // reaches more of it first (docs/search.md).
            reach_percent: 130,
            unsolved_percent: 85,
            mobility: 12,
            unplaced: 500,
            reach_depth: 3,
            solve_budget: 300,
            tempo: 0,
            threat: 300,
            // 60 rather than 25: first places of 4-player games vs 3 greedy bots, 2000 playouts,
            // seeds 4000 and 9000 (400 games each): 673 vs 652 of 800; 2 players: 102/0/98.
            threat_to_move_percent: 60,
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
        let touching = (0..state.players())
            .filter(|&p| state.penguins_of(p) & around != 0)
            .fold(0u32, |mask, p| mask | 1 << p);
        match touching.count_ones() {
            0 => {}
            1 => out.owned[touching.trailing_zeros() as usize] |= part,
            _ => out.shared |= part,
        }
    }
    out
}

/// Whether the rest of the game is a set of one-player games: no shared region and no placement.
/// Pushing then only concerns a player's own penguins (an opponent could only stop next to mine
/// on a tile of a region we share), which the solver plays, as long as the ice around them does
/// not change under them: so, under the push rule, no penguin may stand next to another player's
/// penguin that can still move (its tile becomes sea when it leaves, at a time the one-player
/// solver cannot know). The early end does not change the ranks of such a game (it only stops
/// the one player still moving once it leads), so rank values stay exact; the lone leader's
/// score is then an upper bound. Scoring the tiles under penguins is not modelled.
pub fn isolated(state: &State) -> bool {
    if state.rules().score_tiles_under_penguins || state.in_placement() {
        return false;
    }
    if state.rules().push {
        let movable = dilate(state.free()) & state.all_penguins();
        let next_to_movable_other = (0..state.players()).any(|p| {
            let mine = state.penguins_of(p);
            dilate(mine) & movable & !mine != 0
        });
        if next_to_movable_other {
            return false;
        }
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
pub fn clusters(state: &State, player: usize, owned: u64) -> impl Iterator<Item = (u64, u64)> {
    let penguins = state.penguins_of(player) & dilate(owned);
    let mut rest = owned;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let seed = rest & rest.wrapping_neg();
        let joined = flood(seed, rest | penguins);
        rest &= !joined;
        Some((joined & owned, joined & penguins))
    })
}

/// Under the push rule, the ice around a cluster that is not part of it (what the one-player
/// solver needs to tell the sea's edge); `None` without the rule.
fn outer_ice(state: &State, free: u64, penguins: u64) -> Option<u64> {
    state.rules().push.then(|| state.ice() & !free & !penguins)
}

/// Penguins of `player` that another player's penguin can push into the sea with one slide: the
/// next cell one way is sea, the next the other way is free, and along that line the first cell
/// that is not free holds an opponent's penguin (it slides up to ours and stops right before it).
pub fn threatened(state: &State, player: usize) -> u32 {
    let (free, ice) = (state.free(), state.ice());
    let opponents = state.all_penguins() & !state.penguins_of(player);
    let mut count = 0;
    for cell in cells_of(state.penguins_of(player)) {
        let at = cell as usize;
        let pushable = (0..DIRECTIONS).any(|dir| {
            let beyond = NEIGHBOUR[at][dir];
            let back = opposite(dir);
            let approach = NEIGHBOUR[at][back];
            if (beyond != NO_CELL && ice >> beyond & 1 == 1)
                || approach == NO_CELL
                || free >> approach & 1 == 0
            {
                return false;
            }
            nearest_along(back, RAY[back][at] & !free)
                .is_some_and(|blocker| opponents >> blocker & 1 == 1)
        });
        count += pushable as u32;
    }
    count
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
            let next = slide_reach(frontier[p], free);
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
                let outer = outer_ice(state, free, penguins);
                total += self.solo.solve(&fish, free, penguins, outer, budget)?;
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
                let outer = outer_ice(state, free, penguins);
                let _ = self.solo.solve(&fish, free, penguins, outer, left);
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
                let outer = outer_ice(state, tiles, penguins);
                est += match self
                    .solo
                    .solve(&fish, tiles, penguins, outer, w.solve_budget)
                {
                    Some(v) => v as i32,
                    None => fish.sum(tiles) as i32 * w.unsolved_percent / 100,
                };
            }
            est += fish.sum(first[p]) as i32 * w.reach_percent / 100;
            for cell in cells_of(state.penguins_of(p)) {
                est += w.mobility * (ADJACENT[cell as usize] & free).count_ones().min(3) as i32;
            }
            est += w.unplaced * state.unplaced_count(p) as i32;
            if state.rules().push && w.threat != 0 {
                let mut charge = w.threat * threatened(state, p) as i32;
                if p == state.to_move() {
                    charge = charge * w.threat_to_move_percent / 100;
                }
                est -= charge;
            }
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

    /// Threat: the penguin at the sea's edge with an opponent in line behind free ice is in
    /// danger; own penguins in line, a penguin right next to it, or ice behind it are not.
    #[test]
    fn penguins_at_the_sea_edge_in_line_with_an_opponent_are_threatened() {
        use crate::penguins::board::parse_cell;
        let cell = |n: &str| parse_cell(n).unwrap();
        let row: Vec<(u8, u8)> = ["A2", "B2", "C2", "D2", "E2", "F2"]
            .iter()
            .map(|n| (cell(n), 1))
            .collect();
        let build = |penguins: &[(usize, u8)], rules: Rules| {
            let mut grid = [0u8; CELLS];
            for &(c, f) in &row {
                grid[c as usize] = f;
            }
            State::from_position(rules, 2, 2, &grid, penguins, &[0; 4], 0).unwrap()
        };
        let mut state = build(&[(0, cell("F2")), (1, cell("B2"))], Rules::LEAGUE2);
        state.end_placement();
        // F2's east is G2, a hole; B2 can slide to E2 and push it.
        assert_eq!(threatened(&state, 0), 1);
        // B2's west is A2 (ice): not pushable.
        assert_eq!(threatened(&state, 1), 0);
        let mut own = build(&[(0, cell("F2")), (0, cell("B2"))], Rules::LEAGUE2);
        own.end_placement();
        assert_eq!(threatened(&own, 0), 0, "only opponents threaten");
        let mut close = build(&[(0, cell("F2")), (1, cell("E2"))], Rules::LEAGUE2);
        close.end_placement();
        assert_eq!(threatened(&close, 0), 0, "right next to it: no slide");
        // The estimate charges the threat to the player not to move, only under the push rule.
        let mut eval = Evaluation::new(Weights::default());
        let pushed = eval.estimate(&state).points;
        let mut plain = build(&[(0, cell("F2")), (1, cell("B2"))], Rules::LEAGUE1);
        plain.end_placement();
        let calm = eval.estimate(&plain).points;
        let w = Weights::default();
        assert_eq!(
            calm[0] - pushed[0],
            w.threat * w.threat_to_move_percent / 100
        );
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
