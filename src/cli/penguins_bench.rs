//! `bot bench penguins`: search speed on fixed positions with fixed node/playout limits, and a
//! node-count signature (same build, same limits -> same signature, every time). With `--games`,
//! also a quick in-process match against a baseline policy (a development aid; strength figures
//! for the record come from `tester arena`, with the real referee and processes).

use clap::Parser;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::penguins::engine::eval::Weights;
use crate::penguins::engine::heuristics::Heuristics;
use crate::penguins::state::{MoveList, State};
use crate::penguins::{generate_board, make_policy, Policy, Rules};
use crate::search::alphabeta::AlphaBeta;
use crate::search::mcts::Mcts;
use crate::search::rng::SplitMix64;
use crate::search::time::SearchLimit;

#[derive(Parser)]
pub struct BenchArgs {
    /// Seed of the fixed positions (boards and the random moves played on them).
    #[arg(long, default_value_t = 2020)]
    seed: u64,
    /// Positions per player count (2, 3 and 4 players), at several stages of the game (0 to
    /// 10,000; 0 with --games: the games only).
    #[arg(long, default_value_t = 4, value_parser = position_count)]
    positions: usize,
    /// Alpha-beta node limit per position.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// MCTS playout limit per position.
    #[arg(long, default_value_t = 3_000)]
    playouts: u64,
    /// Also play this many in-process games of --policy against --against (seats rotated).
    #[arg(long, default_value_t = 0)]
    games: usize,
    /// The policy measured in --games (as `bot penguins --policy`).
    #[arg(long, default_value = "engine")]
    policy: String,
    /// Its opponent in --games (as `bot penguins --policy`).
    #[arg(long, default_value = "greedy")]
    against: String,
    /// Players per game for --games.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// Milliseconds per move for --games.
    #[arg(long, default_value_t = 40, value_parser = super::args::millis)]
    ms: u64,
}

/// Most positions per player count: a bench of hours, far beyond any use.
const MAX_POSITIONS: u64 = 10_000;

fn position_count(text: &str) -> Result<usize, String> {
    super::args::integer_in(text, 0, MAX_POSITIONS).map(|n| n as usize)
}

/// Fixed positions: a seeded board, a random placement, then `stage` random moves.
fn positions(seed: u64, per_count: usize) -> Vec<State> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for players in 2..=4 {
        for i in 0..per_count {
            let grid = generate_board(rng.next_u64());
            let mut state = State::new(&grid, players, Rules::default()).expect("valid board");
            let mut moves = MoveList::new();
            // Stages: last placement, early, middle and late movement.
            let placing = (players * (6 - players)).saturating_sub(1);
            let stage = [placing, placing + 4, placing + 14, placing + 26][i % 4];
            for _ in 0..stage {
                state.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                state.apply(moves[rng.below(moves.len())]);
            }
            if !state.is_over() {
                out.push(state);
            }
        }
    }
    out
}

pub fn bench(args: BenchArgs) -> ExitCode {
    if args.positions == 0 && args.games == 0 {
        return super::fail("bench penguins: --positions 0 and no --games: nothing to measure");
    }
    // No positions: no speed table (its rates would be 0 / 0), the games only.
    if args.positions > 0 {
        bench_positions(&args);
    }
    if args.games > 0 {
        if let Err(e) = self_play(&args) {
            return super::fail(e);
        }
    }
    ExitCode::SUCCESS
}

