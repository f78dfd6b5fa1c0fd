//! Move choice. Three policies:
//! - `random`: a uniformly random legal placement (the official Example bot's strength);
//! - `greedy`: the placement that most improves the evaluation (`eval.rs`);
//! - `search`: flat Monte-Carlo over the future dice. Every distinct placement is tried against
//!   the same sampled dice sequences (common random numbers), the rest of the game is played out
//!   greedily and scored exactly; placements that are clearly worse (paired difference beyond a
//!   confidence bound) are dropped so the budget goes to the close ones.

use super::bits::{BitEval, Bits, Groups};
use super::eval::{EvalParams, Evaluator};
pub use super::game::{placements, Placement};
use super::game::{Board, Dice, Move};
use super::layout::Layout;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyKind {
    Random,
    Greedy,
    Search,
}

impl std::str::FromStr for PolicyKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "random" => Ok(PolicyKind::Random),
            "greedy" => Ok(PolicyKind::Greedy),
            "search" => Ok(PolicyKind::Search),
            _ => Err(format!(
                "unknown policy '{s}' (expected search, greedy or random)"
            )),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Settings {
    pub kind: PolicyKind,
    /// Time budget per move for `search` (the later moves'; see `budget_ms`).
    pub ms: u64,
    /// Budget for the early moves (more than half the pairs still free). The issue bounds the
    /// *median* time per move, so the first half of the game can think longer.
    pub early_ms: u64,
    /// If set, `search` stops after this many rollout batches instead of the clock (reproducible).
    pub batches: Option<u32>,
    pub seed: u64,
    /// Threads for the search rollouts (results do not depend on it, only speed).
    pub threads: usize,
    /// Evaluation weights; None = the tuned set for this layout (`EvalParams::for_layout`).
    pub params: Option<EvalParams>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            kind: PolicyKind::Search,
            ms: DEFAULT_MS,
            early_ms: DEFAULT_EARLY_MS,
            batches: None,
            seed: 1,
            threads: 1,
            params: None,
        }
    }
}

/// Default budget for the later moves (x1.2 down to x0.4 as the pairs run out). Most moves end
/// sooner, when one candidate is left, so the median move stays far below the 100 ms.
pub const DEFAULT_MS: u64 = 120;

/// Default budget for the early moves (more than half the pairs free), where the extra rollouts pay
/// most: with a fixed number of rollout batches, doubling the early ones and halving the later ones
/// gained +0.60 (95% CI +-0.72; 200 games, layout 1, seed `tune`). Earlier, 300 ms instead of 128 ms
/// early gained +1.18 (CI +0.04..+2.32). With two threads and the faster rollouts more did not pay:
/// 1000 ms against 500 gave +0.60 (CI -0.23..+1.43; 100 games, layout 1, seed `dev1`), 800 against
/// 500 gave +0.06 (CI +-0.66) on layout 1 and -0.87 (CI +-0.56) on layout 2 (200 games, seed
/// `eval`). 500 ms: 200 games take about 5 minutes (the official limit is 15).
pub const DEFAULT_EARLY_MS: u64 = 500;

/// Default rollout threads: two (the machine the issue names has two cores, and the Tester runs one
/// bot at a time). On an idle machine a fixed amount of work (`bot bench splitter --games 1 --seed
/// thr --layout 1 --batches 200`) took 1.66 s with one thread and 0.84 s with two; the moves are the
/// same. On a machine busy with other work `--threads 1` can be the better choice.
pub const DEFAULT_THREADS: usize = 2;

/// Rollouts per candidate added in each batch (all candidates share the batch's dice).
const BATCH: usize = 8;
/// Drop a candidate when its paired deficit exceeds this many standard errors. 2.0 played as well as
/// 2.5 with a third fewer rollouts (`--batches 32`, 200 games, layout 1, seed `tune`: +0.03, 95% CI
/// +-0.71, 1,111 vs 1,679 rollouts per move), so clear moves end sooner and the time goes to close
/// ones; 4.0 spent 3,224 rollouts per move for +0.12 (CI +-0.67).
const PRUNE_Z: f32 = 2.0;

pub struct Player<'a> {
    layout: &'a Layout,
    settings: Settings,
    rng: Xoshiro256PlusPlus,
    ev: Evaluator<'a>,
    /// Worker threads for rollouts (None: run them on the calling thread).
    pool: Option<rayon::ThreadPool>,
    /// The fast mask evaluator, when the board has at most 64 cells.
    bits: Option<BitEval>,
    scratch: Vec<u8>,
    opts: Vec<Placement>,
    /// Rollouts run by the last `search` call (for stats).
    pub last_rollouts: u64,
}

