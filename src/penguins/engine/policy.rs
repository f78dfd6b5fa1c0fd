//! The engine policies the protocol loop can play with: `mcts` (also `engine`, the default:
//! it beat `ab` in the arena with 2 and with 4 players) and `ab` (paranoid alpha-beta, kept as a
//! baseline).

use std::time::{Duration, Instant};

use super::eval::Weights;
use super::heuristics::Heuristics;
use crate::penguins::policy::Policy;
use crate::penguins::state::{Move, State};
use crate::search::alphabeta::AlphaBeta;
use crate::search::mcts::Mcts;
use crate::search::time::{SearchLimit, TimeBudget};

/// Solver positions spent at the start of a turn on the root's one-player regions.
pub const PRESOLVE_BUDGET: u64 = 5_000;

/// Names `make_engine_policy` knows. `mcts` and `ab` take settings after a colon, separated by
/// commas. Their fixed-compute limit, a count per turn that replaces the clock (so the same
/// settings give the same game whatever the machine's load): `mcts:playouts=N`, `ab:nodes=N`;
/// `mcts:playouts=N,first=M` gives the first turn M playouts, as the clock gives it more time.
pub const ENGINE_NAMES: &[&str] = &["engine", "ab", "mcts"];

/// The engine policy `name` (with its settings), `None` when `name` is not an engine's, or the
/// settings' error.
pub fn make_engine_policy(name: &str, seed: u64) -> Option<Result<Box<dyn Policy>, String>> {
    let (base, settings) = name.split_once(':').unwrap_or((name, ""));
    let built: Result<Box<dyn Policy>, String> = match base {
        "engine" if settings.is_empty() => Ok(Box::new(MctsPolicy::new(seed))),
        "engine" => Err("engine takes no settings (use mcts:playouts=N or ab:nodes=N)".into()),
        "ab" => {
            let mut p = AlphaBetaPolicy::new();
            apply_settings(settings, &mut [("nodes", &mut p.nodes)])
                .map(|_| Box::new(p) as Box<dyn Policy>)
        }
        "mcts" => {
            let mut p = MctsPolicy::new(seed);
            apply_settings(
                settings,
                &mut [
                    ("playouts", &mut p.playouts),
                    ("first", &mut p.first_playouts),
                ],
            )
            .and_then(|_| match (p.first_playouts, p.playouts) {
                (Some(_), None) => Err("first=N needs playouts=N".into()),
                _ => Ok(()),
            })
            .map(|_| Box::new(p) as Box<dyn Policy>)
        }
        _ => return None,
    };
    Some(built.map_err(|e| format!("{name}: {e}")))
}

/// Reads comma-separated `key=N` settings into the named slots; an unknown key, a repeated key or
/// a value that is not a whole number is an error.
fn apply_settings(settings: &str, slots: &mut [(&str, &mut Option<u64>)]) -> Result<(), String> {
    if settings.is_empty() {
        return Ok(());
    }
    for setting in settings.split(',') {
        let found = setting.split_once('=').and_then(|(key, value)| {
            let slot = slots.iter().position(|(k, _)| *k == key)?;
            Some((slot, key, value))
        });
        let Some((slot, key, value)) = found else {
            let keys: Vec<String> = slots.iter().map(|(k, _)| format!("{k}=N")).collect();
            return Err(format!(
                "unknown setting {setting:?} (expected {})",
                keys.join(", ")
            ));
        };
        if slots[slot].1.is_some() {
            return Err(format!("{key} given twice"));
        }
        let n: u64 = value
            .parse()
            .map_err(|_| format!("{key}={value}: not a whole number"))?;
        *slots[slot].1 = Some(n.max(1));
    }
    Ok(())
}

/// The turn's search budget: the hard limit is the protocol's deadline (its margin is already
/// taken, see `protocol::budget`), and iterative deepening starts no iteration after half of it.
pub fn budget_until(deadline: Instant) -> TimeBudget {
    let now = Instant::now();
    let window = deadline.saturating_duration_since(now);
    TimeBudget::for_turn(now, window, Duration::ZERO, 0.5)
}

/// Search limit of one turn: the clock, unless a fixed node count was asked for (benchmarks).
fn limit(deadline: Instant, nodes: Option<u64>) -> SearchLimit {
    match nodes {
        Some(n) => SearchLimit::nodes(n),
        None => SearchLimit::time(budget_until(deadline)),
    }
}

/// Per-turn preparation within a quarter of the soft limit (none under a node limit, where
/// results must not depend on the clock).
fn prepare(heuristics: &mut Heuristics, state: &State, limit: &SearchLimit) {
    let deadline = limit.time.map(|b| b.start + b.soft / 4);
    heuristics.new_turn(state, PRESOLVE_BUDGET, deadline);
}

