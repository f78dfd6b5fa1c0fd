//! The commands of the docs as a newcomer meets them, page by page, each with whether a test runs
//! it. Every command on a page is meant to run as shown from the workspace root after `cargo
//! build --release`; a test runs it unless the page says why not, in the command's own comment:
//! its duration (`# about 4 min`, `# 10 s`) or what it needs (`# needs .NET`). A command after
//! one that is not run, in the same code block, is not run either (it may need its output).
//! `cargo build --release` itself is the precondition, never run. Synopses (`bot honey --dir DIR
//! [--top N]`) are no commands: the `--help` checks read them.

use crate::docs::{self, Page};
use crate::options::is_synopsis;

/// One command of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// `page:line`.
    pub place: String,
    /// As the page shows it, continuation lines included, without the `$ ` prompt.
    pub text: String,
    /// Why a test does not run it; None: it runs.
    pub not_run: Option<String>,
}

/// The commands of a page in order.
pub fn steps(page: &Page) -> Vec<Step> {
    let mut steps = Vec::new();
    for block in docs::code_blocks(&page.text) {
        let mut skipped_before: Option<String> = None;
        for command in docs::commands(&block) {
            if is_synopsis(&command.text) {
                continue;
            }
            let place = format!("{}:{}", page.name, command.line);
            let not_run = if is_the_build(&command.text) {
                Some("the build this check follows".to_string())
            } else if let Some(reason) = comment(&command.text).filter(|c| says_why_not(c)) {
                Some(reason)
            } else {
                skipped_before
                    .as_ref()
                    .map(|before| format!("follows {before}, which is not run"))
            };
            if not_run.is_some() && skipped_before.is_none() && !is_the_build(&command.text) {
                skipped_before = Some(place.clone());
            }
            steps.push(Step {
                place,
                text: command.text,
                not_run,
            });
        }
    }
    steps
}

/// `cargo build --release`, maybe with `--workspace` or `-p` packages.
fn is_the_build(text: &str) -> bool {
    let words: Vec<&str> = text
        .split('#')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    words.starts_with(&["cargo", "build", "--release"])
}

/// The text after the first `#` that starts a word outside quotes, trimmed.
pub fn comment(text: &str) -> Option<String> {
    let (mut single, mut double) = (false, false);
    let mut found = None;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && (i == 0 || chars[i - 1].is_whitespace()) => {
                found = Some(chars[i + 1..].iter().collect::<String>().trim().to_string());
                break;
            }
            _ => {}
        }
    }
    found
}

/// Whether a comment gives a duration (a number with a unit of time) or a need (`needs ...`).
pub fn says_why_not(comment: &str) -> bool {
    if comment.contains("needs ") || comment.starts_with("needs") {
        return true;
    }
    let words: Vec<&str> = comment
        .split(|c: char| c.is_whitespace() || ",;:()".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let unit = |w: &str| {
        [
            "s", "ms", "min", "minute", "minutes", "second", "seconds", "hour", "hours", "h",
        ]
        .contains(&w)
    };
    words.windows(2).any(|pair| {
        pair[0].starts_with(|c: char| c.is_ascii_digit())
            && pair[0]
                .chars()
                .all(|c| c.is_ascii_digit() || ".,-".contains(c))
            && unit(pair[1])
    }) || words.iter().any(|w| {
        // `4min`, `10s`.
        let digits = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        digits.len() < w.len() && w.starts_with(|c: char| c.is_ascii_digit()) && unit(digits)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_what_says_nothing_and_skips_what_says_why() {
        let page = Page {
            name: "docs/x.md".into(),
            text: "# X\n\n    cargo build --release\n    ./target/release/bot a     # prints one line\n    ./target/release/tester b  # about 4 min\n    ./target/release/bot c x.json\n\nThen:\n\n    ./target/release/bot d \"#1\"\n    git clone u  # needs network\n    bot honey --dir DIR\n".into(),
        };
        let steps = steps(&page);
        let got: Vec<(&str, Option<&str>)> = steps
            .iter()
            .map(|s| (s.place.as_str(), s.not_run.as_deref()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("docs/x.md:3", Some("the build this check follows")),
                ("docs/x.md:4", None),
                ("docs/x.md:5", Some("about 4 min")),
                ("docs/x.md:6", Some("follows docs/x.md:5, which is not run")),
                ("docs/x.md:10", None),
                ("docs/x.md:11", Some("needs network")),
            ]
        );
    }

    #[test]
    fn finds_durations_and_needs() {
        for yes in [
            "about 4 min",
            "10 s",
            "about 30 s: writes",
            "1.5 s quiet, 30 s loaded",
            "takes 2 minutes",
            "4min",
            "needs .NET",
        ] {
            assert!(says_why_not(yes), "{yes}");
        }
        for no in ["prints one line", "layout 2", "seed 1", "the s flag"] {
            assert!(!says_why_not(no), "{no}");
        }
        assert_eq!(
            comment("a 'b # c' \"#d\" # e # f").as_deref(),
            Some("e # f")
        );
        assert_eq!(comment("a#b"), None);
    }
}
