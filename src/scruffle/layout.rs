//! Board geometry and the static score of a word at a position. A placement's score depends only on
//! (word, position), so everything here is computed once per case.

use super::input::{Board, Cell};
use crate::words::LetterValues;
use num_bigint::BigUint;

/// Horizontal (left to right) or vertical (top to bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    H = 0,
    V = 1,
}

pub const DIRS: [Dir; 2] = [Dir::H, Dir::V];

/// A position: direction and first cell, packed as `start << 1 | dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(pub u32);

impl Pos {
    pub fn new(dir: Dir, start: usize) -> Pos {
        Pos((start as u32) << 1 | dir as u32)
    }
    pub fn dir(self) -> Dir {
        if self.0 & 1 == 0 {
            Dir::H
        } else {
            Dir::V
        }
    }
    pub fn start(self) -> usize {
        (self.0 >> 1) as usize
    }
}

/// One play: list entry `word` at `pos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub word: u32,
    pub pos: Pos,
}

/// A maximal run of open cells in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub dir: Dir,
    pub start: usize,
    pub len: usize,
}

impl Segment {
    /// The cells of the run, in order.
    pub fn cells(&self, layout: &Layout) -> impl Iterator<Item = usize> {
        layout.span(Pos::new(self.dir, self.start), self.len)
    }
}

/// Per-cell multipliers, obstacle runs and letter values of one case.
#[derive(Clone, Debug)]
pub struct Layout {
    pub width: usize,
    pub height: usize,
    open: Vec<bool>,
    letter_mult: Vec<u8>,
    word_factor: Vec<u8>,
    /// `run[dir][c]`: open cells from `c` onwards along `dir`, `c` included.
    run: [Vec<u32>; 2],
    values: [u32; 26],
}

impl Layout {
    pub fn new(board: &Board, values: &LetterValues) -> Layout {
        let (w, h) = (board.width, board.height);
        let n = w * h;
        let open: Vec<bool> = board.cells.iter().map(|&c| c != Cell::Obstacle).collect();
        let letter_mult = board
            .cells
            .iter()
            .map(|&c| match c {
                Cell::Letter(m) => m,
                Cell::Obstacle => 0,
                Cell::Double | Cell::Triple => 1,
            })
            .collect();
        let word_factor = board
            .cells
            .iter()
            .map(|&c| match c {
                Cell::Double => 2,
                Cell::Triple => 3,
                _ => 1,
            })
            .collect();
        let mut run = [vec![0u32; n], vec![0u32; n]];
        for y in 0..h {
            for x in (0..w).rev() {
                let c = y * w + x;
                if open[c] {
                    run[0][c] = 1 + if x + 1 < w { run[0][c + 1] } else { 0 };
                }
            }
        }
        for y in (0..h).rev() {
            for x in 0..w {
                let c = y * w + x;
                if open[c] {
                    run[1][c] = 1 + if y + 1 < h { run[1][c + w] } else { 0 };
                }
            }
        }
        Layout {
            width: w,
            height: h,
            open,
            letter_mult,
            word_factor,
            run,
            values: values.0,
        }
    }

    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    pub fn open_cells(&self) -> usize {
        self.open.iter().filter(|&&o| o).count()
    }

    /// Letter multiplier of `cell`: its digit, 1 on D/T, 0 on obstacles.
    pub fn letter_mult(&self, cell: usize) -> u8 {
        self.letter_mult[cell]
    }

    /// Letter values, A to Z.
    pub fn values(&self) -> &[u32; 26] {
        &self.values
    }

    /// Open cells from `cell` onwards along `dir`, `cell` included.
    pub fn run(&self, dir: Dir, cell: usize) -> usize {
        self.run[dir as usize][cell] as usize
    }

    /// Length of the longest run of open cells in a row or column (no longer word fits).
    pub fn longest_run(&self) -> usize {
        self.run.iter().flatten().copied().max().unwrap_or(0) as usize
    }

    /// The part of the run through `cell` along `dir` that lies within `before` cells before it
    /// and `after` cells after it (None on an obstacle).
    pub fn segment_around(
        &self,
        dir: Dir,
        cell: usize,
        before: usize,
        after: usize,
    ) -> Option<Segment> {
        if !self.open[cell] {
            return None;
        }
        let step = self.step(dir);
        let mut start = cell;
        let mut back = 0;
        while back < before && self.along(dir, start) > 0 && self.open[start - step] {
            start -= step;
            back += 1;
        }
        let len = self.run(dir, start).min(back + 1 + after);
        Some(Segment { dir, start, len })
    }

