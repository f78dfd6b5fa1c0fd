//! The anytime solver: packing-greedy runs with different cell prices and the hub openings (`hub`)
//! for 60% of the budget, its own naive plan as a floor, the sub-word insertion pass, then
//! large-neighbourhood search (`lns`) on the best plan until the deadline, which rebuilds the
//! whole board (`rebuild`) whenever its windows stall. (Such rebuilds in place of the later
//! openings did not help on seeds 3, 7, 13, 15, 16, where the windows keep paying.)

use super::baseline::naive_greedy;
use super::bounds;
use super::greedy::{extend, gap_candidates, Params, Start};
use super::hub::best_hub_plan;
use super::insert::insert_pass;
use super::layout::Placement;
use super::lns::improve;
use super::plan::{Context, Plan};
use super::rebuild::Rebuild;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// What the solver did, for reports.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub greedy_runs: u32,
    pub greedy_score: u64,
    pub best_alpha: f32,
    /// Share of the naive plan the best opening started from (-1: a hub opening won).
    pub best_prefix: f32,
    /// Best score of the hub openings (0 if none ran).
    pub hub_score: u64,
    pub lns_iterations: u64,
    pub lns_improvements: u64,
    /// LNS stalls that rebuilt the board (`rebuild`), and how many of them found a better plan.
    pub rebuilds: u64,
    pub rebuild_wins: u64,
    pub inserted: u64,
    pub after_insert: u64,
    /// The plan is optimal: it reached U2 or the exact search's bound, or that search ended.
    pub proven_optimal: bool,
    /// The exact search's bound on the optimum, when it ran and bounded something (the optimum
    /// when proven).
    pub bound: Option<u64>,
    /// The best score of every plan the solver built on the way, the final one included: no
    /// claim may fall below it (`settle_claims`).
    pub found: u64,
    /// A claim that failed that check (a bug): what it said. The claim is withdrawn.
    pub broken_claim: Option<String>,
    /// Nodes of the exact search.
    pub exact_nodes: u64,
    /// Seconds from the solver's start to the end of each phase.
    pub timeline: Vec<(&'static str, f64)>,
}

pub struct Solution {
    pub plays: Vec<Placement>,
    pub score: u64,
    pub stats: Stats,
}

/// Opening greedy runs, most useful first (measured over bench seeds 1-20: alpha 10 won most
/// often, then 3, 5 and pure score): (share of the naive greedy's plays kept as a start, cell
/// price `Params::alpha`).
const OPENINGS: [(f32, f32); 8] = [
    (0.0, 10.0),
    (0.0, 3.0),
    (0.0, 5.0),
    (0.0, 1000.0),
    (0.0, 20.0),
    (0.0, 1.0),
    (0.3, 10.0),
    (0.0, 0.0),
];

/// The hub openings (`hub`) run after this many greedy openings (the most useful ones), so that
/// they still run when a large case leaves no time for the later openings.
const HUBS_AFTER: usize = 3;

/// The LNS refill queues crossings that fill at most this many cells: a cap of 6 hid many useful
/// crossings (on bench seed 1, 42% of the plan's plays fill more than 6 cells); 9 and 12 did
/// better at fixed work, 9 on both solver seeds tried (docs/scruffle.md, What was tried).
const REPAIR_NEW_CAP: usize = 9;

/// Share of the budget the rebuilds of one LNS stall may take (`rebuild`).
const REBUILD_SHARE: f64 = 0.1;

/// On a case small enough for the exact search (`exact::suits`), the greedy and the LNS stop at
/// this share of the budget and the exact search takes the rest, from their plan.
const HEURISTIC_SHARE: f64 = 0.3;

/// On a small case the exact search stops at this share of the time left to it, and the re-solves
/// from its plan take the rest (`exact::rens`, then `exact::keep`): on the 24 statement-size
/// cases the re-solves of part of the plan alone found better plans than the exact search's last
/// 30% would.
const KEEP_SHARE: f64 = 0.3;

