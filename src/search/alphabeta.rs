//! Paranoid alpha-beta: the root player maximises its lead over the best opponent while every
//! other player is assumed to minimise it (for 2 players this is plain minimax). Iterative
//! deepening, a transposition table whose move is tried first, game-supplied move ordering, and
//! exact-value detection: a subtree that reached only finished games is valid at every depth, so
//! the search stops deepening once the whole game is solved.

use super::time::{Clock, SearchLimit};
use super::tt::{Bound, Entry, Table};
use super::{paranoid_utility, Game};

/// Depth recorded for values that hold at every depth (their subtree reached only game ends).
const SOLVED: u32 = u32::MAX;

/// Heuristics that a game lends to alpha-beta.
pub trait Evaluator<G: Game> {
    /// Estimated paranoid value for `root` of an unfinished position, on the scale of
    /// [`paranoid_utility`] of final scores.
    fn evaluate(&mut self, game: &G, root: usize) -> i32;

    /// Reorders `moves` best-first for the player to move (moves are tried in this order).
    fn order(&mut self, _game: &G, _moves: &mut [G::Move]) {}

    /// The exact paranoid value for `root` when the evaluator can solve the position outright
    /// (e.g. an endgame of independent parts); the search treats it like a finished game.
    fn exact(&mut self, _game: &G, _root: usize) -> Option<i32> {
        None
    }
}

#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    /// Paranoid value for the root player of the deepest finished iteration.
    pub value: i32,
    /// Deepest finished iteration.
    pub depth: u32,
    /// Whether `value` is the exact game value (every line was searched to the end).
    pub solved: bool,
    pub nodes: u64,
}

pub struct AlphaBeta<G: Game> {
    tt: Table<G::Move>,
    /// One move buffer per ply, reused across nodes.
    buffers: Vec<Vec<G::Move>>,
    /// Use the transposition table (off only to test the plain search against the optimised one).
    pub use_tt: bool,
    /// Clock polls between reads of the wall clock.
    pub clock_batch: u32,
}

impl<G: Game> AlphaBeta<G> {
    /// An engine with a `2^tt_bits`-slot transposition table.
    pub fn new(tt_bits: u32) -> Self {
        AlphaBeta {
            tt: Table::new(tt_bits),
            buffers: Vec::new(),
            use_tt: true,
            clock_batch: 1,
        }
    }

