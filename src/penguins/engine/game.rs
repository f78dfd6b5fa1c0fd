//! The penguins rules seen through the generic `search::Game` trait.

use crate::penguins::state::{Move, MoveList, State};
use crate::search::{Game, MAX_PLAYERS};

impl Game for State {
    type Move = Move;

    fn players(&self) -> usize {
        State::players(self)
    }

    fn to_move(&self) -> usize {
        State::to_move(self)
    }

    fn moves(&self, out: &mut Vec<Move>) {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        out.extend_from_slice(&list);
    }

    fn play(&mut self, mv: Move) {
        self.apply(mv);
    }

    /// The rules' Zobrist hash covers tiles, penguins and the side to move but not scores, which
    /// the search's values include: mix them in.
    fn hash(&self) -> u64 {
        let mut h = State::hash(self);
        for (p, &s) in State::scores(self).iter().enumerate() {
            h ^= (s as u64 + 1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15u64.rotate_left(p as u32 * 16 + 1));
        }
        h
    }

    fn scores(&self) -> [i32; MAX_PLAYERS] {
        let mut out = [0; MAX_PLAYERS];
        let scores = if self.is_over() {
            self.final_scores()
        } else {
            State::scores(self).to_vec()
        };
        for (slot, s) in out.iter_mut().zip(scores) {
            *slot = s as i32;
        }
        out
    }
}
