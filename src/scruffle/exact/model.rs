//! The exact model: every candidate placement of a part of the board, with what it needs. The
//! part is a `Frame`: its free cells (empty, may be filled), the letters fixed around them (kept
//! plays' letters, which candidates may cross but not change) and the entries still available.
//! The whole board of a small case is one frame; a window of a large plan is another.

use crate::scruffle::layout::{Layout, Pos, DIRS};
use std::collections::HashMap;

/// What the exact search may change and what it must respect.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Cells that may receive a letter (each candidate fills at least one of them).
    pub free: Vec<bool>,
    /// Letters already on the board (0 = none); candidates may cover them when they agree.
    pub letters: Vec<u8>,
    /// Entries that may still be played.
    pub available: Vec<bool>,
    /// Only positions that start in this rectangle of start cells are tried (x0, x1, y0, y1
    /// inclusive); the whole board when `None`.
    pub starts: Option<(usize, usize, usize, usize)>,
    /// The symbols each cell may hold (`dual::ANY` style masks; blank is always allowed here):
    /// candidates putting another letter on a cell are left out.
    pub allowed: Option<Vec<u32>>,
}

impl Frame {
    /// The whole empty board with every entry available.
    pub fn whole(layout: &Layout, entries: usize) -> Frame {
        Frame {
            free: (0..layout.cells()).map(|c| layout.is_open(c)).collect(),
            letters: vec![0; layout.cells()],
            available: vec![true; entries],
            starts: None,
            allowed: None,
        }
    }
}

/// One candidate placement: a spelling at a position.
#[derive(Clone, Copy, Debug)]
pub struct Cand {
    pub spelling: u32,
    pub pos: Pos,
    pub score: u64,
    /// Its cells are `Model::cells[first..first + len]`.
    pub first: u32,
    pub len: u16,
}

/// A distinct spelling among the available entries, with the entries spelled so.
#[derive(Clone, Debug)]
pub struct Spelling {
    pub entries: Vec<u32>,
    /// Its candidates, best first.
    pub cands: Vec<u32>,
}

/// The candidates of a frame, best score first (ties: spelling, then position).
pub struct Model {
    pub cands: Vec<Cand>,
    /// (cell, letter) of every candidate, candidate after candidate.
    pub cells: Vec<(u32, u8)>,
    pub spellings: Vec<Spelling>,
    /// Whether each cell is free (may be filled by a candidate).
    pub free: Vec<bool>,
    /// The letters fixed before the search.
    pub fixed: Vec<u8>,
}

