//! The engine policies the protocol loop can play with: `ab` (paranoid alpha-beta), `mcts`, and
//! `engine` (the stronger of the two for the game's player count, as measured by SPRT).

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

/// Names `make_engine_policy` knows.
pub const ENGINE_NAMES: &[&str] = &["engine", "ab", "mcts"];

pub fn make_engine_policy(name: &str, seed: u64) -> Option<Box<dyn Policy>> {
    match name {
        "engine" => Some(Box::new(EnginePolicy::new(seed))),
        "ab" => Some(Box::new(AlphaBetaPolicy::new())),
        "mcts" => Some(Box::new(MctsPolicy::new(seed))),
        _ => None,
    }
}

/// Turn the protocol's deadline into a search budget: keep 8 ms plus 20% of the window in reserve
/// (output, and above all being descheduled on a loaded machine: with 2 cores and a load of 14,
/// turns overshot a 34 ms hard limit by up to 13 ms), and stop deepening at half of it.
pub fn budget_until(deadline: Instant) -> TimeBudget {
    let now = Instant::now();
    let window = deadline.saturating_duration_since(now);
    let safety = Duration::from_millis(8) + window.mul_f64(0.2);
    TimeBudget::for_turn(now, window, safety, 0.5)
}

/// Search limit of one turn: the clock, unless a fixed node count was asked for (benchmarks).
fn limit(deadline: Instant, nodes: Option<u64>) -> SearchLimit {
    match nodes {
        Some(n) => SearchLimit::nodes(n),
        None => SearchLimit::time(budget_until(deadline)),
    }
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
        AlphaBetaPolicy {
            engine: AlphaBeta::new(16),
            heuristics: Heuristics::new(Weights::default()),
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
        self.heuristics.new_turn(state, PRESOLVE_BUDGET);
        let limit = limit(deadline, self.nodes);
        let result = self.engine.search(state, &mut self.heuristics, limit);
        if self.verbose {
            eprintln!(
                "ab: depth {}{} value {} nodes {} in {} ms",
                result.depth,
                if result.solved { " (solved)" } else { "" },
                result.value,
                result.nodes,
                started.elapsed().as_millis()
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
            verbose: true,
        }
    }
}

impl Policy for MctsPolicy {
    fn name(&self) -> &str {
        "mcts"
    }

    fn choose(&mut self, state: &State, legal: &[Move], deadline: Instant) -> Move {
        if legal.len() == 1 {
            return legal[0];
        }
        let started = Instant::now();
        self.heuristics.new_turn(state, PRESOLVE_BUDGET);
        // Exact endgames are alpha-beta's job even in the MCTS policy: it solves them outright.
        if let Some(best) = solved_move(state, &mut self.heuristics) {
            return listed(Some(best), legal);
        }
        self.turn += 1;
        let seed = self.seed ^ self.turn.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let limit = limit(deadline, self.playouts);
        let result = self.engine.search(state, &mut self.heuristics, limit, seed);
        if self.verbose {
            eprintln!(
                "mcts: playouts {} nodes {} seed {seed} in {} ms",
                result.playouts,
                result.nodes,
                started.elapsed().as_millis()
            );
        }
        listed(result.best, legal)
    }
}

/// The best move when the position is already an exact endgame (every region isolated).
fn solved_move(state: &State, heuristics: &mut Heuristics) -> Option<Move> {
    let budget = heuristics.eval.weights.solve_budget;
    heuristics.eval.exact_scores(state, budget)?;
    let mut ab = AlphaBeta::new(10);
    let result = ab.search(state, heuristics, SearchLimit::depth(1));
    result.solved.then_some(result.best).flatten()
}

/// Plays `ab` or `mcts` depending on the player count (the choice the arena's SPRT made).
pub struct EnginePolicy {
    ab: AlphaBetaPolicy,
    mcts: MctsPolicy,
}

impl EnginePolicy {
    pub fn new(seed: u64) -> Self {
        EnginePolicy {
            ab: AlphaBetaPolicy::new(),
            mcts: MctsPolicy::new(seed),
        }
    }

    /// Which engine plays a game of `players` players.
    pub fn uses_mcts(players: usize) -> bool {
        players >= 3
    }
}

impl Policy for EnginePolicy {
    fn name(&self) -> &str {
        "engine"
    }

    fn choose(&mut self, state: &State, legal: &[Move], deadline: Instant) -> Move {
        if Self::uses_mcts(state.players()) {
            self.mcts.choose(state, legal, deadline)
        } else {
            self.ab.choose(state, legal, deadline)
        }
    }
}
