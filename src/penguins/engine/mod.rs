//! The penguins search engine: the position estimate (regions, reach, mobility, exact solving of
//! one-player regions), its bindings to the generic `search` engines, and the engine policies.
//! std only (part of the CodinGame bundle).

pub mod bits;
pub mod eval;
pub mod game;
pub mod heuristics;
pub mod policy;
pub mod solo;

#[cfg(test)]
mod tests;

pub use policy::{make_engine_policy, AlphaBetaPolicy, MctsPolicy, ENGINE_NAMES};
