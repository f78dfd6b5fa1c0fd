//! Exhaustive optimum for tiny cases: every play order of every subset. The slow, obviously
//! correct twin that the bounds and the solver are tested against.

use super::grid::Grid;
use super::layout::{Layout, Placement};

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
    total + best_from(layout, words, &mut grid, &mut used)
}

fn best_from(layout: &Layout, words: &[Vec<u8>], grid: &mut Grid, used: &mut [bool]) -> u64 {
    let mut best = 0;
    let mut cells = Vec::new();
    for i in 0..words.len() {
        if used[i] {
            continue;
        }
        for pos in layout.positions(words[i].len()) {
            if grid.probe(layout, &words[i], pos).is_some_and(|n| n > 0) {
                cells.clear();
                grid.place(layout, &words[i], pos, &mut cells);
                used[i] = true;
                let total = layout.score(&words[i], pos) + best_from(layout, words, grid, used);
                best = best.max(total);
                used[i] = false;
                grid.remove(layout, &words[i], pos, &mut cells);
            }
        }
    }
    best
}
