//! The evaluation of `eval.rs` on 64-bit masks, for boards of at most 64 cells (the official ones
//! have 56): one mask per die value plus the empty cells; groups are flooded with shifts. Same
//! weights and the same rules as `Evaluator`, several times faster; used by the search rollouts.
//! Tests compare it with `Evaluator` (delta, full value, exact score) on random boards.

use super::eval::{
    group, phase_factor, EvalParams, DEAD, HEART, MANY_LIBERTIES, ONE_LIBERTY, OPEN_MANY,
    STAR_REACH, TIGHT,
};
use super::layout::Layout;

/// Board contents as masks: `by_value[v]` holds the cells of value v (index 0 unused).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Bits {
    pub by_value: [u64; 7],
    pub empty: u64,
}

/// A board split into groups (`BitEval::decompose`), so that every option of a rollout step
/// reuses the floods and valuations instead of redoing them.
#[derive(Clone)]
pub struct Groups {
    n: usize,
    mask: [u64; 64],
    value: [f32; 64],
    /// The empty cells each group's value depends on (`group_value_deps`).
    deps: [u64; 64],
    /// Index of the group holding each filled cell.
    group_of: [u8; 64],
    heart: f32,
    /// The region's groups prepared by `prepare_cell`, in the order `region_value` sums them.
    region: Region,
}

/// The groups meeting one cell's region, in summation order (by value, then lowest cell in the
/// region), valued for the board after the pair is filled, whatever the dice.
#[derive(Clone)]
struct Region {
    n: usize,
    /// value * 64 + lowest cell in the region: the summation order.
    key: [u16; 64],
    mask: [u64; 64],
    after: [f32; 64],
    /// `prefix[i]`: the sum of `after[..i]`, added in order.
    prefix: [f32; 65],
    /// Index of the first group of value >= v.
    first_of_value: [u8; 8],
}

impl Default for Groups {
    fn default() -> Self {
        Groups {
            n: 0,
            mask: [0; 64],
            value: [0.0; 64],
            deps: [0; 64],
            group_of: [0; 64],
            heart: 0.0,
            region: Region {
                n: 0,
                key: [0; 64],
                mask: [0; 64],
                after: [0.0; 64],
                prefix: [0.0; 65],
                first_of_value: [0; 8],
            },
        }
    }
}

#[derive(Clone)]
pub struct BitEval {
    params: EvalParams,
    width: usize,
    fill: u64,
    star: u64,
    hearts: u64,
    not_first_col: u64,
    not_last_col: u64,
    /// Cells with x <= mirror x: each mirror pair is placed from here.
    canonical: u64,
    mirror: Vec<usize>,
    /// Cells within two steps of each cell, and of it together with its mirror.
    near_pair: Vec<u64>,
    rounds_after: usize,
    total_rounds: usize,
    /// `phase_factor` at `rounds_after` (computed once per setting).
    phase: f32,
}

impl BitEval {
    /// None when the layout has more than 64 cells.
    pub fn new(layout: &Layout, params: EvalParams) -> Option<BitEval> {
        if layout.cells() > 64 {
            return None;
        }
        let w = layout.width();
        let mask = |f: &dyn Fn(usize) -> bool| {
            (0..layout.cells())
                .filter(|&i| f(i))
                .fold(0u64, |m, i| m | 1 << i)
        };
        let mut e = BitEval {
            params,
            width: w,
            fill: mask(&|i| layout.is_fillable(i)),
            star: mask(&|i| layout.is_star(i)),
            hearts: layout.hearts().iter().fold(0, |m, &h| m | 1 << h),
            not_first_col: mask(&|i| i % w != 0),
            not_last_col: mask(&|i| i % w != w - 1),
            canonical: mask(&|i| layout.is_fillable(i) && layout.mirror(i) >= i),
            mirror: (0..layout.cells()).map(|i| layout.mirror(i)).collect(),
            near_pair: Vec::new(),
            rounds_after: usize::MAX,
            total_rounds: layout.default_rounds(),
            phase: 0.0,
        };
        e.set_rounds_after(usize::MAX);
        e.near_pair = (0..layout.cells())
            .map(|i| {
                let two = |b: u64| e.expand(e.expand(b));
                two(1 << i) | two(1 << layout.mirror(i))
            })
            .collect();
        Some(e)
    }

