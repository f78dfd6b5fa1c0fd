//! The docs' commands (README.md, docs/*.md) as a newcomer types them, checked without running
//! them: each reads as a shell line; `bot` and `tester` are called as `./target/release/...` (what
//! `cargo build --release` makes, from the workspace root), with no placeholder left, and their
//! arguments pass the binaries' own parsers, down to the bot commands given to `--bot`,
//! `--command`, `-p1`; scripts and files named exist; a timed Penguins game judges by CPU time.
//! Which of them a test also runs: `tester/tests/docs_tour.rs`.

use clap::Parser;
use std::collections::HashMap;
use std::path::Path;

use test_support::docs;
use test_support::shell::{self, Simple};
use test_support::tour;

const BUILT: &str = "./target/release/";

/// Where the folders the pages make (`mkdir`) are made for this test.
fn scratch() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("bot-docs-commands-{}", std::process::id()))
}

#[test]
fn every_command_in_the_docs_calls_the_built_binaries_and_parses() {
    let root = docs::root(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut parsed = 0;
    for page in docs::pages(&root) {
        // What a shell has before the page sets anything.
        let mut vars = HashMap::from([
            ("PWD".to_string(), root.display().to_string()),
            ("HOME".to_string(), "/home/user".to_string()),
        ]);
        for step in tour::steps(&page) {
            let line = match shell::read(&step.text, &mut vars) {
                Ok(line) => line,
                Err(e) => {
                    problems.push(format!("{}: {e}", step.place));
                    continue;
                }
            };
            for simple in &line.commands {
                let mut check = Check {
                    root: &root,
                    place: &step.place,
                    vars: &vars,
                    problems: &mut problems,
                };
                if check.command(simple) {
                    parsed += 1;
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(scratch());
    eprintln!("docs: {parsed} calls of bot and tester parsed");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(parsed > 20, "only {parsed} calls of bot and tester found");
}

/// What `cargo build --release` builds: the default members of the workspace (the root package
/// alone when none are named), and every binary the docs call is among them.
#[test]
fn cargo_build_release_builds_every_binary_the_docs_call() {
    let root = docs::root(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = list_value(&manifest, "default-members").unwrap_or_else(|| vec![".".into()]);
    let built: Vec<String> = members
        .iter()
        .flat_map(|m| binaries(&root.join(m)))
        .collect();
    for page in docs::pages(&root) {
        for step in tour::steps(&page) {
            for (at, _) in step.text.match_indices(BUILT) {
                let name: String = step.text[at + BUILT.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                    .collect();
                assert!(
                    built.contains(&name),
                    "{}: calls {BUILT}{name}, which `cargo build --release` does not build (it builds {built:?})",
                    step.place
                );
            }
        }
    }
    assert!(built.contains(&"bot".to_string()) && built.contains(&"tester".to_string()));
}

#[test]
fn the_readme_names_the_rust_version_cargo_toml_needs() {
    let root = docs::root(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let version = string_value(&manifest, "rust-version").expect("rust-version in Cargo.toml");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let setup = docs::section(&readme, "Set-up and the two commands").expect("the set-up section");
    assert!(
        setup.contains(&format!("Rust {version}")),
        "README's set-up does not say that Rust {version} is needed"
    );
}

struct Check<'a> {
    root: &'a Path,
    place: &'a str,
    vars: &'a HashMap<String, String>,
    problems: &'a mut Vec<String>,
}

impl Check<'_> {
    /// Check one simple command; true when it called `bot` or `tester`.
    fn command(&mut self, simple: &Simple) -> bool {
        let args = simple.args();
        let program = args[0].as_str();
        let shown = args.join(" ");
        if program == "bot" || program == "tester" {
            self.problem(format!(
                "`{shown}` calls {program} from PATH, where a fresh clone has none: write {BUILT}{program}"
            ));
            return false;
        }
        if let Some(name) = program.strip_prefix(BUILT) {
            if let Some(word) = simple
                .words
                .iter()
                .find(|w| !w.quoted && docs::is_placeholder(&w.text))
            {
                self.problem(format!(
                    "`{shown}`: {} is a placeholder, not something to run",
                    word.text
                ));
            }
            return match name {
                "bot" => {
                    self.parse_bot(&args);
                    true
                }
                "tester" => {
                    self.parse_tester(&args);
                    true
                }
                other => {
                    self.problem(format!("`{shown}`: no binary {other} in this workspace"));
                    false
                }
            };
        }
        if program.starts_with("./") || program.starts_with("scripts/") {
            self.executable(program);
        } else if matches!(program, "bash" | "sh" | "python3") {
            if let Some(script) = args.iter().skip(1).find(|a| !a.starts_with('-')) {
                if !self.root.join(script).is_file() {
                    self.problem(format!("`{shown}`: no file {script}"));
                }
            }
        } else if program == "cargo" {
            self.cargo_packages(&args);
        } else if program == "mkdir" {
            // The folders a page makes, made in a scratch folder for the parsers' checks.
            for folder in args.iter().skip(1).filter(|a| !a.starts_with('-')) {
                std::fs::create_dir_all(scratch().join(folder)).unwrap();
            }
        }
        false
    }

    fn problem(&mut self, what: String) {
        self.problems.push(format!("{}: {what}", self.place));
    }

    fn executable(&mut self, path: &str) {
        use std::os::unix::fs::PermissionsExt;
        let file = self.root.join(path);
        let runnable = std::fs::metadata(&file)
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
        if !runnable {
            self.problem(format!("{path} is not an executable file of the workspace"));
        }
    }

    fn cargo_packages(&mut self, args: &[String]) {
        for pair in args.windows(2) {
            if pair[0] == "-p" || pair[0] == "--package" {
                let known = std::fs::read_dir(self.root).unwrap().any(|e| {
                    let dir = e.unwrap().path();
                    std::fs::read_to_string(dir.join("Cargo.toml"))
                        .ok()
                        .and_then(|m| string_value(&m, "name"))
                        .is_some_and(|n| n == pair[1])
                }) || string_value(
                    &std::fs::read_to_string(self.root.join("Cargo.toml")).unwrap(),
                    "name",
                )
                .is_some_and(|n| n == pair[1]);
                if !known {
                    self.problem(format!("cargo -p {}: no such package here", pair[1]));
                }
            }
        }
    }

    /// `args` as the workspace root sees them: a relative path into one of its folders
    /// (`data/splitter/v.bin`), or into one the page made (`mkdir`), made absolute, since the
    /// parsers check output folders and this test runs elsewhere.
    fn as_from_root(&self, args: &[String]) -> Vec<String> {
        args.iter()
            .map(|arg| {
                let path = Path::new(arg);
                let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
                let base = match parent {
                    Some(folder) if path.is_relative() => [self.root.to_path_buf(), scratch()]
                        .into_iter()
                        .find(|base| base.join(folder).is_dir()),
                    _ => None,
                };
                base.map_or_else(|| arg.clone(), |b| b.join(path).display().to_string())
            })
            .collect()
    }

    fn parse_bot(&mut self, args: &[String]) {
        if let Err(e) = bot::cli::Cli::try_parse_from(self.as_from_root(args)) {
            self.clap_error(args, e);
        }
    }

    fn parse_tester(&mut self, args: &[String]) {
        match crate::Cli::try_parse_from(self.as_from_root(args)) {
            Err(e) => self.clap_error(args, e),
            Ok(_) => {
                for bot in embedded_commands(args) {
                    self.embedded(&bot);
                }
                self.timed_penguins_judged_by_cpu_time(args);
            }
        }
    }

    fn clap_error(&mut self, args: &[String], e: clap::Error) {
        use clap::error::ErrorKind;
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            return;
        }
        let first = e.to_string().lines().next().unwrap_or("").to_string();
        self.problem(format!("`{}`: {first}", args.join(" ")));
    }

    /// A bot command given to the tester: parsed too when it calls the built bot.
    fn embedded(&mut self, command: &str) {
        let command = command.replace("{seed}", "1");
        let mut vars = self.vars.clone();
        match shell::read(&command, &mut vars) {
            Err(e) => self.problem(format!("bot command {command:?}: {e}")),
            Ok(line) => {
                if let Some(first) = line.commands.first() {
                    self.command(first);
                }
            }
        }
    }

    /// On a busy machine a timed engine loses on the wall clock: every arena or referee run the
    /// docs show with a clocked `bot penguins` judges by CPU time.
    fn timed_penguins_judged_by_cpu_time(&mut self, args: &[String]) {
        let own_form = matches!(args.get(1).map(String::as_str), Some("arena" | "penguins"))
            && args.iter().any(|a| a == "--bot");
        if !own_form || args.iter().any(|a| a == "--cpu-time") {
            return;
        }
        let timed = embedded_commands(args).iter().any(|c| {
            let words: Vec<&str> = c.split_whitespace().collect();
            let penguins = words.len() >= 2
                && (words[0] == "bot" || words[0].ends_with("/bot") || words[0] == "$B")
                && words[1] == "penguins"
                && words.get(2) != Some(&"perft");
            let policy = words
                .windows(2)
                .find(|p| p[0] == "--policy")
                .map_or("engine", |p| p[1]);
            let clocked = !matches!(policy, "greedy" | "random")
                && !policy.contains("playouts=")
                && !policy.contains("nodes=");
            penguins && clocked
        });
        if timed {
            self.problem(format!(
                "`{}` plays a timed bot without --cpu-time: on a busy machine it loses on time",
                args.join(" ")
            ));
        }
    }
}

/// The bot commands a tester line carries: `--bot [NAME=]CMD`, `-p1`..`-p4 CMD`, and the words
/// after `--command` (up to `--vs`) and after `--vs`.
fn embedded_commands(args: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    let arena = args.get(1).is_some_and(|a| a == "arena");
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--bot" if i + 1 < args.len() => {
                let value = &args[i + 1];
                let command = if arena {
                    value.split_once('=').map_or(value.as_str(), |(_, c)| c)
                } else {
                    value
                };
                found.push(command.to_string());
                i += 1;
            }
            "-p1" | "-p2" | "-p3" | "-p4" if i + 1 < args.len() => {
                found.push(args[i + 1].clone());
                i += 1;
            }
            "--command" | "--vs" => {
                let end = args[i + 1..]
                    .iter()
                    .position(|a| a == "--vs")
                    .map_or(args.len(), |p| i + 1 + p);
                found.push(args[i + 1..end].join(" "));
                i = end - 1;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// `key = "value"` in a manifest.
fn string_value(manifest: &str, key: &str) -> Option<String> {
    manifest.lines().find_map(|line| {
        let (k, v) = line.split_once('=')?;
        (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
    })
}

/// `key = ["a", "b"]` in a manifest.
fn list_value(manifest: &str, key: &str) -> Option<Vec<String>> {
    let value = string_value(manifest, key)?;
    let inner = value.trim().strip_prefix('[')?.strip_suffix(']')?;
    Some(
        inner
            .split(',')
            .map(|s| s.trim().trim_matches('"').to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

/// The binaries of the package in `dir`: its `[[bin]]` names, or its own name with a
/// `src/main.rs`.
fn binaries(dir: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
    let mut names = Vec::new();
    let mut in_bin = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin {
            if let Some(name) = string_value(line, "name") {
                names.push(name);
            }
        }
    }
    if names.is_empty() && dir.join("src/main.rs").exists() {
        names.extend(string_value(&manifest, "name"));
    }
    names
}

#[test]
fn finds_the_bot_commands_a_tester_line_carries() {
    let args: Vec<String> = ["t", "arena", "--bot", "a=x y", "--bot", "b", "--games", "2"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(embedded_commands(&args), vec!["x y", "b"]);
    let args: Vec<String> = ["t", "splitter", "--command", "b", "s", "--vs", "c", "d"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(embedded_commands(&args), vec!["b s", "c d"]);
    assert_eq!(
        list_value(
            "[workspace]\ndefault-members = [\".\", \"tester\"]\n",
            "default-members"
        ),
        Some(vec![".".to_string(), "tester".to_string()])
    );
}

/// The perft figures of record name a pinned case of `data/penguins/perft.txt`, the rules it was
/// counted under and its count: the command shown must give that count (the pinned counts are
/// checked by the rules' own tests).
#[test]
fn the_perft_figures_state_the_rules_of_their_pinned_count() {
    let root = docs::root(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/penguins.md")).unwrap();
    let cases = std::fs::read_to_string(root.join("data/penguins/perft.txt")).unwrap();
    let rows: Vec<&str> = page.lines().filter(|l| l.starts_with("| perft")).collect();
    assert!(!rows.is_empty(), "no perft figure in docs/penguins.md");
    for row in rows {
        let spans = docs::code_spans(row);
        let case = &spans[0];
        let command = spans
            .iter()
            .find(|s| s.contains("perft --depth"))
            .unwrap_or_else(|| panic!("no perft command in {row}"));
        let words: Vec<&str> = command.split_whitespace().collect();
        let value_of = |flag: &str| {
            words
                .windows(2)
                .find(|w| w[0] == flag)
                .map(|w| w[1].to_string())
        };
        let depth = value_of("--depth").expect("--depth");
        let rules = value_of("--rules").unwrap_or_else(|| "league2".into());
        let count: String = row
            .split('|')
            .nth(2)
            .and_then(|cell| cell.split_whitespace().next())
            .unwrap_or("")
            .replace(',', "");
        let block: Vec<&str> = cases
            .split("\ncase ")
            .find(|c| c.lines().next() == Some(case.as_str()))
            .unwrap_or_else(|| panic!("no case {case} in data/penguins/perft.txt"))
            .lines()
            .collect();
        assert_eq!(
            block.iter().find_map(|l| l.strip_prefix("rules ")),
            Some(rules.as_str()),
            "{row}: the command's rules are not those the case was counted under"
        );
        assert!(
            block.contains(&format!("perft {depth} {count}").as_str()),
            "{row}: {case} does not pin perft {depth} = {count}"
        );
    }
}
