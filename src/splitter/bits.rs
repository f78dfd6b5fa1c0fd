//! The evaluation of `eval.rs` on 64-bit masks, for boards of at most 64 cells (the official ones
//! have 56): one mask per die value plus the empty cells; groups are flooded with shifts. Same
//! weights and the same rules as `Evaluator`, several times faster; used by the search rollouts.
//! Tests compare it with `Evaluator` (delta, full value, exact score) on random boards.

use super::eval::{
    group, phase_factor, EvalParams, DEAD, HEART, MANY_LIBERTIES, ONE_LIBERTY, OPEN_MANY, PHASE,
    STAR_REACH, TIGHT,
};
pub use super::geometry::Bits;
use super::geometry::Geometry;
use super::layout::Layout;

/// A board split into groups (`BitEval::decompose`), so that every option of a rollout step
/// reuses the floods and valuations instead of redoing them.
#[derive(Clone)]
pub struct Groups {
    n: usize,
    mask: [u64; 64],
    value: [f32; 64],
    /// The empty cells each group's value depends on (`group_value_deps`).
    deps: [u64; 64],
    /// The die value of each group.
    die: [u8; 64],
    /// Index of the group holding each filled cell.
    group_of: [u8; 64],
    /// For each empty cell, the groups (bit k = group k) whose value depends on it.
    touching: [u64; 64],
    heart: f32,
    /// Set by `prepare_cell`: the groups whose value filling the pair changes, their values
    /// after it (`after_of[k]`) and the sum of their changes.
    hit: u64,
    after_of: [f32; 64],
    hit_sum: f32,
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
            die: [0; 64],
            group_of: [0; 64],
            touching: [0; 64],
            heart: 0.0,
            hit: 0,
            after_of: [0.0; 64],
            hit_sum: 0.0,
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
    geo: Geometry,
    star: u64,
    hearts: u64,
    /// Cells within two steps of each cell, and of it together with its mirror.
    near_pair: Vec<u64>,
    rounds_after: usize,
    total_rounds: usize,
    /// `phase_factor` at `rounds_after` (computed once per setting).
    phase: f32,
    /// Bound on |`delta_estimate` - `delta_in`| (float rounding; see `rounding_bound`).
    estimate_error: f32,
}

impl BitEval {
    /// None when the layout has more than 64 cells.
    pub fn new(layout: &Layout, params: EvalParams) -> Option<BitEval> {
        let geo = Geometry::new(layout)?;
        let mut e = BitEval {
            params,
            star: geo.star,
            hearts: geo.hearts,
            geo,
            near_pair: Vec::new(),
            rounds_after: usize::MAX,
            total_rounds: layout.default_rounds(),
            phase: 0.0,
            estimate_error: 0.0,
        };
        e.set_rounds_after(usize::MAX);
        e.near_pair = (0..layout.cells())
            .map(|i| {
                let two = |b: u64| e.expand(e.expand(b));
                two(1 << i) | two(1 << layout.mirror(i))
            })
            .collect();
        let region_cells = e.near_pair.iter().map(|r| r.count_ones()).max();
        e.estimate_error = rounding_bound(&e.params, region_cells.unwrap_or(0) as usize);
        Some(e)
    }

    /// Bound on |`delta_estimate` - `delta_in`| for the placement being valued.
    pub fn estimate_error(&self) -> f32 {
        self.estimate_error
    }