    /// Every maximal run of open cells along a row (H) or column (V): the lines the letters of
    /// one direction live on.
    pub fn segments(&self) -> Vec<Segment> {
        let mut out = Vec::new();
        for dir in DIRS {
            let step = self.step(dir);
            for c in 0..self.cells() {
                let run = self.run[dir as usize][c] as usize;
                let first = self.along(dir, c) == 0 || !self.open[c - step];
                if run > 0 && first {
                    out.push(Segment {
                        dir,
                        start: c,
                        len: run,
                    });
                }
            }
        }
        out
    }

    /// Word multiplier of `cell`: 2 on D, 3 on T, else 1.
    pub fn word_factor(&self, cell: usize) -> u8 {
        self.word_factor[cell]
    }

    pub fn is_open(&self, cell: usize) -> bool {
        self.open[cell]
    }

    #[inline]
    pub fn step(&self, dir: Dir) -> usize {
        match dir {
            Dir::H => 1,
            Dir::V => self.width,
        }
    }

    /// Coordinate of `cell` along `dir` (x for H, y for V).
    #[inline]
    pub fn along(&self, dir: Dir, cell: usize) -> usize {
        match dir {
            Dir::H => cell % self.width,
            Dir::V => cell / self.width,
        }
    }

    /// The line a position runs along: its row for H, its column for V (as in `line_cell`).
    #[inline]
    pub fn line_of(&self, pos: Pos) -> usize {
        match pos.dir() {
            Dir::H => pos.start() / self.width,
            Dir::V => pos.start() % self.width,
        }
    }

    /// The lines of direction `dir` (rows for H, columns for V): (how many, cells in each).
    pub fn line_shape(&self, dir: Dir) -> (usize, usize) {
        match dir {
            Dir::H => (self.height, self.width),
            Dir::V => (self.width, self.height),
        }
    }

    /// Cell `k` of line `line` in direction `dir` (row `line` for H, column `line` for V).
    #[inline]
    pub fn line_cell(&self, dir: Dir, line: usize, k: usize) -> usize {
        match dir {
            Dir::H => line * self.width + k,
            Dir::V => k * self.width + line,
        }
    }

    /// Does a word of `len` letters fit at `pos` (in bounds, no obstacle)?
    #[inline]
    pub fn fits(&self, len: usize, pos: Pos) -> bool {
        len > 0 && self.run[pos.dir() as usize][pos.start()] as usize >= len
    }

    /// The position whose `k`-th letter lies on `cell`, if the word of `len` letters fits there.
    #[inline]
    pub fn through(&self, dir: Dir, cell: usize, k: usize, len: usize) -> Option<Pos> {
        if self.along(dir, cell) < k {
            return None;
        }
        let pos = Pos::new(dir, cell - k * self.step(dir));
        self.fits(len, pos).then_some(pos)
    }

    pub fn xy(&self, pos: Pos) -> (usize, usize) {
        (pos.start() % self.width, pos.start() / self.width)
    }

    pub fn pos_at(&self, dir: Dir, x: usize, y: usize) -> Pos {
        Pos::new(dir, y * self.width + x)
    }

    /// Value of an upper-case letter.
    #[inline]
    pub fn value(&self, letter: u8) -> u32 {
        self.values[(letter - b'A') as usize]
    }

    /// Static score of letters with values `vals` at `pos` (which must fit).
    #[inline]
    pub fn score_values(&self, vals: &[u32], pos: Pos) -> u64 {
        let step = self.step(pos.dir());
        let mut c = pos.start();
        let mut letters = 0u64;
        let mut factor = 1u64;
        for &v in vals {
            letters += (v * self.letter_mult[c] as u32) as u64;
            factor = factor.saturating_mul(self.word_factor[c] as u64);
            c += step;
        }
        letters.saturating_mul(factor)
    }

