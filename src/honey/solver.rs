//! The exact best-move search: from every start cell and word direction, walk the trie forward
//! along the portal-aware path, forcing board letters and spending hand tiles on empty cells,
//! with the running score carried along. Pruning (all exact):
//! - hand counts: no more empty cells before the first board letter than tiles in hand;
//! - touch masks: an empty cell whose lettered neighbours are not on the path can never be filled;
//! - link shape: a second run of board letters (or, in `single`, a second board letter) ends it;
//! - an upper bound on the final score, compared with the N-th best value found so far (strictly
//!   lower only, so equal values still compete in tie order). Starts are searched best bound first.
//!
//! Totals are `u64` and never saturate: a search that meets a total past `u64::MAX` is run again
//! with exact big totals (`score::Total`), so every value is exact.

use num_bigint::BigUint;

use super::board::{Board, PathEnd, OFF};
use super::level::{Bonus, Level};
use super::rules::{Link, Rules, WordDir};
use super::score::{Score, Total};
use super::Move;
use crate::words::{LetterValues, NodeId, Trie};

const NONE: usize = usize::MAX;

/// The best `limit` legal moves in answer order (`usize::MAX` for every legal move).
pub fn solve(
    level: &Level,
    rules: Rules,
    trie: &Trie,
    values: &LetterValues,
    limit: usize,
) -> Vec<Move> {
    if limit == 0 {
        return Vec::new();
    }
    match solve_with::<u64>(level, rules, trie, values, limit) {
        Some(moves) => moves,
        None => solve_with::<BigUint>(level, rules, trie, values, limit)
            .expect("big totals never overflow"),
    }
}

/// `solve` with running totals of type `T`; `None` when a total did not fit `T`.
fn solve_with<T: Total>(
    level: &Level,
    rules: Rules,
    trie: &Trie,
    values: &LetterValues,
    limit: usize,
) -> Option<Vec<Move>> {
    let board = Board::new(level, rules);
    let mut forbidden: Vec<NodeId> = board
        .existing
        .iter()
        .filter_map(|(w, _, _)| trie.walk(std::str::from_utf8(w).ok()?))
        .filter(|&n| trie.is_terminal(n))
        .collect();
    forbidden.sort_unstable();
    let max_hand_value = (0..26)
        .filter(|&i| level.hand[i] > 0)
        .map(|i| values.0[i] as u64)
        .max()
        .unwrap_or(0);
    let mut search = Search {
        board: &board,
        trie,
        values,
        forbidden,
        max_hand_value,
        hand: level.hand,
        tiles_left: level.hand.iter().map(|&n| n as usize).sum(),
        top: TopN::new(limit),
        path: Vec::new(),
        at: Vec::new(),
        word: Vec::new(),
        start: (0, WordDir::Right),
        position: vec![NONE; level.cell_count()],
        overflow: false,
        total: std::marker::PhantomData::<T>,
    };
    if search.tiles_left == 0 {
        return Some(Vec::new());
    }
    // Best bound first, so the threshold rises early and later starts are cut whole.
    let mut starts = Vec::new();
    for c in 0..level.cell_count() as u32 {
        for w in WordDir::ALL {
            if board.has_lettered_pred(c, w) {
                continue; // the cell before the word would hold a letter
            }
            if let Some(bound) = search.prepare(c, w) {
                starts.push((bound, c, w));
            }
        }
    }
    starts.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (bound, c, w) in starts {
        if search.top.cut(bound) {
            break;
        }
        search.prepare(c, w);
        search.dfs(0, Trie::ROOT, T::zero(), NONE, NONE, 0, 0);
        if search.overflow {
            return None;
        }
    }
    Some(search.top.moves)
}

