//! The features of the learned value: which table entries a board after a placement switches on.
//!
//! The value is a sum of table entries (a linear function of one-hot features), separate tables
//! per game stage (`STAGES`, by rolls still to come). The entries describe the board the way the
//! score sees it, by group, not by cell position, so they are shared by every symmetry of a layout
//! without further work:
//! - each group of value v: complete (star or not, empty neighbours 0..3+), oversized or boxed in
//!   (dead), or partial: cells missing m, liberties (1, 2, 3+), free room reachable within m steps
//!   (short, exact, some, plenty), star (in the group, within reach, none), other groups of v
//!   sharing a liberty's neighbourhood (none, a merge that fits, a merge that would overshoot);
//! - per value, the demand of its live partial groups (cells missing, summed) — the dice it
//!   needs against the supply the stage implies;
//! - how many empty cells have 0, 1, 2, 3, 4 empty neighbours (how open the rest of the board is);
//! - the hearts (filled count and whether they agree, on which value);
//! - a bias per stage and per exact number of rolls to come;
//! - optional families (`FeatureSet`): what each mirror pair holds (per stage), and a network's
//!   inputs — the same entries without their stage (`net_inputs`).

use super::super::geometry::{Bits, Geometry};
use super::super::layout::Layout;
use super::net::{Shape, MAX_HIDDEN};

/// Game stages by rolls still to come after the placement (1, 2, 3, 4, 5-6, 7-8, 9-11, 12-15,
/// 16+); 0 rolls to come is the end, valued by the exact score.
pub const STAGES: usize = 9;

fn stage_of(rounds_after: usize) -> usize {
    match rounds_after {
        0..=4 => rounds_after.saturating_sub(1),
        5..=6 => 4,
        7..=8 => 5,
        9..=11 => 6,
        12..=15 => 7,
        _ => 8,
    }
}

/// Offset of the partial-group block of value v (values 2..=6; v - 1 entries of m each).
const PARTIAL_OF_VALUE: [usize; 7] = [0, 0, 0, 1, 3, 6, 10];
/// Liberties (3) x room (4) x star (3) x merge (3).
const PARTIAL_SHAPES: usize = 108;
const PARTIAL: usize = 0;
const PARTIAL_LEN: usize = 15 * PARTIAL_SHAPES;
/// Complete groups: value x star (2) x liberties (0..3+).
const COMPLETE: usize = PARTIAL + PARTIAL_LEN;
const COMPLETE_LEN: usize = 6 * 2 * 4;
/// Dead groups: value x (boxed in, oversized).
const DEAD: usize = COMPLETE + COMPLETE_LEN;
const DEAD_LEN: usize = 6 * 2;
/// Demand per value 2..=6, capped at 9.
const DEMAND: usize = DEAD + DEAD_LEN;
const DEMAND_CAP: usize = 9;
const DEMAND_LEN: usize = 5 * (DEMAND_CAP + 1);
/// Empty cells with k empty neighbours (k = 0..4): their count, capped at 7.
const OPEN: usize = DEMAND + DEMAND_LEN;
const OPEN_LEN: usize = 5 * 8;
/// Hearts: filled (0..3) x (none filled / agreeing on value 1..6 / disagreeing).
const HEARTS: usize = OPEN + OPEN_LEN;
const HEARTS_LEN: usize = 4 * 8;
const STAGE_BIAS: usize = HEARTS + HEARTS_LEN;
/// Entries per stage.
pub const PER_STAGE: usize = STAGE_BIAS + 1;
/// One bias per exact number of rolls to come (capped), after the stage tables.
const ROUND_BIAS: usize = STAGES * PER_STAGE;
const ROUND_CAP: usize = 63;
/// All entries.
pub const LEN: usize = ROUND_BIAS + ROUND_CAP + 1;

/// The name of this feature set, written in weight files and checked when they are read.
pub const NAME: &str = "groups-v1";

