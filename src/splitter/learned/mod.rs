//! The learned afterstate value (group-level features, one table per game stage; optionally the
//! mirror pairs' contents and a small network on the stage-free entries), its weight file, and
//! its TD trainer (`bot train splitter`).

pub mod blend;
pub mod delta;
pub mod features;
pub mod file;
pub mod net;
pub mod play;
pub mod train;
pub mod value;

pub use value::LearnedValue;
