//! The workspace's documentation as the tests read it: the pages (README.md and docs/*.md), their
//! code blocks, the commands in those blocks, sections by heading and the README's Commands table.
//!
//! A code block holds commands when it is a transcript (lines starting `$ `: those are the
//! commands, the other lines their output) or when its first line starts with a program
//! (`./target/release/bot`, `bot`, `cargo`, `scripts/...`, `printf`, `NAME=value`, ...): then
//! every line is part of a command, and a line that is indented or starts with no program
//! continues the command before it (a synopsis's second line, or its description). Other blocks (output, file contents)
//! hold no commands. A command runs on while its line ends in `\`, a quote is open or a `for`
//! loop has no `done` yet.

use std::path::{Path, PathBuf};

/// One documentation page.
#[derive(Debug, Clone)]
pub struct Page {
    /// The path from the workspace root, e.g. `docs/honey.md`.
    pub name: String,
    pub text: String,
}

/// The workspace root (the folder that holds README.md and docs/), from a crate's manifest folder.
pub fn root(manifest_dir: &str) -> PathBuf {
    let mut dir = Path::new(manifest_dir).to_path_buf();
    while !dir.join("README.md").exists() || !dir.join("docs").is_dir() {
        assert!(dir.pop(), "no README.md with docs/ above {manifest_dir}");
    }
    dir
}

/// README.md, then every docs/*.md in name order.
pub fn pages(root: &Path) -> Vec<Page> {
    let mut names = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .expect("the docs folder")
        .map(|e| {
            e.expect("a docs entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|name| Page {
            text: std::fs::read_to_string(root.join(&name))
                .unwrap_or_else(|e| panic!("{name}: {e}")),
            name,
        })
        .collect()
}

/// A code block: its lines without the block's indentation, and the page line of the first one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub line: usize,
    pub lines: Vec<String>,
}

/// The fenced and indented code blocks of a markdown text, in order.
pub fn code_blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    let mut previous_blank = true;
    while i < lines.len() {
        let line = lines[i];
        let indent = line.len() - line.trim_start().len();
        if line.trim_start().starts_with("```") {
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && !lines[end].trim_start().starts_with("```") {
                end += 1;
            }
            blocks.push(Block {
                line: start + 1,
                lines: lines[start..end]
                    .iter()
                    .map(|l| dedent(l, indent))
                    .collect(),
            });
            i = end + 1;
            previous_blank = false;
            continue;
        }
        if indent >= 4 && previous_blank && !line.trim().is_empty() {
            let start = i;
            let mut end = i;
            // Runs on through blank lines while the next text is as deep.
            while end < lines.len() {
                let l = lines[end];
                let deep = l.len() - l.trim_start().len() >= indent;
                if l.trim().is_empty() {
                    let next = lines[end..].iter().find(|l| !l.trim().is_empty());
                    if next.is_none_or(|n| n.len() - n.trim_start().len() < indent) {
                        break;
                    }
                } else if !deep {
                    break;
                }
                end += 1;
            }
            blocks.push(Block {
                line: start + 1,
                lines: lines[start..end]
                    .iter()
                    .map(|l| dedent(l, indent))
                    .collect(),
            });
            i = end;
            previous_blank = false;
            continue;
        }
        previous_blank = line.trim().is_empty();
        i += 1;
    }
    blocks
}

fn dedent(line: &str, indent: usize) -> String {
    let spaces = line.len() - line.trim_start().len();
    line[spaces.min(indent)..].to_string()
}

/// A command as a page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocCommand {
    /// The page line of its first line.
    pub line: usize,
    /// Its text without the `$ ` prompt, continuation lines included.
    pub text: String,
    /// Lines after it that start with no program (a synopsis's continuation or description), in
    /// a block without prompts.
    pub notes: Vec<String>,
    /// From a transcript (`$ ` lines).
    pub transcript: bool,
}

/// The commands of one code block (none for an output block).
pub fn commands(block: &Block) -> Vec<DocCommand> {
    let transcript = block.lines.iter().any(|l| l.starts_with("$ "));
    let starts_with_program = block
        .lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| is_program(first_word(l)));
    if !transcript && !starts_with_program {
        return Vec::new();
    }
    let mut found: Vec<DocCommand> = Vec::new();
    let mut i = 0;
    while i < block.lines.len() {
        let line = &block.lines[i];
        let text = if transcript {
            line.strip_prefix("$ ")
        } else if !line.starts_with(char::is_whitespace) && is_program(first_word(line)) {
            Some(line.as_str())
        } else {
            None
        };
        let Some(text) = text else {
            if !transcript && !line.trim().is_empty() {
                if let Some(last) = found.last_mut() {
                    last.notes.push(line.trim().to_string());
                }
            }
            i += 1;
            continue;
        };
        let mut text = text.to_string();
        let start = i;
        i += 1;
        while is_open(&text) && i < block.lines.len() {
            text.push('\n');
            text.push_str(&block.lines[i]);
            i += 1;
        }
        found.push(DocCommand {
            line: block.line + start,
            text,
            notes: Vec::new(),
            transcript,
        });
    }
    found
}