/// The entries one board switches on (an entry may appear more than once: two groups alike).
/// At most 64 groups on a 64-cell board plus 13 others, plus one per pair (at most 64).
pub struct Active {
    pub idx: [u32; 144],
    pub n: usize,
}

impl Default for Active {
    fn default() -> Self {
        Active {
            idx: [0; 144],
            n: 0,
        }
    }
}

/// Which feature families a value uses beyond the group features (named in weight files as
/// `groups-v1+pairs+net64x32`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FeatureSet {
    /// The contents of each mirror pair (37 states), per stage.
    pub pairs: bool,
    /// A network (hidden layer sizes) on the stage-free group and pair entries, added to the sum.
    pub net: Option<(usize, usize)>,
}

impl FeatureSet {
    pub fn parse(name: &str) -> Option<FeatureSet> {
        let mut parts = name.split('+');
        if parts.next()? != NAME {
            return None;
        }
        let mut set = FeatureSet::default();
        for part in parts {
            match part {
                "pairs" if !set.pairs => set.pairs = true,
                _ if part.starts_with("net") && set.net.is_none() => {
                    let (a, b) = part[3..].split_once('x')?;
                    let (a, b) = (a.parse().ok()?, b.parse().ok()?);
                    if !(1..=MAX_HIDDEN).contains(&a) || !(1..=MAX_HIDDEN).contains(&b) {
                        return None;
                    }
                    set.net = Some((a, b));
                }
                _ => return None,
            }
        }
        // Only the spelling `name` writes (so a name means one table layout).
        (set.name() == name).then_some(set)
    }

    pub fn name(&self) -> String {
        let mut s = NAME.to_string();
        if self.pairs {
            s += "+pairs";
        }
        if let Some((a, b)) = self.net {
            s += &format!("+net{a}x{b}");
        }
        s
    }
}

const PAIR_STATES: usize = 37;

/// A group's part of the features (`Features::group_entry`).
pub(super) struct GroupEntry {
    /// Its entry within a stage's block.
    pub local: usize,
    /// The cells it still needs, when it has room for them (0 otherwise).
    pub demand: usize,
    /// Empty cells whose filling with any value could change its entry or its demand, and those
    /// whose filling with the group's own value could (a placement fills two cells: filling any
    /// two others leaves both as they are). Only computed on request.
    pub watch: u64,
    pub watch_same: u64,
    /// Empty cells whose filling could change its watch masks (or its entry): the cells the
    /// masks are worked out from. A group none of whose masks meet a placement keeps entry
    /// and masks on the board after it.
    pub depends: u64,
}

/// The room of a partial group missing m cells with r empty cells within reach: short, exact,
/// some, plenty.
#[inline(always)]
fn room_of(r: usize, m: usize) -> usize {
    if r < m {
        0
    } else if r == m {
        1
    } else if r <= 2 * m {
        2
    } else {
        3
    }
}

/// The entry of the bias for `rounds_after` rolls to come (the same in every stage).
#[inline(always)]
pub(super) fn round_entry(rounds_after: usize) -> usize {
    ROUND_BIAS + rounds_after.min(ROUND_CAP)
}

/// The demand entry of value v (2..=6) that asks for `d` cells, within a stage's block.
#[inline(always)]
pub(super) fn demand_entry(v: usize, d: usize) -> usize {
    DEMAND + (v - 2) * (DEMAND_CAP + 1) + d.min(DEMAND_CAP)
}

/// The entry of `count` empty cells with k empty neighbours, within a stage's block.
#[inline(always)]
pub(super) fn open_entry(k: usize, count: usize) -> usize {
    OPEN + k * 8 + count.min(7)
}

impl Active {
    #[inline(always)]
    pub(super) fn push(&mut self, i: usize) {
        self.idx[self.n] = i as u32;
        self.n += 1;
    }

    pub fn as_slice(&self) -> &[u32] {
        &self.idx[..self.n]
    }
}