    /// The exact score of `word` at `pos` (which must fit), however large: `score` saturates at
    /// `u64::MAX`, which a board of triple cells with long words passes.
    pub fn exact_score(&self, word: &[u8], pos: Pos) -> BigUint {
        let (mut letters, mut doubles, mut triples) = (0u64, 0u32, 0u32);
        for (c, &b) in self.span(pos, word.len()).zip(word) {
            letters += (self.value(b) * self.letter_mult[c] as u32) as u64;
            doubles += (self.word_factor[c] == 2) as u32;
            triples += (self.word_factor[c] == 3) as u32;
        }
        BigUint::from(letters) * BigUint::from(2u32).pow(doubles) * BigUint::from(3u32).pow(triples)
    }

    /// Static score of `word` at `pos` (which must fit), saturating at `u64::MAX`.
    pub fn score(&self, word: &[u8], pos: Pos) -> u64 {
        let vals: Vec<u32> = word.iter().map(|&b| self.value(b)).collect();
        self.score_values(&vals, pos)
    }

    /// Every position where a word of `len` letters fits.
    pub fn positions(&self, len: usize) -> impl Iterator<Item = Pos> + '_ {
        DIRS.into_iter().flat_map(move |dir| {
            (0..self.cells())
                .map(move |c| Pos::new(dir, c))
                .filter(move |&p| self.fits(len, p))
        })
    }

    /// The cells covered by a word of `len` letters at `pos`.
    pub fn span(&self, pos: Pos, len: usize) -> impl Iterator<Item = usize> {
        let step = self.step(pos.dir());
        let start = pos.start();
        (0..len).map(move |k| start + k * step)
    }

    /// The placement as an output line `H idx x y` / `V idx x y`.
    pub fn format(&self, p: Placement) -> String {
        let (x, y) = self.xy(p.pos);
        let d = match p.pos.dir() {
            Dir::H => 'H',
            Dir::V => 'V',
        };
        format!("{d} {} {x} {y}", p.word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(text: &str) -> Layout {
        Layout::new(
            &Board::parse(text, "t").unwrap(),
            &LetterValues::scrabble_english(),
        )
    }

    #[test]
    fn scores_follow_the_statement() {
        // Row 0: 2 D 0 T ; CAT at x=0: C*2 + A*1 + T*0 = 7, times 2 (D) = 14.
        let l = layout("2D0T\n1111\n");
        assert_eq!(l.score(b"CAT", l.pos_at(Dir::H, 0, 0)), 14);
        // CAT at x=1: (3*1 + 1*0 + 1*1) * 2 * 3 = 24.
        assert_eq!(l.score(b"CAT", l.pos_at(Dir::H, 1, 0)), 24);
        // Vertical QI at x=1: Q on D (x1) + I*1 = 11, times 2.
        assert_eq!(l.score(b"QI", l.pos_at(Dir::V, 1, 0)), 22);
    }

    #[test]
    fn obstacles_and_edges_limit_positions() {
        let l = layout("11#1\n1111\n");
        assert!(l.fits(2, l.pos_at(Dir::H, 0, 0)));
        assert!(!l.fits(3, l.pos_at(Dir::H, 0, 0)));
        assert!(!l.fits(2, l.pos_at(Dir::H, 3, 0)));
        assert!(!l.fits(1, l.pos_at(Dir::H, 2, 0)));
        assert!(l.fits(2, l.pos_at(Dir::V, 3, 0)));
        assert!(!l.fits(3, l.pos_at(Dir::V, 3, 0)));
        // Every position of a 2-letter word: row 0 has 1, row 1 has 3, columns 0, 1, 3 have 1 each.
        assert_eq!(l.positions(2).count(), 7);
        assert_eq!(l.through(Dir::H, 5, 1, 2), Some(l.pos_at(Dir::H, 0, 1)));
        assert_eq!(l.through(Dir::H, 4, 1, 2), None);
        let segs: Vec<(Dir, usize, usize)> = l
            .segments()
            .iter()
            .map(|s| (s.dir, s.start, s.len))
            .collect();
        assert_eq!(
            segs,
            [
                (Dir::H, 0, 2),
                (Dir::H, 3, 1),
                (Dir::H, 4, 4),
                (Dir::V, 0, 2),
                (Dir::V, 1, 2),
                (Dir::V, 3, 2),
                (Dir::V, 6, 1)
            ]
        );
        assert_eq!(l.longest_run(), 4);
    }
}