/// On a small case the re-solve guided by the relaxation (`exact::rens`) takes this share of the
/// time the exact search leaves, before the re-solves of part of the plan (`exact::keep`).
const RENS_SHARE: f64 = 0.5;

/// Nodes of that re-solve in fixed-work mode.
const RENS_WORK_NODES: u64 = 100_000;

/// Nodes of one re-solve of part of the plan at most: with 20,000 instead of 100,000 the walk
/// reaches the larger drop sets sooner (on the small cases, case 7 reaches its optimum in every
/// run, four of four; 40,000 changed nothing).
const KEEP_NODES: u64 = 20_000;

/// Nodes of all those re-solves in fixed-work mode, per LNS iteration of the budget.
const KEEP_WORK_NODES: u64 = 1_000;

/// Nodes of the exact search in fixed-work mode, at most: a run of N LNS iterations gives it at
/// most N nodes too, so `Budget::work(0)` (greedy only) skips it.
const EXACT_WORK: u64 = 300;

/// How long the solver runs: until a deadline, or a fixed amount of work (deterministic whatever
/// the machine's load: every opening runs, then `lns_iterations` LNS iterations, with a fixed
/// number of rebuilds at each stall).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub deadline: Instant,
    pub lns_iterations: Option<u64>,
}

impl Budget {
    pub fn until(deadline: Instant) -> Budget {
        Budget {
            deadline,
            lns_iterations: None,
        }
    }

    /// Fixed work: `iterations` LNS iterations, no clock (a day stands in for "no deadline").
    pub fn work(iterations: u64) -> Budget {
        Budget {
            deadline: Instant::now() + std::time::Duration::from_secs(86_400),
            lns_iterations: Some(iterations),
        }
    }
}