#[derive(Debug, Clone)]
pub struct Features {
    pub geo: Geometry,
    pub set: FeatureSet,
    /// Canonical cells (one per mirror pair) in cell order.
    pairs: Vec<usize>,
    pairs_at: usize,
    /// The network's shape (its parameters follow the table), and each table entry's input to it
    /// (`u32::MAX`: none).
    pub net: Option<Shape>,
    net_input: Vec<u32>,
    len: usize,
}

impl Features {
    /// The group features alone. None when the layout has more than 64 cells.
    pub fn new(layout: &Layout) -> Option<Features> {
        Features::with_set(layout, FeatureSet::default())
    }

    pub fn with_set(layout: &Layout, set: FeatureSet) -> Option<Features> {
        let geo = Geometry::new(layout)?;
        let pairs: Vec<usize> = (0..64).filter(|&c| geo.canonical >> c & 1 == 1).collect();
        let pairs_at = LEN;
        let table = pairs_at
            + if set.pairs {
                STAGES * pairs.len() * PAIR_STATES
            } else {
                0
            };
        // Network inputs: each stage-free group entry, each number of rolls to come, each pair
        // state; the stage biases are the table's alone.
        let pair_block = pairs.len() * PAIR_STATES;
        let mut net_input = vec![u32::MAX; if set.net.is_some() { table } else { 0 }];
        for (idx, input) in net_input.iter_mut().enumerate() {
            let local = if idx < ROUND_BIAS {
                (idx % PER_STAGE != STAGE_BIAS).then_some(idx % PER_STAGE)
            } else if idx < LEN {
                Some(PER_STAGE + idx - ROUND_BIAS)
            } else if set.pairs {
                Some(PER_STAGE + ROUND_CAP + 1 + (idx - pairs_at) % pair_block)
            } else {
                None
            };
            *input = local.map_or(u32::MAX, |l| l as u32);
        }
        let net = set.net.map(|(hidden1, hidden2)| Shape {
            inputs: PER_STAGE + ROUND_CAP + 1 + if set.pairs { pair_block } else { 0 },
            hidden1,
            hidden2,
            at: table,
        });
        let len = table + net.as_ref().map_or(0, |n| n.params());
        Some(Features {
            geo,
            set,
            pairs,
            pairs_at,
            net,
            net_input,
            len,
        })
    }

    /// The network inputs of the active entries (into `out`; returns how many: none without a
    /// network).
    #[inline]
    pub fn net_inputs(&self, active: &Active, out: &mut [u32; 144]) -> usize {
        if self.net.is_none() {
            return 0;
        }
        let mut n = 0;
        for &i in active.as_slice() {
            let input = self.net_input[i as usize];
            if input != u32::MAX {
                out[n] = input;
                n += 1;
            }
        }
        n
    }

    /// The network input of table entry `entry` (None: the entry is the table's alone, or
    /// there is no network).
    #[inline(always)]
    pub(super) fn net_input(&self, entry: u32) -> Option<u32> {
        self.net_input
            .get(entry as usize)
            .copied()
            .filter(|&i| i != u32::MAX)
    }

    /// Where the table ends (the network's parameters, if any, follow).
    pub fn table_len(&self) -> usize {
        self.net.as_ref().map_or(self.len, |n| n.at)
    }

    /// Table entries of this feature set.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The entries switched on by board `b` with `rounds_after` rolls still to come (>= 1).
    #[inline(always)]
    pub fn active(&self, b: &Bits, rounds_after: usize, out: &mut Active) {
        let geo = &self.geo;
        out.n = 0;
        let base = stage_of(rounds_after) * PER_STAGE;
        let mut demand = [0usize; 7];
        for (v, g) in geo.groups_from(b, b.by_value) {
            let group = self.group_entry::<false>(b, v, g);
            demand[v] += group.demand;
            out.push(base + group.local);
        }
        self.board_entries(b, rounds_after, &demand, out);
    }

