//! The afterstates of one board described by what they change: a placement touches two cells, so
//! most of the board's entries (`features.rs`) stay as they are. A board's analysis keeps each
//! group's entry with the empty cells whose filling could change it (its watch mask); an
//! afterstate's entries are the board's, minus those of the groups it touches and of the few
//! board-wide counts it changes, plus their new values. The player values each afterstate from
//! the board's sums and these few entries (`play.rs`).

use super::features::{demand_entry, open_entry, Active, Features};
use crate::splitter::geometry::{Bits, Geometry};
use arrayvec::ArrayVec;

/// One group of the analysed board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Group {
    value: u8,
    demand: u8,
    cells: u64,
    /// Its entry within a stage's block.
    local: u32,
    /// `GroupEntry`'s masks.
    watch: u64,
    watch_same: u64,
    depends: u64,
}

impl Group {
    /// Group `g` of value `v` on `b`, with its masks.
    #[inline(always)]
    fn new(f: &Features, b: &Bits, v: usize, g: u64) -> Group {
        let e = f.group_entry::<true>(b, v, g);
        Group {
            value: v as u8,
            demand: e.demand as u8,
            cells: g,
            local: e.local as u32,
            watch: e.watch,
            watch_same: e.watch_same,
            depends: e.depends,
        }
    }
}

/// A board, its entries, and each group's entry with its watch masks.
pub struct BoardAnalysis {
    pub board: Bits,
    pub rounds_after: usize,
    /// Every entry the board switches on (as `Features::active`).
    pub active: Active,
    stage_base: usize,
    groups: ArrayVec<Group, 64>,
    /// Per cell, the groups (bit i: `groups[i]`) whose `watch`, and whose `watch_same`, holds
    /// it; per value, its groups.
    touch: [u64; 64],
    touch_same: [u64; 64],
    of_value: [u64; 7],
    demand: [usize; 7],
    open: [usize; 5],
    hearts: Option<usize>,
}

impl Default for BoardAnalysis {
    fn default() -> Self {
        BoardAnalysis {
            board: Bits::default(),
            rounds_after: 0,
            active: Active::default(),
            stage_base: 0,
            groups: ArrayVec::new(),
            touch: [0; 64],
            touch_same: [0; 64],
            of_value: [0; 7],
            demand: [0; 7],
            open: [0; 5],
            hearts: None,
        }
    }
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

/// Entry `old` off and `new` on (local entries of the stage starting at `base`), when they
/// differ. (A function, not a closure: a closure is compiled apart, without the caller's
/// instruction set.)
#[inline(always)]
fn swap(out: &mut impl Entries, base: usize, old: usize, new: usize) {
    if old != new {
        out.off((base + old) as u32);
        out.on((base + new) as u32);
    }
}

/// Placing `a` at canonical free `cell` and `m` at its mirror on a board.
struct Placement {
    mirror: usize,
    /// The two cells (one on the middle column).
    placed: u64,
    /// The board after it.
    board: Bits,
    /// The placed cells by value.
    by_value: [u64; 7],
}

impl Placement {
    #[inline(always)]
    fn new(geo: &Geometry, board: &Bits, cell: usize, a: u8, m: u8) -> Placement {
        let mirror = geo.mirror(cell);
        let mut after = *board;
        geo.apply(&mut after, cell, a, m);
        let mut by_value = [0u64; 7];
        if mirror != cell {
            by_value[a as usize] |= 1 << cell;
        }
        by_value[m as usize] |= 1 << mirror;
        Placement {
            mirror,
            placed: (1u64 << cell) | (1u64 << mirror),
            board: after,
            by_value,
        }
    }
}

impl BoardAnalysis {
    /// The analysis of `b` with `rounds_after` (>= 1) rolls to come after its afterstates'
    /// placement.
    #[inline(always)]
    pub fn new(f: &Features, b: &Bits, rounds_after: usize) -> BoardAnalysis {
        let mut analysis = BoardAnalysis::default();
        analysis.analyse(f, b, rounds_after);
        analysis
    }

    /// `new`, into this analysis's storage.
    #[inline(always)]
    pub fn analyse(&mut self, f: &Features, b: &Bits, rounds_after: usize) {
        self.start(rounds_after);
        let mut demand = [0usize; 7];
        self.add_groups(f, b, b.by_value, &mut demand);
        self.finish(f, b, demand);
    }

    /// Empty groups and entries, for a board with `rounds_after` rolls to come.
    #[inline(always)]
    fn start(&mut self, rounds_after: usize) {
        self.rounds_after = rounds_after;
        self.stage_base = Features::stage_base(rounds_after);
        self.groups.clear();
        self.active.n = 0;
    }

