//! Game-generic search engines: a time manager, paranoid alpha-beta with iterative deepening and a
//! transposition table, and MCTS with per-player value vectors for 2-4 players.
//!
//! No game knowledge lives here: a game plugs in through [`Game`], and its heuristics through
//! [`alphabeta::Evaluator`] and [`mcts::Playout`]. This module is part of the CodinGame bundle, so it
//! uses `std` only.

pub mod alphabeta;
pub mod mcts;
pub mod rng;
pub mod time;
pub mod tt;

#[cfg(test)]
pub mod naive;
#[cfg(test)]
pub mod toy;

/// The largest player count any engine here supports.
pub const MAX_PLAYERS: usize = 4;

/// One value per player (index = player id); unused entries stay 0.
pub type Values = [f32; MAX_PLAYERS];

/// A deterministic, perfect-information game with 1-4 players taking turns.
///
/// Contract: `moves` is empty exactly when the game is over, and `play` hands the turn to the next
/// player who has a move (players without one are skipped by the game itself).
pub trait Game: Clone {
    type Move: Copy + Eq + std::fmt::Debug;

    fn players(&self) -> usize;
    fn to_move(&self) -> usize;
    /// Appends every legal move to `out` (which the caller has cleared).
    fn moves(&self, out: &mut Vec<Self::Move>);
    fn play(&mut self, mv: Self::Move);
    /// A hash of everything that decides the rest of the game (including scores so far).
    fn hash(&self) -> u64;
    /// Current scores (final scores once the game is over); higher is better.
    fn scores(&self) -> [i32; MAX_PLAYERS];
}

/// Paranoid utility of final `scores` for `root`: its lead over the best opponent.
pub fn paranoid_utility(scores: &[i32; MAX_PLAYERS], players: usize, root: usize) -> i32 {
    let best_other = (0..players)
        .filter(|&p| p != root)
        .map(|p| scores[p])
        .max()
        .unwrap_or(0);
    scores[root] - best_other
}

/// Rank values of final `scores`: for each player, the share of opponents it beats (a tie counts
/// half), so 1 = sole winner and 0 = sole loser; 2 players get 1 / 0.5 / 0.
pub fn rank_values(scores: &[i32; MAX_PLAYERS], players: usize) -> Values {
    let mut values = [0.0; MAX_PLAYERS];
    if players < 2 {
        values[0] = 1.0;
        return values;
    }
    for p in 0..players {
        let mut beaten = 0.0;
        for q in 0..players {
            if q != p {
                beaten += match scores[p].cmp(&scores[q]) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
            }
        }
        values[p] = beaten / (players - 1) as f32;
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_values_order_players() {
        let v = rank_values(&[5, 9, 5, 1], 4);
        assert_eq!(v, [0.5, 1.0, 0.5, 0.0]);
        let v = rank_values(&[3, 3, 0, 0], 2);
        assert_eq!(v, [0.5, 0.5, 0.0, 0.0]);
    }

    #[test]
    fn paranoid_utility_is_lead_over_best_opponent() {
        assert_eq!(paranoid_utility(&[5, 9, 7, 0], 3, 0), -4);
        assert_eq!(paranoid_utility(&[5, 9, 7, 0], 3, 1), 2);
    }
}