/// Whether a command goes on to the next line: a trailing `\`, an open quote, a `for` loop
/// without its `done`.
fn is_open(text: &str) -> bool {
    if text.ends_with('\\') {
        return true;
    }
    let (mut single, mut double) = (false, false);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if !single => {
                chars.next();
            }
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            _ => {}
        }
    }
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    let loop_open = words.first() == Some(&"for") && !words.contains(&"done");
    single || double || loop_open
}

/// The first word of a line.
pub fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Programs a command line may start with (anything else starts output).
const PROGRAMS: &[&str] = &[
    "bot", "tester", "cargo", "bash", "sh", "python3", "printf", "echo", "cat", "head", "tail",
    "sed", "awk", "mkdir", "cd", "ls", "rm", "cp", "diff", "git", "dotnet", "parallel", "sbatch",
    "for", "nice", "chrt", "taskset", "ulimit",
];

/// Whether a line's first word names a program (or sets a variable).
pub fn is_program(word: &str) -> bool {
    PROGRAMS.contains(&word)
        || word.starts_with("./")
        || word.starts_with("scripts/")
        || word.starts_with("/usr/bin/")
        || word.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        })
}

/// The text of the section under the first heading (any level) whose title is `title`, up to the
/// next heading of the same or a higher level.
pub fn section<'a>(text: &'a str, title: &str) -> Option<&'a str> {
    let mut start = None;
    let mut level = 0;
    let mut offset = 0;
    let mut in_fence = false;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        let heading = !in_fence && hashes > 0 && line[hashes..].starts_with(' ');
        if heading {
            if let Some(s) = start {
                if hashes <= level {
                    return Some(&text[s..offset]);
                }
            } else if line[hashes..].trim() == title {
                start = Some(offset + line.len());
                level = hashes;
            }
        }
        offset += line.len();
    }
    start.map(|s| &text[s..])
}

/// One row of a markdown table: the code spans of its first cell and the link targets of the row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub line: usize,
    pub commands: Vec<String>,
    pub links: Vec<String>,
}

/// The rows of the tables in `text` (header and rule rows left out). In code spans `\|` is `|`.
pub fn table_rows(text: &str, first_line: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let line = line.trim();
        if !line.starts_with('|') {
            continue;
        }
        let next_is_rule = lines
            .get(i + 1)
            .is_some_and(|n| n.trim().starts_with("| ---") || n.trim().starts_with("|---"));
        if next_is_rule || line.starts_with("| ---") || line.starts_with("|---") {
            continue;
        }
        let cells = split_cells(line);
        let Some(first) = cells.first() else { continue };
        rows.push(Row {
            line: first_line + i,
            commands: code_spans(first),
            links: links(line),
        });
    }
    rows
}

/// The cells of a table row, split at pipes that are not escaped.
fn split_cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cells.last_mut().expect("a cell").push('|');
                chars.next();
            }
            '|' => cells.push(String::new()),
            _ => cells.last_mut().expect("a cell").push(c),
        }
    }
    cells.retain(|c| !c.trim().is_empty());
    cells
}

/// The code spans (text between backticks) of a piece of markdown.
pub fn code_spans(text: &str) -> Vec<String> {
    text.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_string())
        .collect()
}

/// The targets of the markdown links in a piece of text: `[name](target)`.
pub fn links(text: &str) -> Vec<String> {
    text.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &text[at + 2..];
            rest.find(')').map(|end| rest[..end].to_string())
        })
        .collect()
}

/// The words of a command pattern up to its first option, placeholder or note, e.g. `tester
/// scruffle gen|score|bench --width W` gives `tester`, `scruffle`, `gen|score|bench`.
pub fn command_path(pattern: &str) -> Vec<String> {
    pattern
        .split_whitespace()
        .take_while(|w| {
            w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '|')
                && !w.starts_with('-')
        })
        .map(str::to_string)
        .collect()
}

