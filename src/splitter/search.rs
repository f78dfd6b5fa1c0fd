//! The search policy: flat Monte-Carlo over the future dice with common random numbers. Every
//! distinct placement is played out against the same sampled dice sequences by a rollout policy
//! (greedy with the learned value when the layout has one, else with the hand evaluation, through
//! `Evaluation`); a playout with the learned value is cut after `ROLLOUT_DEPTH` rolls and judged by
//! that value, one with the hand evaluation is played to the end and scored exactly. Placements
//! whose paired deficit to the leader exceeds `PRUNE_Z` standard errors are dropped so the budget
//! goes to the close ones. The last rolls are solved exactly instead (`endgame.rs`).

use super::endgame;
use super::evaluation::{Evaluation, HandMask};
use super::game::{Board, Dice, Placement};
use super::geometry::{Bits, Geometry};
use super::learned::play::{PlayValue, RolloutBoard};
use super::learned::LearnedValue;
use super::policy::{greedy_pick, Limit, Player};
use super::trace::Method;
use rand::Rng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

/// Rollouts per candidate added in each batch (all candidates share the batch's dice).
const BATCH: usize = 8;
/// Drop a candidate when its paired deficit exceeds this many standard errors. 2.0 played as well as
/// 2.5 with a third fewer rollouts (`--batches 32`, 200 games, layout 1, seed `tune`: +0.03, 95% CI
/// +-0.71, 1,111 vs 1,679 rollouts per move), so clear moves end sooner and the time goes to close
/// ones; 4.0 spent 3,224 rollouts per move for +0.12 (CI +-0.67).
const PRUNE_Z: f32 = 2.0;
/// Batches every candidate plays before any is dropped: after one batch (8 rollouts) a leader picked
/// out of dozens of candidates is often lucky, and the paired spread itself is noisy (3 against 1:
/// +0.30, 95% CI +-0.21, over 1,000 games at 16 batches; +0.07 on the clock; docs/splitter.md,
/// What was tried).
const PRUNE_AFTER: u32 = 3;

/// Rolls a rollout plays with the learned value before that value judges where it got to. At 16
/// batches per move (200 games, layout 1, paired): cut at 6 scored 38.16 against 36.16 for
/// hand-evaluation rollouts to the end (+2.00, 95% CI +-0.68); cut at 3 -0.28 (CI +-0.61), at 10
/// -0.66 (CI +-0.60) against 6 (docs/splitter.md, What was tried).
const ROLLOUT_DEPTH: usize = 6;

/// How one candidate's playouts are run: greedy with the learned value and cut at
/// `ROLLOUT_DEPTH`, or (no value for this layout) greedy with the hand evaluation to the end.
#[derive(Clone, Copy)]
struct Playout<'v> {
    geo: &'v Geometry,
    value: Option<&'v PlayValue>,
    /// The float value of the baseline rollouts (`Settings::reference_rollouts`), if asked for.
    reference: Option<&'v LearnedValue>,
}

impl Playout<'_> {
    /// The playout's result: the exact final score, or the learned value after `ROLLOUT_DEPTH`
    /// rolls. The first reply comes from `replies` when an earlier rollout of this candidate met
    /// the same roll.
    #[inline(always)]
    fn run(
        &self,
        hand: &mut HandMask,
        start: Bits,
        first: Placement,
        rolls: &[Dice],
        replies: &Replies,
    ) -> f32 {
        let geo = self.geo;
        let mut b = start;
        geo.apply(&mut b, first.cell, first.a, first.b);
        if let Some(mut float) = self.reference {
            let cut = ROLLOUT_DEPTH.min(rolls.len());
            let end = rollout_from(&mut float, geo, b, rolls, cut, &Replies::new());
            return float.value(&end, rolls.len() - cut);
        }
        match self.value {
            Some(v) => learned_rollout(v, b, rolls, replies).1,
            None => geo.exact(&rollout_from(hand, geo, b, rolls, rolls.len(), replies)) as f32,
        }
    }
}

/// One candidate's first rollout replies, by the first roll (36 ordered rolls): every rollout of
/// a candidate starts from the same board, the greedy reply is a function of that board and the
/// roll, and a candidate meets each roll many times over a move. The rollout threads share the
/// slots; a slot only ever holds the one reply of its roll, so who writes it first does not
/// matter.
struct Replies([AtomicU32; 36]);