pub fn solve(ctx: &Context, seed: u64, budget: Budget) -> Solution {
    let start = Instant::now();
    let deadline = budget.deadline;
    let fixed = budget.lns_iterations.is_some();
    let budget_time = deadline.saturating_duration_since(start);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut stats = Stats::default();
    let lap = |stats: &mut Stats, phase: &'static str| {
        stats.timeline.push((phase, start.elapsed().as_secs_f64()));
    };
    // The naive plan is a floor and a start; on odd boards (every kept position taken) its scans
    // are slow, so it gets at most a fifth of the budget. Cut short (or on a position table cut
    // short), it is below the complete naive greedy, and so may the plan be: under a budget too
    // short for that greedy (1 s at 100x100 with 10,000 entries), nothing here beats it.
    let naive_end = if fixed {
        deadline
    } else {
        start + budget_time.mul_f64(0.2)
    };
    let naive = naive_greedy(ctx.layout, ctx.words, ctx.table, Some(naive_end));
    lap(&mut stats, "naive");
    let saw = |stats: &mut Stats, plan: &Plan| stats.found = stats.found.max(plan.score);
    // A plan that reaches U2 is optimal: stop there instead of searching until the deadline
    // (an all-obstacle board used to spend its whole 10 s doing nothing). U2 bounds nothing when
    // the position table was cut short (entries left out have no score in it).
    let ceiling = match ctx.table.truncated() {
        true => u64::MAX,
        false => bounds::u2(ctx.layout, ctx.table),
    };
    // (A total that saturates at u64::MAX proves nothing.)
    let optimal = |plan: &Plan| plan.score >= ceiling && ceiling < u64::MAX;

    // Opening: greedy runs within ~60% of the budget (the first always runs).
    let opening_end = start + budget_time.mul_f64(0.6);
    let mut best: Option<Plan> = None;
    let mut filled = Vec::new();
    for (i, &(prefix, alpha)) in OPENINGS.iter().enumerate() {
        if best.is_some() && !fixed && Instant::now() >= opening_end {
            break;
        }
        if best.as_ref().is_some_and(optimal) {
            break;
        }
        if i == HUBS_AFTER {
            // Within the openings' share of the time: a hub run cut short only loses.
            let hub_end = if fixed { deadline } else { opening_end };
            let reference = best.as_ref().expect("the first greedy run always happens");
            let hub = best_hub_plan(ctx, reference, stats.best_alpha, seed, hub_end);
            stats.hub_score = hub.as_ref().map_or(0, |h| h.score);
            stats.found = stats.found.max(stats.hub_score);
            if let Some(hub) = hub.filter(|h| h.score > reference.score) {
                stats.best_prefix = -1.0;
                best = Some(hub);
            }
        }
        let params = Params::opening(alpha);
        let mut plan = Plan::empty(ctx);
        filled.clear();
        for &p in &naive[..(naive.len() as f32 * prefix) as usize] {
            plan.push(ctx, p, &mut filled);
        }
        let from = Start {
            seeds: &filled,
            ..Start::default()
        };
        extend(ctx, &mut plan, params, from, &mut rng, deadline);
        saw(&mut stats, &plan);
        stats.greedy_runs += 1;
        if best.as_ref().is_none_or(|b| plan.score > b.score) {
            stats.best_alpha = alpha;
            stats.best_prefix = prefix;
            best = Some(plan);
        }
    }
    lap(&mut stats, "openings");
    let mut plan = best.expect("the first greedy run always happens");
    // Under a tight budget the packing runs may be cut short: never do worse than the naive plan
    // above (not the complete naive greedy when that one was cut short too).
    let naive_plan = Plan::from_plays(ctx, &naive);
    saw(&mut stats, &naive_plan);
    if naive_plan.score > plan.score {
        stats.best_prefix = 1.0;
        plan = naive_plan;
    }
    stats.greedy_score = plan.score;
    if !optimal(&plan) {
        stats.inserted += insert_pass(ctx, &mut plan, deadline) as u64;
    }
    stats.after_insert = plan.score;
    saw(&mut stats, &plan);
    lap(&mut stats, "insert");

    let repair = Params {
        alpha: stats.best_alpha,
        new_cap: REPAIR_NEW_CAP,
        noise: 0.15,
        standalone: false,
    };
    // The LNS leaves the last 2% of the time to the gap fill, or most of it to the exact search.
    let small = super::exact::suits(ctx);
    let lns_share = if small { HEURISTIC_SHARE } else { 0.98 };
    let lns_budget = Budget {
        deadline: start + deadline.saturating_duration_since(start).mul_f64(lns_share),
        ..budget
    };
    let batch = (!fixed).then(|| budget_time.mul_f64(REBUILD_SHARE));
    let mut rebuild = Rebuild::new(seed, stats.best_alpha, batch, lns_budget.deadline);
    let mut offer = |best: &Plan| rebuild.try_better(ctx, best);
    let (mut plan, lns) = improve(ctx, plan, repair, &mut rng, lns_budget, ceiling, &mut offer);
    stats.lns_iterations = lns.iterations;
    stats.lns_improvements = lns.improvements;
    stats.rebuilds = lns.rebuilds;
    stats.rebuild_wins = lns.rebuild_wins;
    saw(&mut stats, &plan);
    lap(&mut stats, "lns");
    let limit = match budget.lns_iterations {
        Some(iterations) => iterations.min(EXACT_WORK),
        None => u64::MAX,
    };
    if small && !optimal(&plan) && limit > 0 {
        // The exact search leaves the last part of its time to the re-solves from its plan.
        let exact_end = match fixed {
            true => deadline,
            false => {
                let now = Instant::now();
                now + deadline
                    .saturating_duration_since(now)
                    .mul_f64(1.0 - KEEP_SHARE)
            }
        };
        let exact = super::exact::solve_board(ctx, &plan.plays, exact_end, limit);
        stats.found = stats.found.max(exact.score);
        if exact.score > plan.score {
            plan = Plan::from_plays(ctx, &exact.plays);
        }
        stats.proven_optimal = exact.proven;
        stats.bound = exact.bound;
        stats.exact_nodes = exact.nodes;
        lap(&mut stats, "exact");
        if !exact.proven {
            // Half of the time left to the re-solve guided by the relaxation, the rest to the
            // re-solves of part of the plan.
            let now = Instant::now();
            let (rens_end, nodes) = match fixed {
                true => (deadline, RENS_WORK_NODES),
                false => {
                    let left = deadline.saturating_duration_since(now);
                    (now + left.mul_f64(RENS_SHARE), u64::MAX)
                }
            };
            plan = relaxation_re_solve(ctx, plan, nodes, rens_end);
            saw(&mut stats, &plan);
            lap(&mut stats, "rens");
            let work = match budget.lns_iterations {
                Some(iterations) => iterations.saturating_mul(KEEP_WORK_NODES),
                None => u64::MAX,
            };
            plan = super::exact::keep::improve(ctx, plan, KEEP_NODES, work, deadline);
            saw(&mut stats, &plan);
            // The bound holds for every plan: one that reaches it is optimal.
            stats.proven_optimal = exact.bound.is_some_and(|b| plan.score >= b);
            lap(&mut stats, "keep");
        }
    }
    // Whatever still fits on the runs of empty cells the position table no longer covers (the
    // LNS refills only its windows from it).
    let gaps = gap_candidates(ctx, &plan, 1_000_000, budget.deadline);
    let params = Params {
        alpha: stats.best_alpha,
        new_cap: usize::MAX,
        noise: 0.0,
        standalone: false,
    };
    let from = Start {
        extra: &gaps,
        ..Start::default()
    };
    extend(ctx, &mut plan, params, from, &mut rng, budget.deadline);
    lap(&mut stats, "gaps");
    saw(&mut stats, &plan);
    stats.proven_optimal |= optimal(&plan);
    settle_claims(&mut stats, plan.score, ceiling);
    Solution {
        plays: plan.plays,
        score: plan.score,
        stats,
    }
}