/// Whether a command pattern names the subcommand `path` (binary first): each word of the path
/// is one of the pattern's alternatives at that place, and the pattern names no deeper
/// subcommand.
pub fn names(pattern: &[String], path: &[String]) -> bool {
    pattern.len() == path.len()
        && pattern
            .iter()
            .zip(path)
            .all(|(p, w)| p.split('|').any(|alt| alt == w))
}

/// A placeholder such as `FILE`, `N`, `K/N`, `IN.cwg`, `CMD...`, `round-R-of-N.json`: a part
/// between `-`, `_`, `/`, `.`, `,` or `=` in capitals (and digits) with a capital letter.
pub fn is_placeholder(word: &str) -> bool {
    let word = word.trim_matches(|c| "[](),".contains(c));
    let word = word.trim_end_matches("...");
    word.split(['-', '_', '/', '.', ',', '=']).any(|part| {
        part.chars().any(|c| c.is_ascii_uppercase())
            && part
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    })
}

/// The options a synopsis names: every word starting with `-` and a letter, brackets, `|`
/// alternatives and `=value` taken off (`[--layout 1|2]`, `[-d seed=N]`, `--seeds=1-20`).
pub fn option_words(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == '|' || c == '[' || c == '(' || c == '`')
        .filter_map(|w| {
            let w = w.trim_end_matches(|c| "]),.;:".contains(c));
            let w = w.split_once('=').map_or(w, |(name, _)| name);
            let body = w.trim_start_matches('-');
            let dashes = w.len() - body.len();
            let ok = (dashes == 1 || dashes == 2)
                && body.starts_with(|c: char| c.is_ascii_alphabetic())
                && body.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
            ok.then(|| w.to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fenced_and_indented_blocks_and_their_commands() {
        let text = "# T\n\nText:\n\n    cargo build --release\n    B=./target/release/bot\n    ./target/release/tester x \\\n        --bot \"$B y\"   # 2 s\n\nprints:\n\n    seat 0: score\n\n```\n$ printf 'a\nb' > f\n$ ./target/release/bot z\nout\n```\n\n- item\n\n      bot train splitter --layout L\n          [--alpha A]\n";
        let blocks = code_blocks(text);
        assert_eq!(blocks.len(), 4, "{blocks:?}");
        assert_eq!(blocks[0].line, 5);
        let first = commands(&blocks[0]);
        assert_eq!(first.len(), 3);
        assert_eq!(
            first[2].text,
            "./target/release/tester x \\\n    --bot \"$B y\"   # 2 s"
        );
        assert!(commands(&blocks[1]).is_empty());
        let transcript = commands(&blocks[2]);
        assert_eq!(transcript.len(), 2);
        assert_eq!(transcript[0].text, "printf 'a\nb' > f");
        assert_eq!(transcript[1].line, 17);
        let synopsis = commands(&blocks[3]);
        assert_eq!(synopsis[0].notes, vec!["[--alpha A]"]);
    }

    #[test]
    fn reads_sections_tables_paths_and_placeholders() {
        let text = "# P\n## Commands\n| command | what |\n| --- | --- |\n| `tester scruffle gen\\|score --width W`, `bot x` | y [s](docs/s.md#commands) |\n### Sub\nz\n## Next\n";
        let commands = section(text, "Commands").unwrap();
        assert!(commands.contains("### Sub") && !commands.contains("Next"));
        let rows = table_rows(commands, 1);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].commands[0], "tester scruffle gen|score --width W");
        assert_eq!(rows[0].links, vec!["docs/s.md#commands"]);
        let path = command_path(&rows[0].commands[0]);
        assert_eq!(path, vec!["tester", "scruffle", "gen|score"]);
        let to = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(names(&path, &to(&["tester", "scruffle", "score"])));
        assert!(!names(&path, &to(&["tester", "scruffle"])));
        for p in [
            "FILE",
            "N",
            "K/N",
            "IN.cwg",
            "CMD...",
            "[--x=S]",
            "L.txt",
            "r-*-of-N.json",
        ] {
            assert!(is_placeholder(p), "{p}");
        }
        for p in [
            "15x15_1.cwg",
            "1",
            "league1,one-fish",
            "--seed",
            "game.json",
            "value-layout1.bin",
        ] {
            assert!(!is_placeholder(p), "{p}");
        }
        assert_eq!(
            option_words("x [--layout 1|2] [-d seed=N] --seeds=1-20 -p1 CMD, -n. 3-5 --"),
            vec!["--layout", "-d", "--seeds", "-p1", "-n"]
        );
    }
}