/// A slot not yet filled; a filled one holds `FILLED` plus the placement, or `FILLED | NO_PAIR`.
const FILLED: u32 = 1 << 30;
const NO_PAIR: u32 = 1 << 29;

impl Replies {
    fn new() -> Replies {
        Replies(std::array::from_fn(|_| AtomicU32::new(0)))
    }

    /// The reply to `dice`, computed by `reply` the first time.
    #[inline(always)]
    fn get_or(&self, dice: Dice, reply: impl FnOnce() -> Option<Placement>) -> Option<Placement> {
        self.get(dice).unwrap_or_else(|| {
            let p = reply();
            self.set(dice, p);
            p
        })
    }

    /// The reply to `dice` when known.
    #[inline(always)]
    fn get(&self, dice: Dice) -> Option<Option<Placement>> {
        let code = self.slot(dice).load(Ordering::Relaxed);
        (code & FILLED != 0).then_some((code & NO_PAIR == 0).then_some(Placement {
            cell: (code & 0xff) as usize,
            a: (code >> 8 & 0xff) as u8,
            b: (code >> 16 & 0xff) as u8,
        }))
    }

    #[inline(always)]
    fn set(&self, dice: Dice, reply: Option<Placement>) {
        let code = match reply {
            Some(p) => FILLED | p.cell as u32 | (p.a as u32) << 8 | (p.b as u32) << 16,
            None => FILLED | NO_PAIR,
        };
        self.slot(dice).store(code, Ordering::Relaxed);
    }

    #[inline(always)]
    fn slot(&self, dice: Dice) -> &AtomicU32 {
        &self.0[(dice.0 as usize - 1) * 6 + dice.1 as usize - 1]
    }
}

/// A rollout with the learned value from board `b`: `rolls` played greedily, cut after
/// `ROLLOUT_DEPTH`; the board where it ends and its value (the exact score when no roll is left
/// or the board is full). Each step's board is analysed from the step before, and the last
/// step's chosen value is the value of where it ends (the same number `PlayValue::value`
/// gives, to the bit).
#[inline(always)]
fn learned_rollout(v: &PlayValue, mut b: Bits, rolls: &[Dice], replies: &Replies) -> (Bits, f32) {
    let cut = ROLLOUT_DEPTH.min(rolls.len());
    let mut board = RolloutBoard::default();
    let mut last = None;
    for (k, &dice) in rolls[..cut].iter().enumerate() {
        let after = rolls.len() - 1 - k;
        let (reply, value) = match (k, replies.get(dice)) {
            (0, Some(reply)) => (reply, None),
            _ => {
                let best = v.rollout_best(&mut board, &b, dice, after);
                if k == 0 {
                    replies.set(dice, best.map(|(p, _)| p));
                }
                (best.map(|(p, _)| p), best.map(|(_, value)| value))
            }
        };
        let Some(p) = reply else {
            break;
        };
        v.features.geo.apply(&mut b, p.cell, p.a, p.b);
        last = value;
    }
    let value = last.unwrap_or_else(|| v.value(&b, rolls.len() - cut));
    (b, value)
}

