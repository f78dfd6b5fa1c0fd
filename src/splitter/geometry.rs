//! A layout as 64-bit masks (boards of at most 64 cells; the official ones have 56): the board's
//! contents as one mask per die value plus the empty cells, neighbourhoods by shifts, groups by
//! flooding, placements and the exact score. The hand evaluation (`bits.rs`) and the learned one
//! (`learned/`) are both built on it. Tests compare it with the array rules (`score.rs`).

use super::layout::Layout;

/// Board contents as masks: `by_value[v]` holds the cells of value v (index 0 unused).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Bits {
    pub by_value: [u64; 7],
    pub empty: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    pub width: usize,
    /// Fillable cells.
    pub fill: u64,
    pub star: u64,
    pub hearts: u64,
    not_first_col: u64,
    not_last_col: u64,
    /// Cells with x <= mirror x: each mirror pair is placed from here.
    pub canonical: u64,
    mirror: Vec<usize>,
}

impl Geometry {
    /// None when the layout has more than 64 cells.
    pub fn new(layout: &Layout) -> Option<Geometry> {
        if layout.cells() > 64 {
            return None;
        }
        let w = layout.width();
        let mask = |f: &dyn Fn(usize) -> bool| {
            (0..layout.cells())
                .filter(|&i| f(i))
                .fold(0u64, |m, i| m | 1 << i)
        };
        Some(Geometry {
            width: w,
            fill: mask(&|i| layout.is_fillable(i)),
            star: mask(&|i| layout.is_star(i)),
            hearts: layout.hearts().iter().fold(0, |m, &h| m | 1 << h),
            not_first_col: mask(&|i| i % w != 0),
            not_last_col: mask(&|i| i % w != w - 1),
            canonical: mask(&|i| layout.is_fillable(i) && layout.mirror(i) >= i),
            mirror: (0..layout.cells()).map(|i| layout.mirror(i)).collect(),
        })
    }

    #[inline(always)]
    pub fn mirror(&self, cell: usize) -> usize {
        self.mirror[cell]
    }

    /// Free cells from which a placement can be named (one per mirror pair).
    #[inline(always)]
    pub fn free_canonical(&self, b: &Bits) -> u64 {
        b.empty & self.canonical
    }

    pub fn empty_board(&self) -> Bits {
        Bits {
            empty: self.fill,
            ..Bits::default()
        }
    }

    pub fn from_values(&self, values: &[u8]) -> Bits {
        let mut b = self.empty_board();
        for (i, &v) in values.iter().enumerate() {
            if v != 0 {
                b.by_value[v as usize] |= 1 << i;
                b.empty &= !(1u64 << i);
            }
        }
        b
    }

    /// The cell values (0 = empty) of a mask board with `cells` cells.
    pub fn to_values(&self, b: &Bits, cells: usize) -> Vec<u8> {
        (0..cells)
            .map(|i| {
                (1..=6u8)
                    .find(|&v| b.by_value[v as usize] >> i & 1 == 1)
                    .unwrap_or(0)
            })
            .collect()
    }

    /// Write `a` at `cell` and `b` at its mirror (the mirror write wins on a self-mirrored cell).
    #[inline(always)]
    pub fn apply(&self, bits: &mut Bits, cell: usize, a: u8, b: u8) {
        let m = self.mirror[cell];
        if m != cell {
            bits.by_value[a as usize] |= 1 << cell;
        }
        bits.by_value[b as usize] |= 1 << m;
        bits.empty &= !((1u64 << cell) | (1u64 << m));
    }

    /// The cells next to `b` (orthogonally), and `b` itself, within the board.
    #[inline(always)]
    pub fn expand(&self, b: u64) -> u64 {
        (b | ((b << 1) & self.not_first_col)
            | ((b >> 1) & self.not_last_col)
            | (b << self.width)
            | (b >> self.width))
            & self.fill
    }

