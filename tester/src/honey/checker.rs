//! The independent checker: every vocabulary word at every cell in every direction, each rule
//! checked literally, the score computed literally. It shares only the file parsing (`Level`) and
//! the switch enums with the solver; its geometry goes through axial coordinates, not the solver's
//! offset tables, and it never calls solver code.

use bot::honey::{Bonus, Dir6, Layout, Level, Link, Rules};
use bot::words::LetterValues;
use num_bigint::BigUint;
use std::cmp::Reverse;

/// The word directions with their answer names and tie rank (down_right before right before
/// up_right).
pub const WORD_DIRS: [(Dir6, &str, u8); 3] = [
    (Dir6::Right, "right", 1),
    (Dir6::UpRight, "up_right", 2),
    (Dir6::DownRight, "down_right", 0),
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub word: String,
    pub x: usize,
    pub y: usize,
    pub dir: &'static str,
    pub rank: u8,
    /// Exact, however large (a row of triple-word cells passes any machine integer).
    pub value: BigUint,
    /// The cells the word covers, in order (for playing it in the generator).
    pub cells: Vec<(usize, usize)>,
}

impl Found {
    pub fn answer(&self) -> String {
        format!(
            "{}_{}{}_{}_{}",
            self.word, self.x, self.y, self.dir, self.value
        )
    }
}

/// Axial (q, r) direction vectors: r grows downwards, q grows to the right along a row.
fn axial_vector(d: Dir6) -> (i64, i64) {
    match d {
        Dir6::Right => (1, 0),
        Dir6::Left => (-1, 0),
        Dir6::UpRight => (1, -1),
        Dir6::UpLeft => (0, -1),
        Dir6::DownRight => (0, 1),
        Dir6::DownLeft => (-1, 1),
    }
}

fn to_axial(layout: Layout, x: i64, y: i64) -> (i64, i64) {
    match layout {
        Layout::Axial => (x, y),
        Layout::OddR => (x - (y - (y & 1)) / 2, y),
        Layout::EvenR => (x - (y + (y & 1)) / 2, y),
    }
}

fn from_axial(layout: Layout, q: i64, r: i64) -> (i64, i64) {
    match layout {
        Layout::Axial => (q, r),
        Layout::OddR => (q + (r - (r & 1)) / 2, r),
        Layout::EvenR => (q + (r + (r & 1)) / 2, r),
    }
}

pub struct Checker<'a> {
    level: &'a Level,
    rules: Rules,
    values: &'a LetterValues,
    /// `walk_one` for every cell and direction, computed once.
    moves: Vec<[Option<Cell>; 6]>,
}

type Cell = (usize, usize);

/// A word on the grid: its letters, cells and direction.
pub type Placed = (String, Vec<Cell>, Dir6);

impl<'a> Checker<'a> {
    pub fn new(level: &'a Level, rules: Rules, values: &'a LetterValues) -> Self {
        let mut checker = Checker {
            level,
            rules,
            values,
            moves: Vec::new(),
        };
        checker.moves = checker
            .cells()
            .map(|c| Dir6::ALL.map(|d| checker.walk_one(c, d)))
            .collect();
        checker
    }

    pub fn walk(&self, c: Cell, d: Dir6) -> Option<Cell> {
        self.moves[c.1 * self.level.width + c.0][d as usize]
    }

    fn letter(&self, c: Cell) -> Option<u8> {
        self.level.letters[c.1 * self.level.width + c.0]
    }

    fn bonus(&self, c: Cell) -> Bonus {
        self.level.bonuses[c.1 * self.level.width + c.0]
    }

    fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.level.height).flat_map(move |y| (0..self.level.width).map(move |x| (x, y)))
    }

    /// One move from `c` in `d`: through the partner portal when `c` is a portal of direction `d`.
    fn walk_one(&self, c: Cell, d: Dir6) -> Option<Cell> {
        if self.bonus(c) == Bonus::Portal(d) {
            let partner = Bonus::Portal(d.opposite());
            return self.cells().find(|&p| self.bonus(p) == partner);
        }
        let (q, r) = to_axial(self.rules.layout, c.0 as i64, c.1 as i64);
        let (dq, dr) = axial_vector(d);
        let (x, y) = from_axial(self.rules.layout, q + dq, r + dr);
        let inside =
            x >= 0 && y >= 0 && x < self.level.width as i64 && y < self.level.height as i64;
        inside.then_some((x as usize, y as usize))
    }

    /// Two cells touch when either is a neighbour (in any of the six directions) of the other.
    fn touch(&self, a: Cell, b: Cell) -> bool {
        Dir6::ALL
            .iter()
            .any(|&d| self.walk(a, d) == Some(b) || self.walk(b, d) == Some(a))
    }

    /// Maximal lettered runs of 2+ cells in the word directions: they start on a lettered cell that
    /// no lettered cell steps onto, and stop at an empty cell, the edge, or a repeated cell.
    pub fn existing_words(&self) -> Vec<Placed> {
        let mut out = Vec::new();
        for c in self.cells() {
            if self.letter(c).is_none() {
                continue;
            }
            for (d, _, _) in WORD_DIRS {
                let fed = self
                    .cells()
                    .any(|p| self.letter(p).is_some() && self.walk(p, d) == Some(c));
                if fed {
                    continue;
                }
                let mut run = vec![c];
                let mut cur = c;
                while let Some(n) = self.walk(cur, d) {
                    if self.letter(n).is_none() || run.contains(&n) {
                        break;
                    }
                    run.push(n);
                    cur = n;
                }
                if run.len() >= 2 {
                    let word: String = run
                        .iter()
                        .map(|&p| self.letter(p).unwrap() as char)
                        .collect();
                    out.push((word, run, d));
                }
            }
        }
        out
    }

    /// Every legal move, best first in answer order.
    pub fn all_moves(&self, words: &[String]) -> Vec<Found> {
        let existing = self.existing_words();
        let mut found = Vec::new();
        // Shortcut that follows from the rules: every letter of a legal word is in the hand or
        // somewhere on the board.
        let mut available = self.level.hand.map(|n| n > 0);
        for l in self.level.letters.iter().flatten() {
            available[(l - b'A') as usize] = true;
        }
        let mut vocabulary: Vec<&String> = words
            .iter()
            .filter(|w| w.bytes().all(|b| available[(b - b'A') as usize]))
            .collect();
        vocabulary.sort();
        vocabulary.dedup();
        let mut cells = Vec::new();
        for word in vocabulary {
            for start in self.cells() {
                for (d, name, rank) in WORD_DIRS {
                    if !self.fill_path(word.as_bytes(), start, d, &mut cells) {
                        continue;
                    }
                    if let Some(value) = self.legal_value(word.as_bytes(), &cells, d, &existing) {
                        found.push(Found {
                            word: word.clone(),
                            x: start.0,
                            y: start.1,
                            dir: name,
                            rank,
                            value,
                            cells: cells.clone(),
                        });
                    }
                }
            }
        }
        found.sort_by(|a, b| {
            (Reverse(&a.value), &a.word, a.x, a.y, a.rank).cmp(&(
                Reverse(&b.value),
                &b.word,
                b.x,
                b.y,
                b.rank,
            ))
        });
        found
    }

    /// The cells of `word` from `start` in `d` into `cells`; false if the grid ends, a cell repeats
    /// or a board letter differs from the word's (checked on the way, to fail fast).
    fn fill_path(&self, word: &[u8], start: Cell, d: Dir6, cells: &mut Vec<Cell>) -> bool {
        cells.clear();
        let mut cur = start;
        for (i, &l) in word.iter().enumerate() {
            if i > 0 {
                match self.walk(cur, d) {
                    Some(next) if !cells.contains(&next) => cur = next,
                    _ => return false,
                }
            }
            if self.letter(cur).is_some_and(|b| b != l) {
                return false;
            }
            cells.push(cur);
        }
        true
    }

    /// The value of writing `word` from `start` in `d` if every rule holds, else `None`.
    fn legal_value(
        &self,
        word: &[u8],
        cells: &[Cell],
        d: Dir6,
        existing: &[Placed],
    ) -> Option<BigUint> {
        // The path (inside the grid, no repeated cell) is `cells`. Board letters must match; the
        // rest come from the hand.
        let mut shared = Vec::new();
        let mut needed = [0u32; 26];
        for (i, (&c, &l)) in cells.iter().zip(word).enumerate() {
            match self.letter(c) {
                Some(b) if b == l => shared.push(i),
                Some(_) => return None,
                None => needed[(l - b'A') as usize] += 1,
            }
        }
        if shared.is_empty() || shared.len() == word.len() {
            return None; // no link, or no tile from the hand
        }
        if (0..26).any(|i| needed[i] > self.level.hand[i]) {
            return None;
        }
        // Link shape.
        match self.rules.link {
            Link::Single => {
                if shared.len() != 1 {
                    return None;
                }
            }
            Link::Extend => {
                let (first, last) = (shared[0], *shared.last().unwrap());
                if last - first + 1 != shared.len() {
                    return None; // not one contiguous run
                }
                if shared.len() > 1 {
                    let run = &cells[first..=last];
                    if !existing
                        .iter()
                        .any(|(_, wc, wd)| *wd == d && wc.as_slice() == run)
                    {
                        return None; // a run of letters that is not an entire existing word
                    }
                }
            }
        }
        // Not a word already on the grid.
        let text = std::str::from_utf8(word).unwrap();
        if existing.iter().any(|(w, _, _)| w == text) {
            return None;
        }
        // No touch: a new tile's lettered neighbours must be link cells.
        let link_cells: Vec<Cell> = shared.iter().map(|&i| cells[i]).collect();
        for &c in cells.iter().filter(|&&c| self.letter(c).is_none()) {
            for q in self.cells() {
                if self.letter(q).is_some() && self.touch(c, q) && !link_cells.contains(&q) {
                    return None;
                }
            }
        }
        // The cells before the first and after the last letter hold no letter after placement.
        let lettered_after = |q: Cell| self.letter(q).is_some() || cells.contains(&q);
        for p in self.cells() {
            if self.walk(p, d) == Some(cells[0]) && lettered_after(p) {
                return None;
            }
        }
        if let Some(q) = self.walk(*cells.last().unwrap(), d) {
            if lettered_after(q) {
                return None;
            }
        }
        Some(self.score(word, cells))
    }

    /// Literal running total: add the letter (doubled on dl, tripled on tl), then double on dw,
    /// triple on tw, halve (rounding down) on a mine. Link letters skip bonuses when switched off.
    pub fn score(&self, word: &[u8], cells: &[Cell]) -> BigUint {
        let mut total = BigUint::ZERO;
        for (&c, &l) in cells.iter().zip(word) {
            let mut value = BigUint::from(self.values.0[(l - b'A') as usize]);
            let bonus = if self.letter(c).is_some() && !self.rules.bonus_on_existing {
                Bonus::None
            } else {
                self.bonus(c)
            };
            if bonus == Bonus::DoubleLetter {
                value *= 2u32;
            }
            if bonus == Bonus::TripleLetter {
                value *= 3u32;
            }
            total += value;
            if bonus == Bonus::DoubleWord {
                total *= 2u32;
            }
            if bonus == Bonus::TripleWord {
                total *= 3u32;
            }
            if bonus == Bonus::Mine {
                total /= 2u32;
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statement_house_example_scores_16() {
        let level = Level::parse(
            ("H - - - - -\n", "l"),
            ("- dl dw - - -\n", "b"),
            ("OUSE", "h"),
        )
        .unwrap();
        let values = LetterValues::parse("H 2\nO 1\nU 3\nS 1\nE 1\n", "v").unwrap();
        let checker = Checker::new(&level, Rules::default(), &values);
        let moves = checker.all_moves(&["HOUSE".to_string()]);
        let answers: Vec<String> = moves.iter().map(|m| m.answer()).collect();
        assert_eq!(answers, ["HOUSE_00_right_16"]);
    }

    #[test]
    fn odd_r_neighbours_follow_the_spec() {
        let level = Level::parse(
            ("- - -\n- - -\n- - -\n", "l"),
            ("- - -\n- - -\n- - -\n", "b"),
            ("A", "h"),
        )
        .unwrap();
        let values = LetterValues::scrabble_english();
        let c = Checker::new(&level, Rules::default(), &values);
        // Even row: up_right (x, y-1), down_right (x, y+1); odd row: (x+1, y-1), (x+1, y+1).
        assert_eq!(c.walk((1, 2), Dir6::UpRight), Some((1, 1)));
        assert_eq!(c.walk((1, 1), Dir6::UpRight), Some((2, 0)));
        assert_eq!(c.walk((1, 1), Dir6::DownRight), Some((2, 2)));
        assert_eq!(c.walk((1, 0), Dir6::DownRight), Some((1, 1)));
        assert_eq!(c.walk((0, 0), Dir6::UpLeft), None);
        assert_eq!(c.walk((0, 1), Dir6::UpLeft), Some((0, 0)));
    }

    #[test]
    fn portal_adjacency_pul_up_left_is_pdr() {
        let level = Level::parse(
            ("- - -\n- - -\n- - -\n", "l"),
            ("pdr - -\n- - -\n- - pul\n", "b"),
            ("A", "h"),
        )
        .unwrap();
        let values = LetterValues::scrabble_english();
        let c = Checker::new(&level, Rules::default(), &values);
        assert_eq!(c.walk((2, 2), Dir6::UpLeft), Some((0, 0)));
        assert_eq!(c.walk((0, 0), Dir6::DownRight), Some((2, 2)));
        assert!(c.touch((0, 0), (2, 2)));
    }
}