    /// The entries that are not a group's: demand per value (`demand`: the groups' demands
    /// summed per value), open cells, hearts, biases, pairs.
    #[inline(always)]
    pub(super) fn board_entries(
        &self,
        b: &Bits,
        rounds_after: usize,
        demand: &[usize; 7],
        out: &mut Active,
    ) {
        let base = stage_of(rounds_after) * PER_STAGE;
        for (v, &d) in (2..).zip(&demand[2..]) {
            out.push(base + demand_entry(v, d));
        }
        for (k, count) in self.open_counts(b.empty).into_iter().enumerate() {
            out.push(base + open_entry(k, count));
        }
        if let Some(local) = self.hearts_entry(b) {
            out.push(base + local);
        }
        out.push(base + STAGE_BIAS);
        out.push(round_entry(rounds_after));
        if self.set.pairs {
            self.pair_features(b, rounds_after, out);
        }
    }

    /// The entry of group `g` (connected cells of value `v` on `b`, all of them), local to its
    /// stage's block; the cells it asks for (counted in its value's demand); and, when `WATCH`,
    /// the empty cells whose filling could change its entry or its demand (`GroupEntry`).
    #[inline(always)]
    pub(super) fn group_entry<const WATCH: bool>(&self, b: &Bits, v: usize, g: u64) -> GroupEntry {
        let geo = &self.geo;
        let cells = b.by_value[v];
        let size = g.count_ones() as usize;
        let libs = geo.expand(g) & b.empty;
        // A cell of the group's value next to it joins it (and so makes another group).
        let joins = if WATCH { libs } else { 0 };
        if size > v {
            let local = DEAD + (v - 1) * 2 + 1;
            return GroupEntry {
                local,
                demand: 0,
                watch: 0,
                watch_same: joins,
                depends: 0,
            };
        }
        let l = libs.count_ones() as usize;
        // Liberties counted up to 3: two filled change the count only from 4 down.
        let counted = if WATCH && l <= 4 { libs } else { 0 };
        if size == v {
            let star = (g & geo.star != 0) as usize;
            let local = COMPLETE + ((v - 1) * 2 + star) * 4 + l.min(3);
            return GroupEntry {
                local,
                demand: 0,
                watch: counted,
                watch_same: joins,
                depends: joins,
            };
        }
        if l == 0 {
            let local = DEAD + (v - 1) * 2;
            return GroupEntry {
                local,
                demand: 0,
                watch: 0,
                watch_same: 0,
                depends: 0,
            };
        }
        let m = v - size;
        // The reach in layers: cells first reached at step j (the liberties at step 1) are
        // `layers[j] & !layers[j - 1]`.
        let mut layers = [0u64; 6];
        layers[1] = libs;
        let mut reach = libs;
        for layer in layers.iter_mut().take(m + 1).skip(2) {
            reach |= geo.expand(reach) & b.empty;
            if WATCH {
                *layer = reach;
            }
        }
        let r = reach.count_ones() as usize;
        let room = room_of(r, m);
        let star = if g & geo.star != 0 {
            2
        } else {
            (reach & geo.star != 0) as usize
        };
        let rest = cells & !g;
        let others = geo.expand(libs) & rest;
        let (merge, joined) = if others == 0 {
            (0, 0)
        } else {
            let joined = geo.flood(others, rest);
            let merge = if size + (joined.count_ones() as usize) < v {
                1
            } else {
                2
            };
            (merge, joined)
        };
        let shape = (((l.min(3) - 1) * 4 + room) * 3 + star) * 3 + merge;
        let block = PARTIAL_OF_VALUE[v] + m - 1;
        let (watch, watch_same) = if WATCH {
            // A cell of value v next to a liberty or next to the groups it would merge with
            // changes the merge; a filled liberty changes the liberties counted, and the groups
            // next to the liberties.
            let same = geo.expand(libs) | geo.expand(joined);
            let mut watch = if others != 0 { libs } else { counted };
            // Filling cells first reached at step j or later leaves every other cell reached
            // by step j where it was (their shortest paths only cross earlier steps), so the
            // reach keeps at least |layers[j]| - 2 cells: the room can only change where that
            // count has another room. Likewise a star reached by step j stays within reach
            // unless both cells are stars.
            let first_star = (1..=m).find(|&j| layers[j] & geo.star != 0);
            for j in 1..=m {
                let layer = layers[j] & !layers[j - 1];
                let keeps = (layers[j].count_ones() as usize).saturating_sub(2);
                if room_of(keeps, m) != room {
                    watch |= layer;
                }
                if star == 1 {
                    let i = first_star.expect("a star is within reach");
                    if j < i {
                        watch |= layer;
                    } else if j == i && (layers[i] & geo.star).count_ones() <= 2 {
                        watch |= layers[i] & geo.star;
                    }
                }
            }
            (watch & b.empty, same & b.empty)
        } else {
            (0, 0)
        };
        GroupEntry {
            local: PARTIAL + block * PARTIAL_SHAPES + shape,
            demand: if room > 0 { m } else { 0 },
            watch,
            watch_same,
            // The masks come from the reach (the liberties are its first step), and from the
            // groups of value v around it, which only a cell of value v changes.
            depends: if WATCH { reach } else { 0 },
        }
    }

