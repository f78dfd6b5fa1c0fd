//! Precomputed geometry of one level under one rule set: portal-aware steps, symmetric touching,
//! which cells have a lettered predecessor, and the words already on the grid.

use super::level::{Bonus, Dir6, Level};
use super::rules::{Layout, Rules, WordDir};

/// Why a path stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathEnd {
    /// The next cell is off the grid.
    Edge,
    /// The next cell is already on the path (a portal loop).
    Loop,
    /// The next cell is empty and would need one hand tile too many (the path holds the cells
    /// before it; nothing was pushed for it).
    Cut,
}

/// "No cell": off the grid.
pub const OFF: u32 = u32::MAX;

pub struct Board<'a> {
    pub level: &'a Level,
    pub rules: Rules,
    /// `next[d][c]`: the cell reached from `c` moving in `Dir6::ALL[d]`, through a portal when `c`
    /// is a portal of that direction; `OFF` outside the grid.
    next: [Vec<u32>; 6],
    /// `lettered_pred[w][c]`: some lettered cell steps onto `c` in word direction `w`.
    lettered_pred: [Vec<bool>; 3],
    /// Symmetric touching: `touching[c]` lists every cell that is a neighbour of `c` or has `c`
    /// as a neighbour.
    touching: Vec<Vec<u32>>,
    /// Words already on the grid (maximal lettered runs of 2+ cells), with their start cell and
    /// direction.
    pub existing: Vec<(Vec<u8>, u32, WordDir)>,
}

/// The plain hex step on the rectangular grid, ignoring portals.
pub fn geometric_step(
    layout: Layout,
    width: usize,
    height: usize,
    x: usize,
    y: usize,
    d: Dir6,
) -> Option<(usize, usize)> {
    let (x, y) = (x as i64, y as i64);
    // Row shift of the row above/below relative to this one, for the offset layouts.
    let s = match layout {
        Layout::OddR => y & 1,
        Layout::EvenR => 1 - (y & 1),
        Layout::Axial => 0,
    };
    let (nx, ny) = match (layout, d) {
        (_, Dir6::Right) => (x + 1, y),
        (_, Dir6::Left) => (x - 1, y),
        (Layout::Axial, Dir6::UpRight) => (x + 1, y - 1),
        (Layout::Axial, Dir6::UpLeft) => (x, y - 1),
        (Layout::Axial, Dir6::DownRight) => (x, y + 1),
        (Layout::Axial, Dir6::DownLeft) => (x - 1, y + 1),
        (_, Dir6::UpRight) => (x + s, y - 1),
        (_, Dir6::UpLeft) => (x + s - 1, y - 1),
        (_, Dir6::DownRight) => (x + s, y + 1),
        (_, Dir6::DownLeft) => (x + s - 1, y + 1),
    };
    if nx < 0 || ny < 0 || nx >= width as i64 || ny >= height as i64 {
        None
    } else {
        Some((nx as usize, ny as usize))
    }
}

