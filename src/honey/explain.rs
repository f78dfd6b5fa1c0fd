//! Replay a move cell by cell: where each letter goes, whether it comes from the hand, the bonus,
//! portal jumps and the running score.

use num_bigint::BigUint;

use super::board::Board;
use super::level::Bonus;
use super::score::{Score, Total};
use super::solver::move_cells;
use super::Move;
use crate::words::LetterValues;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Step {
    pub x: usize,
    pub y: usize,
    pub letter: char,
    /// From the hand (else it was already on the board).
    pub from_hand: bool,
    pub bonus: &'static str,
    /// Reached by jumping through the previous cell's portal.
    pub via_portal: bool,
    pub running: Score,
}

pub fn explain(board: &Board, values: &LetterValues, m: &Move) -> Vec<Step> {
    let level = board.level;
    let cells = move_cells(board, m);
    let mut total = BigUint::ZERO;
    let mut prev: Option<u32> = None;
    let mut steps = Vec::new();
    for (&c, l) in cells.iter().zip(m.word.bytes()) {
        let on_board = board.letter(c).is_some();
        let bonus = board.bonus(c);
        total = total
            .step(
                values.of(l) as u64,
                bonus,
                !on_board || board.rules.bonus_on_existing,
            )
            .expect("big totals never overflow");
        steps.push(Step {
            x: c as usize % level.width,
            y: c as usize / level.width,
            letter: l as char,
            from_hand: !on_board,
            bonus: bonus.token(),
            via_portal: prev.is_some_and(|p| board.bonus(p) == Bonus::Portal(m.dir.dir6())),
            running: Score(total.clone()),
        });
        prev = Some(c);
    }
    steps
}

/// One line per step, e.g. `  H (3,4) hand  dl  -> 4`.
pub fn render(steps: &[Step]) -> String {
    let mut s = String::new();
    for st in steps {
        let jump = if st.via_portal {
            " (through portal)"
        } else {
            ""
        };
        let from = if st.from_hand { "hand" } else { "board" };
        s.push_str(&format!(
            "  {} ({},{}) {from:<5} {:<3} -> {}{jump}\n",
            st.letter, st.x, st.y, st.bonus, st.running
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::honey::{solve, Level, Rules};
    use crate::words::Trie;

    #[test]
    fn explanation_replays_the_score_and_marks_portal_jumps() {
        let level =
            Level::parse(("H - - - -\n", "l"), ("- pr m pl tw\n", "b"), ("ITS", "h")).unwrap();
        let values = LetterValues::scrabble_english();
        let trie = Trie::from_words(["HITS"]);
        let moves = solve(&level, Rules::default(), &trie, &values, 1);
        let board = Board::new(&level, Rules::default());
        let steps = explain(&board, &values, &moves[0]);
        // H(0,0) 4, I on pr (1,0) 5, jump to pl (3,0): T 6, S on tw (4,0): (6+1)*3 = 21.
        let running: Vec<String> = steps.iter().map(|s| s.running.to_string()).collect();
        assert_eq!(running, ["4", "5", "6", "21"]);
        assert_eq!(moves[0].answer(), "HITS_00_right_21");
        let jumps: Vec<bool> = steps.iter().map(|s| s.via_portal).collect();
        assert_eq!(jumps, [false, false, true, false]);
        assert_eq!((steps[2].x, steps[2].y, steps[0].from_hand), (3, 0, false));
        assert!(render(&steps).contains("(through portal)"));
    }
}