impl<'a> Player<'a> {
    /// The search's choice within `limit`; None when a deadline came before the first batch of
    /// rollouts was complete, or during the exact endgame (the caller then plays the floor move).
    /// Every phase polls the deadline: the endgame between candidates, the rollouts between
    /// candidates, and a rollout on a board over 64 cells between its steps.
    pub(super) fn search(
        &mut self,
        board: &Board,
        opts: &[Placement],
        limit: Limit,
    ) -> Option<Placement> {
        let deadline = match limit {
            Limit::Until(deadline) => Some(deadline),
            Limit::Batches(_) => None,
        };
        // Rolls still to come after this one, capped by the pairs left after this placement.
        let free_pairs = opts.iter().filter(|p| p.a == opts[0].a).count();
        let future = board
            .rounds_left
            .saturating_sub(1)
            .min(free_pairs.saturating_sub(1));
        if opts.len() == 1 || future == 0 {
            self.ev.set_rounds_after(future);
            let pick = greedy_pick(&mut self.ev, &mut self.scratch, &board.values, opts);
            if let Some(trace) = &mut self.trace {
                match future {
                    0 => trace.last_roll(self.layout, board, opts),
                    _ => trace.unweighed(Method::Only, pick),
                }
            }
            return Some(pick);
        }
        if let (true, Some(hand)) = (future <= endgame::ENDGAME_ROLLS, &self.hand) {
            let work = endgame::work(opts.len(), free_pairs - 1, future);
            let affordable = deadline.is_none_or(|d| {
                let ms = d.saturating_duration_since(Instant::now()).as_secs_f64() * 1000.0;
                work as f64 <= ms * endgame::WORK_PER_MS
            });
            if work <= endgame::MAX_WORK && affordable {
                let (b, geo) = (hand.be.from_values(&board.values), hand.be.geometry());
                let pick = endgame::best(geo, &b, opts, future, deadline);
                if let (Some(trace), Some(_)) = (&mut self.trace, pick) {
                    // Recomputed for the record only (the endgame keeps no values).
                    trace.exact(opts, |p| {
                        let mut after = b;
                        geo.apply(&mut after, p.cell, p.a, p.b);
                        endgame::expected_score(geo, &after, future)
                    });
                }
                return pick;
            }
        }
        let late = || deadline.is_some_and(|d| Instant::now() >= d);
        let mut alive: Vec<usize> = (0..opts.len()).collect();
        // results[i][j]: result of candidate i on dice sequence j (all alive share every j).
        let mut results: Vec<Vec<f32>> = vec![Vec::new(); opts.len()];
        let replies: Vec<Replies> = opts.iter().map(|_| Replies::new()).collect();
        let mut seqs = vec![vec![Dice(1, 1); future]; BATCH];
        let mut batches = 0u32;
        let geo = self.hand.as_ref().map(|h| h.be.geometry().clone());
        let (value, reference) = (self.value.clone(), self.reference.clone());
        let playout = geo.as_ref().map(|geo| Playout {
            geo,
            value: value.as_deref(),
            reference: reference.as_deref(),
        });
        loop {
            for seq in seqs.iter_mut() {
                for d in seq.iter_mut() {
                    *d = Dice(self.rng.random_range(1..=6), self.rng.random_range(1..=6));
                }
            }
            // One batch: every alive candidate on every sequence, or None if the deadline came
            // first (then the batch is dropped, so every candidate keeps the same sequences).
            let batch: Option<Vec<Vec<Vec<f32>>>> = match (&self.hand, playout) {
                (Some(hand), Some(playout)) => {
                    let start = hand.be.from_values(&board.values);
                    // Rollouts are pure functions of (placement, dice): threads only change speed.
                    // Each thread plays every alive candidate on its share of the sequences
                    // (balanced however few candidates are left); shares are merged in order.
                    let run = |share: &[Vec<Dice>]| -> Option<Vec<Vec<f32>>> {
                        let mut hand = hand.clone();
                        alive
                            .iter()
                            .map(|&i| {
                                (!late()).then(|| {
                                    share
                                        .iter()
                                        .map(|seq| {
                                            playout.run(&mut hand, start, opts[i], seq, &replies[i])
                                        })
                                        .collect()
                                })
                            })
                            .collect()
                    };
                    let shares: Vec<Option<Vec<Vec<f32>>>> = match &self.pool {
                        Some(pool) => {
                            let size = BATCH.div_ceil(pool.current_num_threads());
                            pool.install(|| seqs.par_chunks(size).map(run).collect())
                        }
                        None => vec![run(&seqs)],
                    };
                    shares.into_iter().collect()
                }
                _ => {
                    let mut share = vec![Vec::with_capacity(BATCH); alive.len()];
                    let mut complete = true;
                    'seqs: for seq in &seqs {
                        for (k, &i) in alive.iter().enumerate() {
                            match self.rollout(&board.values, opts[i], seq, deadline) {
                                Some(s) => share[k].push(s as f32),
                                None => {
                                    complete = false;
                                    break 'seqs;
                                }
                            }
                        }
                    }
                    complete.then_some(vec![share])
                }
            };
            let Some(shares) = batch else { break };
            for share in shares {
                for (&i, scores) in alive.iter().zip(share) {
                    results[i].extend(scores);
                }
            }
            self.last_rollouts += (alive.len() * BATCH) as u64;
            batches += 1;
            if batches >= PRUNE_AFTER {
                prune(&mut alive, &results);
            }
            let done = match limit {
                Limit::Batches(most) => batches >= most,
                Limit::Until(_) => late(),
            };
            if done || alive.len() == 1 {
                break;
            }
        }
        if batches == 0 {
            return None;
        }
        if let Some(trace) = &mut self.trace {
            trace.rollouts(opts, &results);
        }
        // The best mean; the first candidate on ties.
        let by_mean = |x: &&usize, y: &&usize| mean(&results[**x]).total_cmp(&mean(&results[**y]));
        alive.iter().rev().max_by(by_mean).map(|&best| opts[best])
    }

    /// Play `first`, then the given rolls greedily; the exact final score (array evaluation, for
    /// boards over 64 cells). None when `deadline` passes (polled between steps: on a large board
    /// one step values thousands of options).
    fn rollout(
        &mut self,
        start: &[u8],
        first: Placement,
        rolls: &[Dice],
        deadline: Option<Instant>,
    ) -> Option<u32> {
        let mut values = std::mem::take(&mut self.scratch);
        values.copy_from_slice(start);
        let layout = self.layout;
        values[first.cell] = first.a;
        values[layout.mirror(first.cell)] = first.b;
        let mut late = false;
        for (k, &dice) in rolls.iter().enumerate() {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                late = true;
                break;
            }
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
        let s = (!late).then(|| self.ev.exact(&values));
        self.scratch = values;
        s
    }
}