/// The chosen move if it is listed, else the first listed one.
fn listed(best: Option<Move>, legal: &[Move]) -> Move {
    best.filter(|m| legal.contains(m)).unwrap_or(legal[0])
}

pub struct AlphaBetaPolicy {
    engine: AlphaBeta<State>,
    heuristics: Heuristics,
    /// Fixed node limit instead of the clock (reproducible runs).
    pub nodes: Option<u64>,
    pub verbose: bool,
}

impl AlphaBetaPolicy {
    pub fn new() -> Self {
        // A tempo bonus evens out odd and even depths: on arena seeds 5000-5049 (100 games vs
        // greedy) it took ab from 93 to 98 wins.
        // The reach share it was measured with: the default's 130 was tuned for MCTS only.
        let weights = Weights {
            tempo: 150,
            reach_percent: 60,
            ..Weights::default()
        };
        AlphaBetaPolicy {
            engine: AlphaBeta::new(16),
            heuristics: Heuristics::new(weights),
            nodes: None,
            verbose: true,
        }
    }
}

impl Default for AlphaBetaPolicy {
    fn default() -> Self {
        Self::new()
    }
}

impl Policy for AlphaBetaPolicy {
    fn name(&self) -> &str {
        "ab"
    }

    fn choose(&mut self, state: &State, legal: &[Move], deadline: Instant) -> Move {
        if legal.len() == 1 {
            return legal[0];
        }
        let started = Instant::now();
        let limit = limit(deadline, self.nodes);
        prepare(&mut self.heuristics, state, &limit);
        let prepared = started.elapsed();
        let result = self.engine.search(state, &mut self.heuristics, limit);
        if self.verbose {
            eprintln!(
                "ab: depth {}{} value {} nodes {} in {:.1} ms (prepare {:.1} ms)",
                result.depth,
                if result.solved { " (solved)" } else { "" },
                result.value,
                result.nodes,
                started.elapsed().as_secs_f64() * 1e3,
                prepared.as_secs_f64() * 1e3
            );
        }
        listed(result.best, legal)
    }
}

pub struct MctsPolicy {
    engine: Mcts<State>,
    heuristics: Heuristics,
    seed: u64,
    turn: u64,
    /// Fixed playout count instead of the clock (reproducible runs).
    pub playouts: Option<u64>,
    /// The first turn's fixed playout count (the clock gives that turn more time).
    pub first_playouts: Option<u64>,
    /// Turns answered so far.
    answered: u64,
    /// Playouts of the last search (0 when the turn needed none).
    pub last_playouts: u64,
    pub verbose: bool,
}

impl MctsPolicy {
    pub fn new(seed: u64) -> Self {
        MctsPolicy {
            engine: Mcts::new(),
            heuristics: Heuristics::new(Weights::default()),
            seed,
            turn: 0,
            playouts: None,
            first_playouts: None,
            answered: 0,
            last_playouts: 0,
            verbose: true,
        }
    }
}

impl Policy for MctsPolicy {
    fn name(&self) -> &str {
        "mcts"
    }

    fn choose(&mut self, state: &State, legal: &[Move], deadline: Instant) -> Move {
        self.answered += 1;
        self.last_playouts = 0;
        if legal.len() == 1 {
            return legal[0];
        }
        let started = Instant::now();
        let playouts = match self.answered {
            1 => self.first_playouts.or(self.playouts),
            _ => self.playouts,
        };
        let limit = limit(deadline, playouts);
        prepare(&mut self.heuristics, state, &limit);
        // Exact endgames are alpha-beta's job even in the MCTS policy: it solves them outright.
        if let Some(best) = solved_move(state, &mut self.heuristics, &limit) {
            return listed(Some(best), legal);
        }
        self.turn += 1;
        let seed = self.seed ^ self.turn.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let result = self.engine.search(state, &mut self.heuristics, limit, seed);
        self.last_playouts = result.playouts;
        if self.verbose {
            eprintln!(
                "mcts: playouts {} nodes {} seed {seed} in {:.1} ms",
                result.playouts,
                result.nodes,
                started.elapsed().as_secs_f64() * 1e3
            );
        }
        listed(result.best, legal)
    }
}

/// The best move when the position is already an exact endgame (every region isolated).
fn solved_move(state: &State, heuristics: &mut Heuristics, limit: &SearchLimit) -> Option<Move> {
    let budget = heuristics.eval.weights.solve_budget;
    heuristics.eval.exact_scores(state, budget)?;
    let mut ab = AlphaBeta::new(10);
    let one_ply = SearchLimit {
        depth: Some(1),
        ..*limit
    };
    let result = ab.search(state, heuristics, one_ply);
    result.solved.then_some(result.best).flatten()
}
