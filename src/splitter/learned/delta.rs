//! The afterstates of one board described by what they change: a placement touches two cells, so
//! most of the board's entries (`features.rs`) stay as they are. A board's analysis keeps each
//! group's entry with the empty cells whose filling could change it (its watch mask); an
//! afterstate's entries are the board's, minus those of the groups it touches and of the few
//! board-wide counts it changes, plus their new values. The player values each afterstate from
//! the board's sums and these few entries (`play.rs`).

use super::features::{demand_entry, open_entry, Active, Features};
use crate::splitter::geometry::Bits;
use arrayvec::ArrayVec;

/// One group of the analysed board.
#[derive(Clone, Copy)]
struct Group {
    value: u8,
    demand: u8,
    cells: u64,
    watch: u64,
    watch_same: u64,
    entry: u32,
}

/// A board, its entries, and each group's entry with its watch mask.
pub struct BoardAnalysis {
    pub board: Bits,
    pub rounds_after: usize,
    /// Every entry the board switches on (as `Features::active`).
    pub active: Active,
    stage_base: usize,
    groups: ArrayVec<Group, 64>,
    demand: [usize; 7],
    open: [usize; 5],
    hearts: Option<usize>,
}

/// Where an afterstate's changed entries go: `off` for each entry of the board it switches off,
/// `on` for each it switches on (an entry may go off and back on).
pub trait Entries {
    fn on(&mut self, entry: u32);
    fn off(&mut self, entry: u32);
}

/// The entries an afterstate switches off and on relative to its board, as lists.
#[derive(Default)]
pub struct Delta {
    pub removed: Vec<u32>,
    pub added: Vec<u32>,
}

impl Entries for Delta {
    fn on(&mut self, entry: u32) {
        self.added.push(entry);
    }
    fn off(&mut self, entry: u32) {
        self.removed.push(entry);
    }
}

impl BoardAnalysis {
    /// The analysis of `b` with `rounds_after` (>= 1) rolls to come after its afterstates'
    /// placement.
    #[inline(always)]
    pub fn new(f: &Features, b: &Bits, rounds_after: usize) -> BoardAnalysis {
        let geo = &f.geo;
        let stage_base = Features::stage_base(rounds_after);
        let mut groups = ArrayVec::new();
        let mut active = Active::default();
        let mut demand = [0usize; 7];
        for (v, demand) in demand.iter_mut().enumerate().skip(1) {
            let cells = b.by_value[v];
            let mut todo = cells;
            while todo != 0 {
                let g = geo.flood(todo & todo.wrapping_neg(), cells);
                todo &= !g;
                let e = f.group_entry::<true>(b, v, g);
                *demand += e.demand;
                groups.push(Group {
                    value: v as u8,
                    demand: e.demand as u8,
                    cells: g,
                    watch: e.watch,
                    watch_same: e.watch_same,
                    entry: (stage_base + e.local) as u32,
                });
                active.push(stage_base + e.local);
            }
        }
        f.board_entries(b, rounds_after, &demand, &mut active);
        BoardAnalysis {
            board: *b,
            rounds_after,
            active,
            stage_base,
            groups,
            demand,
            open: f.open_counts(b.empty),
            hearts: f.hearts_entry(b),
        }
    }

