//! A binary's options against its documentation, both ways. The README's Commands table has a
//! row for every subcommand, linking to the docs page that lists its options; every option of
//! the subcommand's `--help` appears in the "Commands" section of that page; and every option a
//! synopsis shows (the README's rows, a `## Commands` table, a code block line such as
//! `bot honey --dir DIR [--top N]`) is one that `--help` lists.

use std::collections::BTreeSet;
use std::path::Path;

use crate::docs::{self, Page};
use crate::help;

/// Every problem found for `binary` (its name as the docs write it is its file name).
pub fn problems(binary: &str, root: &Path) -> Vec<String> {
    let pages = docs::pages(root);
    let help_pages = help::pages(binary);
    let name = help_pages[0].name(binary);
    let readme = &pages[0];
    let Some(table) = docs::section(&readme.text, "Commands") else {
        return vec!["README.md has no Commands section".into()];
    };
    let rows = docs::table_rows(table, line_of(&readme.text, table));
    let mut problems = Vec::new();
    for page in &help_pages {
        let options = page.options();
        if options.is_empty() {
            continue;
        }
        let path: Vec<String> = std::iter::once(name.clone())
            .chain(page.path.iter().cloned())
            .collect();
        let shown = path.join(" ");
        let named: Vec<&docs::Row> = rows
            .iter()
            .filter(|r| {
                r.commands
                    .iter()
                    .any(|c| docs::names(&docs::command_path(c), &path))
            })
            .collect();
        if named.is_empty() {
            problems.push(format!(
                "README.md: the Commands table has no row for `{shown}`"
            ));
            continue;
        }
        let mut listed = BTreeSet::new();
        for row in &named {
            let targets: Vec<&String> = row
                .links
                .iter()
                .filter(|l| l.starts_with("docs/"))
                .collect();
            if targets.is_empty() {
                problems.push(format!(
                    "README.md:{}: the row for `{shown}` links to no docs page",
                    row.line
                ));
            }
            for target in targets {
                let file = target.split('#').next().unwrap_or(target);
                match pages.iter().find(|p| p.name == file) {
                    None => problems.push(format!(
                        "README.md:{}: the row for `{shown}` links to {target}, which is no page",
                        row.line
                    )),
                    Some(linked) => match docs::section(&linked.text, "Commands") {
                        None => problems.push(format!("{file} has no Commands section")),
                        Some(section) => listed.extend(docs::option_words(section)),
                    },
                }
            }
        }
        // clap's `-o, --output` is one option under two names: either will do. Other entries
        // with several flags (`-p1 <CMD>, -p2 <CMD>`) are several options.
        for entry in options {
            let aliases = matches!(entry.as_slice(), [short, long]
                if short.len() == 2 && long.starts_with("--"));
            let unlisted = if aliases {
                entry.iter().all(|f| !listed.contains(f))
            } else {
                entry.iter().any(|f| !listed.contains(f))
            };
            if unlisted {
                problems.push(format!(
                    "`{shown} {}` is in --help but not in the Commands section of the page the README links for it",
                    entry.join(", ")
                ));
            }
        }
    }
    problems.extend(unknown_documented_options(
        &name,
        &help_pages,
        &pages,
        &rows,
    ));
    problems
}

