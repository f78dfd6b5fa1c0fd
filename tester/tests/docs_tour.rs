//! The docs' tour as a newcomer follows it: on every page (README.md, docs/*.md), every command
//! that the page does not mark with its duration or its need (`# about 4 min`, `# needs .NET`,
//! see `test_support::tour`) runs as shown, in page order, in one shell per page, and exits 0.
//! Each page runs in a folder of its own that stands in for the workspace root: its files linked,
//! `../shared` beside it, and this build's binaries at `./target/release/`. The marked commands
//! are not run here; `tester/src/docs_tests.rs` reads and parses every command.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use test_support::docs;
use test_support::tour::{self, Step};

const TESTER: &str = env!("CARGO_BIN_EXE_tester");

/// Longest a page's commands may take together before the page fails.
const PAGE_SECONDS: u32 = 120;

#[test]
fn the_docs_commands_run_as_shown() {
    let root = docs::root(env!("CARGO_MANIFEST_DIR"));
    let scratch = test_support::scratch_dir("docs-tour");
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in docs::pages(&root) {
        let steps = tour::steps(&page);
        let mut to_run = Vec::new();
        for step in &steps {
            match &step.not_run {
                Some(why) => eprintln!("not run  {}: {why}", step.place),
                None if never_here(&step.text) => failures.push(format!(
                    "{}: `{}` cannot run inside the tests: say why in its comment (its duration or what it needs)",
                    step.place,
                    first_line(&step.text)
                )),
                None => to_run.push(step),
            }
        }
        if to_run.is_empty() {
            continue;
        }
        let folder = scratch.join(page.name.replace(['/', '.'], "-"));
        let work = stand_in_root(&root, &folder);
        match run_page(&work, &folder.join("steps.log"), &to_run) {
            Ok(count) => ran += count,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 15, "only {ran} commands ran");
    let _ = std::fs::remove_dir_all(&scratch);
}

/// Commands that would build or test the workspace from inside its own tests.
fn never_here(text: &str) -> bool {
    matches!(
        docs::first_word(text),
        "cargo" | "./test.sh" | "./run.sh" | "bundler/ci.sh"
    ) || text.contains("bundler/ci.sh")
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// `folder/work`, standing in for the workspace root: every top-level entry linked but `target`,
/// which holds `release/bot` and `release/tester` of this build; `folder/shared` is `../shared`.
fn stand_in_root(root: &Path, folder: &Path) -> PathBuf {
    let work = folder.join("work");
    std::fs::create_dir_all(work.join("target/release")).unwrap();
    for entry in std::fs::read_dir(root).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() != "target" {
            std::os::unix::fs::symlink(entry.path(), work.join(entry.file_name())).unwrap();
        }
    }
    let shared = root.join("../shared");
    assert!(shared.is_dir(), "../shared must sit beside the checkout");
    std::os::unix::fs::symlink(shared.canonicalize().unwrap(), folder.join("shared")).unwrap();
    let tester = Path::new(TESTER);
    let bot = tester.with_file_name("bot");
    assert!(
        bot.exists(),
        "{} is missing: build it (cargo build --release) or run cargo test --workspace",
        bot.display()
    );
    for binary in [tester, bot.as_path()] {
        std::os::unix::fs::symlink(
            binary,
            work.join("target/release")
                .join(binary.file_name().unwrap()),
        )
        .unwrap();
    }
    work
}

/// Run a page's steps in order in one `bash`; the number run, or which one failed and how.
fn run_page(work: &Path, log: &Path, steps: &[&Step]) -> Result<usize, String> {
    let mut script = String::from("set -o pipefail\n");
    for (i, step) in steps.iter().enumerate() {
        script.push_str(&format!(
            "t=$(date +%s%N); printf 'start {i}\\n' >> \"$DOCS_TOUR_LOG\"\n{}\nrc=$?\n\
             printf 'end {i} %s %s\\n' \"$rc\" \"$(( ($(date +%s%N) - t) / 1000000 ))\" >> \"$DOCS_TOUR_LOG\"\n\
             [ \"$rc\" = 0 ] || exit \"$rc\"\n",
            step.text
        ));
    }
    let started = Instant::now();
    let output = Command::new("timeout")
        .args(["-k", "5", &PAGE_SECONDS.to_string(), "bash", "-c", &script])
        .env("DOCS_TOUR_LOG", log)
        .current_dir(work)
        .output()
        .expect("bash and timeout run");
    let log_text = std::fs::read_to_string(log).unwrap_or_default();
    let mut finished = 0;
    for line in log_text.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        if let ["end", i, rc, ms] = fields.as_slice() {
            let step = steps[i.parse::<usize>().unwrap()];
            eprintln!("ran      {}: exit {rc} in {ms} ms", step.place);
            if *rc == "0" {
                finished += 1;
            }
        }
    }
    if output.status.success() && finished == steps.len() {
        return Ok(finished);
    }
    let failed = steps.get(finished).map_or("?".into(), |s| s.place.clone());
    let text = steps.get(finished).map_or("", |s| s.text.as_str());
    let tail = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(8)..].join("\n")
    };
    Err(format!(
        "{failed}: `{text}` failed ({}, after {:.1} s; run from {})\nstdout:\n{}\nstderr:\n{}",
        match output.status.code() {
            Some(124) => format!("the page's commands took over {PAGE_SECONDS} s"),
            Some(code) => format!("exit {code}"),
            None => "killed".to_string(),
        },
        started.elapsed().as_secs_f64(),
        work.display(),
        tail(&output.stdout),
        tail(&output.stderr)
    ))
}