impl<'a> Player<'a> {
    pub fn new(layout: &'a Layout, settings: Settings) -> Player<'a> {
        let rng = Xoshiro256PlusPlus::seed_from_u64(settings.seed);
        let params = settings
            .params
            .clone()
            .unwrap_or_else(|| EvalParams::for_layout(layout));
        let ev = Evaluator::new(layout, params.clone());
        let bits = BitEval::new(layout, params);
        let pool = (settings.threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(settings.threads)
                    .build()
                    .ok()
            })
            .flatten();
        Player {
            layout,
            settings,
            rng,
            ev,
            pool,
            bits,
            scratch: vec![0; layout.cells()],
            opts: Vec::new(),
            last_rollouts: 0,
        }
    }

    /// A legal move for `dice` on `board`, or None when the board has no free cell.
    pub fn choose(&mut self, board: &Board, dice: Dice) -> Option<Move> {
        let mut opts = std::mem::take(&mut self.opts);
        placements(self.layout, &board.values, dice, &mut opts);
        let pick = if opts.is_empty() {
            None
        } else {
            Some(match self.settings.kind {
                PolicyKind::Random => opts[self.rng.random_range(0..opts.len())],
                PolicyKind::Greedy => {
                    self.ev
                        .set_rounds_after(board.rounds_left.saturating_sub(1));
                    greedy_pick(&mut self.ev, &mut self.scratch, &board.values, &opts)
                }
                PolicyKind::Search => self.search(board, &opts),
            })
        };
        self.opts = opts;
        pick.map(|p| p.to_move(self.layout))
    }

    fn search(&mut self, board: &Board, opts: &[Placement]) -> Placement {
        let start = Instant::now();
        self.last_rollouts = 0;
        // Rolls still to come after this one, capped by the pairs left after this placement.
        let free_pairs = opts.iter().filter(|p| p.a == opts[0].a).count();
        let total_pairs = (self.layout.fillable().len() / 2).max(1);
        let budget_ms = budget_ms(&self.settings, free_pairs, total_pairs);
        let deadline = start + Duration::from_secs_f64(budget_ms / 1000.0);
        let future = board
            .rounds_left
            .saturating_sub(1)
            .min(free_pairs.saturating_sub(1));
        if opts.len() == 1 || future == 0 {
            self.ev.set_rounds_after(future);
            return greedy_pick(&mut self.ev, &mut self.scratch, &board.values, opts);
        }
        let mut alive: Vec<usize> = (0..opts.len()).collect();
        // results[i][j]: final score of candidate i on dice sequence j (all alive share every j).
        let mut results: Vec<Vec<u16>> = vec![Vec::new(); opts.len()];
        let mut seqs = vec![vec![Dice(1, 1); future]; BATCH];
        let mut batches = 0u32;
        loop {
            for seq in seqs.iter_mut() {
                for d in seq.iter_mut() {
                    *d = Dice(self.rng.random_range(1..=6), self.rng.random_range(1..=6));
                }
            }
            match &self.bits {
                Some(be) => {
                    let start = be.from_values(&board.values);
                    // Rollouts are pure functions of (placement, dice): threads only change speed.
                    // Each thread plays every alive candidate on its share of the sequences
                    // (balanced however few candidates are left); shares are merged in order.
                    let run = |share: &[Vec<Dice>]| -> Vec<Vec<u16>> {
                        let mut be = be.clone();
                        let mut groups = Groups::default();
                        alive
                            .iter()
                            .map(|&i| {
                                share
                                    .iter()
                                    .map(|seq| {
                                        rollout_bits(&mut be, &mut groups, start, opts[i], seq)
                                            as u16
                                    })
                                    .collect()
                            })
                            .collect()
                    };
                    let shares: Vec<Vec<Vec<u16>>> = match &self.pool {
                        Some(pool) => {
                            let size = BATCH.div_ceil(pool.current_num_threads());
                            pool.install(|| seqs.par_chunks(size).map(run).collect())
                        }
                        None => vec![run(&seqs)],
                    };
                    for share in shares {
                        for (&i, scores) in alive.iter().zip(share) {
                            results[i].extend(scores);
                        }
                    }
                }
                None => {
                    for seq in &seqs {
                        for &i in &alive {
                            let s = self.rollout(&board.values, opts[i], seq);
                            results[i].push(s as u16);
                        }
                    }
                }
            }
            self.last_rollouts += (alive.len() * BATCH) as u64;
            batches += 1;
            prune(&mut alive, &results);
            let done = match self.settings.batches {
                Some(limit) => batches >= limit,
                None => Instant::now() >= deadline,
            };
            if done || alive.len() == 1 {
                break;
            }
        }
        let best = *alive
            .iter()
            .max_by(|&&x, &&y| {
                mean(&results[x])
                    .total_cmp(&mean(&results[y]))
                    .then(y.cmp(&x))
            })
            .expect("at least one candidate stays alive");
        opts[best]
    }

