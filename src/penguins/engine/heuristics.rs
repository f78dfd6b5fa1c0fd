//! The penguins estimate plugged into the generic engines: an alpha-beta `Evaluator` (paranoid
//! value, move ordering, exact endgame) and an MCTS `Playout` (short random rollout, then the
//! estimate turned into per-player values).

use std::time::Instant;

use super::eval::{Evaluation, Weights};
use crate::penguins::state::{Move, MoveList, State};
use crate::search::alphabeta::Evaluator;
use crate::search::mcts::Playout;
use crate::search::rng::SplitMix64;
use crate::search::{paranoid_utility, rank_values, Values, MAX_PLAYERS};

pub struct Heuristics {
    pub eval: Evaluation,
    /// Random moves played before the estimate in an MCTS playout.
    pub rollout: u32,
    /// Score lead (points) that maps to a value of about 0.73 in MCTS playouts.
    pub value_scale: f32,
}

impl Heuristics {
    pub fn new(weights: Weights) -> Self {
        Heuristics {
            eval: Evaluation::new(weights),
            // 3 rather than 10: 1.7x the playouts per second; equal at a fixed count in self-play,
            // ahead on the clock and against mcts_gameframe at equal CPU time (docs/search.md).
            rollout: 3,
            value_scale: 300.0,
        }
    }

    /// Call once per turn: bounds the solver memo (it is kept from turn to turn otherwise),
    /// lets failed regions be tried again, and gives the root's own one-player regions a bigger
    /// solving budget than the search nodes get.
    pub fn new_turn(&mut self, root: &State, solve_budget: u64, deadline: Option<Instant>) {
        if self.eval.solo.memo_len() > 2_000_000 {
            self.eval.solo.clear();
        }
        self.eval.solo.make_room();
        self.eval.solo.forget_failures();
        self.eval.presolve(root, solve_budget, deadline);
        self.eval.solo.forget_failures();
    }

    /// Per-player values from estimated final points: a logistic of each player's lead over its
    /// best opponent; exact positions give exact rank values.
    fn values(&self, points: &[i32; MAX_PLAYERS], players: usize, exact: bool) -> Values {
        if exact {
            return rank_values(points, players);
        }
        let mut values = [0.0; MAX_PLAYERS];
        for (p, v) in values.iter_mut().enumerate().take(players) {
            let lead = paranoid_utility(points, players, p) as f32;
            *v = 1.0 / (1.0 + (-lead / self.value_scale).exp());
        }
        values
    }
}

/// Ordering key: the greedy preference (push, points now, fish landed on, fish around) as one
/// number; fish around <= 6 * 3 < 100, fish landed on and taken <= 3, so the order is
/// lexicographic.
pub fn move_key(state: &State, mv: &Move) -> u32 {
    let (push, gain, landed, around) = crate::penguins::policy::greedy_key(state, *mv);
    push * 10_000 + gain * 1000 + landed * 100 + around
}

impl Evaluator<State> for Heuristics {
    fn evaluate(&mut self, game: &State, root: usize) -> i32 {
        let e = self.eval.estimate(game);
        paranoid_utility(&e.points, game.players(), root)
    }

    fn order(&mut self, game: &State, moves: &mut [Move]) {
        moves.sort_by_cached_key(|m| std::cmp::Reverse(move_key(game, m)));
    }

    fn exact(&mut self, game: &State, root: usize) -> Option<i32> {
        let budget = self.eval.weights.solve_budget;
        self.eval
            .exact_scores(game, budget)
            .map(|points| paranoid_utility(&points, game.players(), root))
    }
}

impl Playout<State> for Heuristics {
    fn playout(&mut self, game: &mut State, rng: &mut SplitMix64) -> Values {
        let mut moves = MoveList::new();
        for _ in 0..self.rollout {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.apply(moves[rng.below(moves.len())]);
        }
        let e = self.eval.estimate(game);
        self.values(&e.points, game.players(), e.exact)
    }

    fn order(&mut self, game: &State, moves: &mut [Move]) {
        moves.sort_by_cached_key(|m| std::cmp::Reverse(move_key(game, m)));
    }
}
