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
    /// the search's values include, nor the rules (a bot can drop pushing mid-game, and a tree
    /// kept from the turn before then no longer holds): mix both in.
    fn hash(&self) -> u64 {
        let mut h = State::hash(self);
        for (p, &s) in State::scores(self).iter().enumerate() {
            h ^= (s as u64 + 1)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15u64.rotate_left(p as u32 * 16 + 1));
        }
        let rules = self.rules();
        let switches = [
            rules.push,
            rules.score_tiles_under_penguins,
            rules.end_when_leader_alone,
            rules.placement != crate::penguins::Placement::AnyTile,
        ];
        for (k, on) in switches.into_iter().enumerate() {
            if on {
                h ^= 0xD6E8_FEB8_6659_FD93u64.rotate_left(k as u32 * 13 + 7);
            }
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