    /// The hearts' entry, local to its stage's block (None on a layout without hearts).
    #[inline(always)]
    pub(super) fn hearts_entry(&self, b: &Bits) -> Option<usize> {
        let geo = &self.geo;
        if geo.hearts == 0 {
            return None;
        }
        let filled = geo.hearts & !b.empty;
        let kind = if filled == 0 {
            0
        } else {
            (1..=6).find(|&v| filled & !b.by_value[v] == 0).unwrap_or(7)
        };
        Some(HEARTS + filled.count_ones() as usize * 8 + kind)
    }

    /// Where the entries of the stage of `rounds_after` start (add an entry's local index).
    #[inline(always)]
    pub(super) fn stage_base(rounds_after: usize) -> usize {
        stage_of(rounds_after) * PER_STAGE
    }

    /// The pair entry of the pair named at canonical cell `cell` holding `a` there and `m` at its
    /// mirror (0, 0: empty), with `rounds_after` rolls to come. None without the pair family.
    #[inline(always)]
    pub(super) fn pair_entry(
        &self,
        cell: usize,
        a: u8,
        m: u8,
        rounds_after: usize,
    ) -> Option<usize> {
        if !self.set.pairs {
            return None;
        }
        let k = (self.geo.canonical & ((1u64 << cell) - 1)).count_ones() as usize;
        let (a, m) = (a as usize, m as usize);
        let state = if a == 0 { 0 } else { 1 + (a - 1) * 6 + (m - 1) };
        let base = self.pairs_at + stage_of(rounds_after) * self.pairs.len() * PAIR_STATES;
        Some(base + k * PAIR_STATES + state)
    }

    /// The pair entries: what each mirror pair holds (empty, or the value named there and the
    /// one at its mirror).
    #[inline(always)]
    fn pair_features(&self, b: &Bits, rounds_after: usize, out: &mut Active) {
        let mut values = [0u8; 64];
        for v in 1..=6u8 {
            let mut m = b.by_value[v as usize];
            while m != 0 {
                values[m.trailing_zeros() as usize] = v;
                m &= m - 1;
            }
        }
        let base = self.pairs_at + stage_of(rounds_after) * self.pairs.len() * PAIR_STATES;
        for (k, &c) in self.pairs.iter().enumerate() {
            let (a, m) = (values[c] as usize, values[self.geo.mirror(c)] as usize);
            let state = if a == 0 { 0 } else { 1 + (a - 1) * 6 + (m - 1) };
            out.push(base + k * PAIR_STATES + state);
        }
    }

