//! Honey for Scarabs: the best word to add to a honeycomb Scrabble grid with portals and mines.
//! `level` parses the files, `board` precomputes the geometry, `solver` searches, `explain` replays
//! a move step by step. The rule switches live in `rules`.

pub mod bench;
pub mod board;
pub mod explain;
pub mod level;
pub mod rules;
pub mod score;
pub mod solver;

pub use level::{Bonus, Dir6, Level};
pub use rules::{Layout, Link, Rules, WordDir};
pub use score::Score;
pub use solver::solve;

use std::cmp::Ordering;

/// A legal move: `word` written from (`x`, `y`) in `dir`, worth `value`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Move {
    pub word: String,
    pub x: usize,
    pub y: usize,
    #[serde(rename = "direction")]
    pub dir: WordDir,
    pub value: Score,
}

impl Move {
    /// Answer order: higher value first, then the alphabetically earlier word, lower X, lower Y,
    /// then down_right, right, up_right.
    pub fn answer_order(&self, other: &Move) -> Ordering {
        other
            .value
            .cmp(&self.value)
            .then_with(|| self.word.cmp(&other.word))
            .then_with(|| self.x.cmp(&other.x))
            .then_with(|| self.y.cmp(&other.y))
            .then_with(|| self.dir.tie_rank().cmp(&other.dir.tie_rank()))
    }

    /// `<WORD>_<X><Y>_<direction>_<value>`, X and Y written with no separator.
    pub fn answer(&self) -> String {
        format!(
            "{}_{}{}_{}_{}",
            self.word,
            self.x,
            self.y,
            self.dir.name(),
            self.value
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(word: &str, x: usize, y: usize, dir: WordDir, value: u64) -> Move {
        Move {
            word: word.to_string(),
            x,
            y,
            dir,
            value: Score::from(value),
        }
    }

    #[test]
    fn answer_order_follows_the_statement() {
        use WordDir::*;
        let mut moves = [
            mv("TUNE", 0, 0, Right, 9),
            mv("GREEN", 5, 5, UpRight, 9),
            mv("GREEN", 5, 4, UpRight, 9),
            mv("GREEN", 5, 4, Right, 9),
            mv("GREEN", 5, 4, DownRight, 9),
            mv("GREENS", 0, 0, Right, 9),
            mv("ZOO", 12, 10, Right, 10),
        ];
        moves.sort_by(|a, b| a.answer_order(b));
        let answers: Vec<String> = moves.iter().map(|m| m.answer()).collect();
        assert_eq!(
            answers,
            [
                "ZOO_1210_right_10",
                "GREEN_54_down_right_9",
                "GREEN_54_right_9",
                "GREEN_54_up_right_9",
                "GREEN_55_up_right_9",
                "GREENS_00_right_9",
                "TUNE_00_right_9",
            ]
        );
    }
}