/// What is known about one path position before the search.
#[derive(Clone, Copy)]
struct At {
    cell: u32,
    letter: Option<u8>,
    /// Empty cell: every lettered neighbour lies on this path (else no tile may go here).
    touch_ok: bool,
    /// Empty cell: the word must reach this index to include all its lettered neighbours.
    need: usize,
    /// Index of the first board letter at or after this one, `NONE` if none.
    next_letter: usize,
    /// May the word end here (the cell after is empty or off the grid, not a loop back)?
    end_ok: bool,
    /// Upper bound on the final score of any word ending here or later, given the running total
    /// before this cell: `ub_a * total + ub_b`.
    ub_a: f64,
    ub_b: f64,
}

struct Search<'s, T> {
    board: &'s Board<'s>,
    trie: &'s Trie,
    values: &'s LetterValues,
    forbidden: Vec<NodeId>,
    max_hand_value: u64,
    hand: [u32; 26],
    tiles_left: usize,
    top: TopN,
    path: Vec<u32>,
    at: Vec<At>,
    word: Vec<u8>,
    start: (u32, WordDir),
    /// Scratch: index of a cell on the current path, `NONE` elsewhere.
    position: Vec<usize>,
    /// A total did not fit `T`: the search stops, to be run with exact totals.
    overflow: bool,
    total: std::marker::PhantomData<T>,
}

