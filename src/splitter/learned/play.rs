//! The learned value as the player uses it: the features and weights of a `LearnedValue`, with
//! the table and the network's first layer in fixed point. Fixed-point sums are exact, so they do
//! not depend on the order of their terms: an afterstate valued from its board's sums and the few
//! entries its placement changes (`delta.rs`) gets, to the bit, the value computed from scratch
//! (tested). The network's second layer and output stay in floating point, computed per
//! afterstate. Against the float `LearnedValue` (what training uses), V moves by a few
//! hundred-thousandths of a point (bounded and tested).

use super::delta::{BoardAnalysis, Entries};
use super::features::{round_entry, Active, Features};
use super::net::{Shape, MAX_HIDDEN};
use super::value::{average_over_rolls, BestByDice, LearnedValue};
use crate::splitter::game::{Dice, Placement};
use crate::splitter::geometry::Bits;
use arrayvec::ArrayVec;

/// At most this many first-layer rows are ever summed for one board (`Active`'s capacity).
const MAX_INPUTS: f64 = 144.0;

/// Defines method `$name` calling `$body`, compiled a second time for AVX2 and the bit-counting
/// instructions and taken when the CPU has them (the default x86-64 target counts bits in
/// software, and the features count a lot): the same integer and float operations, so the same
/// results.
macro_rules! wide {
    ($(#[$doc:meta])* pub fn $name:ident, $wide:ident, $body:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        $(#[$doc])*
        pub fn $name(&self, $($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("fma")
            {
                // SAFETY: the CPU has the features `$wide` is compiled for (checked above).
                return unsafe { self.$wide($($arg),*) };
            }
            self.$body(false, $($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma,popcnt,bmi1")]
        fn $wide(&self, $($arg: $ty),*) -> $ret {
            self.$body(true, $($arg),*)
        }
    };
}

#[derive(Debug, Clone)]
pub struct PlayValue {
    pub features: Features,
    /// Per table entry, its weight in units of `table_unit` and its network input.
    entries: Vec<Entry>,
    table_unit: f64,
    net: Option<FixedNet>,
}

/// The network with its first layer in fixed point.
#[derive(Debug, Clone)]
struct FixedNet {
    shape: Shape,
    /// First-layer rows (one per input, `hidden1` wide) and biases, in units of `unit`.
    w1: Vec<i32>,
    b1: [i32; MAX_HIDDEN],
    unit: f32,
    /// Second layer (one row of `hidden2` per first-layer unit), its biases, the output weights.
    w2: Vec<f32>,
    b2: Vec<f32>,
    w3: Vec<f32>,
}

impl PlayValue {
    pub fn new(value: &LearnedValue) -> PlayValue {
        let features = value.features.clone();
        let table = &value.weights[..features.table_len()];
        // The largest table sum any board can reach stays inside an i32 (wrapping sums are
        // exact whenever the true sum fits).
        let largest = table.iter().fold(1e-9f64, |m, &w| m.max((w as f64).abs()));
        let bits = fixed_point_bits(MAX_INPUTS * largest);
        let entries = table
            .iter()
            .enumerate()
            .map(|(e, &w)| Entry {
                weight: (w as f64 * 2f64.powi(bits)).round() as i32,
                input: features.net_input(e as u32).unwrap_or(NO_INPUT),
            })
            .collect();
        let net = features
            .net
            .clone()
            .map(|shape| FixedNet::new(shape, &value.weights));
        PlayValue {
            features,
            entries,
            table_unit: 2f64.powi(-bits),
            net,
        }
    }

    wide! {
        /// V of board `b` with `rounds_after` rolls to come, from scratch: the exact score when
        /// the game is over, else the table's and the network's sums over its entries.
        pub fn value, value_wide, value_body(b: &Bits, rounds_after: usize) -> f32
    }

    #[inline(always)]
    fn value_body(&self, wide: bool, b: &Bits, rounds_after: usize) -> f32 {
        let geo = &self.features.geo;
        if rounds_after == 0 || geo.free_canonical(b) == 0 {
            return geo.exact(b) as f32;
        }
        let mut active = Active::default();
        self.features.active(b, rounds_after, &mut active);
        let mut change = Change::new(self);
        for &e in active.as_slice() {
            change.on(e);
        }
        let base = self.net.as_ref().map_or([0; MAX_HIDDEN], |n| n.b1);
        self.finish(wide, change.table, &base, &change)
    }

    wide! {
        /// The placement of `dice` on `b` with the largest V (`rounds_after` rolls to come after
        /// it; the first in cell order, named die first, on ties), and that V. None when no pair
        /// is free.
        pub fn best, best_wide, best_body(b: &Bits, dice: Dice, rounds_after: usize)
            -> Option<(Placement, f32)>
    }

    #[inline(always)]
    fn best_body(
        &self,
        wide: bool,
        b: &Bits,
        dice: Dice,
        rounds_after: usize,
    ) -> Option<(Placement, f32)> {
        let mut analysed = Analysed::default();
        let board = if rounds_after > 0 {
            self.analyse(b, rounds_after, &mut analysed);
            Some(&analysed)
        } else {
            None
        };
        Afterstates::new(self, b, rounds_after, board).best(wide, dice)
    }

    wide! {
        /// The expected V after the next roll from afterstate `b` (r >= 1 rolls to come), and
        /// the best placement for every ordered pair of dice (the first in cell order on ties).
        pub fn expected_next, expected_next_wide, expected_next_body(b: &Bits, r: usize)
            -> (f32, BestByDice)
    }

    #[inline(always)]
    fn expected_next_body(&self, wide: bool, b: &Bits, r: usize) -> (f32, BestByDice) {
        let mut best = [[(Placement::NONE, f32::NEG_INFINITY); 6]; 6];
        let mut analysed = Analysed::default();
        let board = if r > 1 {
            self.analyse(b, r - 1, &mut analysed);
            Some(&analysed)
        } else {
            None
        };
        let mut values = Afterstates::new(self, b, r - 1, board);
        let mut free = self.features.geo.free_canonical(b);
        while free != 0 {
            let cell = free.trailing_zeros() as usize;
            free &= free - 1;
            let open = values.open_after(cell);
            for (a, row) in best.iter_mut().enumerate() {
                for (m, slot) in row.iter_mut().enumerate() {
                    let (a, m) = (a as u8 + 1, m as u8 + 1);
                    let v = values.value(wide, cell, &open, a, m);
                    if v > slot.1 {
                        *slot = (Placement { cell, a, b: m }, v);
                    }
                }
            }
        }
        (average_over_rolls(|a, m| best[a][m].1), best)
    }

    /// V from a table sum and the first layer's sums `pre1` changed by `change`'s inputs.
    #[inline(always)]
    fn finish(&self, wide: bool, table: i32, pre1: &[i32; MAX_HIDDEN], change: &Change<'_>) -> f32 {
        let table = (table as f64 * self.table_unit) as f32;
        match &self.net {
            None => table,
            Some(n) => table + n.value(wide, pre1, change.plus.as_slice(), change.minus.as_slice()),
        }
    }
}

/// A change of entries: the table's sum over them, and the network inputs to add and take away.
struct Change<'a> {
    value: &'a PlayValue,
    table: i32,
    plus: Inputs,
    minus: Inputs,
}

/// Network inputs (at most one per entry of a board).
type Inputs = ArrayVec<u32, 144>;

/// A table entry as the player reads it: its fixed-point weight and its network input.
#[derive(Debug, Clone, Copy)]
struct Entry {
    weight: i32,
    input: u32,
}

/// `Entry::input` of an entry that is the table's alone.
const NO_INPUT: u32 = u32::MAX;

/// The most fractional bits (up to 24) that keep sums up to `bound` inside an i32.
fn fixed_point_bits(bound: f64) -> i32 {
    ((i32::MAX as f64 / bound.max(1e-9)).log2().floor() as i32).clamp(0, 24)
}

impl<'a> Change<'a> {
    #[inline(always)]
    fn new(value: &'a PlayValue) -> Change<'a> {
        Change {
            value,
            table: 0,
            plus: Inputs::new(),
            minus: Inputs::new(),
        }
    }
}

impl Entries for Change<'_> {
    #[inline(always)]
    fn on(&mut self, e: u32) {
        let entry = self.value.entries[e as usize];
        self.table = self.table.wrapping_add(entry.weight);
        if entry.input != NO_INPUT {
            self.plus.push(entry.input);
        }
    }

    #[inline(always)]
    fn off(&mut self, e: u32) {
        let entry = self.value.entries[e as usize];
        self.table = self.table.wrapping_sub(entry.weight);
        if entry.input != NO_INPUT {
            self.minus.push(entry.input);
        }
    }
}

impl FixedNet {
    fn new(shape: Shape, weights: &[f32]) -> FixedNet {
        let h1 = shape.hidden1;
        let rows = &weights[shape.w1()..shape.w1() + shape.inputs * h1];
        let bias = &weights[shape.b1()..shape.b1() + h1];
        // The largest first-layer sum any board can reach, so that the unit keeps it inside an
        // i32 (wrapping sums are exact whenever the true sum fits).
        let mut largest = vec![0f64; h1];
        for row in rows.chunks_exact(h1) {
            for (l, &w) in largest.iter_mut().zip(row) {
                *l = l.max((w as f64).abs());
            }
        }
        let bound = largest
            .iter()
            .zip(bias)
            .map(|(&l, &b)| (b as f64).abs() + MAX_INPUTS * l)
            .fold(1e-9, f64::max);
        let bits = fixed_point_bits(bound);
        let scale = 2f64.powi(bits);
        let quantise = |w: f32| (w as f64 * scale).round() as i32;
        let mut b1 = [0; MAX_HIDDEN];
        for (q, &b) in b1.iter_mut().zip(bias) {
            *q = quantise(b);
        }
        FixedNet {
            w1: rows.iter().map(|&w| quantise(w)).collect(),
            b1,
            unit: 2f32.powi(-bits),
            w2: weights[shape.w2()..shape.b2()].to_vec(),
            b2: weights[shape.b2()..shape.w3()].to_vec(),
            w3: weights[shape.w3()..shape.w3() + shape.hidden2].to_vec(),
            shape,
        }
    }

    /// `pre1` plus the first-layer rows of inputs `plus`, minus those of `minus`; wrapping, so
    /// exact whenever the true sum fits (as `new` makes sure), whatever the order.
    #[inline(always)]
    fn accumulate(&self, pre1: &mut [i32; MAX_HIDDEN], plus: &[u32], minus: &[u32]) {
        #[inline(always)]
        fn fixed<const H: usize>(
            pre1: &mut [i32; MAX_HIDDEN],
            w1: &[i32],
            plus: &[u32],
            minus: &[u32],
        ) {
            let mut acc: [i32; H] = pre1[..H].try_into().unwrap();
            for &i in plus {
                let row: &[i32; H] = w1[i as usize * H..][..H].try_into().unwrap();
                for j in 0..H {
                    acc[j] = acc[j].wrapping_add(row[j]);
                }
            }
            for &i in minus {
                let row: &[i32; H] = w1[i as usize * H..][..H].try_into().unwrap();
                for j in 0..H {
                    acc[j] = acc[j].wrapping_sub(row[j]);
                }
            }
            pre1[..H].copy_from_slice(&acc);
        }
        let h1 = self.shape.hidden1;
        match h1 {
            64 => fixed::<64>(pre1, &self.w1, plus, minus),
            _ => {
                for (&i, sign) in plus
                    .iter()
                    .map(|i| (i, 1))
                    .chain(minus.iter().map(|i| (i, -1)))
                {
                    let row = &self.w1[i as usize * h1..][..h1];
                    for (p, &w) in pre1.iter_mut().zip(row) {
                        *p = p.wrapping_add(w.wrapping_mul(sign));
                    }
                }
            }
        }
    }

    /// The network's output for the first layer's sums `pre1` plus the rows of `plus` minus
    /// those of `minus`: the second layer in floating point over the units that are on (fused
    /// multiply-adds, in unit order), then the output as eight lane sums added in a fixed
    /// order. `wide`: the caller runs with AVX2 and FMA, and the default shape takes the
    /// vector-register version of the same operations.
    #[inline(always)]
    fn value(&self, wide: bool, pre1: &[i32; MAX_HIDDEN], plus: &[u32], minus: &[u32]) -> f32 {
        match (self.shape.hidden1, self.shape.hidden2) {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `wide` says the CPU has AVX2 and FMA; the shape is the one it is written for.
            (64, 32) if wide => unsafe { self.value_avx2(pre1, plus, minus) },
            (h1, h2) => {
                let mut sums = *pre1;
                self.accumulate(&mut sums, plus, minus);
                self.output_any(&sums, h1, h2)
            }
        }
    }

    /// `value` for 64 x 32 in vector registers: each lane sees the same operations in the same
    /// order as in `accumulate` and `output_any`, so the same result.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn value_avx2(&self, pre1: &[i32; MAX_HIDDEN], plus: &[u32], minus: &[u32]) -> f32 {
        use std::arch::x86_64::*;
        let load = |p: *const i32| _mm256_loadu_si256(p as *const __m256i);
        let mut acc = [_mm256_setzero_si256(); 8];
        for (k, a) in acc.iter_mut().enumerate() {
            *a = load(pre1.as_ptr().add(8 * k));
        }
        let w1 = self.w1.as_ptr();
        for &i in plus {
            let row = w1.add(i as usize * 64);
            for (k, a) in acc.iter_mut().enumerate() {
                *a = _mm256_add_epi32(*a, load(row.add(8 * k)));
            }
        }
        for &i in minus {
            let row = w1.add(i as usize * 64);
            for (k, a) in acc.iter_mut().enumerate() {
                *a = _mm256_sub_epi32(*a, load(row.add(8 * k)));
            }
        }
        // The units that are on, as a bit mask, and their sums.
        let zero = _mm256_setzero_si256();
        let mut on = 0u64;
        let mut xs = [0f32; 64];
        let unit = _mm256_set1_ps(self.unit);
        for (k, a) in acc.iter().enumerate() {
            let positive = _mm256_castsi256_ps(_mm256_cmpgt_epi32(*a, zero));
            on |= (_mm256_movemask_ps(positive) as u32 as u64) << (8 * k);
            let x = _mm256_mul_ps(_mm256_cvtepi32_ps(*a), unit);
            _mm256_storeu_ps(xs.as_mut_ptr().add(8 * k), x);
        }
        let (w2, b2, w3) = (self.w2.as_ptr(), self.b2.as_ptr(), self.w3.as_ptr());
        let mut pre2 = [
            _mm256_loadu_ps(b2),
            _mm256_loadu_ps(b2.add(8)),
            _mm256_loadu_ps(b2.add(16)),
            _mm256_loadu_ps(b2.add(24)),
        ];
        while on != 0 {
            let i = on.trailing_zeros() as usize;
            on &= on - 1;
            let x = _mm256_broadcast_ss(&xs[i]);
            let row = w2.add(i * 32);
            for (k, p) in pre2.iter_mut().enumerate() {
                *p = _mm256_fmadd_ps(_mm256_loadu_ps(row.add(8 * k)), x, *p);
            }
        }
        let zero = _mm256_setzero_ps();
        let mut lanes = zero;
        for (k, p) in pre2.iter().enumerate() {
            lanes = _mm256_fmadd_ps(
                _mm256_max_ps(*p, zero),
                _mm256_loadu_ps(w3.add(8 * k)),
                lanes,
            );
        }
        let mut out = [0f32; 8];
        _mm256_storeu_ps(out.as_mut_ptr(), lanes);
        sum_lanes(&out)
    }

    #[inline(always)]
    fn output_any(&self, pre1: &[i32; MAX_HIDDEN], h1: usize, h2: usize) -> f32 {
        let mut pre2 = [0f32; MAX_HIDDEN];
        pre2[..h2].copy_from_slice(&self.b2);
        for (i, &p) in pre1[..h1].iter().enumerate() {
            if p > 0 {
                let x = p as f32 * self.unit;
                for (s, &w) in pre2.iter_mut().zip(&self.w2[i * h2..][..h2]) {
                    *s = w.mul_add(x, *s);
                }
            }
        }
        let mut lanes = [0f32; 8];
        for (k, (&s, &w)) in pre2.iter().zip(&self.w3).enumerate() {
            lanes[k % 8] = s.max(0.0).mul_add(w, lanes[k % 8]);
        }
        sum_lanes(&lanes)
    }
}

/// Eight lane sums added pairwise, always in the same order.
#[inline(always)]
fn sum_lanes(l: &[f32; 8]) -> f32 {
    ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}

/// A board analysed for valuing its afterstates: the analysis, its table sum and its first
/// layer's sums.
pub struct Analysed {
    analysis: BoardAnalysis,
    table: i32,
    pre1: [i32; MAX_HIDDEN],
}

impl Default for Analysed {
    fn default() -> Self {
        Analysed {
            analysis: BoardAnalysis::default(),
            table: 0,
            pre1: [0; MAX_HIDDEN],
        }
    }
}

/// The board a rollout has reached, analysed, and the placement it last chose there: the next
/// board's analysis is made from this one (`PlayValue::rollout_best`). Two analyses, the
/// current one and the next, so that none is moved.
#[derive(Default)]
pub struct RolloutBoard {
    slots: [Analysed; 2],
    current: Option<usize>,
    chosen: Option<Placement>,
}

impl PlayValue {
    /// `b` analysed into `out`, with `rounds_after` (>= 1) rolls to come after its
    /// afterstates' placement.
    #[inline(always)]
    fn analyse(&self, b: &Bits, rounds_after: usize, out: &mut Analysed) {
        out.analysis.analyse(&self.features, b, rounds_after);
        let mut change = Change::new(self);
        for &e in out.analysis.active.as_slice() {
            change.on(e);
        }
        out.table = change.table;
        if let Some(n) = &self.net {
            out.pre1 = n.b1;
            n.accumulate(&mut out.pre1, change.plus.as_slice(), &[]);
        }
    }

    /// The afterstate `p` of an analysed board, analysed into `out` with one roll fewer to
    /// come (at least one): its groups from the board's (`BoardAnalysis::after`), its first
    /// layer from the board's plus the entries `p` changes and the roll count's, its table
    /// summed anew.
    #[inline(always)]
    fn advance(&self, from: &Analysed, p: Placement, out: &mut Analysed) {
        let (f, r) = (&self.features, from.analysis.rounds_after);
        from.analysis
            .after(f, p.cell, p.a, p.b, r - 1, &mut out.analysis);
        out.pre1 = from.pre1;
        if let Some(n) = &self.net {
            let mut change = Change::new(self);
            let open = from.analysis.open_after(f, p.cell);
            from.analysis.delta(f, p.cell, p.a, p.b, &open, &mut change);
            change.off(round_entry(r) as u32);
            change.on(round_entry(r - 1) as u32);
            n.accumulate(
                &mut out.pre1,
                change.plus.as_slice(),
                change.minus.as_slice(),
            );
        }
        out.table = out.analysis.active.as_slice().iter().fold(0i32, |t, &e| {
            t.wrapping_add(self.entries[e as usize].weight)
        });
    }

    wide! {
        /// `best` for a rollout's board `b`: the afterstates are valued from the analysis of
        /// the board before it when `board` holds it with the placement that led to `b`, else
        /// from scratch; `board` then holds `b`'s analysis and the placement chosen. The same
        /// placement and value as `best`, to the bit.
        pub fn rollout_best, rollout_best_wide, rollout_best_body(
            board: &mut RolloutBoard, b: &Bits, dice: Dice, rounds_after: usize
        ) -> Option<(Placement, f32)>
    }

    #[inline(always)]
    fn rollout_best_body(
        &self,
        wide: bool,
        board: &mut RolloutBoard,
        b: &Bits,
        dice: Dice,
        rounds_after: usize,
    ) -> Option<(Placement, f32)> {
        let chosen = board.chosen.take();
        let current = board.current.take();
        if rounds_after == 0 {
            return Afterstates::new(self, b, 0, None).best(wide, dice);
        }
        let next = match (current, chosen) {
            (Some(i), Some(p)) if board.slots[i].analysis.rounds_after == rounds_after + 1 => {
                let [first, second] = &mut board.slots;
                let (from, out) = if i == 0 {
                    (&*first, second)
                } else {
                    (&*second, first)
                };
                self.advance(from, p, out);
                if out.analysis.board != *b {
                    self.analyse(b, rounds_after, out);
                }
                1 - i
            }
            _ => {
                self.analyse(b, rounds_after, &mut board.slots[0]);
                0
            }
        };
        let best =
            Afterstates::new(self, b, rounds_after, Some(&board.slots[next])).best(wide, dice);
        board.current = Some(next);
        board.chosen = best.map(|(p, _)| p);
        best
    }
}

/// Values the afterstates of one board: its sums once, then each afterstate's from the entries
/// its placement changes.
struct Afterstates<'a> {
    value: &'a PlayValue,
    /// The board analysed; None when no roll follows the afterstates (they are valued by their
    /// exact score).
    board: Option<&'a Analysed>,
    at: Bits,
}

impl<'a> Afterstates<'a> {
    /// The afterstates of `b` with `rounds_after` rolls to come, valued from `board`, its
    /// analysis (None when no roll is to come).
    #[inline(always)]
    fn new(
        value: &'a PlayValue,
        b: &Bits,
        rounds_after: usize,
        board: Option<&'a Analysed>,
    ) -> Afterstates<'a> {
        debug_assert_eq!(board.is_some(), rounds_after > 0);
        Afterstates {
            value,
            board,
            at: *b,
        }
    }

    /// The placement of `dice` with the largest V (the first in cell order, named die first,
    /// on ties), and that V. None when no pair is free.
    #[inline(always)]
    fn best(&mut self, wide: bool, dice: Dice) -> Option<(Placement, f32)> {
        let orders = [(dice.0, dice.1), (dice.1, dice.0)];
        let orders = if dice.0 == dice.1 {
            &orders[..1]
        } else {
            &orders[..]
        };
        let mut free = self.value.features.geo.free_canonical(&self.at);
        let mut best: Option<(Placement, f32)> = None;
        while free != 0 {
            let cell = free.trailing_zeros() as usize;
            free &= free - 1;
            let open = self.open_after(cell);
            for &(a, m) in orders {
                let v = self.value(wide, cell, &open, a, m);
                if best.is_none_or(|(_, bv)| v > bv) {
                    best = Some((Placement { cell, a, b: m }, v));
                }
            }
        }
        best
    }

    /// `BoardAnalysis::open_after` of `cell` (any counts when the afterstates are valued by
    /// their exact score).
    #[inline(always)]
    fn open_after(&self, cell: usize) -> [usize; 5] {
        match self.board {
            Some(board) => board.analysis.open_after(&self.value.features, cell),
            None => [0; 5],
        }
    }

    /// V after placing `a` at the free canonical `cell` and `m` at its mirror (`open`: the
    /// cell's `open_after`); equal to `PlayValue::value` of that afterstate, to the bit.
    #[inline(always)]
    fn value(&mut self, wide: bool, cell: usize, open: &[usize; 5], a: u8, m: u8) -> f32 {
        let value = self.value;
        let geo = &value.features.geo;
        let Some(Analysed {
            analysis,
            table,
            pre1,
        }) = self.board
        else {
            let mut after = self.at;
            geo.apply(&mut after, cell, a, m);
            return geo.exact(&after) as f32;
        };
        let mut change = Change::new(value);
        let after = analysis.delta(&value.features, cell, a, m, open, &mut change);
        if geo.free_canonical(&after) == 0 {
            return geo.exact(&after) as f32;
        }
        value.finish(wide, table.wrapping_add(change.table), pre1, &change)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::splitter::geometry::random_board;
    use crate::splitter::layout::official;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Afterstates valued from their board's sums equal their values from scratch, to the bit,
    /// and the best placement and the expectation over the next roll are those of the values
    /// from scratch; the fixed-point values stay within 1e-4 of the float value training uses.
    /// On random boards of both official layouts with their built-in weights.
    #[test]
    fn afterstates_from_board_sums_equal_values_from_scratch() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(59);
        for n in [1, 2] {
            let layout = official(n);
            let float = LearnedValue::built_in(&layout).unwrap();
            let play = PlayValue::new(&float);
            let geo = play.features.geo.clone();
            let mut largest_gap = 0f32;
            for case in 0..150 {
                let placements = rng.random_range(0..26);
                let b = random_board(&geo, &mut rng, placements);
                if geo.free_canonical(&b) == 0 {
                    continue;
                }
                let r = rng.random_range(1..23);
                let (expected, by_dice) = play.expected_next(&b, r);
                let mut slow = [[f32::NEG_INFINITY; 6]; 6];
                let mut free = geo.free_canonical(&b);
                while free != 0 {
                    let cell = free.trailing_zeros() as usize;
                    free &= free - 1;
                    for x in 1..=6u8 {
                        for y in 1..=6u8 {
                            let mut after = b;
                            geo.apply(&mut after, cell, x, y);
                            let v = play.value(&after, r - 1);
                            let s = &mut slow[x as usize - 1][y as usize - 1];
                            *s = s.max(v);
                            let gap = (v - float.value(&after, r - 1)).abs();
                            largest_gap = largest_gap.max(gap);
                        }
                    }
                }
                for x in 0..6 {
                    for y in 0..6 {
                        assert_eq!(by_dice[x][y].1, slow[x][y], "case {case}");
                        let p = by_dice[x][y].0;
                        let mut after = b;
                        geo.apply(&mut after, p.cell, p.a, p.b);
                        assert_eq!(play.value(&after, r - 1), slow[x][y], "case {case}");
                    }
                }
                assert_eq!(expected, average_over_rolls(|x, y| slow[x][y]));
                let (p, v) = play.best(&b, Dice(2, 6), r - 1).unwrap();
                assert_eq!(v, slow[1][5].max(slow[5][1]), "case {case}");
                let mut after = b;
                geo.apply(&mut after, p.cell, p.a, p.b);
                assert_eq!(play.value(&after, r - 1), v, "case {case}");
            }
            eprintln!("layout {n}: largest gap {largest_gap}");
            assert!(largest_gap < 1e-4, "layout {n}: {largest_gap}");
        }
    }

    /// The vector-register version (taken when the CPU has AVX2 and FMA) gives the portable
    /// version's values to the bit, and so the same placements, on random boards.
    #[test]
    fn vector_registers_give_the_portable_values() {
        #[cfg(target_arch = "x86_64")]
        {
            let wide = std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1");
            assert!(wide, "this test needs a CPU with AVX2 and FMA");
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(61);
            for n in [1, 2] {
                let play = PlayValue::new(&LearnedValue::built_in(&official(n)).unwrap());
                let geo = play.features.geo.clone();
                for _ in 0..200 {
                    let placements = rng.random_range(0..27);
                    let b = random_board(&geo, &mut rng, placements);
                    let r = rng.random_range(0..23);
                    // SAFETY: the CPU has the features (asserted above).
                    let fast = unsafe { play.value_wide(&b, r) };
                    assert_eq!(fast, play.value_body(false, &b, r));
                    let dice = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
                    let fast = unsafe { play.best_wide(&b, dice, r) };
                    assert_eq!(fast, play.best_body(false, &b, dice, r));
                    if geo.free_canonical(&b) != 0 && r > 0 {
                        let fast = unsafe { play.expected_next_wide(&b, r) };
                        assert_eq!(fast, play.expected_next_body(false, &b, r));
                    }
                }
            }
        }
    }

    /// Whole games played by `rollout_best`, each board analysed from the one before, choose
    /// the placements `best` chooses with the same values, to the bit.
    #[test]
    fn rollout_steps_from_the_board_before_equal_best() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(73);
        let mut steps = 0;
        for n in [1, 2] {
            let play = PlayValue::new(&LearnedValue::built_in(&official(n)).unwrap());
            let geo = play.features.geo.clone();
            for _ in 0..30 {
                let mut b = geo.empty_board();
                let mut board = RolloutBoard::default();
                for r in (0..22).rev() {
                    let dice = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
                    let fast = play.rollout_best(&mut board, &b, dice, r);
                    assert_eq!(fast, play.best(&b, dice, r), "rolls to come {r}");
                    let Some((p, _)) = fast else { break };
                    geo.apply(&mut b, p.cell, p.a, p.b);
                    steps += 1;
                }
            }
        }
        assert!(steps > 1000, "{steps}");
    }
}