/// Options that a synopsis of `name` shows and `--help` does not list.
fn unknown_documented_options(
    name: &str,
    help_pages: &[help::Page],
    pages: &[Page],
    readme_rows: &[docs::Row],
) -> Vec<String> {
    let mut synopses: Vec<(String, String)> = Vec::new();
    for row in readme_rows {
        for command in &row.commands {
            synopses.push((format!("README.md:{}", row.line), command.clone()));
        }
    }
    for page in pages {
        if let Some(section) = docs::section(&page.text, "Commands") {
            for row in docs::table_rows(section, line_of(&page.text, section)) {
                for command in row.commands {
                    synopses.push((format!("{}:{}", page.name, row.line), command));
                }
            }
        }
        for block in docs::code_blocks(&page.text) {
            for command in docs::commands(&block) {
                if is_synopsis(&command.text) {
                    let text = std::iter::once(command.text.as_str())
                        .chain(command.notes.iter().map(String::as_str))
                        .collect::<Vec<_>>()
                        .join(" ");
                    synopses.push((format!("{}:{}", page.name, command.line), text));
                }
            }
        }
    }
    let mut problems = Vec::new();
    for (place, text) in synopses {
        let path = docs::command_path(&text);
        if path.first().map(String::as_str) != Some(name) {
            continue;
        }
        let named: Vec<&help::Page> = help_pages
            .iter()
            .filter(|p| {
                let full: Vec<String> = std::iter::once(name.to_string())
                    .chain(p.path.iter().cloned())
                    .collect();
                docs::names(&path, &full)
            })
            .collect();
        if named.is_empty() {
            problems.push(format!("{place}: `{}` names no subcommand", path.join(" ")));
            continue;
        }
        let known: BTreeSet<String> = named.iter().flat_map(|p| p.options()).flatten().collect();
        for option in docs::option_words(&own_part(&text)) {
            if !known.contains(&option) && option != "-h" && option != "--help" {
                problems.push(format!(
                    "{place}: `{} {option}` is documented but not in --help",
                    path.join(" ")
                ));
            }
        }
    }
    problems
}

/// A line of a code block that shows a command's form rather than a command to run: `bot` or
/// `tester` with placeholders, brackets or alternatives; another program (not the built
/// `./target/release/` binaries, which are always to run) with a placeholder (`[OPTIONS]`, `-n N`).
pub fn is_synopsis(text: &str) -> bool {
    // Words outside quotes and comments; of `NAME=value`, the value.
    let words = || {
        text.split_whitespace()
            .take_while(|w| !w.starts_with('#'))
            .map(|w| match w.split_once('=') {
                Some((name, value)) if docs::is_program(&format!("{name}=")) => value,
                _ => w,
            })
            .filter(|w| !w.starts_with(['\'', '"']))
    };
    match docs::first_word(text) {
        "bot" | "tester" => {
            text.contains('[')
                || text.contains('|')
                || text.contains("...")
                || words().any(docs::is_placeholder)
        }
        first if first.starts_with("./target/release/") => false,
        _ => words().any(docs::is_placeholder),
    }
}

/// The part of a synopsis that holds the command's own options: up to a `# comment`, without
/// quoted text and without the words after `--command` or `--vs` (a bot command's own options).
fn own_part(text: &str) -> String {
    let text = text.split(" # ").next().unwrap_or(text);
    let text = ["--command ", "--vs "]
        .iter()
        .filter_map(|flag| text.find(flag).map(|at| at + flag.len()))
        .min()
        .map_or(text, |end| &text[..end]);
    text.split('"').step_by(2).collect::<Vec<_>>().join("\"\"")
}

/// The page line on which `part` (a slice of `text`) starts.
fn line_of(text: &str, part: &str) -> usize {
    let offset = part.as_ptr() as usize - text.as_ptr() as usize;
    text[..offset].matches('\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_synopses_from_commands() {
        assert!(is_synopsis("bot honey --dir DIR --id ID"));
        assert!(is_synopsis("tester splitter merge FILE... [--json OUT]"));
        assert!(is_synopsis("bot splitter [--policy search|greedy]"));
        assert!(!is_synopsis("bot honey --dir gen --id honey7"));
        assert!(!is_synopsis("./target/release/bot honey --dir DIR"));
        assert!(!is_synopsis("bot bench penguins   # FAST"));
        assert!(is_synopsis("cargo run -p bundler -- [OPTIONS]"));
        assert!(is_synopsis("scripts/s.sh -n N -o DIR"));
        assert!(!is_synopsis("printf 'H 2' > x; scripts/s.sh -n 4"));
        assert!(!is_synopsis("B=./target/release/bot"));
        assert_eq!(
            own_part("tester splitter --games N --command CMD... --vs X --game-ms 1 # c"),
            "tester splitter --games N --command "
        );
        assert_eq!(
            own_part("tester x --bot \"bot y --z\" --w"),
            "tester x --bot \"\" --w"
        );
    }
}
