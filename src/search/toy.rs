//! A toy game for testing the engines (tests only): a row of numbers; 2-4 players in turn take
//! the number at either end of the row and add it to their score. Short rows are solvable by
//! brute force, and transpositions (left-then-right = right-then-left) exercise the table.

use super::alphabeta::Evaluator;
use super::mcts::Playout;
use super::rng::SplitMix64;
use super::{paranoid_utility, rank_values, Game, Values, MAX_PLAYERS};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Left,
    Right,
}

#[derive(Clone, Debug)]
pub struct TakeEnds {
    row: Vec<i32>,
    left: usize,
    right: usize,
    players: usize,
    to_move: usize,
    scores: [i32; MAX_PLAYERS],
}

impl TakeEnds {
    /// A random game with `lo..=hi` players and a row of `min..=max` numbers.
    pub fn random_in(rng: &mut SplitMix64, players: (usize, usize), len: (usize, usize)) -> Self {
        let p = players.0 + rng.below(players.1 - players.0 + 1);
        let n = len.0 + rng.below(len.1 - len.0 + 1);
        Self::random(rng, p, n)
    }

    pub fn random(rng: &mut SplitMix64, players: usize, len: usize) -> Self {
        let row = (0..len).map(|_| rng.below(10) as i32).collect();
        TakeEnds {
            row,
            left: 0,
            right: len,
            players,
            to_move: rng.below(players),
            scores: [0; MAX_PLAYERS],
        }
    }
}

impl Game for TakeEnds {
    type Move = End;

    fn players(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> usize {
        self.to_move
    }

    fn moves(&self, out: &mut Vec<End>) {
        match self.right - self.left {
            0 => {}
            1 => out.push(End::Left),
            _ => out.extend([End::Left, End::Right]),
        }
    }

    fn play(&mut self, mv: End) {
        let taken = match mv {
            End::Left => {
                self.left += 1;
                self.row[self.left - 1]
            }
            End::Right => {
                self.right -= 1;
                self.row[self.right]
            }
        };
        self.scores[self.to_move] += taken;
        self.to_move = (self.to_move + 1) % self.players;
    }

    fn hash(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let parts = [self.left as i64, self.right as i64, self.to_move as i64];
        for x in parts
            .into_iter()
            .chain(self.scores.iter().map(|&s| s as i64))
        {
            h = (h ^ x as u64).wrapping_mul(0x100_0000_01b3);
        }
        h
    }

    fn scores(&self) -> [i32; MAX_PLAYERS] {
        self.scores
    }
}

/// Scores so far as the estimate, bigger ends first.
pub struct TakeEndsEval;

impl Evaluator<TakeEnds> for TakeEndsEval {
    fn evaluate(&mut self, game: &TakeEnds, root: usize) -> i32 {
        paranoid_utility(&game.scores, game.players, root)
    }

    fn order(&mut self, game: &TakeEnds, moves: &mut [End]) {
        if moves.len() == 2 && game.row[game.right - 1] > game.row[game.left] {
            moves.swap(0, 1);
        }
    }
}

/// Uniformly random moves to the end of the game.
pub struct RandomPlayout;

impl Playout<TakeEnds> for RandomPlayout {
    fn playout(&mut self, game: &mut TakeEnds, rng: &mut SplitMix64) -> Values {
        let mut moves = Vec::new();
        loop {
            moves.clear();
            game.moves(&mut moves);
            if moves.is_empty() {
                return rank_values(&game.scores, game.players);
            }
            game.play(moves[rng.below(moves.len())]);
        }
    }
}