    /// Starting weights: what each group would score if the game ended now, plus a share of the
    /// points of partial groups that have room (halved per cell missing); everything else 0.
    /// Training from this prior instead of zeros skips the first, slow phase where greedy play
    /// with an empty table is near random.
    pub fn prior(&self) -> Vec<f32> {
        let mut w = vec![0.0f32; self.table_len()];
        if let Some(shape) = &self.net {
            w.extend(super::net::initial(shape, 1, 48));
        }
        for stage in 0..STAGES {
            let base = stage * PER_STAGE;
            for v in 1..=6usize {
                for star in 0..2 {
                    for l in 0..4 {
                        w[base + COMPLETE + ((v - 1) * 2 + star) * 4 + l] = (v * (1 + star)) as f32;
                    }
                }
                for m in 1..v {
                    let block = PARTIAL_OF_VALUE[v] + m - 1;
                    for shape in 0..PARTIAL_SHAPES {
                        let (room, star) = (shape / 9 % 4, shape / 3 % 3);
                        if room > 0 {
                            let points = (v * if star == 2 { 2 } else { 1 }) as f32;
                            w[base + PARTIAL + block * PARTIAL_SHAPES + shape] =
                                points * 0.5f32.powi(m as i32);
                        }
                    }
                }
            }
        }
        w
    }

