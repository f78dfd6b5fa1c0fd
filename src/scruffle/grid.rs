//! The letters on the board while placements are added and removed. Each cell counts the placements
//! covering it, so removing a placement empties exactly the cells nobody else covers.

use super::layout::{Layout, Placement, Pos};

#[derive(Clone, Debug)]
pub struct Grid {
    letters: Vec<u8>,
    cover: Vec<u32>,
}

impl Grid {
    pub fn new(cells: usize) -> Grid {
        Grid {
            letters: vec![0; cells],
            cover: vec![0; cells],
        }
    }

    /// The letter on `cell`, 0 when empty.
    #[inline]
    pub fn letter(&self, cell: usize) -> u8 {
        self.letters[cell]
    }

    /// How many placements cover `cell`.
    pub fn cover(&self, cell: usize) -> u32 {
        self.cover[cell]
    }

    /// Number of empty cells `word` would fill at `pos`, or `None` if a letter disagrees. The
    /// caller has checked that the word fits there.
    #[inline]
    pub fn probe(&self, layout: &Layout, word: &[u8], pos: Pos) -> Option<usize> {
        self.probe_capped(layout, word, pos, usize::MAX)
    }

    /// `probe`, but `None` as soon as more than `cap` cells would be new (cheaper for crossings).
    #[inline]
    pub fn probe_capped(
        &self,
        layout: &Layout,
        word: &[u8],
        pos: Pos,
        cap: usize,
    ) -> Option<usize> {
        let step = layout.step(pos.dir());
        let mut c = pos.start();
        let mut new = 0;
        for &b in word {
            let have = self.letters[c];
            if have == 0 {
                new += 1;
                if new > cap {
                    return None;
                }
            } else if have != b {
                return None;
            }
            c += step;
        }
        Some(new)
    }

    /// Write `word` at `pos`; the cells that were empty are appended to `filled`.
    pub fn place(&mut self, layout: &Layout, word: &[u8], pos: Pos, filled: &mut Vec<usize>) {
        let step = layout.step(pos.dir());
        let mut c = pos.start();
        for &b in word {
            if self.letters[c] == 0 {
                self.letters[c] = b;
                filled.push(c);
            }
            debug_assert_eq!(self.letters[c], b);
            self.cover[c] += 1;
            c += step;
        }
    }

    /// Take `word` off `pos`; the cells left empty are appended to `freed`.
    pub fn remove(&mut self, layout: &Layout, word: &[u8], pos: Pos, freed: &mut Vec<usize>) {
        let step = layout.step(pos.dir());
        let mut c = pos.start();
        for _ in word {
            self.cover[c] -= 1;
            if self.cover[c] == 0 {
                self.letters[c] = 0;
                freed.push(c);
            }
            c += step;
        }
    }
}

/// Why a placement list is not a valid play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invalid {
    WordOutOfRange(usize),
    WordReused(usize),
    DoesNotFit(usize),
    LetterClash(usize),
    NoNewCell(usize),
}

/// Replay `plays` in order on an empty board, checking every rule; the total score if valid. This is
/// the solver's own check (the tester has an independent one).
pub fn replay(layout: &Layout, words: &[Vec<u8>], plays: &[Placement]) -> Result<u64, Invalid> {
    let mut grid = Grid::new(layout.cells());
    let mut used = vec![false; words.len()];
    let mut filled = Vec::new();
    let mut total = 0u64;
    for (i, p) in plays.iter().enumerate() {
        let w = p.word as usize;
        if w >= words.len() {
            return Err(Invalid::WordOutOfRange(i));
        }
        if std::mem::replace(&mut used[w], true) {
            return Err(Invalid::WordReused(i));
        }
        if p.pos.start() >= layout.cells() || !layout.fits(words[w].len(), p.pos) {
            return Err(Invalid::DoesNotFit(i));
        }
        match grid.probe(layout, &words[w], p.pos) {
            None => return Err(Invalid::LetterClash(i)),
            Some(0) => return Err(Invalid::NoNewCell(i)),
            Some(_) => {}
        }
        grid.place(layout, &words[w], p.pos, &mut filled);
        total = total.saturating_add(layout.score(&words[w], p.pos));
    }
    Ok(total)
}
