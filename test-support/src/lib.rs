//! Test helpers shared by the workspace's crates (a dev-dependency only): the settings of the
//! property-based fuzz tests, and a check that every command-line option has a help text.

pub mod fuzz;
pub mod help;
pub mod pipe;

pub use proptest;