    /// Searches `game` for the player to move until `limit` stops it (the table is cleared first,
    /// so the same limit gives the same result).
    pub fn search<E: Evaluator<G>>(
        &mut self,
        game: &G,
        eval: &mut E,
        limit: SearchLimit,
    ) -> SearchResult<G::Move> {
        self.tt.clear();
        let root = game.to_move();
        let mut clock = Clock::new(limit, self.clock_batch);
        let mut root_moves = Vec::new();
        game.moves(&mut root_moves);
        eval.order(game, &mut root_moves);
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            value: if root_moves.is_empty() {
                paranoid_utility(&game.scores(), game.players(), root)
            } else {
                eval.evaluate(game, root)
            },
            depth: 0,
            solved: root_moves.is_empty(),
            nodes: 0,
        };
        let max_depth = limit.depth.unwrap_or(SOLVED - 1);
        let mut depth = 1;
        while !result.solved && depth <= max_depth {
            let outcome = self.root(game, &mut root_moves, depth, root, eval, &mut clock);
            match outcome {
                RootOutcome::Finished { value, solved } => {
                    result.best = root_moves.first().copied();
                    result.value = value;
                    result.depth = depth;
                    result.solved = solved;
                }
                RootOutcome::Aborted { improved } => {
                    // Root moves are searched best-first, so a move that beat the previous best in
                    // the unfinished iteration is the better choice.
                    if improved {
                        result.best = root_moves.first().copied();
                    }
                    break;
                }
            }
            if clock.soft_expired() {
                break;
            }
            depth += 1;
        }
        result.nodes = clock.nodes;
        result
    }

    /// One iteration at the root; on return the best move found is moved to the front of `moves`.
    fn root<E: Evaluator<G>>(
        &mut self,
        game: &G,
        moves: &mut [G::Move],
        depth: u32,
        root: usize,
        eval: &mut E,
        clock: &mut Clock,
    ) -> RootOutcome {
        let mut alpha = i32::MIN + 1;
        let beta = i32::MAX;
        let mut best_index = 0;
        let mut solved = true;
        for i in 0..moves.len() {
            let mut child = game.clone();
            child.play(moves[i]);
            let Some((value, exact)) =
                self.node(&child, depth - 1, 1, alpha, beta, root, eval, clock)
            else {
                moves[..=best_index].rotate_right(1);
                return RootOutcome::Aborted {
                    improved: best_index > 0,
                };
            };
            // A move that does not beat alpha only has an upper bound: not solved unless exact.
            solved &= exact;
            if value > alpha {
                alpha = value;
                best_index = i;
            }
        }
        // Keep the order stable apart from bringing the best to the front.
        moves[..=best_index].rotate_right(1);
        RootOutcome::Finished {
            value: alpha,
            solved,
        }
    }

    /// Value of `game` for `root` within (alpha, beta), and whether it is exact at every depth;
    /// `None` when the clock stopped the search.
    #[allow(clippy::too_many_arguments)]
    fn node<E: Evaluator<G>>(
        &mut self,
        game: &G,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        root: usize,
        eval: &mut E,
        clock: &mut Clock,
    ) -> Option<(i32, bool)> {
        if clock.tick() {
            return None;
        }
        let mut moves = self.take_buffer(ply);
        game.moves(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return Some((paranoid_utility(&game.scores(), game.players(), root), true));
        }
        if let Some(value) = eval.exact(game, root) {
            self.buffers[ply] = moves;
            return Some((value, true));
        }
        if depth == 0 {
            self.buffers[ply] = moves;
            return Some((eval.evaluate(game, root), false));
        }
        let key = game.hash();
        let (alpha0, beta0) = (alpha, beta);
        let mut tt_move = None;
        if self.use_tt {
            if let Some(entry) = self.tt.probe(key) {
                tt_move = entry.best;
                if entry.depth >= depth {
                    let exact = entry.depth == SOLVED;
                    match entry.bound {
                        Bound::Exact => {
                            self.buffers[ply] = moves;
                            return Some((entry.value, exact));
                        }
                        Bound::Lower => alpha = alpha.max(entry.value),
                        Bound::Upper => beta = beta.min(entry.value),
                    }
                    if alpha >= beta {
                        self.buffers[ply] = moves;
                        return Some((entry.value, exact));
                    }
                }
            }
        }
        eval.order(game, &mut moves);
        if let Some(tm) = tt_move {
            if let Some(pos) = moves.iter().position(|&m| m == tm) {
                moves[..=pos].rotate_right(1);
            }
        }
        let maximizing = game.to_move() == root;
        let mut best_value = if maximizing { i32::MIN } else { i32::MAX };
        let mut best_move = moves[0];
        let mut exact = true;
        for &mv in moves.iter() {
            let mut child = game.clone();
            child.play(mv);
            let Some((value, child_exact)) =
                self.node(&child, depth - 1, ply + 1, alpha, beta, root, eval, clock)
            else {
                self.buffers[ply] = moves;
                return None;
            };
            exact &= child_exact;
            if maximizing {
                if value > best_value {
                    best_value = value;
                    best_move = mv;
                }
                alpha = alpha.max(value);
            } else {
                if value < best_value {
                    best_value = value;
                    best_move = mv;
                }
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        self.buffers[ply] = moves;
        if self.use_tt {
            let bound = if best_value <= alpha0 {
                Bound::Upper
            } else if best_value >= beta0 {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt.store(Entry {
                key,
                depth: if exact { SOLVED } else { depth },
                value: best_value,
                bound,
                best: Some(best_move),
            });
        }
        Some((best_value, exact))
    }

    fn take_buffer(&mut self, ply: usize) -> Vec<G::Move> {
        while self.buffers.len() <= ply {
            self.buffers.push(Vec::new());
        }
        let mut buffer = std::mem::take(&mut self.buffers[ply]);
        buffer.clear();
        buffer
    }
}

enum RootOutcome {
    Finished { value: i32, solved: bool },
    Aborted { improved: bool },
}

#[cfg(test)]
mod tests {
    use super::super::naive;
    use super::super::rng::SplitMix64;
    use super::super::toy::{TakeEnds, TakeEndsEval};
    use super::*;

    fn random_games(seed: u64, count: usize) -> Vec<TakeEnds> {
        let mut rng = SplitMix64::new(seed);
        (0..count)
            .map(|_| TakeEnds::random_in(&mut rng, (2, 4), (4, 10)))
            .collect()
    }

    #[test]
    fn solves_random_games_like_plain_minimax() {
        for (i, game) in random_games(11, 300).into_iter().enumerate() {
            let root = game.to_move();
            let exact = naive::paranoid(&game, u32::MAX, root, &mut TakeEndsEval);
            let mut ab = AlphaBeta::new(10);
            let result = ab.search(&game, &mut TakeEndsEval, SearchLimit::default());
            assert!(result.solved, "game {i}: {game:?}");
            assert_eq!(result.value, exact, "game {i}: {game:?}");
            // The chosen move really achieves the value.
            let mut child = game.clone();
            child.play(result.best.unwrap());
            let achieved = naive::paranoid(&child, u32::MAX, root, &mut TakeEndsEval);
            assert_eq!(achieved, exact, "game {i}: move {:?}", result.best);
        }
    }

    #[test]
    fn depth_limited_value_matches_plain_minimax_without_tt() {
        for (i, game) in random_games(12, 200).into_iter().enumerate() {
            let root = game.to_move();
            for depth in 1..=4 {
                let plain = naive::paranoid(&game, depth, root, &mut TakeEndsEval);
                let mut ab = AlphaBeta::new(8);
                ab.use_tt = false;
                let result = ab.search(&game, &mut TakeEndsEval, SearchLimit::depth(depth));
                // A solved search stops early with the exact value, which fixed-depth minimax
                // also reaches when the game is that short.
                assert_eq!(result.value, plain, "game {i} depth {depth}: {game:?}");
            }
        }
    }

    #[test]
    fn same_node_limit_same_move() {
        for game in random_games(13, 30) {
            let mut first = AlphaBeta::new(10);
            let mut second = AlphaBeta::new(10);
            let a = first.search(&game, &mut TakeEndsEval, SearchLimit::nodes(150));
            let b = second.search(&game, &mut TakeEndsEval, SearchLimit::nodes(150));
            assert_eq!((a.best, a.value, a.nodes), (b.best, b.value, b.nodes));
            let c = first.search(&game, &mut TakeEndsEval, SearchLimit::nodes(150));
            assert_eq!((a.best, a.value, a.nodes), (c.best, c.value, c.nodes));
        }
    }

    #[test]
    fn tt_saves_nodes_on_a_long_row() {
        let mut rng = SplitMix64::new(5);
        let game = TakeEnds::random(&mut rng, 2, 16);
        let mut with = AlphaBeta::new(16);
        let mut without = AlphaBeta::new(4);
        without.use_tt = false;
        let a = with.search(&game, &mut TakeEndsEval, SearchLimit::default());
        let b = without.search(&game, &mut TakeEndsEval, SearchLimit::default());
        assert_eq!(a.value, b.value);
        assert!(a.nodes < b.nodes, "tt {} vs plain {}", a.nodes, b.nodes);
    }
}
