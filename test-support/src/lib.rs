//! Test helpers shared by the workspace's crates (a dev-dependency only): the settings of the
//! property-based fuzz tests, a check that every command-line option has a help text, scratch
//! folders, a headless browser for the tests of the pages the project writes.

pub mod browser;
pub mod fuzz;
pub mod help;
pub mod pipe;
pub mod scratch;

pub use scratch::scratch_dir;

pub use proptest;