    /// Play `first`, then the given rolls greedily; the exact final score.
    fn rollout(&mut self, start: &[u8], first: Placement, rolls: &[Dice]) -> u32 {
        let mut values = std::mem::take(&mut self.scratch);
        values.copy_from_slice(start);
        let layout = self.layout;
        values[first.cell] = first.a;
        values[layout.mirror(first.cell)] = first.b;
        for (k, &dice) in rolls.iter().enumerate() {
            self.ev.set_rounds_after(rolls.len() - 1 - k);
            let mut best: Option<(f32, Placement)> = None;
            for &cell in layout.fillable() {
                if values[cell] != 0 || layout.mirror(cell) < cell {
                    continue;
                }
                let before = self.ev.local_before(&values, cell);
                for (a, b) in [(dice.0, dice.1), (dice.1, dice.0)] {
                    let d = self.ev.delta_from(before, &mut values, cell, a, b);
                    if best.is_none_or(|(bd, _)| d > bd) {
                        best = Some((d, Placement { cell, a, b }));
                    }
                    if dice.0 == dice.1 {
                        break;
                    }
                }
            }
            let Some((_, p)) = best else { break };
            values[p.cell] = p.a;
            values[layout.mirror(p.cell)] = p.b;
        }
        let s = self.ev.exact(&values);
        self.scratch = values;
        s
    }
}

/// `Player::rollout` on masks (boards of at most 64 cells): same choices, several times faster.
/// Each step splits the board into groups once; every option then reuses them.
fn rollout_bits(
    be: &mut BitEval,
    groups: &mut Groups,
    start: Bits,
    first: Placement,
    rolls: &[Dice],
) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") && std::arch::is_x86_feature_detected!("bmi1")
    {
        // SAFETY: the CPU has the features the function is compiled for (checked just above).
        return unsafe { rollout_bits_popcnt(be, groups, start, first, rolls) };
    }
    let end = rollout_board(be, groups, start, first, rolls);
    be.exact(&end)
}

/// `rollout_bits` compiled with the bit-counting instructions: the default x86-64 target counts
/// bits in software, and the mask evaluator counts a lot. Same integer results, same float code.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1")]
fn rollout_bits_popcnt(
    be: &mut BitEval,
    groups: &mut Groups,
    start: Bits,
    first: Placement,
    rolls: &[Dice],
) -> u32 {
    let end = rollout_board(be, groups, start, first, rolls);
    be.exact(&end)
}

/// The final board of `rollout_bits`.
#[inline(always)]
fn rollout_board(
    be: &mut BitEval,
    groups: &mut Groups,
    start: Bits,
    first: Placement,
    rolls: &[Dice],
) -> Bits {
    let mut b = start;
    be.apply(&mut b, first.cell, first.a, first.b);
    for (k, &dice) in rolls.iter().enumerate() {
        be.set_rounds_after(rolls.len() - 1 - k);
        let mut free = be.free_canonical(&b);
        if free == 0 {
            break;
        }
        be.decompose(&b, groups);
        let orders = if dice.0 == dice.1 {
            &[(dice.0, dice.1)][..]
        } else {
            &[(dice.0, dice.1), (dice.1, dice.0)][..]
        };
        // First every option's estimate (only the terms that change)...
        let mut estimates = [0.0f32; 128];
        let mut top = f32::NEG_INFINITY;
        let mut cells = free;
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            be.prepare_cell(groups, &b, cell);
            for (j, &(x, y)) in orders.iter().enumerate() {
                let e = be.delta_estimate(groups, &b, cell, x, y);
                estimates[2 * cell + j] = e;
                top = top.max(e);
            }
        }
        // ...then the exact value (summed in `region_value`'s order, whose rounding decides
        // exact ties), in the usual order, for the options that may be the best: the best is
        // at least `top` - error, an option's value at most its estimate + error.
        let cut = top - 2.0 * be.estimate_error();
        let mut best = (
            f32::NEG_INFINITY,
            Placement {
                cell: 0,
                a: 0,
                b: 0,
            },
        );
        while free != 0 {
            let cell = free.trailing_zeros() as usize;
            free &= free - 1;
            let mut before = None;
            for (j, &(x, y)) in orders.iter().enumerate() {
                if estimates[2 * cell + j] < cut {
                    continue;
                }
                let before = *before.get_or_insert_with(|| {
                    be.prepare_cell(groups, &b, cell);
                    be.local_before_in(groups, &b, cell)
                });
                let d = be.delta_in(groups, before, &b, cell, x, y);
                if d > best.0 {
                    best = (d, Placement { cell, a: x, b: y });
                }
            }
        }
        let p = best.1;
        be.apply(&mut b, p.cell, p.a, p.b);
    }
    b
}

