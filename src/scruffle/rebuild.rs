//! Rebuilding the whole board when the LNS windows have stalled: a few packing-greedy runs from
//! an empty board, each at the best opening's cell price scaled at random and with a little
//! priority noise, each completed by the sub-word insertion pass. On the cases where no window
//! ever pays (few entries on a full board) the best of such runs beats the openings.

use super::greedy::{extend, Params, Start};
use super::insert::insert_pass;
use super::plan::{Context, Plan};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

/// Priority noise of a rebuild: the best of 40 runs beat the openings by 0.35-1.35% on bench
/// seeds 1, 6, 9, 11, 12 and 15 with noise 0.05, by about as much with 0.02, not with 0 or 0.3.
const NOISE: f32 = 0.05;
/// The cell price is the best opening's times 2^U(-SPREAD, SPREAD).
const SPREAD: f32 = 0.5;
/// Rebuilds per stall in fixed-work mode (in timed mode: as many as fit in a share of the budget,
/// at least one).
const AT_FIXED_WORK: usize = 3;
/// The rebuilds' random stream is their own (an arbitrary constant mixed into the seed), so the
/// LNS draws the same windows with or without them until a rebuild wins.
const STREAM: u64 = 0x7265_7374_6172_7473;

pub struct Rebuild {
    rng: Xoshiro256PlusPlus,
    alpha: f32,
    /// Time for the rebuilds of one stall; `None` in fixed-work mode.
    batch: Option<Duration>,
    deadline: Instant,
}

impl Rebuild {
    /// Rebuilds around cell price `alpha`, each stall's batch taking `batch` (or a fixed count of
    /// runs when `None`), never past `deadline`.
    pub fn new(seed: u64, alpha: f32, batch: Option<Duration>, deadline: Instant) -> Rebuild {
        Rebuild {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed ^ STREAM),
            // At alpha 0 (pure score per cell) scaling would change nothing.
            alpha: alpha.max(1.0),
            batch,
            deadline,
        }
    }

    /// The best rebuild of one batch if it beats `best`.
    pub fn try_better(&mut self, ctx: &Context, best: &Plan) -> Option<Plan> {
        let batch_end = self.batch.map(|b| (Instant::now() + b).min(self.deadline));
        let mut better: Option<Plan> = None;
        for k in 0.. {
            let done = match batch_end {
                Some(end) => k > 0 && Instant::now() >= end,
                None => k >= AT_FIXED_WORK,
            };
            if done {
                break;
            }
            let scale = 2f32.powf(self.rng.random_range(-SPREAD..=SPREAD));
            let params = Params {
                noise: NOISE,
                ..Params::opening(self.alpha * scale)
            };
            let mut plan = Plan::empty(ctx);
            let from = Start::default();
            extend(ctx, &mut plan, params, from, &mut self.rng, self.deadline);
            insert_pass(ctx, &mut plan, self.deadline);
            if plan.score > better.as_ref().map_or(best.score, |b| b.score) {
                better = Some(plan);
            }
        }
        better
    }
}