/// The board `b` after the first `cut` of `rolls`, each placed by `e` (rolls still to come
/// counted over all of `rolls`; the first reply from `replies`). With the bit-counting
/// instructions when the CPU has them.
#[inline(always)]
fn rollout_from<E: Evaluation>(
    e: &mut E,
    geo: &Geometry,
    b: Bits,
    rolls: &[Dice],
    cut: usize,
    replies: &Replies,
) -> Bits {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") && std::arch::is_x86_feature_detected!("bmi1")
    {
        // SAFETY: the CPU has the features the function is compiled for (checked just above).
        return unsafe { rollout_popcnt(e, geo, b, rolls, cut, replies) };
    }
    rollout_board(e, geo, b, rolls, cut, replies)
}

/// `rollout_board` compiled with the bit-counting instructions: the default x86-64 target counts
/// bits in software, and the evaluations count a lot. Same integer results, same float code.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1")]
fn rollout_popcnt<E: Evaluation>(
    e: &mut E,
    geo: &Geometry,
    b: Bits,
    rolls: &[Dice],
    cut: usize,
    replies: &Replies,
) -> Bits {
    rollout_board(e, geo, b, rolls, cut, replies)
}

#[inline(always)]
fn rollout_board<E: Evaluation>(
    e: &mut E,
    geo: &Geometry,
    mut b: Bits,
    rolls: &[Dice],
    cut: usize,
    replies: &Replies,
) -> Bits {
    for (k, &dice) in rolls[..cut].iter().enumerate() {
        let after = rolls.len() - 1 - k;
        let reply = match k {
            0 => replies.get_or(dice, || e.best(&b, dice, after)),
            _ => e.best(&b, dice, after),
        };
        let Some(p) = reply else {
            break;
        };
        geo.apply(&mut b, p.cell, p.a, p.b);
    }
    b
}

fn mean(xs: &[f32]) -> f32 {
    xs.iter().sum::<f32>() / xs.len().max(1) as f32
}

