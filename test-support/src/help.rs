//! Walks a binary's `--help` pages (every subcommand, recursively) and lists the options and
//! arguments shown without a description (a default value alone is not one).

use std::process::Command;

/// `binary [path] --help` for every subcommand path; each option or argument line without a
/// description, as `binary path: line`.
pub fn undocumented(binary: &str) -> Vec<String> {
    let mut missing = Vec::new();
    walk(binary, &mut Vec::new(), &mut missing);
    missing
}

fn walk(binary: &str, path: &mut Vec<String>, missing: &mut Vec<String>) {
    let output = Command::new(binary)
        .args(path.iter())
        .arg("--help")
        .output()
        .unwrap_or_else(|e| panic!("{binary}: {e}"));
    let page = String::from_utf8_lossy(&output.stdout).into_owned();
    let name = format!("{binary} {}", path.join(" "));
    missing.extend(
        undocumented_lines(&page)
            .into_iter()
            .map(|line| format!("{}: {line}", name.trim_end())),
    );
    for sub in subcommands(&page) {
        path.push(sub);
        walk(binary, path, missing);
        path.pop();
    }
}

/// The subcommands a help page lists (but `help`).
fn subcommands(page: &str) -> Vec<String> {
    let mut in_commands = false;
    let mut found = Vec::new();
    for line in page.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            in_commands = line == "Commands:";
            continue;
        }
        if in_commands {
            if let Some(word) = line.split_whitespace().next() {
                if line.starts_with("  ") && !line.starts_with("   ") && word != "help" {
                    found.push(word.to_string());
                }
            }
        }
    }
    found
}

/// Option and argument lines of the `Options:` / `Arguments:` sections with no description on
/// their line nor an indented description line under them.
fn undocumented_lines(page: &str) -> Vec<String> {
    let mut section = false;
    let mut pending: Option<String> = None;
    let mut missing = Vec::new();
    for line in page.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            missing.extend(pending.take());
            section = line == "Options:" || line == "Arguments:";
            continue;
        }
        if !section {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let text = line.trim();
        if (indent == 2 || indent == 6) && text.starts_with(['-', '<', '[']) {
            missing.extend(pending.take());
            if !has_description(text) {
                pending = Some(text.to_string());
            }
        } else if indent > 6 && !text.is_empty() {
            // clap's next-line layout: the description follows, indented.
            pending = None;
        }
    }
    missing.extend(pending);
    missing
}

/// Whether an option line holds words beyond its flags, value names and `[...]` notes.
fn has_description(line: &str) -> bool {
    let Some(gap) = line.find("  ") else {
        return false;
    };
    let mut rest = line[gap..].to_string();
    while let (Some(open), Some(close)) = (rest.find('['), rest.find(']')) {
        if close < open {
            break;
        }
        rest.replace_range(open..=close, "");
    }
    rest.chars().any(char::is_alphabetic)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_options_without_a_description_in_both_layouts() {
        let page = "About\n\nUsage: x [OPTIONS] <FILE>\n\nArguments:\n  <FILE>  The grid\n  <OUT>\n\nOptions:\n      --seed <SEED>  Seed [default: 1]\n      --policy <P>   [default: engine]\n      --long-one <L>\n          Explained on the next line\n      --bare\n  -h, --help  Print help\n\nCommands:\n  gen   Make one\n  help  Print this message\n";
        assert_eq!(
            undocumented_lines(page),
            vec!["<OUT>", "--policy <P>   [default: engine]", "--bare"]
        );
        assert_eq!(subcommands(page), vec!["gen"]);
    }
}
