//! Walks a binary's `--help` pages (every subcommand, recursively): the options each page lists,
//! and the options and arguments shown without a description (a default value alone is not one).

use std::process::Command;

/// One `--help` page.
#[derive(Debug, Clone)]
pub struct Page {
    /// The subcommand path after the binary (empty for the top page).
    pub path: Vec<String>,
    pub text: String,
}

impl Page {
    /// `binary path...`, as a user types it.
    pub fn name(&self, binary: &str) -> String {
        let name = std::path::Path::new(binary)
            .file_name()
            .map_or(binary.into(), |n| n.to_string_lossy().into_owned());
        std::iter::once(name)
            .chain(self.path.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The options the page lists, each entry's flags together (see `options`).
    pub fn options(&self) -> Vec<Vec<String>> {
        options(&self.text)
    }
}

/// `binary [path] --help` for every subcommand path, the top page first.
pub fn pages(binary: &str) -> Vec<Page> {
    let mut found = Vec::new();
    walk(binary, &mut Vec::new(), &mut found);
    found
}

/// `binary [path] --help` for every subcommand path; each option or argument line without a
/// description, as `binary path: line`.
pub fn undocumented(binary: &str) -> Vec<String> {
    pages(binary)
        .iter()
        .flat_map(|page| {
            let name = format!("{binary} {}", page.path.join(" "));
            undocumented_lines(&page.text)
                .into_iter()
                .map(move |line| format!("{}: {line}", name.trim_end()))
        })
        .collect()
}

fn walk(binary: &str, path: &mut Vec<String>, found: &mut Vec<Page>) {
    let output = Command::new(binary)
        .args(path.iter())
        .arg("--help")
        .output()
        .unwrap_or_else(|e| panic!("{binary}: {e}"));
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let subcommands = subcommands(&text);
    found.push(Page {
        path: path.clone(),
        text,
    });
    for sub in subcommands {
        path.push(sub);
        walk(binary, path, found);
        path.pop();
    }
}

/// Every option a help page lists, in any section but `Commands:` (an `after_help` section in
/// the same layout counts): per entry, the flags at its head, `-o, --output <FILE>` giving `-o`
/// and `--output`. `-h`/`--help` and `-V`/`--version` are left out.
pub fn options(page: &str) -> Vec<Vec<String>> {
    let mut in_commands = false;
    let mut found: Vec<Vec<String>> = Vec::new();
    for line in page.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            in_commands = line == "Commands:";
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let text = line.trim();
        if in_commands || !(indent == 2 || indent == 6) || !text.starts_with('-') {
            continue;
        }
        let head = text.split("  ").next().unwrap_or(text);
        let flags: Vec<String> = head
            .split(", ")
            .filter_map(|entry| entry.split([' ', '=']).next())
            .map(|flag| flag.trim_end_matches("...").to_string())
            .filter(|flag| {
                flag.starts_with('-')
                    && !["-h", "--help", "-V", "--version"].contains(&flag.as_str())
            })
            .collect();
        if !flags.is_empty() && !found.contains(&flags) {
            found.push(flags);
        }
    }
    found
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
        let flags = |groups: &[&[&str]]| -> Vec<Vec<String>> {
            groups
                .iter()
                .map(|g| g.iter().map(|f| f.to_string()).collect())
                .collect()
        };
        assert_eq!(
            options(page),
            flags(&[&["--seed"], &["--policy"], &["--long-one"], &["--bare"]])
        );
        let after = "Options:\n  -o, --output <F>  Out\n\nThe other form:\n  -p1 <CMD>, -p2 <CMD>  Seats\n  -d <seed=N>           Seed\n";
        assert_eq!(
            options(after),
            flags(&[&["-o", "--output"], &["-p1", "-p2"], &["-d"]])
        );
    }
}