impl Model {
    /// Every candidate of `frame`: an available entry's spelling at a position where it fits,
    /// agrees with the fixed letters, covers only free or fixed cells, fills at least one free
    /// cell and scores more than 0 (a play worth 0 only takes room).
    pub fn new(layout: &Layout, words: &[Vec<u8>], frame: &Frame) -> Model {
        let mut by_text: HashMap<&[u8], usize> = HashMap::new();
        let mut spellings: Vec<Spelling> = Vec::new();
        let mut texts: Vec<&[u8]> = Vec::new();
        for (i, w) in words.iter().enumerate() {
            if !frame.available[i] || w.is_empty() || w.len() > layout.longest_run() {
                continue;
            }
            let s = *by_text.entry(w.as_slice()).or_insert_with(|| {
                spellings.push(Spelling {
                    entries: Vec::new(),
                    cands: Vec::new(),
                });
                texts.push(w);
                spellings.len() - 1
            });
            spellings[s].entries.push(i as u32);
        }
        let mut cands = Vec::new();
        let mut cells = Vec::new();
        let mut span = Vec::new();
        for (s, text) in texts.iter().enumerate() {
            for pos in start_positions(layout, text.len(), frame.starts) {
                span.clear();
                let mut fresh = false;
                let mut ok = true;
                for (c, &b) in layout.span(pos, text.len()).zip(text.iter()) {
                    if frame
                        .allowed
                        .as_ref()
                        .is_some_and(|a| a[c] & 1 << (b - b'A') == 0)
                    {
                        ok = false;
                        break;
                    }
                    match frame.letters[c] {
                        0 if frame.free[c] => fresh = true,
                        l if l == b => {}
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                    span.push((c as u32, b));
                }
                let score = layout.score(text, pos);
                if !ok || !fresh || score == 0 {
                    continue;
                }
                cands.push(Cand {
                    spelling: s as u32,
                    pos,
                    score,
                    first: cells.len() as u32,
                    len: span.len() as u16,
                });
                cells.extend_from_slice(&span);
            }
        }
        // Best first; the cells stay where they are (`first` follows each candidate).
        cands.sort_by(|a, b| (b.score, a.spelling, a.pos).cmp(&(a.score, b.spelling, b.pos)));
        for (k, c) in cands.iter().enumerate() {
            spellings[c.spelling as usize].cands.push(k as u32);
        }
        Model {
            cands,
            cells,
            spellings,
            free: frame.free.clone(),
            fixed: frame.letters.clone(),
        }
    }

    /// The model with only the candidates listed in `order`, in that order.
    pub fn restrict(&self, order: &[u32]) -> Model {
        let mut cands = Vec::new();
        let mut cells = Vec::new();
        let mut spellings: Vec<Spelling> = self
            .spellings
            .iter()
            .map(|s| Spelling {
                entries: s.entries.clone(),
                cands: Vec::new(),
            })
            .collect();
        for &k in order {
            let (k, c) = (k as usize, &self.cands[k as usize]);
            spellings[c.spelling as usize]
                .cands
                .push(cands.len() as u32);
            cands.push(Cand {
                first: cells.len() as u32,
                ..*c
            });
            cells.extend_from_slice(self.cells_of(k));
        }
        Model {
            cands,
            cells,
            spellings,
            free: self.free.clone(),
            fixed: self.fixed.clone(),
        }
    }

    /// The candidates from index `from` on whose spelling has entries `left` and that are not
    /// `banned`, with their indices.
    pub fn open_from<'a>(
        &'a self,
        from: usize,
        left: &'a [u32],
        banned: &'a [bool],
    ) -> impl Iterator<Item = (usize, &'a Cand)> + 'a {
        self.cands
            .iter()
            .enumerate()
            .skip(from)
            .filter(move |&(k, c)| left[c.spelling as usize] > 0 && !banned[k])
    }

    /// The (cell, letter) pairs of candidate `k`.
    #[inline]
    pub fn cells_of(&self, k: usize) -> &[(u32, u8)] {
        let c = &self.cands[k];
        &self.cells[c.first as usize..c.first as usize + c.len as usize]
    }
}

/// The positions where a word of `len` letters fits, starting in `starts` when given.
fn start_positions(
    layout: &Layout,
    len: usize,
    starts: Option<(usize, usize, usize, usize)>,
) -> Vec<Pos> {
    let (x0, x1, y0, y1) = starts.unwrap_or((0, layout.width - 1, 0, layout.height - 1));
    let mut out = Vec::new();
    for dir in DIRS {
        for y in y0..=y1.min(layout.height - 1) {
            for x in x0..=x1.min(layout.width - 1) {
                let pos = layout.pos_at(dir, x, y);
                if layout.fits(len, pos) {
                    out.push(pos);
                }
            }
        }
    }
    out
}

/// Can the chosen candidates be played in some order where each fills a free cell first?
/// Returns the play order (first to last) or `None`.
pub fn play_order(model: &Model, chosen: &[u32]) -> Option<Vec<u32>> {
    let cells: Vec<Vec<u32>> = chosen
        .iter()
        .map(|&k| {
            let cells = model.cells_of(k as usize).iter().map(|&(c, _)| c);
            cells.filter(|&c| model.free[c as usize]).collect()
        })
        .collect();
    peel(&cells).map(|order| order.into_iter().map(|i| chosen[i]).collect())
}

/// An order of plays (given by the free cells each covers) where each fills a cell no earlier
/// play covers, if there is one. Peeled from the end: the last must cover a cell no other play
/// covers, and any such play can go last. Returns the indices, first to last.
pub fn peel(cells: &[Vec<u32>]) -> Option<Vec<usize>> {
    let mut cover: HashMap<u32, (u32, u32)> = HashMap::new();
    for (i, span) in cells.iter().enumerate() {
        for &c in span {
            let e = cover.entry(c).or_insert((0, 0));
            e.0 += 1;
            e.1 ^= i as u32 + 1;
        }
    }
    let mut own: Vec<usize> = cells
        .iter()
        .map(|span| span.iter().filter(|c| cover[c].0 == 1).count())
        .collect();
    let mut ready: Vec<usize> = (0..cells.len()).filter(|&i| own[i] > 0).collect();
    let mut alive = vec![true; cells.len()];
    let mut reversed = Vec::with_capacity(cells.len());
    while let Some(i) = ready.pop() {
        if !std::mem::replace(&mut alive[i], false) {
            continue;
        }
        reversed.push(i);
        for c in &cells[i] {
            let e = cover.get_mut(c).expect("covered");
            e.0 -= 1;
            e.1 ^= i as u32 + 1;
            if e.0 == 1 {
                let j = e.1 as usize - 1;
                own[j] += 1;
                if own[j] == 1 {
                    ready.push(j);
                }
            }
        }
    }
    (reversed.len() == cells.len()).then(|| {
        reversed.reverse();
        reversed
    })
}
