//! Precomputed standalone position scores: for every list entry, its best positions on the empty
//! board, best first. Entries with the same letter-value sequence (duplicates, CAT/BAT) share one
//! table, since their scores agree everywhere.

use super::layout::{Dir, Layout, Pos, DIRS};
use std::cmp::Reverse;
use std::collections::HashMap;

pub struct Table {
    group: Vec<u32>,
    top: Vec<Vec<(u64, Pos)>>,
    complete: Vec<bool>,
    /// Entries of each group.
    members: Vec<Vec<u32>>,
    /// `by_start[dir][cell]`: groups with a kept position starting at `cell` in direction `dir`.
    by_start: [Vec<Vec<u32>>; 2],
    longest: usize,
}

impl Table {
    /// Keep the `keep` best positions of every word (ties: lower position first).
    pub fn build(layout: &Layout, words: &[Vec<u8>], keep: usize) -> Table {
        let keep = keep.max(1);
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut group = Vec::with_capacity(words.len());
        let mut top: Vec<Vec<(u64, Pos)>> = Vec::new();
        let mut complete = Vec::new();
        let mut all: Vec<(Reverse<u64>, Pos)> = Vec::new();
        for word in words {
            let vals: Vec<u32> = word.iter().map(|&b| layout.value(b)).collect();
            if let Some(&g) = ids.get(&vals) {
                group.push(g);
                continue;
            }
            all.clear();
            for dir in DIRS {
                for c in 0..layout.cells() {
                    let pos = Pos::new(dir, c);
                    if layout.fits(vals.len(), pos) {
                        all.push((Reverse(layout.score_values(&vals, pos)), pos));
                    }
                }
            }
            let is_complete = all.len() <= keep;
            if !is_complete {
                all.select_nth_unstable(keep - 1);
                all.truncate(keep);
            }
            all.sort_unstable();
            let g = top.len() as u32;
            top.push(all.iter().map(|&(Reverse(s), p)| (s, p)).collect());
            complete.push(is_complete);
            ids.insert(vals, g);
            group.push(g);
        }
        let mut members = vec![Vec::new(); top.len()];
        for (i, &g) in group.iter().enumerate() {
            members[g as usize].push(i as u32);
        }
        let mut by_start: [Vec<Vec<u32>>; 2] = [
            vec![Vec::new(); layout.cells()],
            vec![Vec::new(); layout.cells()],
        ];
        for (g, list) in top.iter().enumerate() {
            for &(_, pos) in list {
                by_start[pos.dir() as usize][pos.start()].push(g as u32);
            }
        }
        Table {
            group,
            top,
            complete,
            members,
            by_start,
            longest: words.iter().map(Vec::len).max().unwrap_or(0),
        }
    }

    /// Every kept (entry, position) whose position starts at `cell` in direction `dir`.
    pub fn starting_at(&self, dir: Dir, cell: usize) -> impl Iterator<Item = u32> + '_ {
        self.by_start[dir as usize][cell]
            .iter()
            .flat_map(|&g| self.members[g as usize].iter().copied())
    }

    /// Length of the longest entry.
    pub fn longest(&self) -> usize {
        self.longest
    }

    /// The kept positions of `word`, best first.
    pub fn top(&self, word: usize) -> &[(u64, Pos)] {
        &self.top[self.group[word] as usize]
    }

    /// Best standalone score of `word` (0 if it fits nowhere).
    pub fn best(&self, word: usize) -> u64 {
        self.top(word).first().map_or(0, |t| t.0)
    }

    /// Does `top(word)` hold every position where the word fits?
    pub fn complete(&self, word: usize) -> bool {
        self.complete[self.group[word] as usize]
    }

    pub fn words(&self) -> usize {
        self.group.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scruffle::input::Board;
    use crate::words::LetterValues;

    #[test]
    fn top_lists_match_a_full_sort() {
        let board = Board::parse("1D30\n2T91\n#451\n0002\n", "t").unwrap();
        let layout = Layout::new(&board, &LetterValues::scrabble_english());
        let words: Vec<Vec<u8>> = ["CAT", "BAT", "QI", "ZOO", "HOUSE"]
            .iter()
            .map(|w| w.as_bytes().to_vec())
            .collect();
        let table = Table::build(&layout, &words, 3);
        for (i, w) in words.iter().enumerate() {
            let mut scores: Vec<u64> = layout
                .positions(w.len())
                .map(|p| layout.score(w, p))
                .collect();
            scores.sort_unstable_by(|a, b| b.cmp(a));
            let kept: Vec<u64> = table.top(i).iter().map(|t| t.0).collect();
            assert_eq!(kept, scores[..scores.len().min(3)], "{i}");
            for &(s, p) in table.top(i) {
                assert_eq!(s, layout.score(w, p));
            }
            assert_eq!(table.complete(i), scores.len() <= 3);
        }
        assert_eq!(table.best(4), 0, "HOUSE fits nowhere on a 4x4 board");
    }
}