    /// The entries that placing `a` at canonical free `cell` and `m` at its mirror switches off
    /// and on (the afterstate with the same rolls to come), into `out`; returns the afterstate.
    #[inline(always)]
    pub fn delta(&self, f: &Features, cell: usize, a: u8, m: u8, out: &mut impl Entries) -> Bits {
        let geo = &f.geo;
        let mirror = geo.mirror(cell);
        let placed = (1u64 << cell) | (1u64 << mirror);
        let mut after = self.board;
        geo.apply(&mut after, cell, a, m);
        // The placed cells by value.
        let mut by_value = [0u64; 7];
        if mirror != cell {
            by_value[a as usize] |= 1 << cell;
        }
        by_value[m as usize] |= 1 << mirror;
        // Cells whose groups are recomputed: the placed ones and those of every touched group.
        let mut seeds = by_value;
        let mut demand = self.demand;
        for g in &self.groups {
            let same = by_value[g.value as usize];
            if g.watch & placed != 0 || g.watch_same & same != 0 {
                out.off(g.entry);
                demand[g.value as usize] -= g.demand as usize;
                seeds[g.value as usize] |= g.cells;
            }
        }
        for (v, &seed) in seeds.iter().enumerate().skip(1) {
            let cells = after.by_value[v];
            let mut todo = seed;
            while todo != 0 {
                let g = geo.flood(todo & todo.wrapping_neg(), cells);
                todo &= !g;
                let e = f.group_entry::<false>(&after, v, g);
                demand[v] += e.demand;
                out.on((self.stage_base + e.local) as u32);
            }
        }
        let base = self.stage_base;
        let mut swap = |old: usize, new: usize| {
            if old != new {
                out.off((base + old) as u32);
                out.on((base + new) as u32);
            }
        };
        for (v, (&old, &new)) in self.demand.iter().zip(&demand).enumerate().skip(2) {
            swap(demand_entry(v, old), demand_entry(v, new));
        }
        let open = f.open_counts(after.empty);
        for (k, (&old, &new)) in self.open.iter().zip(&open).enumerate() {
            swap(open_entry(k, old), open_entry(k, new));
        }
        if let (Some(old), true) = (self.hearts, geo.hearts & placed != 0) {
            swap(old, f.hearts_entry(&after).expect("the layout has hearts"));
        }
        let named = if mirror == cell { m } else { a };
        if let (Some(old), Some(new)) = (
            f.pair_entry(cell, 0, 0, self.rounds_after),
            f.pair_entry(cell, named, m, self.rounds_after),
        ) {
            out.off(old as u32);
            out.on(new as u32);
        }
        after
    }
}

#[cfg(test)]
mod tests {
    use super::super::features::FeatureSet;
    use super::*;
    use crate::splitter::bits::tests::random_layout;
    use crate::splitter::geometry::random_board;
    use crate::splitter::layout::official;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The board's entries minus the removed plus the added equal the afterstate's entries
    /// computed from scratch (as multisets), for every placement of random dice on thousands of
    /// random boards of the official layouts and of random small ones (odd widths, hearts,
    /// stars), at every stage, with and without the pairs.
    #[test]
    fn board_entries_plus_the_delta_equal_the_afterstate_entries() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(53);
        let mut scratch = Active::default();
        let mut checked = 0;
        for case in 0..5000 {
            let layout = if case % 2 == 0 {
                official(1 + (case % 4 / 2) as u8)
            } else {
                random_layout(&mut rng)
            };
            let set = FeatureSet {
                pairs: case % 3 != 0,
                net: None,
            };
            let f = Features::with_set(&layout, set).unwrap();
            let placements = rng.random_range(0..40);
            let b = random_board(&f.geo, &mut rng, placements);
            let r = rng.random_range(1..30);
            let analysis = BoardAnalysis::new(&f, &b, r);
            let mut free = f.geo.free_canonical(&b);
            while free != 0 {
                let cell = free.trailing_zeros() as usize;
                free &= free - 1;
                let (a, m) = (rng.random_range(1..=6), rng.random_range(1..=6));
                let mut delta = Delta::default();
                let after = analysis.delta(&f, cell, a, m, &mut delta);
                let mut expected = b;
                f.geo.apply(&mut expected, cell, a, m);
                assert_eq!(after, expected, "case {case}");
                let mut fast = analysis.active.as_slice().to_vec();
                for &e in &delta.removed {
                    let i = fast.iter().position(|&x| x == e);
                    let i = i.unwrap_or_else(|| panic!("case {case}: {e} removed but not on"));
                    fast.swap_remove(i);
                }
                fast.extend(&delta.added);
                fast.sort();
                f.active(&after, r, &mut scratch);
                let mut slow = scratch.as_slice().to_vec();
                slow.sort();
                assert_eq!(fast, slow, "case {case}, cell {cell}, dice {a} {m}");
                checked += 1;
            }
        }
        assert!(checked > 15_000, "{checked}");
    }
}
