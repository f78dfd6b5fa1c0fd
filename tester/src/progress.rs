//! The progress bar of the tester's long commands: drawn on stderr, and only when stderr is a
//! terminal, so stdout (the report, official-compatible for Splitter) never changes.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// A bar over `len` steps counted in `unit` (hidden unless `show` and stderr is a terminal).
pub fn bar(len: u64, unit: &str, show: bool) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}  {{elapsed}} (eta {{eta}})");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}