    /// How many empty cells have 0, 1, 2, 3 and 4 empty neighbours (bit-sliced counting).
    #[inline(always)]
    pub(super) fn open_counts(&self, empty: u64) -> [usize; 5] {
        let geo = &self.geo;
        let (mut b0, mut b1, mut b2) = (0u64, 0u64, 0u64);
        for d in geo.neighbour_masks(empty) {
            let c0 = b0 & d;
            b0 ^= d;
            let c1 = b1 & c0;
            b1 ^= c0;
            b2 |= c1;
        }
        let e = empty;
        [
            (e & !b0 & !b1 & !b2).count_ones() as usize,
            (e & b0 & !b1 & !b2).count_ones() as usize,
            (e & !b0 & b1 & !b2).count_ones() as usize,
            (e & b0 & b1).count_ones() as usize,
            (e & b2).count_ones() as usize,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::layout::official;
    use super::*;

    /// The features computed the slow, obvious way on arrays: groups by breadth-first search over
    /// the layout's neighbour lists, room by repeated neighbour steps over empty cells.
    fn active_by_arrays(
        layout: &Layout,
        values: &[u8],
        rounds_after: usize,
        pairs: bool,
    ) -> Vec<u32> {
        let near = |set: &[usize]| -> Vec<usize> {
            let mut out: Vec<usize> = set
                .iter()
                .flat_map(|&c| layout.neighbours(c).iter().copied())
                .collect();
            out.sort();
            out.dedup();
            out
        };
        let component = |start: usize, keep: &dyn Fn(usize) -> bool| -> Vec<usize> {
            let mut cells = vec![start];
            let mut i = 0;
            while i < cells.len() {
                for &n in layout.neighbours(cells[i]) {
                    if keep(n) && !cells.contains(&n) {
                        cells.push(n);
                    }
                }
                i += 1;
            }
            cells
        };
        let empty = |c: usize| layout.is_fillable(c) && values[c] == 0;
        let base = stage_of(rounds_after) * PER_STAGE;
        let mut out = Vec::new();
        let mut demand = [0usize; 7];
        let mut seen = vec![false; values.len()];
        for v in 1..=6u8 {
            for start in 0..values.len() {
                if values[start] != v || seen[start] {
                    continue;
                }
                let g = component(start, &|c| values[c] == v);
                for &c in &g {
                    seen[c] = true;
                }
                let (v, size) = (v as usize, g.len());
                if size > v {
                    out.push(base + DEAD + (v - 1) * 2 + 1);
                    continue;
                }
                let libs: Vec<usize> = near(&g).into_iter().filter(|&c| empty(c)).collect();
                let star_in = g.iter().any(|&c| layout.is_star(c)) as usize;
                if size == v {
                    out.push(base + COMPLETE + ((v - 1) * 2 + star_in) * 4 + libs.len().min(3));
                    continue;
                }
                if libs.is_empty() {
                    out.push(base + DEAD + (v - 1) * 2);
                    continue;
                }
                let m = v - size;
                let mut reach = libs.clone();
                for _ in 1..m {
                    let mut more: Vec<usize> =
                        near(&reach).into_iter().filter(|&c| empty(c)).collect();
                    more.extend(&reach);
                    more.sort();
                    more.dedup();
                    reach = more;
                }
                let r = reach.len();
                let room = match r {
                    _ if r < m => 0,
                    _ if r == m => 1,
                    _ if r <= 2 * m => 2,
                    _ => 3,
                };
                let star = if star_in == 1 {
                    2
                } else {
                    reach.iter().any(|&c| layout.is_star(c)) as usize
                };
                let others: Vec<usize> = near(&libs)
                    .into_iter()
                    .filter(|&c| values[c] == v as u8 && !g.contains(&c))
                    .collect();
                let mut joined: Vec<usize> = Vec::new();
                for &o in &others {
                    if !joined.contains(&o) {
                        joined.extend(component(o, &|c| values[c] == v as u8));
                    }
                }
                let merge = match joined.len() {
                    0 => 0,
                    t if size + t < v => 1,
                    _ => 2,
                };
                if room > 0 {
                    demand[v] += m;
                }
                let shape = (((libs.len().min(3) - 1) * 4 + room) * 3 + star) * 3 + merge;
                out.push(base + PARTIAL + (PARTIAL_OF_VALUE[v] + m - 1) * PARTIAL_SHAPES + shape);
            }
        }
        for (v, &d) in demand.iter().enumerate().skip(2) {
            out.push(base + DEMAND + (v - 2) * (DEMAND_CAP + 1) + d.min(DEMAND_CAP));
        }
        let mut open = [0usize; 5];
        for c in 0..values.len() {
            if empty(c) {
                open[layout.neighbours(c).iter().filter(|&&n| empty(n)).count()] += 1;
            }
        }
        for (k, n) in open.into_iter().enumerate() {
            out.push(base + OPEN + k * 8 + n.min(7));
        }
        let hearts = layout.hearts();
        if !hearts.is_empty() {
            let filled: Vec<u8> = hearts
                .iter()
                .map(|&h| values[h])
                .filter(|&v| v != 0)
                .collect();
            let kind = match filled.first() {
                None => 0,
                Some(&v) if filled.iter().all(|&f| f == v) => v as usize,
                Some(_) => 7,
            };
            out.push(base + HEARTS + filled.len() * 8 + kind);
        }
        out.push(base + STAGE_BIAS);
        out.push(ROUND_BIAS + rounds_after.min(ROUND_CAP));
        if pairs {
            // Pairs in cell order, each named at its lower cell; 37 states (empty, or 6 x 6).
            let canonical: Vec<usize> = layout
                .fillable()
                .iter()
                .copied()
                .filter(|&c| layout.mirror(c) >= c)
                .collect();
            let stage_at = LEN + stage_of(rounds_after) * canonical.len() * 37;
            for (k, &c) in canonical.iter().enumerate() {
                let (a, m) = (values[c] as usize, values[layout.mirror(c)] as usize);
                let state = if a == 0 { 0 } else { 1 + (a - 1) * 6 + m - 1 };
                out.push(stage_at + k * 37 + state);
            }
        }
        out.into_iter().map(|i| i as u32).collect()
    }

    /// The mask features equal the array twin's (as multisets) on thousands of random boards of
    /// the official layouts and random small ones, at every stage, with and without the pairs.
    #[test]
    fn mask_features_match_the_array_twin() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(41);
        let mut a = Active::default();
        for case in 0..3000 {
            let layout = if case % 2 == 0 {
                official(1 + (case % 4 / 2) as u8)
            } else {
                super::super::super::bits::tests::random_layout(&mut rng)
            };
            let pairs = case % 3 == 0;
            let set = FeatureSet { pairs, net: None };
            let f = Features::with_set(&layout, set).unwrap();
            let fill = rng.random_range(0.0..1.0);
            let mut values = vec![0u8; layout.cells()];
            for &c in layout.fillable() {
                if layout.mirror(c) >= c && rng.random_bool(fill) {
                    values[c] = rng.random_range(1..=6);
                    values[layout.mirror(c)] = rng.random_range(1..=6);
                }
            }
            let r = rng.random_range(1..30);
            f.active(&f.geo.from_values(&values), r, &mut a);
            let mut fast = a.as_slice().to_vec();
            let mut slow = active_by_arrays(&layout, &values, r, pairs);
            fast.sort();
            slow.sort();
            assert_eq!(fast, slow, "case {case}");
        }
    }

    /// Stages cover every round count, in order, and every index stays inside the table.
    #[test]
    fn stages_and_indices_fit() {
        let mut last = 0;
        for r in 1..100 {
            let s = stage_of(r);
            assert!(s < STAGES && s >= last, "{r}");
            last = s;
        }
        let layout = official(2);
        let f = Features::new(&layout).unwrap();
        let mut a = Active::default();
        let mut b = f.geo.empty_board();
        // Fill the board in a fixed pattern and check every intermediate board.
        for (k, cell) in (0..56)
            .filter(|&c| f.geo.canonical >> c & 1 == 1)
            .enumerate()
        {
            f.geo
                .apply(&mut b, cell, (k % 6 + 1) as u8, ((k * 5) % 6 + 1) as u8);
            f.active(&b, 22 - k.min(21), &mut a);
            assert!(a.as_slice().iter().all(|&i| (i as usize) < LEN));
        }
    }

    /// The network sees a table entry without its stage: the same board at two round counts of
    /// different stages gives the same inputs except the round count's own; every input is
    /// inside the network, the stage biases are not inputs, and the set's name reads back.
    #[test]
    fn network_inputs_are_stage_free() {
        let set = FeatureSet::parse("groups-v1+pairs+net16x8").unwrap();
        assert_eq!(set.net, Some((16, 8)));
        assert!(set.pairs);
        for bad in [
            "groups-v1+net16",
            "groups-v1+net0x8",
            "groups-v1+net8x8+pairs",
            "x+pairs",
        ] {
            assert_eq!(FeatureSet::parse(bad), None, "{bad}");
        }
        let layout = official(1);
        let f = Features::with_set(&layout, set).unwrap();
        let shape = f.net.clone().unwrap();
        assert_eq!(f.len(), f.table_len() + shape.params());
        let mut b = f.geo.empty_board();
        for (k, cell) in (0..64)
            .filter(|&c| f.geo.canonical >> c & 1 == 1)
            .enumerate()
            .take(12)
        {
            f.geo
                .apply(&mut b, cell, (k % 6 + 1) as u8, ((k * 5) % 6 + 1) as u8);
        }
        let inputs = |r: usize| {
            let mut a = Active::default();
            f.active(&b, r, &mut a);
            let mut out = [0u32; 144];
            let n = f.net_inputs(&a, &mut out);
            assert_eq!(n, a.n - 1, "all but the stage bias");
            let mut v = out[..n].to_vec();
            assert!(v.iter().all(|&i| (i as usize) < shape.inputs));
            v.sort();
            v
        };
        let (early, late) = (inputs(20), inputs(2));
        assert_ne!(stage_of(20), stage_of(2));
        let differ = early.iter().filter(|i| !late.contains(i)).count();
        assert_eq!(differ, 1, "{early:?} vs {late:?}");
    }
}