impl<T: Total> Search<'_, T> {
    /// The total after one letter, or `None` (and the search stops) when it does not fit `T`.
    #[inline]
    fn step(&mut self, total: &T, value: u64, bonus: Bonus, with_bonus: bool) -> Option<T> {
        let next = total.step(value, bonus, with_bonus);
        self.overflow |= next.is_none();
        next
    }

    /// Fill the per-position facts for the path from `start` in `w`; returns the start's bound,
    /// or `None` when no legal word can start here.
    fn prepare(&mut self, start: u32, w: WordDir) -> Option<f64> {
        let board = self.board;
        self.start = (start, w);
        let end = board.path(start, w, self.tiles_left, &mut self.path);
        for (i, &c) in self.path.iter().enumerate() {
            self.position[c as usize] = i;
        }
        self.at.clear();
        let len = self.path.len();
        for i in 0..len {
            let cell = self.path[i];
            let letter = board.letter(cell);
            let (mut touch_ok, mut need) = (true, 0);
            if letter.is_none() {
                for &t in board.touching(cell) {
                    if board.letter(t).is_some() {
                        match self.position[t as usize] {
                            NONE => touch_ok = false,
                            j => need = need.max(j),
                        }
                    }
                }
            }
            let end_ok = if i + 1 < len {
                board.letter(self.path[i + 1]).is_none()
            } else {
                end != PathEnd::Loop // after a cut the next cell is empty
            };
            self.at.push(At {
                cell,
                letter,
                touch_ok,
                need,
                next_letter: NONE,
                end_ok,
                ub_a: 0.0,
                ub_b: 0.0,
            });
        }
        for &c in &self.path {
            self.position[c as usize] = NONE;
        }
        let (mut next_letter, mut a, mut b) = (NONE, 0.0f64, 0.0f64);
        for i in (0..len).rev() {
            let at = &mut self.at[i];
            if at.letter.is_some() {
                next_letter = i;
            }
            at.next_letter = next_letter;
            let on_board = at.letter.is_some();
            let value = at
                .letter
                .map_or(self.max_hand_value, |l| self.values.of(l) as u64);
            let (add, factor) = if on_board && !board.rules.bonus_on_existing {
                (value as f64, 1.0)
            } else {
                let bonus = board.bonus(at.cell);
                let letter_factor = match bonus {
                    Bonus::DoubleLetter => 2.0,
                    Bonus::TripleLetter => 3.0,
                    _ => 1.0,
                };
                let word_factor = match bonus {
                    Bonus::DoubleWord => 2.0,
                    Bonus::TripleWord => 3.0,
                    Bonus::Mine => 0.5,
                    _ => 1.0,
                };
                (value as f64 * letter_factor, word_factor)
            };
            // Ending here gives y = factor * (total + add); going on gives at most a' y + b'.
            let grow = a.max(1.0) * factor;
            b += grow * add;
            a = grow;
            at.ub_a = a;
            at.ub_b = b;
        }
        let first = self.at[0].next_letter;
        if first == NONE || first > self.tiles_left {
            return None;
        }
        Some(self.at[0].ub_b)
    }

    /// Extend the word to path index `k`. `block` is the first board letter's index and `gap`
    /// the index of the first empty cell after that run of board letters (`NONE` if not yet).
    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &mut self,
        k: usize,
        node: NodeId,
        total: T,
        block: usize,
        gap: usize,
        new_tiles: usize,
        need: usize,
    ) {
        if self.overflow {
            return;
        }
        let at = self.at[k];
        if self.top.cut(at.ub_a * total.approx() + at.ub_b) {
            return;
        }
        let rules = self.board.rules;
        match at.letter {
            Some(l) => {
                if gap != NONE {
                    return; // a second run of board letters cannot be a legal link
                }
                let block = if block == NONE { k } else { block };
                if block < k
                    && (rules.link == Link::Single
                        || (block > 0
                            && self
                                .board
                                .has_lettered_pred(self.at[block].cell, self.start.1)))
                {
                    return; // a run of 2+ board letters that can never be a legal link
                }
                let Some(child) = self.trie.child(node, l) else {
                    return;
                };
                let bonus = self.board.bonus(at.cell);
                let value = self.values.of(l) as u64;
                let Some(t) = self.step(&total, value, bonus, rules.bonus_on_existing) else {
                    return;
                };
                self.visit(k, l, child, t, block, gap, new_tiles, need);
            }
            None => {
                if !at.touch_ok {
                    return;
                }
                if block == NONE && at.next_letter.saturating_sub(k) > self.tiles_left {
                    return; // cannot reach a board letter with the tiles left
                }
                let gap = if block != NONE && gap == NONE { k } else { gap };
                let need = need.max(at.need);
                let bonus = self.board.bonus(at.cell);
                for i in 0..26 {
                    if self.hand[i] == 0 {
                        continue;
                    }
                    let l = b'A' + i as u8;
                    let Some(child) = self.trie.child(node, l) else {
                        continue;
                    };
                    let Some(t) = self.step(&total, self.values.of(l) as u64, bonus, true) else {
                        return;
                    };
                    self.hand[i] -= 1;
                    self.tiles_left -= 1;
                    self.visit(k, l, child, t, block, gap, new_tiles + 1, need);
                    self.hand[i] += 1;
                    self.tiles_left += 1;
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn visit(
        &mut self,
        k: usize,
        letter: u8,
        node: NodeId,
        total: T,
        block: usize,
        gap: usize,
        new_tiles: usize,
        need: usize,
    ) {
        self.word.push(letter);
        if self.trie.is_terminal(node)
            && block != NONE
            && new_tiles > 0
            && need <= k
            && self.at[k].end_ok
            && self.forbidden.binary_search(&node).is_err()
            && self.top.threshold().is_none_or(|t| !total.below(t))
        {
            let run_end = if gap == NONE { k + 1 } else { gap };
            // Runs of 2+ board letters were already cut in `dfs` unless they are whole words.
            debug_assert!(run_end - block == 1 || self.board.rules.link == Link::Extend);
            let level = self.board.level;
            let (start, dir) = self.start;
            self.top.offer(Move {
                word: String::from_utf8(self.word.clone()).expect("A-Z"),
                x: start as usize % level.width,
                y: start as usize / level.width,
                dir,
                value: total.score(),
            });
        }
        if k + 1 < self.at.len() {
            self.dfs(k + 1, node, total, block, gap, new_tiles, need);
        }
        self.word.pop();
    }
}

/// The best `limit` moves seen so far, in answer order.
struct TopN {
    limit: usize,
    moves: Vec<Move>,
    /// The threshold as `f64`, for the bounds.
    threshold_approx: Option<f64>,
}

impl TopN {
    fn new(limit: usize) -> TopN {
        TopN {
            limit,
            moves: Vec::new(),
            threshold_approx: None,
        }
    }

    /// The value a move must at least reach to enter, once the list is full.
    fn threshold(&self) -> Option<&Score> {
        (self.moves.len() >= self.limit).then(|| &self.moves[self.limit - 1].value)
    }

    /// Is a bound too low for anything to enter? (The threshold near: `approx` keeps 53 bits.)
    fn cut(&self, bound: f64) -> bool {
        self.threshold_approx
            .is_some_and(|t| bound * (1.0 + 1e-9) + 1.0 < t)
    }

    fn offer(&mut self, m: Move) {
        if self.moves.len() >= self.limit && m.answer_order(&self.moves[self.limit - 1]).is_ge() {
            return;
        }
        let at = self.moves.partition_point(|x| x.answer_order(&m).is_lt());
        self.moves.insert(at, m);
        self.moves.truncate(self.limit);
        self.threshold_approx = self.threshold().map(|t| t.0.approx());
    }
}

/// Board cell of a move's i-th letter, for explanations.
pub fn move_cells(board: &Board, m: &Move) -> Vec<u32> {
    let level = board.level;
    let mut cells = Vec::with_capacity(m.word.len());
    let mut c = level.index(m.x, m.y) as u32;
    for _ in 0..m.word.len() {
        if c == OFF {
            break;
        }
        cells.push(c);
        c = board.step(c, m.dir);
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::honey::Layout;

    fn level(letters: &str, bonuses: &str, hand: &str) -> Level {
        Level::parse((letters, "l"), (bonuses, "b"), (hand, "h")).unwrap()
    }

    fn answers(level: &Level, rules: Rules, words: &[&str], values: &LetterValues) -> Vec<String> {
        let trie = Trie::from_words(words.iter().copied());
        solve(level, rules, &trie, values, usize::MAX)
            .iter()
            .map(|m| m.answer())
            .collect()
    }

    fn house_values() -> LetterValues {
        LetterValues::parse("H 2\nO 1\nU 3\nS 1\nE 1\n", "v").unwrap()
    }

    #[test]
    fn statement_house_example_scores_16() {
        let l = level("H - - - - -\n", "- dl dw - - -\n", "OUSE");
        let got = answers(&l, Rules::default(), &["HOUSE", "HOSE"], &house_values());
        assert_eq!(got[0], "HOUSE_00_right_16");
        // HOSE: 2, O on dl 4, S on dw (5)*2 = 10, E 11.
        assert_eq!(got, ["HOUSE_00_right_16", "HOSE_00_right_11"]);
    }

    #[test]
    fn extension_is_legal_only_with_extend_link() {
        let l = level("M A K E - - -\n", "- - - - - - -\n", "RS");
        let v = LetterValues::scrabble_english();
        let extend = answers(&l, Rules::default(), &["MAKERS", "MAKE"], &v);
        assert_eq!(extend, ["MAKERS_00_right_12"]);
        let single = Rules {
            link: Link::Single,
            ..Rules::default()
        };
        assert!(answers(&l, single, &["MAKERS"], &v).is_empty());
    }

    #[test]
    fn crossing_an_inner_letter_touches() {
        // A vertical word through the A of CAT would touch C and T.
        let l = level("- - -\nC A T\n- - -\n", "- - -\n- - -\n- - -\n", "NDOG");
        let axial = Rules {
            layout: Layout::Axial,
            ..Rules::default()
        };
        let v = LetterValues::scrabble_english();
        // In axial, down_right from (1,0) goes (1,1) then (1,2): crosses A.
        assert!(answers(&l, axial, &["NAN", "DAD"], &v).is_empty());
        // Hooking onto the last letter T is fine: (2,1) down_right -> (2,2) in axial.
        assert_eq!(answers(&l, axial, &["TO"], &v), ["TO_21_down_right_2"]);
    }

    #[test]
    fn portal_carries_the_word_and_loops_are_refused() {
        // pr at (1,0) jumps right to pl at (3,0); the word H(0,0) I(1,0) then lands on (3,0).
        let l = level("H - - - -\n", "- pr - pl -\n", "IT");
        let v = LetterValues::scrabble_english();
        assert_eq!(
            answers(&l, Rules::default(), &["HIT"], &v),
            ["HIT_00_right_6"]
        );
        // pl at (0,0), pr at (3,0): the path from (0,0) loops back after (3,0), so a word ending
        // there would have its own first letter "after" it.
        let l = level("- A - - -\n", "pl - - pr -\n", "BCD");
        assert_eq!(
            answers(&l, Rules::default(), &["BAC", "BACD"], &v),
            ["BAC_00_right_7"]
        );
    }

    #[test]
    fn a_hand_of_hundreds_of_tiles_is_counted_in_full() {
        // Two rows of 200 joined by a portal: a word of 262 A's runs along the first row, jumps
        // to the second and ends on the board's A (or crosses it, starting further right), so it
        // needs 261 of the hand's 400 A's.
        let mut letters = vec![vec!["-"; 200]; 2];
        letters[1][61] = "A";
        let mut bonuses = vec![vec!["-"; 200]; 2];
        (bonuses[0][199], bonuses[1][0]) = ("pr", "pl");
        let grid = |rows: &[Vec<&str>]| rows.iter().map(|r| r.join(" ") + "\n").collect::<String>();
        let word = "A".repeat(262);
        let l = level(&grid(&letters), &grid(&bonuses), &"A".repeat(400));
        let v = LetterValues::scrabble_english();
        let got = answers(&l, Rules::default(), &[&word], &v);
        assert_eq!(got.first(), Some(&format!("{word}_00_right_262")));
        // With one tile too few there is no move.
        let l = level(&grid(&letters), &grid(&bonuses), &"A".repeat(260));
        assert!(answers(&l, Rules::default(), &[&word], &v).is_empty());
    }

    #[test]
    fn values_past_u64_are_exact() {
        // A row of triple-word cells after a board A (worth 1): A^k scores t(k), t(1) = 1,
        // t(k) = (t(k-1) + 1) * 3, past u64::MAX from k = 41 on. Longer words score more, never
        // a tie at a ceiling.
        let cells = 61;
        let letters = format!("A{}\n", " -".repeat(cells - 1));
        let bonuses = format!("-{}\n", " tw".repeat(cells - 1));
        let l = level(&letters, &bonuses, &"A".repeat(200));
        let words: Vec<String> = (2..=cells).map(|k| "A".repeat(k)).collect();
        let trie = Trie::from_words(words.iter().map(|w| w.as_str()));
        let v = LetterValues::scrabble_english();
        let moves = solve(&l, Rules::default(), &trie, &v, 3);
        let mut t = vec![BigUint::ZERO, BigUint::from(1u32)];
        for k in 2..=cells {
            t.push((&t[k - 1] + 1u32) * 3u32);
        }
        let got: Vec<(usize, Score)> = moves
            .iter()
            .map(|m| (m.word.len(), m.value.clone()))
            .collect();
        let want: Vec<(usize, Score)> = [61, 60, 59]
            .into_iter()
            .map(|k| (k, Score(t[k].clone())))
            .collect();
        assert_eq!(got, want);
        assert!(moves[2].value.0 > BigUint::from(u64::MAX));
        // Every move, the exact search against the same totals step by step.
        let all = solve(&l, Rules::default(), &trie, &v, usize::MAX);
        assert_eq!(all.len(), cells - 1);
        assert!(all.windows(2).all(|w| w[0].value > w[1].value));
    }
}
