//! In-process games on seeded dice, for the bench (no tester processes involved).

use super::dotnet_random::game_dice;
use super::eval::{EvalParams, N_PARAMS};
use super::game::{Board, Move};
use super::layout::Layout;
use super::policy::{Player, PolicyKind, Settings};
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct GameResult {
    pub score: u32,
    pub moves: Vec<Move>,
    pub move_times: Vec<Duration>,
    /// CPU time of the thread that played the game (all of it when the search has no pool).
    pub cpu: Duration,
    pub rollouts: u64,
}

/// Play game `game` of `--seed seed` (the Tester's dice) with `settings`; the policy's own seed is
/// `settings.seed + game` so every game is reproducible on its own.
pub fn play_seeded_game(layout: &Layout, seed: &str, game: u32, settings: &Settings) -> GameResult {
    let rounds = layout.default_rounds();
    let mut settings = settings.clone();
    settings.seed = settings.seed.wrapping_add(game as u64);
    let mut player = Player::new(layout, settings);
    let mut board = Board::new(layout, rounds);
    let mut move_times = Vec::with_capacity(rounds);
    let mut moves = Vec::with_capacity(rounds);
    let mut rollouts = 0;
    let cpu = thread_cpu_time();
    for dice in game_dice(seed, game, rounds) {
        let t = Instant::now();
        let mv = player.choose(&board, dice);
        move_times.push(t.elapsed());
        rollouts += player.last_rollouts;
        match mv {
            Some(mv) => {
                board
                    .place(layout, dice, mv)
                    .expect("policies only return legal moves");
                moves.push(mv);
            }
            None => break,
        }
    }
    GameResult {
        score: super::score::score(layout, &board.values),
        moves,
        move_times,
        cpu: thread_cpu_time().saturating_sub(cpu),
        rollouts,
    }
}

/// CPU time the calling thread has used.
fn thread_cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    match ok {
        true => Duration::new(t.tv_sec as u64, t.tv_nsec as u32),
        false => Duration::ZERO,
    }
}

/// Mean score of `policy` with `params` over games 0..games of `seed` on each layout (games run
/// in parallel; used by the tuner, where only the greedy policy is fast enough).
pub fn mean_score(layouts: &[Layout], seed: &str, games: u32, settings: &Settings) -> f64 {
    use rayon::prelude::*;
    let total: u64 = layouts
        .iter()
        .map(|layout| {
            (0..games)
                .into_par_iter()
                .map(|g| play_seeded_game(layout, seed, g, settings).score as u64)
                .sum::<u64>()
        })
        .sum();
    total as f64 / (games as f64 * layouts.len() as f64)
}

/// Coordinate descent on the evaluation weights: each weight is scaled up and down in turn and the
/// change kept when the mean greedy score on the tuning seed improves. Prints progress to stderr.
pub fn tune(
    layouts: &[Layout],
    seed: &str,
    games: u32,
    passes: u32,
    start: EvalParams,
) -> EvalParams {
    let mut best = start;
    let settings = |p: &EvalParams| Settings {
        kind: PolicyKind::Greedy,
        params: Some(p.clone()),
        ..Settings::default()
    };
    let mut best_score = mean_score(layouts, seed, games, &settings(&best));
    eprintln!("tune: start {best_score:.3}");
    let mut step = 0.25f32;
    for pass in 0..passes {
        for i in 0..N_PARAMS {
            for change in [1.0 + step, 1.0 / (1.0 + step), 0.05, -0.05] {
                let mut cand = best.clone();
                // Factors scale a weight; the small additive nudges let zero weights move.
                cand.w[i] = if change.abs() < 0.1 {
                    cand.w[i] + change
                } else {
                    cand.w[i] * change
                };
                let s = mean_score(layouts, seed, games, &settings(&cand));
                if s > best_score + 1e-9 {
                    best_score = s;
                    best = cand;
                    eprintln!(
                        "tune: pass {pass} w[{i}] = {:.4} -> {best_score:.3}",
                        best.w[i]
                    );
                    break;
                }
            }
        }
        step *= 0.6;
    }
    eprintln!("tune: final {best_score:.3}\n{:?}", best.w);
    best
}