/// Keep the candidates whose paired deficit to the current leader (the best mean) is within
/// `PRUNE_Z` standard errors.
fn prune(alive: &mut Vec<usize>, results: &[Vec<f32>]) {
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
        let diffs = lead.iter().zip(&results[i]).map(|(&a, &b)| a - b);
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
    use super::super::bits::BitEval;
    use super::super::eval::EvalParams;
    use super::super::layout::{official, Layout};
    use super::super::policy::Settings;
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// No candidate is dropped before `PRUNE_AFTER` batches: with exactly that many, every
    /// candidate plays every batch; with more, the clear losers stop (the first move of layout 1
    /// has dozens of candidates).
    #[test]
    fn every_candidate_plays_the_first_prune_after_batches() {
        let layout = official(1);
        let board = Board::new(&layout, 22);
        let dice = Dice(2, 5);
        let mut opts = Vec::new();
        super::super::game::placements(&layout, &board.values, dice, &mut opts);
        assert!(opts.len() > 10, "{}", opts.len());
        let rollouts = |batches: u32| {
            let settings = Settings {
                batches: Some(batches),
                threads: 1,
                ..Settings::default()
            };
            let mut player = Player::new(&layout, settings);
            player
                .choose(&board, dice)
                .expect("an empty board has moves");
            player.last_rollouts
        };
        let per_batch = (opts.len() * BATCH) as u64;
        assert_eq!(rollouts(PRUNE_AFTER), per_batch * PRUNE_AFTER as u64);
        let later = PRUNE_AFTER + 6;
        assert!(rollouts(later) < per_batch * later as u64);
    }

    /// Pruning keeps the candidates whose paired deficit to the leader is within `PRUNE_Z`
    /// standard errors of the paired differences, and drops the others.
    #[test]
    fn prune_drops_only_candidates_clearly_behind_the_leader() {
        let base: Vec<f32> = (0..16).map(|k| 30.0 + (k % 4) as f32).collect();
        // The leader's result minus `gap`, plus or minus 2.5 on alternate sequences: paired
        // differences with mean `gap` and standard error 2.58 / 4 = 0.645.
        let behind = |gap: f32| -> Vec<f32> {
            let swing = |k: usize| if k.is_multiple_of(2) { 2.5 } else { -2.5 };
            base.iter()
                .enumerate()
                .map(|(k, &r)| r - gap - swing(k))
                .collect()
        };
        let results = vec![base.clone(), base.clone(), behind(1.0), behind(1.5)];
        let mut alive = vec![0, 1, 2, 3];
        prune(&mut alive, &results);
        const { assert!(PRUNE_Z * 0.645 > 1.0 && PRUNE_Z * 0.645 < 1.5) };
        assert_eq!(
            alive,
            [0, 1, 2],
            "a tie stays, 1.0 behind stays, 1.5 behind goes"
        );
        // Without spread a small constant deficit is clear: the floor on the spread decides.
        let results = vec![base.clone(), base.iter().map(|r| r - 0.6).collect()];
        let mut alive = vec![0, 1];
        prune(&mut alive, &results);
        assert_eq!(alive, [0]);
    }

    /// A board with every cell fillable.
    fn open_board(w: usize, h: usize) -> Layout {
        Layout::new(&vec![vec![1; w]; h]).unwrap()
    }

    /// A deadline already past stops the search before any batch of rollouts, on the official
    /// board (mask rollouts) and on one over 64 cells (array rollouts): no answer, no rollouts.
    #[test]
    fn a_passed_deadline_stops_the_search_before_its_first_batch() {
        for layout in [official(1), open_board(9, 8)] {
            let board = Board::new(&layout, layout.default_rounds());
            let mut opts = Vec::new();
            super::super::game::placements(&layout, &board.values, Dice(2, 5), &mut opts);
            let mut player = Player::new(&layout, Settings::default());
            let limit = Limit::Until(Instant::now());
            assert_eq!(player.search(&board, &opts, limit), None);
            assert_eq!(player.last_rollouts, 0);
        }
    }

    /// On a 20 x 20 board one batch of rollouts is minutes of work; a deadline 20 ms away ends the
    /// search within its first batch (polled between rollout steps), with no batch counted.
    #[test]
    fn a_deadline_ends_a_search_within_a_batch_on_a_large_board() {
        let layout = open_board(20, 20);
        let board = Board::new(&layout, layout.default_rounds());
        let mut opts = Vec::new();
        super::super::game::placements(&layout, &board.values, Dice(3, 4), &mut opts);
        assert_eq!(opts.len(), 400);
        let mut player = Player::new(&layout, Settings::default());
        let limit = Limit::Until(Instant::now() + std::time::Duration::from_millis(20));
        assert_eq!(player.search(&board, &opts, limit), None);
        assert_eq!(player.last_rollouts, 0);
    }

    /// Few rounds on many free pairs (header `8 8 3`): the exact endgame would score tens of
    /// millions of boards, so the search plays rollouts instead; the official board's last rolls
    /// still go to the endgame (no rollouts).
    #[test]
    fn an_endgame_too_large_is_searched_instead() {
        let batches = Settings {
            batches: Some(1),
            ..Settings::default()
        };
        let layout = open_board(8, 8);
        let board = Board::new(&layout, 3);
        let mut player = Player::new(&layout, batches.clone());
        assert!(player.choose(&board, Dice(1, 2)).is_some());
        assert!(player.last_rollouts > 0);
        let layout = official(1);
        let mut board = Board::new(&layout, 22);
        let mut player = Player::new(&layout, batches);
        for dice in super::super::dotnet_random::game_dice("endgame", 0, 22) {
            let mv = player.choose(&board, dice).unwrap();
            board.place(&layout, dice, mv).unwrap();
            if board.rounds_left < 3 {
                assert_eq!(player.last_rollouts, 0, "{} rolls left", board.rounds_left);
            }
        }
    }

    /// A whole game on a 20 x 20 board on a 300 ms clock: every move legal, the clock counts them.
    #[test]
    fn a_large_board_plays_a_whole_game_on_the_clock() {
        let layout = open_board(20, 20);
        let settings = Settings {
            game_ms: 300,
            ..Settings::default()
        };
        let mut player = Player::new(&layout, settings);
        let mut board = Board::new(&layout, layout.default_rounds());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(20);
        while board.rounds_left > 0 {
            let dice = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
            let mv = player.choose(&board, dice).expect("free pairs remain");
            board.place(&layout, dice, mv).unwrap();
        }
        assert_eq!(board.free_cells(&layout), 0);
        assert_eq!(player.clock.as_ref().map(|c| c.moves), Some(200));
    }

    /// The former rollout, valuing every option by flooding its region (`local_before` /
    /// `delta_from`): the slow twin the tests compare the fast rollout with.
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
            let mut best = (f32::NEG_INFINITY, Placement::NONE);
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
            let geo = be.geometry().clone();
            let slow = rollout_board_by_region(&mut be, start, first, &rolls);
            let mut hand = HandMask::new(be);
            let mut b = start;
            geo.apply(&mut b, first.cell, first.a, first.b);
            let fast = rollout_from(&mut hand, &geo, b, &rolls, rolls.len(), &Replies::new());
            assert_eq!(fast, slow, "case {case}");
            positions += 1;
        }
        assert!(positions > 1000, "{positions}");
    }

    /// A rollout with the learned value, by one step analysed from the step before and with
    /// its first reply from a candidate's shared `Replies`, ends where a rollout valuing every
    /// step from scratch ends, with the same value to the bit; with the hand evaluation too.
    /// Over many sequences whose first rolls repeat, on random boards.
    #[test]
    fn rollouts_from_the_step_before_and_remembered_replies_match_rollouts_from_scratch() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(71);
        let mut remembered = 0;
        for n in [1, 2] {
            let layout = official(n);
            let value = crate::splitter::learned::LearnedValue::built_in(&layout).unwrap();
            let play = PlayValue::new(&value);
            let geo = play.features.geo.clone();
            let be = BitEval::new(&layout, EvalParams::for_layout(&layout)).unwrap();
            let mut hand = HandMask::new(be);
            for _ in 0..20 {
                let placements = rng.random_range(0..26);
                let b = crate::splitter::geometry::random_board(&geo, &mut rng, placements);
                let (shared_value, shared_hand) = (Replies::new(), Replies::new());
                // Every rollout of a move has as many rolls to come (the memo's key is the roll).
                let len = rng.random_range(1..12);
                for _ in 0..40 {
                    let rolls: Vec<Dice> = (0..len)
                        .map(|_| Dice(rng.random_range(1..=6), rng.random_range(1..=6)))
                        .collect();
                    let cut = len.min(ROLLOUT_DEPTH);
                    let mut end = b;
                    for (k, &dice) in rolls[..cut].iter().enumerate() {
                        match play.best(&end, dice, len - 1 - k) {
                            Some((p, _)) => geo.apply(&mut end, p.cell, p.a, p.b),
                            None => break,
                        }
                    }
                    let expected = (end, play.value(&end, len - cut));
                    assert_eq!(learned_rollout(&play, b, &rolls, &shared_value), expected);
                    let fresh = rollout_from(&mut hand, &geo, b, &rolls, len, &Replies::new());
                    let kept = rollout_from(&mut hand, &geo, b, &rolls, len, &shared_hand);
                    assert_eq!(kept, fresh);
                }
                remembered += shared_value
                    .0
                    .iter()
                    .filter(|s| s.load(Ordering::Relaxed) != 0)
                    .count();
            }
        }
        assert!(remembered > 200, "{remembered}");
    }
}
