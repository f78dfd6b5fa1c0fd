//! Test helpers shared by the workspace's crates (a dev-dependency only): the settings of the
//! property-based fuzz tests, the options of every `--help` page (and which lack a help text),
//! the documentation's pages, code blocks and commands, a reading of shell lines, scratch folders,
//! a headless browser for the tests of the pages the project writes.

pub mod browser;
pub mod docs;
pub mod fuzz;
pub mod help;
pub mod options;
pub mod pipe;
pub mod run;
pub mod scratch;
pub mod shell;
pub mod tour;

pub use run::{with_file_limit, with_full_stdout, within};
pub use scratch::{file_names, scratch_dir};

pub use proptest;