/// The former `rollout_bits`, valuing every option by flooding its region (`local_before` /
/// `delta_from`): the slow twin the tests compare the fast rollout with.
#[cfg(test)]
fn rollout_board_by_region(
    be: &mut BitEval,
    start: Bits,
    first: Placement,
    rolls: &[Dice],
) -> Bits {
    let mut b = start;
    be.apply(&mut b, first.cell, first.a, first.b);
    for (k, &dice) in rolls.iter().enumerate() {
        be.set_rounds_after(rolls.len() - 1 - k);
        let mut free = be.free_canonical(&b);
        if free == 0 {
            break;
        }
        let mut best = (
            f32::NEG_INFINITY,
            Placement {
                cell: 0,
                a: 0,
                b: 0,
            },
        );
        while free != 0 {
            let cell = free.trailing_zeros() as usize;
            free &= free - 1;
            let before = be.local_before(&b, cell);
            for (x, y) in [(dice.0, dice.1), (dice.1, dice.0)] {
                let d = be.delta_from(before, &b, cell, x, y);
                if d > best.0 {
                    best = (d, Placement { cell, a: x, b: y });
                }
                if dice.0 == dice.1 {
                    break;
                }
            }
        }
        let p = best.1;
        be.apply(&mut b, p.cell, p.a, p.b);
    }
    b
}

/// Clock budget for a move with `free_pairs` of `total_pairs` still free. Early moves have more
/// options and longer consequences: while more than half the pairs are free they get `early_ms`;
/// later moves get `ms` scaled by the pairs left (x1.2 down to x0.4), so the median move stays
/// near `ms`.
fn budget_ms(settings: &Settings, free_pairs: usize, total_pairs: usize) -> f64 {
    if 2 * free_pairs > total_pairs + 2 {
        settings.early_ms as f64
    } else {
        let share = (2.0 * free_pairs as f64 / total_pairs as f64).clamp(0.4, 1.2);
        settings.ms as f64 * share
    }
}

/// The placement with the largest evaluation gain (first one on ties).
fn greedy_pick(
    ev: &mut Evaluator,
    scratch: &mut [u8],
    values: &[u8],
    opts: &[Placement],
) -> Placement {
    scratch.copy_from_slice(values);
    let mut best = opts[0];
    let mut best_gain = f32::NEG_INFINITY;
    for &p in opts {
        let gain = ev.delta(scratch, p.cell, p.a, p.b);
        if gain > best_gain {
            best_gain = gain;
            best = p;
        }
    }
    best
}

fn mean(xs: &[u16]) -> f32 {
    xs.iter().map(|&x| x as f32).sum::<f32>() / xs.len().max(1) as f32
}

/// Keep the candidates whose paired deficit to the current leader is within `PRUNE_Z` standard errors.
fn prune(alive: &mut Vec<usize>, results: &[Vec<u16>]) {
    let leader = *alive
        .iter()
        .max_by(|&&x, &&y| mean(&results[x]).total_cmp(&mean(&results[y])))
        .unwrap();
    let lead = &results[leader];
    let n = lead.len() as f32;
    alive.retain(|&i| {
        if i == leader {
            return true;
        }
        let diffs = lead
            .iter()
            .zip(&results[i])
            .map(|(&a, &b)| a as f32 - b as f32);
        let (mut s, mut s2) = (0.0f32, 0.0f32);
        for d in diffs {
            s += d;
            s2 += d * d;
        }
        let m = s / n;
        let var = (s2 / n - m * m).max(0.0) * n / (n - 1.0).max(1.0);
        // A floor on the spread so a few identical rollouts do not prune too eagerly.
        let se = (var.max(1.0) / n).sqrt();
        m <= PRUNE_Z * se
    });
}