/// "A bound is a bound": the claims about the optimum (proven optimal, the exact search's bound,
/// U2 when the plan reached it) are checked against every plan the solver built. A claim that
/// fails is a bug: it is withdrawn, never printed, and `broken_claim` says what it was. A total
/// that saturated at `u64::MAX` proves nothing either way.
fn settle_claims(stats: &mut Stats, score: u64, ceiling: u64) {
    let found = stats.found.max(score);
    let mut broken = Vec::new();
    if stats.proven_optimal && found > score {
        broken.push(format!("optimal: {score}, but a plan of {found} was found"));
    }
    if let Some(bound) = stats.bound.filter(|&b| b < found) {
        broken.push(format!("best bound: {bound}, below a plan of {found}"));
    }
    if ceiling < found {
        broken.push(format!("U2 = {ceiling}, below a plan of {found}"));
    }
    if !broken.is_empty() || score == u64::MAX {
        stats.proven_optimal = false;
        stats.bound = None;
    }
    if !broken.is_empty() {
        stats.broken_claim = Some(broken.join("; "));
    }
}

/// The re-solve guided by the relaxation (`exact::rens`) over the whole board from `plan`.
fn relaxation_re_solve(ctx: &Context, plan: Plan, node_limit: u64, deadline: Instant) -> Plan {
    let frame = super::exact::model::Frame::whole(ctx.layout, ctx.words.len());
    let model = super::exact::model::Model::new(ctx.layout, ctx.words, &frame);
    let share = super::exact::rens::SHARE;
    let rens =
        super::exact::rens::resolve(&model, &plan.plays, plan.score, share, node_limit, deadline);
    match rens.better {
        Some((plays, _)) => Plan::from_plays(ctx, &plays),
        None => plan,
    }
}