    pub fn set_rounds_after(&mut self, rounds: usize) {
        self.rounds_after = rounds;
        self.phase = phase_factor(&self.params.w, rounds, self.total_rounds);
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    pub fn mirror(&self, cell: usize) -> usize {
        self.geo.mirror(cell)
    }

    /// Free cells from which a placement can be named (one per mirror pair).
    pub fn free_canonical(&self, b: &Bits) -> u64 {
        self.geo.free_canonical(b)
    }

    pub fn from_values(&self, values: &[u8]) -> Bits {
        self.geo.from_values(values)
    }

    /// Write `a` at `cell` and `b` at its mirror (the mirror write wins on a self-mirrored cell).
    #[inline(always)]
    pub fn apply(&self, bits: &mut Bits, cell: usize, a: u8, b: u8) {
        self.geo.apply(bits, cell, a, b)
    }

    #[inline(always)]
    fn expand(&self, b: u64) -> u64 {
        self.geo.expand(b)
    }

    #[inline(always)]
    fn flood(&self, seed: u64, within: u64) -> u64 {
        self.geo.flood(seed, within)
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
        out.touching = [0; 64];
        for v in 1..=6 {
            let mut todo = b.by_value[v];
            while todo != 0 {
                let g = self.flood(todo & todo.wrapping_neg(), b.by_value[v]);
                let k = out.n;
                out.mask[k] = g;
                (out.value[k], out.deps[k]) = self.group_value_deps(g, v, b.empty);
                out.die[k] = v as u8;
                let mut deps = out.deps[k];
                while deps != 0 {
                    out.touching[deps.trailing_zeros() as usize] |= 1 << k;
                    deps &= deps - 1;
                }
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

    /// First step for the pair at `cell` after `decompose(b)`: values the groups whose value
    /// filling the pair changes (the dice do not matter: filled is filled), for
    /// `delta_estimate`, `local_before_in` and `delta_in`.
    #[inline(always)]
    pub fn prepare_cell(&self, groups: &mut Groups, b: &Bits, cell: usize) {
        let m = self.geo.mirror(cell);
        let empty_after = b.empty & !((1u64 << cell) | (1u64 << m));
        let hit = groups.touching[cell] | groups.touching[m];
        groups.hit = hit;
        let mut sum = 0.0;
        let mut todo = hit;
        while todo != 0 {
            let k = todo.trailing_zeros() as usize;
            let after = self.group_value(groups.mask[k], groups.die[k] as usize, empty_after);
            groups.after_of[k] = after;
            sum += after - groups.value[k];
            todo &= todo - 1;
        }
        groups.hit_sum = sum;
    }

    /// The groups the two written cells end up in (equal dice may join them into one; the
    /// second mask is then 0), the die value of the first, and the groups they absorb.
    #[inline(always)]
    fn written_groups(
        &self,
        groups: &Groups,
        b: &Bits,
        cell: usize,
        a: u8,
        bv: u8,
    ) -> (u64, u8, u64, u64) {
        let m = self.geo.mirror(cell);
        let mut absorbed = 0u64;
        // A written cell's group: itself and the neighbouring groups of its value.
        let mut joined = |c: usize, v: u8| {
            let mut g = 1u64 << c;
            let mut next_to = self.expand(g) & b.by_value[v as usize];
            while next_to != 0 {
                let k = groups.group_of[next_to.trailing_zeros() as usize] as usize;
                g |= groups.mask[k];
                absorbed |= 1 << k;
                next_to &= !groups.mask[k];
            }
            g
        };
        let (g0, v0, g1) = if m == cell {
            (joined(m, bv), bv, 0)
        } else {
            let g0 = joined(cell, a);
            if a == bv && self.expand(g0) & (1 << m) != 0 {
                (g0 | joined(m, bv), a, 0)
            } else {
                (g0, a, joined(m, bv))
            }
        };
        (g0, v0, g1, absorbed)
    }

    /// The value change of filling the pair at `cell` with `a` and `bv`, after
    /// `prepare_cell`: only the terms that change, so it can differ from `delta_in` (which sums
    /// the whole region in `region_value`'s order) by float rounding, at most
    /// `estimate_error()`. Used to skip options that cannot beat the best one.
    #[inline(always)]
    pub fn delta_estimate(&self, groups: &Groups, b: &Bits, cell: usize, a: u8, bv: u8) -> f32 {
        let mut after = *b;
        self.apply(&mut after, cell, a, bv);
        let (g0, v0, g1, absorbed) = self.written_groups(groups, b, cell, a, bv);
        let mut d = groups.hit_sum + self.group_value(g0, v0 as usize, after.empty);
        if g1 != 0 {
            d += self.group_value(g1, bv as usize, after.empty);
        }
        let mut todo = absorbed;
        while todo != 0 {
            let k = todo.trailing_zeros() as usize;
            d -= if groups.hit & (1 << k) != 0 {
                groups.after_of[k]
            } else {
                groups.value[k]
            };
            todo &= todo - 1;
        }
        d + (self.heart_value(&after) - groups.heart)
    }

    /// `local_before(b, cell)` after `prepare_cell(groups, b, cell)`, without flooding: the
    /// same terms summed in the same order, so the result is bit-identical. Also lists the
    /// region's groups valued for the board after the pair is filled, for `delta_in`.
    #[inline(always)]
    pub fn local_before_in(&self, groups: &mut Groups, b: &Bits, cell: usize) -> f32 {
        let region = self.near_pair[cell];
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
                let after = if groups.hit & (1 << k) == 0 {
                    groups.value[k]
                } else {
                    groups.after_of[k]
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

    /// `delta_from(before, b, cell, a, bv)`, `before` from `local_before_in`: only the
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
        let region = self.near_pair[cell];
        let (g0, v0, g1, _) = self.written_groups(groups, b, cell, a, bv);
        // The written cells' groups, their values and places in the summation order (value,
        // then lowest cell in the region).
        let fresh = |g: u64, v: u8| {
            let key = v as u16 * 64 + (g & region).trailing_zeros() as u16;
            (key, self.group_value(g, v as usize, after.empty))
        };
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
        self.geo.exact(b)
    }
}

/// A bound on the float rounding between `delta_estimate` and `delta_in` on boards whose pair
/// regions have at most `region_cells` cells. Both compute the same real number: `delta_in` as
/// the difference of two sums of at most n = `region_cells` + 1 terms (groups and hearts),
/// `delta_estimate` from at most 2n + 3 terms. A sequential float sum of k terms is off by at
/// most k * u * (sum of |terms|), u = 2^-24, and every term is at most `vmax` (every weight
/// taken at its largest effect), or twice that for a change.
fn rounding_bound(params: &EvalParams, region_cells: usize) -> f32 {
    let w = |i: usize| params.w[i].abs();
    let boxed = w(ONE_LIBERTY).max(1.0).max(w(MANY_LIBERTIES));
    let partial = boxed * w(TIGHT).max(1.0) * (1.0 + w(PHASE));
    let mut vmax = 5.0 * w(HEART).max(w(HEART + 1)).max(w(HEART + 2)).max(1.0);
    for v in 1..=6 {
        let v_f = v as f32;
        vmax = vmax.max(w(DEAD) * v_f);
        // A complete group with no empty neighbour counts its points unweighted.
        vmax = vmax.max(2.0 * v_f * w(group(v, 0)).max(1.0) * w(OPEN_MANY).max(1.0));
        for k in 1..v {
            vmax = vmax.max((2.0 + w(STAR_REACH)) * v_f * w(group(v, k)) * partial);
        }
    }
    let n = region_cells as f32 + 1.0;
    let u = f32::EPSILON / 2.0;
    let exact_side = 2.0 * n * u * n * vmax + u * 2.0 * n * vmax;
    let estimate_side = (2.0 * n + 3.0) * u * (2.0 * n + 3.0) * 2.0 * vmax;
    // Doubled: a margin for the bound's own rounding and the comparison.
    2.0 * (exact_side + estimate_side)
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
        let mut worst = 0.0f32;
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
                be.prepare_cell(&mut groups, &bits, cell);
                let fast_before = be.local_before_in(&mut groups, &bits, cell);
                assert_eq!(slow_before.to_bits(), fast_before.to_bits(), "case {case}");
                for _ in 0..3 {
                    let (a, b) = (rng.random_range(1..=6), rng.random_range(1..=6));
                    let slow = be.delta_from(slow_before, &bits, cell, a, b);
                    let fast = be.delta_in(&groups, fast_before, &bits, cell, a, b);
                    let estimate = be.delta_estimate(&groups, &bits, cell, a, b);
                    assert!(
                        (estimate - fast).abs() <= be.estimate_error(),
                        "case {case} cell {cell} {a} {b}: estimate {estimate} vs {fast}"
                    );
                    worst = worst.max((estimate - fast).abs());
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
        // The estimate is the same number up to rounding, far inside its bound.
        assert!(worst < 1e-4, "{worst}");
    }

    /// The rounding bound is positive and small enough to skip most options on the official
    /// boards (their deltas differ by tenths of a point).
    #[test]
    fn estimate_bound_is_small_on_the_official_boards() {
        for n in [1, 2] {
            let layout = official(n);
            let be = BitEval::new(&layout, EvalParams::for_layout(&layout)).unwrap();
            let bound = be.estimate_error();
            assert!(bound > 0.0 && bound < 0.02, "layout {n}: {bound}");
        }
    }

    #[test]
    fn only_small_boards() {
        let big = Layout::new(&vec![vec![1u8; 9]; 8]).unwrap();
        assert!(BitEval::new(&big, EvalParams::default()).is_none());
        assert!(BitEval::new(&official(1), EvalParams::default()).is_some());
    }
}