#[cfg(test)]
mod tests {
    use super::super::layout::official;
    use super::*;

    /// Every policy, on many seeded games of both layouts, always returns a move the rules accept.
    #[test]
    fn every_policy_plays_only_legal_moves() {
        for n in [1, 2] {
            let layout = official(n);
            for kind in [PolicyKind::Random, PolicyKind::Greedy, PolicyKind::Search] {
                let games = if kind == PolicyKind::Search { 2 } else { 40 };
                for g in 0..games {
                    let settings = Settings {
                        kind,
                        batches: Some(1),
                        seed: g,
                        ..Settings::default()
                    };
                    let mut player = Player::new(&layout, settings);
                    let mut board = Board::new(&layout, 22);
                    for dice in super::super::dotnet_random::game_dice("legal", g as u32, 22) {
                        let mv = player.choose(&board, dice).expect("a free cell exists");
                        board.place(&layout, dice, mv).unwrap();
                    }
                    assert_eq!(board.free_cells(&layout), 0);
                    assert_eq!(player.choose(&board, Dice(1, 2)), None);
                }
            }
        }
    }

    /// Boards over 64 cells use the array evaluator in rollouts; odd widths have self-mirrored
    /// cells. Both still play only legal moves, with and without threads.
    #[test]
    fn search_on_large_and_odd_boards_is_legal() {
        // 9 x 8 = 72 cells, only the first and last rows fillable (keeps the test quick).
        let rows: Vec<Vec<u8>> = (0..8)
            .map(|y| {
                (0..9)
                    .map(|x| {
                        if y % 7 != 0 {
                            0
                        } else if x == 0 || x == 8 {
                            2
                        } else {
                            1
                        }
                    })
                    .collect()
            })
            .collect();
        let big = Layout::new(&rows).unwrap();
        assert!(big.cells() > 64);
        let small_odd = Layout::parse_rows("1 1 3 1 1\n2 1 1 1 2\n", 1).unwrap();
        for (layout, threads) in [(&big, 1), (&small_odd, 1), (&small_odd, 2)] {
            let rounds = layout.default_rounds();
            let settings = Settings {
                batches: Some(2),
                threads,
                ..Settings::default()
            };
            let mut player = Player::new(layout, settings);
            let mut board = Board::new(layout, rounds);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
            for _ in 0..rounds {
                let dice = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
                let mv = player.choose(&board, dice).expect("free cells remain");
                board.place(layout, dice, mv).unwrap();
            }
        }
    }

    /// The clock budget: `early_ms` while more than half the pairs are free (plus one), then
    /// `ms` scaled down with the pairs left, never above 1.2 x `ms` nor below 0.4 x `ms`.
    #[test]
    fn budget_is_early_ms_then_shrinks_with_the_pairs_left() {
        let settings = Settings {
            ms: 100,
            early_ms: 300,
            ..Settings::default()
        };
        let budgets: Vec<f64> = (1..=22)
            .rev()
            .map(|f| budget_ms(&settings, f, 22))
            .collect();
        assert_eq!(budgets.iter().filter(|&&b| b == 300.0).count(), 10);
        let late = &budgets[10..];
        assert!(late.windows(2).all(|w| w[0] >= w[1]), "{late:?}");
        assert!(
            late.iter().all(|&b| (40.0..=120.0).contains(&b)),
            "{late:?}"
        );
        assert_eq!(budget_ms(&settings, 11, 22), 100.0);
    }

    /// Threads change only the speed: with a batch limit the moves are identical.
    #[test]
    fn threads_do_not_change_the_choice() {
        let layout = official(2);
        let play = |threads| {
            let settings = Settings {
                batches: Some(2),
                threads,
                seed: 4,
                ..Settings::default()
            };
            let mut player = Player::new(&layout, settings);
            let mut board = Board::new(&layout, 22);
            let mut moves = Vec::new();
            for dice in super::super::dotnet_random::game_dice("threads", 0, 5) {
                let mv = player.choose(&board, dice).unwrap();
                board.place(&layout, dice, mv).unwrap();
                moves.push(mv);
            }
            moves
        };
        assert_eq!(play(1), play(2));
    }