    /// Keep `group` as it is: its entry on, its demand counted.
    #[inline(always)]
    fn keep(&mut self, group: Group, demand: &mut [usize; 7]) {
        demand[group.value as usize] += group.demand as usize;
        self.active.push(self.stage_base + group.local as usize);
        self.groups.push(group);
    }

    /// Work out every group of `b` that holds a cell of `seeds` (by value), and keep it.
    #[inline(always)]
    fn add_groups(&mut self, f: &Features, b: &Bits, seeds: [u64; 7], demand: &mut [usize; 7]) {
        for (v, g) in f.geo.groups_from(b, seeds) {
            self.keep(Group::new(f, b, v, g), demand);
        }
    }

    /// With every group kept: the board's other entries, its counts and the watch indexes.
    #[inline(always)]
    fn finish(&mut self, f: &Features, b: &Bits, demand: [usize; 7]) {
        f.board_entries(b, self.rounds_after, &demand, &mut self.active);
        self.board = *b;
        self.demand = demand;
        self.open = f.open_counts(b.empty);
        self.hearts = f.hearts_entry(b);
        self.index_watches();
    }

    /// The open-cell counts (`Features::open_counts`) once the pair named at canonical `cell`
    /// is filled, whatever its dice: `delta`'s `open` for that pair.
    #[inline(always)]
    pub fn open_after(&self, f: &Features, cell: usize) -> [usize; 5] {
        let placed = (1u64 << cell) | (1u64 << f.geo.mirror(cell));
        f.open_counts(self.board.empty & !placed)
    }

    /// Fill `touch`, `touch_same` and `of_value` from the groups.
    #[inline(always)]
    fn index_watches(&mut self) {
        self.touch = [0; 64];
        self.touch_same = [0; 64];
        self.of_value = [0; 7];
        for (i, g) in self.groups.iter().enumerate() {
            let bit = 1u64 << i;
            self.of_value[g.value as usize] |= bit;
            let mut cells = g.watch;
            while cells != 0 {
                self.touch[cells.trailing_zeros() as usize] |= bit;
                cells &= cells - 1;
            }
            let mut cells = g.watch_same;
            while cells != 0 {
                self.touch_same[cells.trailing_zeros() as usize] |= bit;
                cells &= cells - 1;
            }
        }
    }

