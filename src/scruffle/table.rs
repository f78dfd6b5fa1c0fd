//! Precomputed standalone position scores: for every list entry, its best positions on the empty
//! board, best first. Entries with the same letter-value sequence (duplicates, CAT/BAT) share one
//! table, since their scores agree everywhere.

use super::layout::{Dir, Layout, Pos, DIRS};
use std::cmp::Reverse;
use std::collections::HashMap;
use std::time::Instant;

pub struct Table {
    group: Vec<u32>,
    top: Vec<Vec<(u64, Pos)>>,
    complete: Vec<bool>,
    /// Entries of each group.
    members: Vec<Vec<u32>>,
    /// `by_start[dir][cell]`: (score, group) of every kept position starting at `cell` in
    /// direction `dir`, best first.
    by_start: [Vec<Vec<(u64, u32)>>; 2],
    /// Longest entry that fits somewhere.
    longest: usize,
    truncated: bool,
}

/// The board's rows (H) and columns (V) as contiguous arrays, for scoring a word at every start
/// of a line in one vectorisable pass.
struct Lines {
    /// Per direction: letter multiplier, open-run length and D/T prefix counts, line after line
    /// (`len + 1` prefix entries per line).
    mult: [Vec<u32>; 2],
    run: [Vec<u32>; 2],
    doubles: [Vec<u32>; 2],
    triples: [Vec<u32>; 2],
    /// Per direction: (number of lines, line length).
    shape: [(usize, usize); 2],
}

impl Lines {
    fn new(layout: &Layout) -> Lines {
        let mut lines = Lines {
            mult: [Vec::new(), Vec::new()],
            run: [Vec::new(), Vec::new()],
            doubles: [Vec::new(), Vec::new()],
            triples: [Vec::new(), Vec::new()],
            shape: DIRS.map(|dir| layout.line_shape(dir)),
        };
        for dir in DIRS {
            let d = dir as usize;
            let (count, len) = lines.shape[d];
            for j in 0..count {
                let (mut dd, mut tt) = (0, 0);
                lines.doubles[d].push(0);
                lines.triples[d].push(0);
                for k in 0..len {
                    let c = layout.line_cell(dir, j, k);
                    lines.mult[d].push(layout.letter_mult(c) as u32);
                    lines.run[d].push(layout.run(dir, c) as u32);
                    dd += (layout.word_factor(c) == 2) as u32;
                    tt += (layout.word_factor(c) == 3) as u32;
                    lines.doubles[d].push(dd);
                    lines.triples[d].push(tt);
                }
            }
        }
        lines
    }

    /// Push (Reverse(score), position) for every position where a word with letter values `vals`
    /// fits; `acc` is scratch space. False if `deadline` passed first (`out` is then partial).
    fn score_all(
        &self,
        layout: &Layout,
        vals: &[u32],
        acc: &mut Vec<u64>,
        out: &mut Vec<(Reverse<u64>, Pos)>,
        deadline: Option<Instant>,
    ) -> bool {
        let l = vals.len();
        for dir in DIRS {
            let d = dir as usize;
            let (count, len) = self.shape[d];
            if l > len {
                continue;
            }
            let starts = len - l + 1;
            for j in 0..count {
                if j % 64 == 63 && deadline.is_some_and(|d| Instant::now() >= d) {
                    return false;
                }
                let mult = &self.mult[d][j * len..(j + 1) * len];
                let run = &self.run[d][j * len..(j + 1) * len];
                acc.clear();
                acc.resize(starts, 0);
                for (k, &v) in vals.iter().enumerate() {
                    let m = &mult[k..k + starts];
                    for (a, &x) in acc.iter_mut().zip(m) {
                        *a += (v * x) as u64;
                    }
                }
                let dd = &self.doubles[d][j * (len + 1)..(j + 1) * (len + 1)];
                let tt = &self.triples[d][j * (len + 1)..(j + 1) * (len + 1)];
                for p in 0..starts {
                    if (run[p] as usize) < l {
                        continue;
                    }
                    let factor = 2u64
                        .saturating_pow(dd[p + l] - dd[p])
                        .saturating_mul(3u64.saturating_pow(tt[p + l] - tt[p]));
                    let score = acc[p].saturating_mul(factor);
                    out.push((Reverse(score), Pos::new(dir, layout.line_cell(dir, j, p))));
                }
            }
        }
        true
    }
}