    /// For each direction, the cells whose neighbour that way is in `m` (may include cells off
    /// the board: mask the result).
    #[inline(always)]
    pub fn neighbour_masks(&self, m: u64) -> [u64; 4] {
        [
            (m << 1) & self.not_first_col,
            (m >> 1) & self.not_last_col,
            m << self.width,
            m >> self.width,
        ]
    }

    /// The connected part of `within` that holds `seed`.
    #[inline(always)]
    pub fn flood(&self, seed: u64, within: u64) -> u64 {
        let mut g = seed;
        loop {
            let next = self.expand(g) & within;
            if next == g {
                return g;
            }
            g = next;
        }
    }

    /// The groups of `b` (connected cells of one value) that hold a cell of `seeds[v]` for their
    /// value v, value by value, each once: (value, cells).
    #[inline(always)]
    pub fn groups_from<'a>(&'a self, b: &'a Bits, seeds: [u64; 7]) -> Groups<'a> {
        Groups {
            geo: self,
            board: b,
            todo: seeds,
            value: 1,
        }
    }

    /// Exact score, same rules as `score::score`.
    #[inline]
    pub fn exact(&self, b: &Bits) -> u32 {
        let mut total = 0;
        for v in 1..=6 {
            let mut todo = b.by_value[v];
            while todo != 0 {
                let g = self.flood(todo & todo.wrapping_neg(), b.by_value[v]);
                if g.count_ones() as usize == v {
                    total += v as u32 * if g & self.star != 0 { 2 } else { 1 };
                }
                todo &= !g;
            }
        }
        if self.hearts != 0 && (1..=6).any(|v| self.hearts & !b.by_value[v] == 0) {
            total += 5;
        }
        total
    }
}

/// `Geometry::groups_from`.
pub struct Groups<'a> {
    geo: &'a Geometry,
    board: &'a Bits,
    todo: [u64; 7],
    value: usize,
}

impl Iterator for Groups<'_> {
    type Item = (usize, u64);

    #[inline(always)]
    fn next(&mut self) -> Option<(usize, u64)> {
        while self.value <= 6 {
            let v = self.value;
            let todo = self.todo[v];
            if todo != 0 {
                let g = self
                    .geo
                    .flood(todo & todo.wrapping_neg(), self.board.by_value[v]);
                self.todo[v] &= !g;
                return Some((v, g));
            }
            self.value += 1;
        }
        None
    }
}

/// A board after `placements` random placements (fewer if it fills up first): each a uniformly
/// chosen free pair and two random dice. For the tests of the values built on these masks.
#[cfg(test)]
pub fn random_board(geo: &Geometry, rng: &mut impl rand::Rng, placements: usize) -> Bits {
    let mut b = geo.empty_board();
    for _ in 0..placements {
        let free = geo.free_canonical(&b);
        if free == 0 {
            break;
        }
        let cells: Vec<usize> = (0..64).filter(|&c| free >> c & 1 == 1).collect();
        let c = cells[rng.random_range(0..cells.len())];
        geo.apply(&mut b, c, rng.random_range(1..=6), rng.random_range(1..=6));
    }
    b
}

#[cfg(test)]
mod tests {
    use super::super::bits::tests::random_layout;
    use super::super::layout::official;
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The mask score equals the array score; values survive the round trip through masks.
    #[test]
    fn exact_matches_the_array_score() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for case in 0..500 {
            let layout = if case % 2 == 0 {
                official(1 + (case % 4 / 2) as u8)
            } else {
                random_layout(&mut rng)
            };
            let geo = Geometry::new(&layout).unwrap();
            let mut values = vec![0u8; layout.cells()];
            for &c in layout.fillable() {
                if rng.random_bool(0.8) {
                    values[c] = rng.random_range(1..=6);
                }
            }
            let b = geo.from_values(&values);
            assert_eq!(geo.to_values(&b, layout.cells()), values);
            assert_eq!(
                geo.exact(&b),
                super::super::score::score(&layout, &values),
                "case {case}"
            );
        }
    }
}
