//! Splitter (Lucrasoft code competition): rules and scoring, the seeded .NET dice, evaluation and
//! policies, and the stdin/stdout turn loop. The spec is `../shared/specs/splitter.md`; where the
//! original GAME.md and the reference Tester disagree, the Tester's code wins.

pub mod bits;
pub mod clock;
pub mod dotnet_random;
pub mod endgame;
pub mod eval;
pub mod evaluation;
pub mod expectimax;
pub mod game;
pub mod geometry;
pub mod layout;
pub mod learned;
pub mod policy;
pub mod protocol;
pub mod score;
pub mod search;
pub mod selfplay;
pub mod stats;
pub mod trace;

#[cfg(test)]
mod data_tests;

pub use dotnet_random::{custom_hash, game_dice, game_seed, DotNetRandom};
pub use game::{Board, Dice, Move, PlaceError};
pub use layout::{official, Layout, LayoutError};
pub use policy::{Player, PolicyKind, Settings};
pub use score::{breakdown, score, Breakdown};