    pub fn set_rounds_after(&mut self, rounds: usize) {
        self.rounds_after = rounds;
        self.phase = phase_factor(&self.params.w, rounds, self.total_rounds);
    }

    pub fn mirror(&self, cell: usize) -> usize {
        self.mirror[cell]
    }

    /// Free cells from which a placement can be named (one per mirror pair).
    pub fn free_canonical(&self, b: &Bits) -> u64 {
        b.empty & self.canonical
    }

    pub fn from_values(&self, values: &[u8]) -> Bits {
        let mut b = Bits {
            empty: self.fill,
            ..Bits::default()
        };
        for (i, &v) in values.iter().enumerate() {
            if v != 0 {
                b.by_value[v as usize] |= 1 << i;
                b.empty &= !(1u64 << i);
            }
        }
        b
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

    #[inline(always)]
    fn expand(&self, b: u64) -> u64 {
        (b | ((b << 1) & self.not_first_col)
            | ((b >> 1) & self.not_last_col)
            | (b << self.width)
            | (b >> self.width))
            & self.fill
    }

    #[inline(always)]
    fn flood(&self, seed: u64, within: u64) -> u64 {
        let mut g = seed;
        loop {
            let next = self.expand(g) & within;
            if next == g {
                return g;
            }
            g = next;
        }
    }

    /// Same valuation as `Evaluator::group_value`.
    #[inline(always)]
    fn group_value(&self, g: u64, v: usize, empty: u64) -> f32 {
        self.group_value_deps(g, v, empty).0
    }

    /// `group_value`, and the empty cells it depends on: filling any other empty cell leaves
    /// the group's value unchanged (filling only removes liberties, so a group with none, or
    /// one past saving, stays at its value).
    #[inline(always)]
    fn group_value_deps(&self, g: u64, v: usize, empty: u64) -> (f32, u64) {
        let w = &self.params.w;
        let size = g.count_ones() as usize;
        let star = g & self.star != 0;
        let points = v as f32 * if star { 2.0 } else { 1.0 };
        if size > v {
            return (-w[DEAD] * v as f32, 0);
        }
        let liberties = self.expand(g) & empty;
        if size == v {
            let value = match liberties.count_ones() {
                0 => points,
                1 => points * w[group(v, 0)],
                _ => points * w[group(v, 0)] * w[OPEN_MANY],
            };
            return (value, liberties);
        }
        let missing = v - size;
        if liberties == 0 || missing > self.rounds_after {
            return (0.0, 0);
        }
        let libs = liberties.count_ones() as usize;
        let mut deps = liberties;
        if libs < missing {
            // The cells next to the liberties count too: they decide whether the rest fits.
            let room = self.expand(liberties) & empty;
            if room.count_ones() < missing as u32 {
                return (0.0, 0);
            }
            deps = room;
        }
        let tight = if missing == self.rounds_after {
            w[TIGHT]
        } else {
            1.0
        };
        let reach = if !star && liberties & self.star != 0 {
            w[STAR_REACH] * v as f32
        } else {
            0.0
        };
        let boxed = match libs {
            1 => w[ONE_LIBERTY],
            2 => 1.0,
            _ => w[MANY_LIBERTIES],
        };
        let value = (points + reach) * w[group(v, missing)] * boxed * tight * self.phase;
        (value, deps)
    }

    #[inline(always)]
    fn heart_value(&self, b: &Bits) -> f32 {
        if self.hearts == 0 {
            return 0.0;
        }
        let empty = (b.empty & self.hearts).count_ones() as usize;
        let filled = self.hearts & !b.empty;
        if filled != 0 && !(1..=6).any(|v| filled & !b.by_value[v] == 0) {
            return 0.0;
        }
        match empty {
            0 => 5.0,
            1..=3 => 5.0 * self.params.w[HEART + empty - 1],
            _ => 0.0,
        }
    }

    /// Sum over the groups meeting `region`, plus hearts.
    #[inline]
    fn region_value(&self, b: &Bits, region: u64) -> f32 {
        let mut total = 0.0;
        for v in 1..=6 {
            let mut todo = b.by_value[v] & region;
            while todo != 0 {
                let g = self.flood(todo & todo.wrapping_neg(), b.by_value[v]);
                total += self.group_value(g, v, b.empty);
                todo &= !g;
            }
        }
        total + self.heart_value(b)
    }

    /// The part of the value a placement at `cell` can change (see `Evaluator::local_before`).
    #[inline]
    pub fn local_before(&self, b: &Bits, cell: usize) -> f32 {
        self.region_value(b, self.near_pair[cell])
    }

    /// Value change from placing `a` at `cell` and `bv` at its mirror, given `local_before`.
    #[inline]
    pub fn delta_from(&self, before: f32, b: &Bits, cell: usize, a: u8, bv: u8) -> f32 {
        let mut after = *b;
        self.apply(&mut after, cell, a, bv);
        self.region_value(&after, self.near_pair[cell]) - before
    }

    /// Split the board into groups once (for `prepare_cell` / `delta_in`): each group's mask,
    /// value at the current `rounds_after` and the empty cells that value depends on.
    #[inline(always)]
    pub fn decompose(&self, b: &Bits, out: &mut Groups) {
        out.n = 0;
        for v in 1..=6 {
            let mut todo = b.by_value[v];
            while todo != 0 {
                let g = self.flood(todo & todo.wrapping_neg(), b.by_value[v]);
                let k = out.n;
                out.mask[k] = g;
                (out.value[k], out.deps[k]) = self.group_value_deps(g, v, b.empty);
                let mut cells = g;
                while cells != 0 {
                    out.group_of[cells.trailing_zeros() as usize] = k as u8;
                    cells &= cells - 1;
                }
                out.n += 1;
                todo &= !g;
            }
        }
        out.heart = self.heart_value(b);
    }

    /// `local_before(b, cell)` from the groups of `decompose(b)`, without flooding: the same
    /// terms summed in the same order, so the result is bit-identical. Also lists the region's
    /// groups valued for the board after the pair at `cell` is filled, for `delta_in`.
    #[inline(always)]
    pub fn prepare_cell(&self, groups: &mut Groups, b: &Bits, cell: usize) -> f32 {
        let region = self.near_pair[cell];
        let written = (1u64 << cell) | (1u64 << self.mirror[cell]);
        let empty_after = b.empty & !written;
        let r = &mut groups.region;
        r.n = 0;
        let mut total = 0.0;
        let mut after_total = 0.0;
        for v in 1..=6 {
            r.first_of_value[v] = r.n as u8;
            let mut todo = b.by_value[v] & region;
            while todo != 0 {
                let low = todo.trailing_zeros() as usize;
                let k = groups.group_of[low] as usize;
                let g = groups.mask[k];
                total += groups.value[k];
                let after = if groups.deps[k] & written == 0 {
                    groups.value[k]
                } else {
                    self.group_value(g, v, empty_after)
                };
                let i = r.n;
                r.key[i] = (v * 64 + low) as u16;
                r.mask[i] = g;
                r.after[i] = after;
                r.prefix[i] = after_total;
                after_total += after;
                r.n += 1;
                todo &= !g;
            }
        }
        r.first_of_value[7] = r.n as u8;
        r.prefix[r.n] = after_total;
        total + groups.heart
    }

    /// `delta_from(before, b, cell, a, bv)` after `prepare_cell(groups, b, cell)`: only the
    /// groups holding the two written cells are flooded and valued; the region's other groups
    /// keep their prepared values, and the sum restarts from the prepared prefix below the first
    /// value the dice can change. Same terms in the same order as `region_value`, so the result
    /// is bit-identical.
    #[inline(always)]
    pub fn delta_in(
        &self,
        groups: &Groups,
        before: f32,
        b: &Bits,
        cell: usize,
        a: u8,
        bv: u8,
    ) -> f32 {
        let mut after = *b;
        self.apply(&mut after, cell, a, bv);
        let m = self.mirror[cell];
        let region = self.near_pair[cell];
        // The group a written cell ends up in: itself and the neighbouring groups of its value.
        let joined = |c: usize, v: u8| {
            let mut g = 1u64 << c;
            let mut next_to = self.expand(g) & b.by_value[v as usize];
            while next_to != 0 {
                let k = groups.group_of[next_to.trailing_zeros() as usize] as usize;
                g |= groups.mask[k];
                next_to &= !groups.mask[k];
            }
            g
        };
        // The groups holding the written cells (equal dice may join them into one).
        let (g0, g1) = if m == cell {
            (joined(m, bv), 0)
        } else {
            let g0 = joined(cell, a);
            if a == bv && self.expand(g0) & (1 << m) != 0 {
                (g0 | joined(m, bv), 0)
            } else {
                (g0, joined(m, bv))
            }
        };
        // Their values and places in the summation order (value, then lowest cell in region).
        let fresh = |g: u64, v: u8| {
            let key = v as u16 * 64 + (g & region).trailing_zeros() as u16;
            (key, self.group_value(g, v as usize, after.empty))
        };
        let v0 = if m == cell { bv } else { a };
        let mut first = fresh(g0, v0);
        let mut second = if g1 != 0 {
            fresh(g1, bv)
        } else {
            (u16::MAX, 0.0)
        };
        if second.0 < first.0 {
            std::mem::swap(&mut first, &mut second);
        }
        let r = &groups.region;
        let start = r.first_of_value[a.min(bv) as usize] as usize;
        let keys = &r.key[start..r.n];
        let place = |key: u16| start + keys.iter().filter(|&&k| k < key).count();
        let (p0, p1) = (place(first.0), place(second.0));
        // Groups joined to a written cell are part of a fresh group: they add +0.0, which
        // leaves the sum unchanged (it starts at +0.0, so it is never -0.0).
        let both = g0 | g1;
        let add = |mut total: f32, from: usize, to: usize| {
            for i in from..to {
                let keep = if r.mask[i] & both == 0 { u32::MAX } else { 0 };
                total += f32::from_bits(r.after[i].to_bits() & keep);
            }
            total
        };
        let mut total = add(r.prefix[start], start, p0) + first.1;
        total = add(total, p0, p1);
        if second.0 != u16::MAX {
            total += second.1;
        }
        total = add(total, p1, r.n);
        total + self.heart_value(&after) - before
    }

    /// Full evaluation (all groups).
    pub fn eval(&self, b: &Bits) -> f32 {
        self.region_value(b, u64::MAX)
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

#[cfg(test)]
pub(crate) mod tests {
    use super::super::eval::Evaluator;
    use super::super::layout::{official, Layout};
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A random small layout (mirror-symmetric fillable cells, some stars and hearts).
    pub(crate) fn random_layout(rng: &mut Xoshiro256PlusPlus) -> Layout {
        loop {
            let w = rng.random_range(1..=9usize);
            let h = rng.random_range(1..=(64 / w).min(8));
            let mut rows = vec![vec![0u8; w]; h];
            for row in rows.iter_mut() {
                for x in 0..w.div_ceil(2) {
                    if rng.random_bool(0.85) {
                        let code = [1, 1, 1, 1, 1, 1, 2, 3][rng.random_range(0..8)];
                        row[x] = code;
                        row[w - 1 - x] = if rng.random_bool(0.8) { code } else { 1 };
                    }
                }
            }
            if let Ok(l) = Layout::new(&rows) {
                if !l.fillable().is_empty() {
                    return l;
                }
            }
        }
    }

    /// The mask evaluator agrees with the array evaluator: full value, exact score, every delta.
    #[test]
    fn agrees_with_the_array_evaluator() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(77);
        let mut deltas = 0;
        for case in 0..600 {
            let layout = if case % 3 == 0 {
                official(1 + (case % 2) as u8)
            } else {
                random_layout(&mut rng)
            };
            let mut params = EvalParams::default();
            for w in params.w.iter_mut() {
                *w *= rng.random_range(0.5..1.5);
            }
            let mut ev = Evaluator::new(&layout, params.clone());
            let mut be = BitEval::new(&layout, params).unwrap();
            let rounds = rng.random_range(0..12);
            ev.set_rounds_after(rounds);
            be.set_rounds_after(rounds);
            let mut values = vec![0u8; layout.cells()];
            let fill = rng.random_range(0.0..1.0);
            for &c in layout.fillable() {
                if layout.mirror(c) >= c && rng.random_bool(fill) {
                    let (a, b) = (rng.random_range(1..=6), rng.random_range(1..=6));
                    values[c] = a;
                    values[layout.mirror(c)] = b;
                }
            }
            let bits = be.from_values(&values);
            assert!(
                (ev.eval(&values) - be.eval(&bits)).abs() < 1e-3,
                "case {case}"
            );
            assert_eq!(ev.exact(&values), be.exact(&bits), "case {case}");
            let mut free = be.free_canonical(&bits);
            while free != 0 {
                let cell = free.trailing_zeros() as usize;
                free &= free - 1;
                let (a, b) = (rng.random_range(1..=6), rng.random_range(1..=6));
                let before = be.local_before(&bits, cell);
                let fast = be.delta_from(before, &bits, cell, a, b);
                let slow = ev.delta(&mut values, cell, a, b);
                assert!(
                    (fast - slow).abs() < 1e-3,
                    "case {case} cell {cell}: {fast} vs {slow}"
                );
                let mut after = bits;
                be.apply(&mut after, cell, a, b);
                let mut after_values = values.clone();
                after_values[cell] = a;
                after_values[layout.mirror(cell)] = b;
                assert_eq!(after, be.from_values(&after_values));
                deltas += 1;
            }
        }
        assert!(deltas > 3000, "{deltas}");
    }

    /// The group-reusing valuation (`decompose` + `prepare_cell` / `delta_in`) gives
    /// bit-identical numbers to the flooding one (`local_before` / `delta_from`), for every free
    /// pair and die pair, on official and random small layouts at random fill and rounds left.
    #[test]
    fn reused_groups_give_identical_values() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(78);
        let mut deltas = 0;
        let mut groups = Groups::default();
        for case in 0..1500 {
            let layout = if case % 3 == 0 {
                official(1 + (case % 2) as u8)
            } else {
                random_layout(&mut rng)
            };
            let mut params = EvalParams::for_layout(&layout);
            for w in params.w.iter_mut() {
                *w *= rng.random_range(0.5..1.5);
            }
            let mut be = BitEval::new(&layout, params).unwrap();
            be.set_rounds_after(rng.random_range(0..12));
            let mut values = vec![0u8; layout.cells()];
            let fill = rng.random_range(0.0..1.0);
            for &c in layout.fillable() {
                if layout.mirror(c) >= c && rng.random_bool(fill) {
                    values[c] = rng.random_range(1..=6);
                    values[layout.mirror(c)] = rng.random_range(1..=6);
                }
            }
            let bits = be.from_values(&values);
            be.decompose(&bits, &mut groups);
            let mut free = be.free_canonical(&bits);
            while free != 0 {
                let cell = free.trailing_zeros() as usize;
                free &= free - 1;
                let slow_before = be.local_before(&bits, cell);
                let fast_before = be.prepare_cell(&mut groups, &bits, cell);
                assert_eq!(slow_before.to_bits(), fast_before.to_bits(), "case {case}");
                for _ in 0..3 {
                    let (a, b) = (rng.random_range(1..=6), rng.random_range(1..=6));
                    let slow = be.delta_from(slow_before, &bits, cell, a, b);
                    let fast = be.delta_in(&groups, fast_before, &bits, cell, a, b);
                    assert_eq!(
                        slow.to_bits(),
                        fast.to_bits(),
                        "case {case} cell {cell} {a} {b}: {slow} vs {fast}"
                    );
                    deltas += 1;
                }
            }
        }
        assert!(deltas > 20000, "{deltas}");
    }

    #[test]
    fn only_small_boards() {
        let big = Layout::new(&vec![vec![1u8; 9]; 8]).unwrap();
        assert!(BitEval::new(&big, EvalParams::default()).is_none());
        assert!(BitEval::new(&official(1), EvalParams::default()).is_some());
    }
}