/// Search speed on the fixed positions, one line each, then totals, medians and the signature.
fn bench_positions(args: &BenchArgs) {
    let positions = positions(args.seed, args.positions);
    println!(
        "bench penguins: seed {} positions {} alpha-beta {} nodes, mcts {} playouts",
        args.seed,
        positions.len(),
        args.nodes,
        args.playouts
    );
    println!(
        "{:>3} {:>2} {:>5} | {:>9} {:>8} {:>5} | {:>8} {:>8} | {:>10}",
        "pos", "pl", "moves", "ab nodes", "knps", "depth", "playouts", "kpps", "plain/tt"
    );
    let (mut knps, mut kpps, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let mut signature = 0u64;
    let (mut ab_nodes, mut ab_time) = (0u64, Duration::ZERO);
    let (mut mc_playouts, mut mc_time) = (0u64, Duration::ZERO);
    for (i, state) in positions.iter().enumerate() {
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        let mut heuristics = Heuristics::new(Weights::default());
        let start = Instant::now();
        let ab = AlphaBeta::new(16).search(state, &mut heuristics, SearchLimit::nodes(args.nodes));
        let t_ab = start.elapsed();
        let mut heuristics = Heuristics::new(Weights::default());
        let start = Instant::now();
        let mc = Mcts::new().search(
            state,
            &mut heuristics,
            SearchLimit::nodes(args.playouts),
            args.seed,
        );
        let t_mc = start.elapsed();
        // Baseline in the same run: the same fixed-depth search without the table.
        let depth = ab.depth.clamp(1, 3);
        let mut h = Heuristics::new(Weights::default());
        let with_tt = AlphaBeta::new(16).search(state, &mut h, SearchLimit::depth(depth));
        let mut plain = AlphaBeta::new(4);
        plain.use_tt = false;
        let mut h = Heuristics::new(Weights::default());
        let without = plain.search(state, &mut h, SearchLimit::depth(depth));
        let ratio = without.nodes as f64 / with_tt.nodes.max(1) as f64;
        signature = signature
            .wrapping_mul(1_000_003)
            .wrapping_add(ab.nodes)
            .wrapping_mul(1_000_003)
            .wrapping_add(mc.nodes as u64);
        ab_nodes += ab.nodes;
        ab_time += t_ab;
        mc_playouts += mc.playouts;
        mc_time += t_mc;
        knps.push(ab.nodes as f64 / t_ab.as_secs_f64() / 1e3);
        kpps.push(mc.playouts as f64 / t_mc.as_secs_f64() / 1e3);
        ratios.push(ratio);
        println!(
            "{:>3} {:>2} {:>5} | {:>9} {:>8.1} {:>5} | {:>8} {:>8.1} | {:>6.2} d{}",
            i,
            state.players(),
            moves.len(),
            ab.nodes,
            ab.nodes as f64 / t_ab.as_secs_f64() / 1e3,
            ab.depth,
            mc.playouts,
            mc.playouts as f64 / t_mc.as_secs_f64() / 1e3,
            ratio,
            depth,
        );
    }
    println!(
        "total: alpha-beta {} nodes in {:.0} ms ({:.1} knps); mcts {} playouts in {:.0} ms ({:.1} k playouts/s)",
        ab_nodes,
        ab_time.as_secs_f64() * 1e3,
        ab_nodes as f64 / ab_time.as_secs_f64() / 1e3,
        mc_playouts,
        mc_time.as_secs_f64() * 1e3,
        mc_playouts as f64 / mc_time.as_secs_f64() / 1e3
    );
    println!(
        "medians: alpha-beta {:.1} knps, mcts {:.1} k playouts/s, nodes without/with the table at the same depth {:.2}x",
        median(&mut knps),
        median(&mut kpps),
        median(&mut ratios)
    );
    println!("signature: {signature}");
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

/// In-process games: `policy` in seat k of game g (k = g mod players), the others `against`.
fn self_play(args: &BenchArgs) -> Result<(), String> {
    if !(2..=4).contains(&args.players) {
        return Err(format!("--players must be 2..4, got {}", args.players));
    }
    let mut rng = SplitMix64::new(args.seed);
    let (mut firsts, mut shared, mut max_ms) = (0, 0, 0u128);
    for g in 0..args.games {
        let grid = generate_board(rng.next_u64());
        let mut state = State::new(&grid, args.players, Rules::default())?;
        let seat = g % args.players;
        let mut players: Vec<Box<dyn Policy>> = (0..args.players)
            .map(|p| {
                let name = if p == seat {
                    &args.policy
                } else {
                    &args.against
                };
                make_policy(name, args.seed.wrapping_add(g as u64 * 10 + p as u64))
            })
            .collect::<Result<_, _>>()?;
        let mut moves = MoveList::new();
        while !state.is_over() {
            state.legal_moves(&mut moves);
            let me = state.to_move();
            let start = Instant::now();
            let mv = players[me].choose(&state, &moves, start + Duration::from_millis(args.ms));
            if me == seat {
                max_ms = max_ms.max(start.elapsed().as_millis());
            }
            state.apply(mv);
        }
        let scores = state.final_scores();
        let best = *scores.iter().max().unwrap();
        let winners = scores.iter().filter(|&&s| s == best).count();
        if scores[seat] == best {
            if winners == 1 {
                firsts += 1;
            } else {
                shared += 1;
            }
        }
        eprintln!("game {g}: seat {seat} scores {scores:?}");
    }
    println!(
        "self-play: {} vs {} x{}, {} players, {} games: first {} shared first {} ({:.1}% first), slowest move {} ms",
        args.policy,
        args.against,
        args.players - 1,
        args.players,
        args.games,
        firsts,
        shared,
        100.0 * firsts as f64 / args.games as f64,
        max_ms
    );
    Ok(())
}
