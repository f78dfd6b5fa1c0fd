//! Exhaustive optimum for tiny cases: every play order of every subset. The slow, obviously
//! correct twin that the bounds and the solver are tested against. What can still be added
//! depends only on the letters on the board and the entries left, so each such state is solved
//! once; entries with the same spelling are interchangeable, so of those not yet played only the
//! first is tried.

use super::grid::Grid;
use super::layout::{Layout, Placement};
use std::collections::HashMap;

/// Best totals still to come, by state (the letters of every cell, then 1 per entry played).
type Memo = HashMap<Vec<u8>, u64>;

/// The best total over all valid play sequences (exponential: keep boards and lists tiny).
pub fn optimum(layout: &Layout, words: &[Vec<u8>]) -> u64 {
    optimum_after(layout, words, &[])
}

/// The best total of every valid play sequence that starts with `prefix` (a valid sequence).
pub fn optimum_after(layout: &Layout, words: &[Vec<u8>], prefix: &[Placement]) -> u64 {
    let mut grid = Grid::new(layout.cells());
    let mut used = vec![false; words.len()];
    let mut cells = Vec::new();
    let mut total = 0;
    for p in prefix {
        let word = &words[p.word as usize];
        grid.place(layout, word, p.pos, &mut cells);
        used[p.word as usize] = true;
        total += layout.score(word, p.pos);
    }
    total + best_from(layout, words, &mut grid, &mut used, Some(&mut Memo::new()))
}

/// The best total from `grid` on with the entries not `used`. With a `memo`, each state is
/// solved once and of the entries spelled alike only the first not yet played is tried (the
/// others give the same totals); without, every play order is walked.
fn best_from(
    layout: &Layout,
    words: &[Vec<u8>],
    grid: &mut Grid,
    used: &mut [bool],
    mut memo: Option<&mut Memo>,
) -> u64 {
    let first_copy = memo.is_some();
    let state: Vec<u8> = (0..layout.cells())
        .map(|c| grid.letter(c))
        .chain(used.iter().map(|&u| u as u8))
        .collect();
    if let Some(&best) = memo.as_ref().and_then(|m| m.get(&state)) {
        return best;
    }
    let mut best = 0;
    let mut cells = Vec::new();
    for i in 0..words.len() {
        let copy_waits = || {
            (0..i)
                .rev()
                .find(|&j| words[j] == words[i])
                .is_some_and(|j| !used[j])
        };
        if used[i] || (first_copy && copy_waits()) {
            continue;
        }
        for pos in layout.positions(words[i].len()) {
            if grid.probe(layout, &words[i], pos).is_some_and(|n| n > 0) {
                cells.clear();
                grid.place(layout, &words[i], pos, &mut cells);
                used[i] = true;
                let rest = best_from(layout, words, grid, used, memo.as_deref_mut());
                let total = layout.score(&words[i], pos) + rest;
                best = best.max(total);
                used[i] = false;
                grid.remove(layout, &words[i], pos, &mut cells);
            }
        }
    }
    if let Some(memo) = memo {
        memo.insert(state, best);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scruffle::input::{Board, Cell};
    use crate::words::LetterValues;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Solving each state once and trying only the first unplayed copy of a spelling change no
    /// optimum: against every play order walked, on lists full of copies.
    #[test]
    fn the_shortcuts_find_the_same_optimum_as_every_play_order() {
        let mut differ = 0;
        for seed in 0..150u64 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let (w, h) = (rng.random_range(1..=3), rng.random_range(1..=3));
            let cells = (0..w * h)
                .map(|_| match rng.random_range(0..8) {
                    0 => Cell::Obstacle,
                    1 => Cell::Triple,
                    _ => Cell::Letter(rng.random_range(0..=9)),
                })
                .collect();
            let board = Board {
                width: w,
                height: h,
                cells,
            };
            let layout = Layout::new(&board, &LetterValues::scrabble_english());
            let list = ["A", "AB", "BA", "ABA", "B"];
            let words: Vec<Vec<u8>> = (0..rng.random_range(1..=5))
                .map(|_| list[rng.random_range(0..list.len())].as_bytes().to_vec())
                .collect();
            let fast = optimum(&layout, &words);
            let mut grid = Grid::new(layout.cells());
            let mut used = vec![false; words.len()];
            let slow = best_from(&layout, &words, &mut grid, &mut used, None);
            assert_eq!(fast, slow, "seed {seed}: {words:?}");
            differ += (fast > 0) as usize;
        }
        assert!(differ > 100, "{differ} of 150 score");
    }
}
