//! `bundler`: one std-only source file for CodinGame from the crate's own modules.
//!
//! Modules are resolved as rustc does, cfg predicates are evaluated (never matched as text), and
//! the original text is edited by spans, so the bundle reads like the sources it came from.

pub mod bundle;
pub mod cfg;
pub mod check;
pub mod edit;
pub mod process;
pub mod refs;
pub mod resolve;