impl Table {
    /// Keep the `keep` best positions of every word (ties: lower position first). With a deadline,
    /// the entries not reached by then get no positions (the table says `truncated`).
    pub fn build(
        layout: &Layout,
        words: &[Vec<u8>],
        keep: usize,
        deadline: Option<Instant>,
    ) -> Table {
        let keep = keep.max(1);
        let longest_run = layout.longest_run();
        let lines = Lines::new(layout);
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut group = Vec::with_capacity(words.len());
        let mut top: Vec<Vec<(u64, Pos)>> = Vec::new();
        let mut complete = Vec::new();
        let mut all: Vec<(Reverse<u64>, Pos)> = Vec::new();
        let mut acc = Vec::new();
        let mut truncated = false;
        for word in words {
            let vals: Vec<u32> = word.iter().map(|&b| layout.value(b)).collect();
            if let Some(&g) = ids.get(&vals) {
                group.push(g);
                continue;
            }
            all.clear();
            if !truncated && deadline.is_some_and(|d| Instant::now() >= d) {
                truncated = true;
            }
            if !truncated
                && !vals.is_empty()
                && vals.len() <= longest_run
                && !lines.score_all(layout, &vals, &mut acc, &mut all, deadline)
            {
                truncated = true;
                all.clear();
            }
            let is_complete = all.len() <= keep;
            if !is_complete {
                all.select_nth_unstable(keep - 1);
                all.truncate(keep);
            }
            all.sort_unstable();
            let g = top.len() as u32;
            top.push(all.iter().map(|&(Reverse(s), p)| (s, p)).collect());
            // An entry left out for lack of time counts as complete with no position: nobody
            // searches its positions any further.
            complete.push(is_complete);
            ids.insert(vals, g);
            group.push(g);
        }
        let mut members = vec![Vec::new(); top.len()];
        for (i, &g) in group.iter().enumerate() {
            members[g as usize].push(i as u32);
        }
        let mut by_start: [Vec<Vec<(u64, u32)>>; 2] = [
            vec![Vec::new(); layout.cells()],
            vec![Vec::new(); layout.cells()],
        ];
        for (g, list) in top.iter().enumerate() {
            for &(score, pos) in list {
                by_start[pos.dir() as usize][pos.start()].push((score, g as u32));
            }
        }
        for list in by_start.iter_mut().flatten() {
            list.sort_unstable_by(|a, b| b.cmp(a));
        }
        Table {
            group,
            top,
            complete,
            members,
            by_start,
            longest: words
                .iter()
                .map(Vec::len)
                .filter(|&l| l <= longest_run)
                .max()
                .unwrap_or(0),
            truncated,
        }
    }

    /// Was the build cut short by its deadline (some entries got no positions)?
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// Every kept (score, entry) whose position starts at `cell` in direction `dir`, best first.
    pub fn starting_at(&self, dir: Dir, cell: usize) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.by_start[dir as usize][cell]
            .iter()
            .flat_map(|&(s, g)| self.members[g as usize].iter().map(move |&w| (s, w)))
    }

    /// Length of the longest entry that fits on the board.
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

    /// The group of `word`: entries of one group have the same letter values, so the same score
    /// at every position.
    pub fn group(&self, word: usize) -> usize {
        self.group[word] as usize
    }

    /// Number of groups.
    pub fn groups(&self) -> usize {
        self.top.len()
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
        let table = Table::build(&layout, &words, 3, None);
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

    #[test]
    fn kept_positions_are_the_best_in_order_on_random_boards() {
        use rand::{Rng, SeedableRng};
        let english = &crate::words::english().words;
        for seed in 0..40u64 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let (w, h) = (rng.random_range(1..=12), rng.random_range(1..=12));
            let text: String = (0..h)
                .map(|_| {
                    let row: String = (0..w)
                        .map(|_| b"#0123456789DTDT"[rng.random_range(0..15)] as char)
                        .collect();
                    row + "\n"
                })
                .collect();
            let layout = Layout::new(
                &Board::parse(&text, "t").unwrap(),
                &LetterValues::scrabble_english(),
            );
            let words: Vec<Vec<u8>> = (0..20)
                .map(|_| {
                    english[rng.random_range(0..english.len())].as_bytes()
                        [..rng.random_range(1..=4)]
                        .to_vec()
                })
                .collect();
            let keep = rng.random_range(1..=30);
            let table = Table::build(&layout, &words, keep, None);
            for (i, word) in words.iter().enumerate() {
                let mut all: Vec<(Reverse<u64>, Pos)> = layout
                    .positions(word.len())
                    .map(|p| (Reverse(layout.score(word, p)), p))
                    .collect();
                all.sort();
                let expected: Vec<(u64, Pos)> = all
                    .iter()
                    .take(keep)
                    .map(|&(Reverse(s), p)| (s, p))
                    .collect();
                assert_eq!(table.top(i), &expected[..], "seed {seed} word {i}");
                assert_eq!(table.complete(i), all.len() <= keep);
            }
        }
    }

    #[test]
    fn a_deadline_in_the_past_leaves_the_entries_out() {
        let board = Board::parse("1111\n1111\n", "t").unwrap();
        let layout = Layout::new(&board, &LetterValues::scrabble_english());
        let words = vec![b"AT".to_vec(), b"TO".to_vec()];
        let table = Table::build(&layout, &words, 10, Some(Instant::now()));
        assert!(table.truncated());
        assert!(table.top(0).is_empty() && table.complete(0));
        assert!(!Table::build(&layout, &words, 10, None).truncated());
    }
}
