//! Move choosers. The protocol loop takes any `Policy`; `random` and `greedy` are the baselines
//! every search engine is measured against.

use std::time::Instant;

use super::board::{cells_of, ADJACENT};
use super::rng::SplitMix64;
use super::state::{Move, State};

pub trait Policy {
    /// Short name as given to `--policy`.
    fn name(&self) -> &str;
    /// Pick one of `legal` (never empty, all legal in `state` for the player to move); answer
    /// before `deadline`.
    fn choose(&mut self, state: &State, legal: &[Move], deadline: Instant) -> Move;
}

/// Baselines `make_policy` knows (the engines' names are `engine::ENGINE_NAMES`).
pub const BASELINE_NAMES: &[&str] = &["random", "greedy"];

/// Every policy name, engines first.
pub fn policy_names() -> Vec<&'static str> {
    let engines = super::engine::ENGINE_NAMES.iter();
    engines.chain(BASELINE_NAMES).copied().collect()
}

/// The policy `codingame_main` plays with.
pub fn default_policy() -> Box<dyn Policy> {
    Box::new(super::engine::MctsPolicy::new(0))
}

/// Build a policy by name (an engine name, see `engine::ENGINE_NAMES`, or a baseline); every
/// random choice it makes flows from `seed`.
pub fn make_policy(name: &str, seed: u64) -> Result<Box<dyn Policy>, String> {
    if let Some(engine) = super::engine::make_engine_policy(name, seed) {
        return engine;
    }
    match name {
        "random" => Ok(Box::new(RandomPolicy::new(seed))),
        "greedy" => Ok(Box::new(GreedyPolicy::new(seed))),
        other => {
            let shown: String = other.chars().take(40).collect();
            Err(format!(
                "unknown policy {shown:?} (known: {}; engines take settings, e.g. mcts:playouts=2000)",
                policy_names().join(", ")
            ))
        }
    }
}

/// Uniformly random legal move.
pub struct RandomPolicy {
    rng: SplitMix64,
}

impl RandomPolicy {
    pub fn new(seed: u64) -> Self {
        RandomPolicy {
            rng: SplitMix64::new(seed),
        }
    }
}

impl Policy for RandomPolicy {
    fn name(&self) -> &str {
        "random"
    }
    fn choose(&mut self, _state: &State, legal: &[Move], _deadline: Instant) -> Move {
        legal[self.rng.below(legal.len() as u64) as usize]
    }
}

/// What a move's push does for the mover: 2 pushes an opponent's penguin into the sea, 1 pushes
/// nobody, 0 pushes one of its own.
pub fn push_gain(state: &State, mv: Move) -> u32 {
    match state.pushed_by(mv) {
        None => 1,
        Some(victim) if state.penguin_owner(victim) == state.to_move() => 0,
        Some(_) => 2,
    }
}

/// The greedy preference of a move: push an opponent's penguin (never one's own), then points
/// taken now, then fish on the landing tile, then fish on the free tiles around it (placements
/// take no points). Also the engine's move-ordering key.
pub fn greedy_key(state: &State, mv: Move) -> (u32, u32, u32, u32) {
    let free = state.free();
    let around: u32 = cells_of(ADJACENT[mv.to as usize] & free)
        .map(|c| state.fish_at(c) as u32)
        .sum();
    let gain = if mv.is_placement() {
        0
    } else {
        state.fish_at(mv.from) as u32
    };
    (
        push_gain(state, mv),
        gain,
        state.fish_at(mv.to) as u32,
        around,
    )
}

/// One-ply greedy, push-aware: push an opponent's penguin when it can (never its own), else take
/// the most points now; among equals, land on the most fish with the most free neighbours.
/// Placement: the most fish on and around the tile. Ties broken at random.
pub struct GreedyPolicy {
    rng: SplitMix64,
}

impl GreedyPolicy {
    pub fn new(seed: u64) -> Self {
        GreedyPolicy {
            rng: SplitMix64::new(seed),
        }
    }
}

impl Policy for GreedyPolicy {
    fn name(&self) -> &str {
        "greedy"
    }
    fn choose(&mut self, state: &State, legal: &[Move], _deadline: Instant) -> Move {
        let best = legal.iter().map(|&m| greedy_key(state, m)).max().unwrap();
        let ties: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| greedy_key(state, m) == best)
            .collect();
        ties[self.rng.below(ties.len() as u64) as usize]
    }
}