impl<'a> Board<'a> {
    pub fn new(level: &'a Level, rules: Rules) -> Board<'a> {
        let n = level.cell_count();
        let mut portal_cell = [OFF; 6];
        for (c, b) in level.bonuses.iter().enumerate() {
            if let Bonus::Portal(d) = b {
                portal_cell[*d as usize] = c as u32;
            }
        }
        let next: [Vec<u32>; 6] = std::array::from_fn(|di| {
            let d = Dir6::ALL[di];
            (0..n)
                .map(|c| {
                    if level.bonuses[c] == Bonus::Portal(d) {
                        return portal_cell[d.opposite() as usize];
                    }
                    let (x, y) = (c % level.width, c / level.width);
                    geometric_step(rules.layout, level.width, level.height, x, y, d)
                        .map_or(OFF, |(nx, ny)| level.index(nx, ny) as u32)
                })
                .collect()
        });
        let mut touching: Vec<Vec<u32>> = vec![Vec::new(); n];
        for step in &next {
            for (c, &t) in step.iter().enumerate() {
                if t != OFF && t as usize != c {
                    touching[c].push(t);
                    touching[t as usize].push(c as u32);
                }
            }
        }
        for list in &mut touching {
            list.sort_unstable();
            list.dedup();
        }
        let lettered_pred: [Vec<bool>; 3] = std::array::from_fn(|wi| {
            let step = &next[WordDir::ALL[wi].dir6() as usize];
            let mut has = vec![false; n];
            for (c, &t) in step.iter().enumerate() {
                if t != OFF && level.letters[c].is_some() {
                    has[t as usize] = true;
                }
            }
            has
        });
        let mut board = Board {
            level,
            rules,
            next,
            lettered_pred,
            touching,
            existing: Vec::new(),
        };
        board.existing = board.find_existing_words();
        board
    }

    /// The next cell from `c` in word direction `w` (portal-aware), or `OFF`.
    #[inline]
    pub fn step(&self, c: u32, w: WordDir) -> u32 {
        self.next[w.dir6() as usize][c as usize]
    }

    #[inline]
    pub fn has_lettered_pred(&self, c: u32, w: WordDir) -> bool {
        self.lettered_pred[w as usize][c as usize]
    }

    #[inline]
    pub fn touching(&self, c: u32) -> &[u32] {
        &self.touching[c as usize]
    }

    #[inline]
    pub fn letter(&self, c: u32) -> Option<u8> {
        self.level.letters[c as usize]
    }

    #[inline]
    pub fn bonus(&self, c: u32) -> Bonus {
        self.level.bonuses[c as usize]
    }

    /// Cells from `start` in direction `w` until the grid ends, a cell would repeat, or the next
    /// cell would be empty cell number `max_empty + 1` (no word can use that many hand tiles).
    pub fn path(&self, start: u32, w: WordDir, max_empty: usize, out: &mut Vec<u32>) -> PathEnd {
        out.clear();
        let mut c = start;
        let mut empty = 0;
        loop {
            if self.letter(c).is_none() {
                if empty == max_empty {
                    return PathEnd::Cut;
                }
                empty += 1;
            }
            out.push(c);
            let n = self.step(c, w);
            if n == OFF {
                return PathEnd::Edge;
            }
            if out.contains(&n) {
                return PathEnd::Loop;
            }
            c = n;
        }
    }

    fn find_existing_words(&self) -> Vec<(Vec<u8>, u32, WordDir)> {
        let mut words = Vec::new();
        let mut path = Vec::new();
        for c in 0..self.level.cell_count() as u32 {
            if self.letter(c).is_none() {
                continue;
            }
            for w in WordDir::ALL {
                if self.has_lettered_pred(c, w) {
                    continue;
                }
                self.path(c, w, 0, &mut path);
                let word: Vec<u8> = path.iter().map_while(|&p| self.letter(p)).collect();
                if word.len() >= 2 {
                    words.push((word, c, w));
                }
            }
        }
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometric_steps_are_reversible_and_odd_r_matches_the_spec() {
        for layout in [Layout::OddR, Layout::EvenR, Layout::Axial] {
            for y in 0..7 {
                for x in 0..6 {
                    for d in Dir6::ALL {
                        if let Some((nx, ny)) = geometric_step(layout, 6, 7, x, y, d) {
                            let back = geometric_step(layout, 6, 7, nx, ny, d.opposite());
                            assert_eq!(back, Some((x, y)), "{layout:?} {d:?} from ({x},{y})");
                        }
                    }
                }
            }
        }
        let s = |x, y, d| geometric_step(Layout::OddR, 9, 9, x, y, d);
        assert_eq!(s(4, 4, Dir6::UpRight), Some((4, 3)));
        assert_eq!(s(4, 3, Dir6::UpRight), Some((5, 2)));
        assert_eq!(s(4, 4, Dir6::DownRight), Some((4, 5)));
        assert_eq!(s(4, 3, Dir6::DownRight), Some((5, 4)));
        let e = |x, y, d| geometric_step(Layout::EvenR, 9, 9, x, y, d);
        assert_eq!(e(4, 4, Dir6::UpRight), Some((5, 3)));
        assert_eq!(e(4, 3, Dir6::UpRight), Some((4, 2)));
        let a = |x, y, d| geometric_step(Layout::Axial, 9, 9, x, y, d);
        assert_eq!(a(4, 4, Dir6::UpRight), Some((5, 3)));
        assert_eq!(a(4, 4, Dir6::DownRight), Some((4, 5)));
    }

    #[test]
    fn portals_redirect_their_own_direction_and_touch_symmetrically() {
        let level = Level::parse(
            ("- - -\nA B -\n- - -\n", "l"),
            ("pdr - -\n- - -\n- - pul\n", "b"),
            ("A", "h"),
        )
        .unwrap();
        let board = Board::new(&level, Rules::default());
        // pdr at (0,0) steps down_right onto pul at (2,2); pul's up-left neighbour is pdr.
        assert_eq!(board.step(0, WordDir::DownRight), 8);
        assert!(board.touching(8).contains(&0) && board.touching(0).contains(&8));
        // (0,0)'s geometric down_right (0,1) still touches it through (0,1)'s up_right... in odd-r
        // (0,1) up_right is (1,0), up_left is (0,0).
        assert!(board.touching(0).contains(&3));
        assert_eq!(board.existing, vec![(b"AB".to_vec(), 3, WordDir::Right)]);
        assert!(board.has_lettered_pred(4, WordDir::Right));
        assert!(!board.has_lettered_pred(3, WordDir::Right));
    }
}