    /// The fast rollout (groups split once per step) makes exactly the choices of the slow twin
    /// that floods every option's region: same final board on thousands of seeded random
    /// positions, official layouts and random small ones, every number of rolls left.
    #[test]
    fn fast_rollout_matches_the_region_rollout() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        let mut positions = 0;
        for case in 0..1500 {
            let layout = if case % 2 == 0 {
                official(1 + (case % 4 / 2) as u8)
            } else {
                super::super::bits::tests::random_layout(&mut rng)
            };
            let mut be = BitEval::new(&layout, EvalParams::for_layout(&layout)).unwrap();
            let mut values = vec![0u8; layout.cells()];
            let fill = rng.random_range(0.0..0.9);
            for &c in layout.fillable() {
                if layout.mirror(c) >= c && rng.random_bool(fill) {
                    values[c] = rng.random_range(1..=6);
                    values[layout.mirror(c)] = rng.random_range(1..=6);
                }
            }
            let start = be.from_values(&values);
            let free = be.free_canonical(&start);
            if free == 0 {
                continue;
            }
            let pairs = free.count_ones() as usize;
            let cell = (0..64)
                .filter(|&c| free & (1 << c) != 0)
                .nth(rng.random_range(0..pairs))
                .unwrap();
            let first = Placement {
                cell,
                a: rng.random_range(1..=6),
                b: rng.random_range(1..=6),
            };
            let rolls: Vec<Dice> = (0..rng.random_range(0..pairs + 2))
                .map(|_| Dice(rng.random_range(1..=6), rng.random_range(1..=6)))
                .collect();
            let mut groups = Groups::default();
            let fast = rollout_board(&mut be, &mut groups, start, first, &rolls);
            let slow = rollout_board_by_region(&mut be, start, first, &rolls);
            assert_eq!(fast, slow, "case {case}");
            assert_eq!(
                rollout_bits(&mut be, &mut groups, start, first, &rolls),
                be.exact(&slow)
            );
            positions += 1;
        }
        assert!(positions > 1000, "{positions}");
    }

    /// Placements cover every distinct outcome of the legal moves (brute force over `legal_moves`).
    #[test]
    fn placements_cover_every_distinct_legal_outcome() {
        let layout = official(2);
        let mut board = Board::new(&layout, 22);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut opts = Vec::new();
        for round in 0..22 {
            let dice = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
            let mut outcomes = std::collections::HashSet::new();
            for mv in board.legal_moves(&layout, dice) {
                let mut b = board.clone();
                b.place(&layout, dice, mv).unwrap();
                outcomes.insert(b.values);
            }
            placements(&layout, &board.values, dice, &mut opts);
            let mine: std::collections::HashSet<Vec<u8>> = opts
                .iter()
                .map(|p| {
                    let mut b = board.clone();
                    b.place(&layout, dice, p.to_move(&layout)).unwrap();
                    b.values
                })
                .collect();
            assert_eq!(
                mine.len(),
                opts.len(),
                "round {round}: placements are distinct"
            );
            assert_eq!(mine, outcomes, "round {round}");
            board
                .place(
                    &layout,
                    dice,
                    opts[rng.random_range(0..opts.len())].to_move(&layout),
                )
                .unwrap();
        }
    }

    /// With one roll left, search must find the best final score (exhaustive check).
    #[test]
    fn last_move_is_optimal() {
        let layout = official(1);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        for _ in 0..50 {
            let mut board = Board::new(&layout, 22);
            let settings = Settings {
                kind: PolicyKind::Random,
                seed: rng.random(),
                ..Settings::default()
            };
            let mut random = Player::new(&layout, settings);
            for _ in 0..21 {
                let dice = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
                let mv = random.choose(&board, dice).unwrap();
                board.place(&layout, dice, mv).unwrap();
            }
            let last = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
            let exhaustive = board
                .legal_moves(&layout, last)
                .into_iter()
                .map(|mv| {
                    let mut b = board.clone();
                    b.place(&layout, last, mv).unwrap();
                    super::super::score::score(&layout, &b.values)
                })
                .max()
                .unwrap();
            let mut search = Player::new(
                &layout,
                Settings {
                    batches: Some(1),
                    ..Settings::default()
                },
            );
            let mv = search.choose(&board, last).unwrap();
            board.place(&layout, last, mv).unwrap();
            assert_eq!(
                super::super::score::score(&layout, &board.values),
                exhaustive
            );
        }
    }
}