    /// The entries that placing `a` at canonical free `cell` and `m` at its mirror switches off
    /// and on (the afterstate with the same rolls to come), into `out`, given `open_after` of
    /// the cell; returns the afterstate.
    #[inline(always)]
    pub fn delta(
        &self,
        f: &Features,
        cell: usize,
        a: u8,
        m: u8,
        open: &[usize; 5],
        out: &mut impl Entries,
    ) -> Bits {
        let geo = &f.geo;
        let Placement {
            mirror,
            placed,
            board: after,
            by_value,
        } = Placement::new(geo, &self.board, cell, a, m);
        // Cells whose groups are recomputed: the placed ones and those of every touched group.
        let mut seeds = by_value;
        let mut demand = self.demand;
        let mut touched = self.touch[cell] | self.touch[mirror];
        if mirror != cell {
            touched |= self.touch_same[cell] & self.of_value[a as usize];
        }
        touched |= self.touch_same[mirror] & self.of_value[m as usize];
        while touched != 0 {
            let g = &self.groups[touched.trailing_zeros() as usize];
            touched &= touched - 1;
            let v = g.value as usize;
            out.off((self.stage_base + g.local as usize) as u32);
            demand[v] -= g.demand as usize;
            seeds[v] |= g.cells;
        }
        for (v, g) in geo.groups_from(&after, seeds) {
            let e = f.group_entry::<false>(&after, v, g);
            demand[v] += e.demand;
            out.on((self.stage_base + e.local) as u32);
        }
        let base = self.stage_base;
        for (v, (&old, &new)) in (2..).zip(self.demand[2..].iter().zip(&demand[2..])) {
            swap(out, base, demand_entry(v, old), demand_entry(v, new));
        }
        for (k, (&old, &new)) in (0..).zip(self.open.iter().zip(open)) {
            swap(out, base, open_entry(k, old), open_entry(k, new));
        }
        if let (Some(old), true) = (self.hearts, geo.hearts & placed != 0) {
            let new = f.hearts_entry(&after).expect("the layout has hearts");
            swap(out, base, old, new);
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

    /// The analysis of the afterstate of placing `a` at canonical free `cell` and `m` at its
    /// mirror, with `rounds_after` rolls to come after its own afterstates' placement: the
    /// groups whose masks the placement does not meet are kept as they are, the others and the
    /// placed cells' groups are worked out again. Equal to `new` on the afterstate (up to the
    /// order of the groups, and masks meeting only filled cells).
    #[inline(always)]
    pub fn after(
        &self,
        f: &Features,
        cell: usize,
        a: u8,
        m: u8,
        rounds_after: usize,
        out: &mut BoardAnalysis,
    ) {
        let Placement {
            placed,
            board,
            by_value,
            ..
        } = Placement::new(&f.geo, &self.board, cell, a, m);
        let mut seeds = by_value;
        out.start(rounds_after);
        let mut demand = [0usize; 7];
        for g in &self.groups {
            let v = g.value as usize;
            if (g.watch | g.depends) & placed != 0 || g.watch_same & by_value[v] != 0 {
                seeds[v] |= g.cells;
            } else {
                out.keep(*g, &mut demand);
            }
        }
        out.add_groups(f, &board, seeds, &mut demand);
        out.finish(f, &board, demand);
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

    /// Case `case`'s features (an official layout on even cases, a random one on odd; the pairs
    /// on two cases of three) and a board after up to `most` random placements.
    fn random_case(rng: &mut Xoshiro256PlusPlus, case: usize, most: usize) -> (Features, Bits) {
        let layout = if case.is_multiple_of(2) {
            official(1 + (case % 4 / 2) as u8)
        } else {
            random_layout(rng)
        };
        let set = FeatureSet {
            pairs: !case.is_multiple_of(3),
            net: None,
        };
        let f = Features::with_set(&layout, set).unwrap();
        let placements = rng.random_range(0..most);
        let b = random_board(&f.geo, rng, placements);
        (f, b)
    }

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
            let (f, b) = random_case(&mut rng, case, 40);
            let r = rng.random_range(1..30);
            let analysis = BoardAnalysis::new(&f, &b, r);
            let mut free = f.geo.free_canonical(&b);
            while free != 0 {
                let cell = free.trailing_zeros() as usize;
                free &= free - 1;
                let (a, m) = (rng.random_range(1..=6), rng.random_range(1..=6));
                let mut delta = Delta::default();
                let open = analysis.open_after(&f, cell);
                let after = analysis.delta(&f, cell, a, m, &open, &mut delta);
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

    /// The analysis of an afterstate made from its board's analysis equals the analysis made
    /// from scratch: the same groups with the same entries, demands and masks (on the cells
    /// still empty), the same entries switched on, on random boards and placements through
    /// whole games, with the rolls to come counting down.
    #[test]
    fn the_analysis_of_an_afterstate_made_from_its_board_equals_the_one_made_from_scratch() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(67);
        let mut steps = 0;
        for case in 0..600 {
            let (f, b) = random_case(&mut rng, case, 10);
            let mut r = rng.random_range(8..40);
            let mut analysis = BoardAnalysis::new(&f, &b, r);
            while r > 1 {
                let free = f.geo.free_canonical(&analysis.board);
                if free == 0 {
                    break;
                }
                let cells: Vec<usize> = (0..64).filter(|&c| free >> c & 1 == 1).collect();
                let cell = cells[rng.random_range(0..cells.len())];
                let (a, m) = (rng.random_range(1..=6), rng.random_range(1..=6));
                r -= 1;
                let mut next = BoardAnalysis::default();
                analysis.after(&f, cell, a, m, r, &mut next);
                let mut board = analysis.board;
                f.geo.apply(&mut board, cell, a, m);
                let fresh = BoardAnalysis::new(&f, &board, r);
                let on_empty = |g: &Group| Group {
                    watch: g.watch & board.empty,
                    watch_same: g.watch_same & board.empty,
                    depends: g.depends & board.empty,
                    ..*g
                };
                let sorted = |a: &BoardAnalysis| {
                    let mut groups: Vec<Group> = a.groups.iter().map(on_empty).collect();
                    groups.sort();
                    let mut active = a.active.as_slice().to_vec();
                    active.sort();
                    (
                        a.board,
                        a.rounds_after,
                        groups,
                        active,
                        a.demand,
                        a.open,
                        a.hearts,
                    )
                };
                assert_eq!(sorted(&next), sorted(&fresh), "case {case}, rounds {r}");
                analysis = next;
                steps += 1;
            }
        }
        assert!(steps > 4000, "{steps}");
    }
}
