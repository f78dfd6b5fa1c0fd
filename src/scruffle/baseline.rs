//! The naive greedy baseline: entries in order of their best standalone score, each at its best
//! still-valid position. No packing: it never looks for overlaps on purpose.

use super::grid::Grid;
use super::layout::{Layout, Placement, Pos};
use super::table::Table;
use std::time::Instant;

/// The naive plan; with a deadline, the plan so far when it passes.
pub fn naive_greedy(
    layout: &Layout,
    words: &[Vec<u8>],
    table: &Table,
    deadline: Option<Instant>,
) -> Vec<Placement> {
    let mut order: Vec<usize> = (0..words.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(table.best(i)), i));
    let mut grid = Grid::new(layout.cells());
    let mut empty = layout.open_cells();
    let mut plays = Vec::new();
    let mut filled = Vec::new();
    for i in order {
        if empty == 0 || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let word = &words[i];
        let valid = |p: Pos| grid.probe(layout, word, p).is_some_and(|n| n > 0);
        let mut choice = table.top(i).iter().find(|t| valid(t.1)).map(|t| t.1);
        if choice.is_none() && !table.complete(i) {
            // The kept positions are all taken: scan every position for the best valid one.
            let mut best = None;
            for (n, p) in layout.positions(word.len()).enumerate() {
                if n % 4096 == 4095 && deadline.is_some_and(|d| Instant::now() >= d) {
                    return plays;
                }
                if valid(p) {
                    let key = (layout.score(word, p), std::cmp::Reverse(p));
                    if best.is_none_or(|(k, _)| key > k) {
                        best = Some((key, p));
                    }
                }
            }
            choice = best.map(|(_, p)| p);
        }
        if let Some(pos) = choice {
            filled.clear();
            grid.place(layout, word, pos, &mut filled);
            empty -= filled.len();
            plays.push(Placement {
                word: i as u32,
                pos,
            });
        }
    }
    plays
}
