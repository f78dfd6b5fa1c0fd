//! Schwedenrätsel (clues-in-squares crossword) for the i4Ds challenge: the `.cwg` format, the
//! rules and the organisers' rating, a layout search, a fill engine and an SVG picture.

pub mod grid;
pub mod rate;
pub mod rules;

pub mod fill;
pub mod generate;
pub mod incremental;
pub mod layout;
#[cfg(test)]
mod rate_tests;
pub mod svg;
