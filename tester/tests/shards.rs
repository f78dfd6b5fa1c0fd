//! Sharded runs end to end, for `tester arena`, `tester splitter` and `tester scruffle bench`: N
//! shards (through scripts/parallel-shards.sh when GNU parallel is installed, else one after the
//! other) merge to the unsharded run's report; the merge of a run's own results file prints that
//! run's report byte for byte (measured times included); an SPRT played round by round in shards
//! reaches the live run's verdict after the same games; the Slurm scripts run against a stand-in
//! `sbatch`; a missing or doubled shard, another plan or another build is refused in one line.
//!
//! The bots repeat their games: greedy, and random with a fixed seed. The Scruffle solver gets a
//! budget shorter than reading a case, which leaves it its fixed minimum of work (the first
//! opening's first 1024 steps, the naive floor, the insertion pass, no LNS), so its rows repeat.
//! Only measured times (answer times, "Time taken", the solver's seconds) differ between two runs;
//! the comparisons with separate runs leave exactly those out.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TESTER: &str = env!("CARGO_BIN_EXE_tester");
const SCRIPTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts");

/// The `bot` binary built beside the tester (`cargo test --workspace` builds both).
fn bot() -> String {
    let path = Path::new(TESTER).with_file_name("bot");
    assert!(
        path.exists(),
        "{} is missing: build it (cargo build --release -p bot) or run cargo test --workspace",
        path.display()
    );
    path.display().to_string()
}

fn fresh_dir(name: &str) -> PathBuf {
    test_support::scratch_dir(&format!("shards-{name}"))
}

fn gnu_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("GNU parallel"))
}

/// The output as text, without the busy-machine warning (a live run may print it, a merge never
/// does: it times nothing).
fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| {
            !l.starts_with("warning: load average") && !l.contains("a time budget buys less")
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

fn tester(args: &[String]) -> Output {
    Command::new(TESTER).args(args).output().unwrap()
}

fn ok(output: Output, what: &str) -> Output {
    assert!(
        output.status.success(),
        "{what}: {:?}\n{}",
        output.status,
        text(&output.stderr)
    );
    output
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// The words after `tester` that name the tool (`arena`, `splitter`, `scruffle bench`).
fn tool_words(args: &[String]) -> usize {
    if args[0] == "scruffle" {
        2
    } else {
        1
    }
}

/// `args` with `options` right after the tool's words (before Splitter's --command, which takes
/// every word after it).
fn with(args: &[String], options: &[&str]) -> Vec<String> {
    let (tool, rest) = args.split_at(tool_words(args));
    [tool, &strings(options), rest].concat()
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

fn shard_file(dir: &Path, name: &str, k: usize, n: usize) -> PathBuf {
    dir.join(format!("{name}-{k}-of-{n}.json"))
}

/// Play `args` (a tester command line) as `n` shards into `dir` (files NAME-K-of-N.json): with
/// GNU parallel through scripts/parallel-shards.sh when it is installed, else here.
fn play_shards(dir: &Path, name: &str, n: usize, args: &[String]) {
    if !gnu_parallel() {
        return play_shards_here(dir, name, n, args);
    }
    let output = Command::new(format!("{SCRIPTS}/parallel-shards.sh"))
        .env("TESTER", TESTER)
        .args([
            "-n",
            &n.to_string(),
            "-j",
            "2",
            "--no-merge",
            "--name",
            name,
            "-o",
        ])
        .arg(dir)
        .arg("--")
        .args(args)
        .output()
        .unwrap();
    ok(output, "parallel-shards.sh");
}

/// The same, one shard after the other, here.
fn play_shards_here(dir: &Path, name: &str, n: usize, args: &[String]) {
    for k in 1..=n {
        let file = path(&shard_file(dir, name, k, n));
        let line = with(args, &["--shard", &format!("{k}/{n}"), "--json", &file]);
        ok(tester(&line), "a shard");
    }
}

/// `tester TOOL merge FILES...`.
fn merge(tool: &[&str], files: &[PathBuf]) -> Output {
    Command::new(TESTER)
        .args(tool)
        .arg("merge")
        .args(files)
        .output()
        .unwrap()
}

fn shard_files(dir: &Path, name: &str, n: usize) -> Vec<PathBuf> {
    (1..=n).map(|k| shard_file(dir, name, k, n)).collect()
}

/// Drop what a clock measured from an arena report: the bot tables' last column (slowest
/// answer), the timing tables' figures past the turn count, the total's seconds.
fn arena_without_times(report: &str) -> Vec<String> {
    let mut table = "";
    report
        .lines()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            if line.starts_with("bot ") {
                table = "bots";
            } else if line.starts_with("turn times") {
                table = "timing";
            } else if line.is_empty() || line.starts_with("  ") || line.starts_with("==") {
                table = "";
            }
            let keep = match (table, words.first()) {
                (_, Some(&"total:")) => 3,
                ("bots", _) if !line.starts_with("bot ") => words.len() - 1,
                ("timing", _) if !line.starts_with("turn times") => 2,
                _ => words.len(),
            };
            words[..keep].join(" ")
        })
        .collect()
}

/// The same for the Splitter: "Time taken" lines, and the move and game times of the mean lines.
fn splitter_without_times(report: &str) -> Vec<String> {
    report
        .lines()
        .map(|line| {
            if line.starts_with("Time taken") {
                return "Time taken".to_string();
            }
            match (line.split_once("; move time"), line.rsplit_once(" over ")) {
                (Some((head, _)), Some((_, moves))) => {
                    let moves = moves.split_once("; game time").map_or(moves, |(m, _)| m);
                    format!("{head}; over {moves}")
                }
                _ => line.to_string(),
            }
        })
        .collect()
}

/// The same for the Scruffle bench: the solver's seconds in the over-budget notes and in the
/// rows' last column.
fn scruffle_without_times(report: &str) -> Vec<String> {
    report
        .lines()
        .map(|line| match line.split_once(": solver took") {
            Some((head, _)) => format!("{head}: solver took"),
            None if line.starts_with("| ") && !line.starts_with("| seed") => {
                let cells: Vec<&str> = line.trim_end_matches(" |").split(" | ").collect();
                cells[..cells.len() - 1].join(" | ") + " | (seconds) |"
            }
            None => line.to_string(),
        })
        .collect()
}

/// A merge that must fail: its one-line error, checked to start as expected.
fn refused(output: Output, starts: &str) -> String {
    assert!(
        !output.status.success(),
        "accepted: {}",
        text(&output.stdout)
    );
    let stderr = text(&output.stderr);
    let errors: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("note:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].starts_with(starts),
        "{}\nexpected: {starts}",
        errors[0]
    );
    errors[0].to_string()
}

/// A copy of results file `from` with `edit` applied to its JSON.
fn edited(from: &Path, to: &Path, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(from).unwrap()).unwrap();
    edit(&mut value);
    std::fs::write(to, value.to_string()).unwrap();
    to.to_path_buf()
}

/// The refusals every tool shares, on the files of one sharded run (`n` >= 3) and a shard of
/// another plan: a missing shard, a doubled one, another plan, another build.
fn refuses_what_is_not_one_plan(dir: &Path, tool: &[&str], files: &[PathBuf], other: &Path) {
    let n = files.len();
    let what = format!("error: tester {} merge: ", tool.join(" "));
    refused(
        merge(tool, &files[..n - 1]),
        &format!("{what}shard {n}/{n} is missing: no file holds "),
    );
    let doubled = [files, &files[1..2]].concat();
    refused(
        merge(tool, &doubled),
        &format!(
            "{what}{}: shard 2/{n} is given twice (also {})",
            files[1].display(),
            files[1].display()
        ),
    );
    let mixed = [&files[..n - 1], &[other.to_path_buf()]].concat();
    refused(
        merge(tool, &mixed),
        &format!(
            "{what}{}: another configuration than {}: ",
            other.display(),
            files[0].display()
        ),
    );
    let rebuilt = edited(&files[n - 1], &dir.join("rebuilt.json"), |v| {
        v["run"]["version"] = "0.0.1 (commit 0123456789ab)".into()
    });
    let mixed = [&files[..n - 1], std::slice::from_ref(&rebuilt)].concat();
    refused(
        merge(tool, &mixed),
        &format!(
            "{what}{}: written by \"0.0.1 (commit 0123456789ab)\", but {} by ",
            rebuilt.display(),
            files[0].display()
        ),
    );
}

fn arena_args(extra: &[&str]) -> Vec<String> {
    let bot = bot();
    let mut args = strings(&[
        "arena",
        "--quiet",
        "--workers",
        "1",
        // Limits no busy machine reaches, so no game is lost on time and every game repeats.
        "--first-ms",
        "10000",
        "--turn-ms",
        "5000",
    ]);
    for spec in [
        format!("greedy={bot} penguins --policy greedy"),
        format!("random={bot} penguins --policy random --seed {{seed}}"),
        format!("random2={bot} penguins --policy random --seed 7{{seed}}"),
    ] {
        args.extend(["--bot".to_string(), spec]);
    }
    args.extend(strings(extra));
    args
}

#[test]
fn arena_shards_merge_to_the_unsharded_tables_and_ratings() {
    let dir = fresh_dir("arena");
    let args = arena_args(&["--players", "2,3", "--games", "6", "--seed", "40"]);
    let whole_json = dir.join("whole.json");
    let whole = ok(
        tester(&with(&args, &["--json", &path(&whole_json)])),
        "the unsharded run",
    );
    let whole_report = text(&whole.stdout);
    // The run's own results file merges to its report, byte for byte.
    let again = ok(
        merge(&["arena"], std::slice::from_ref(&whole_json)),
        "merge of the run",
    );
    assert_eq!(text(&again.stdout), whole_report);

    play_shards(&dir, "shard", 3, &args);
    let files = shard_files(&dir, "shard", 3);
    let merged_json = dir.join("merged.json");
    let mut reversed = files.clone();
    reversed.reverse();
    let merged = Command::new(TESTER)
        .args(["arena", "merge", "--json"])
        .arg(&merged_json)
        .args(&reversed)
        .output()
        .unwrap();
    let merged = ok(merged, "merge of 3 shards");
    assert_eq!(
        arena_without_times(&text(&merged.stdout)),
        arena_without_times(&whole_report)
    );
    assert!(
        whole_report.contains("== 3 players: 6 games"),
        "{whole_report}"
    );
    // Full precision in the JSON: the same games, W/D/L and ratings.
    let read = |p: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let (whole_v, merged_v) = (read(&whole_json), read(&merged_json));
    for key in ["config", "sprt"] {
        assert_eq!(whole_v[key], merged_v[key], "{key}");
    }
    let results = |v: &serde_json::Value| -> Vec<String> {
        let games = v["games"].as_array().unwrap().iter();
        let fields = [
            "seed",
            "rotation",
            "seats",
            "commands",
            "final_scores",
            "ranks",
            "failures",
            "turns",
        ];
        games
            .map(|g| fields.map(|f| g[f].to_string()).join(" "))
            .collect()
    };
    assert_eq!(results(&whole_v), results(&merged_v));
    assert_eq!(results(&whole_v).len(), 12);
    for (a, b) in whole_v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .zip(merged_v["sections"].as_array().unwrap())
    {
        assert_eq!(a["pairs"], b["pairs"]);
        for (x, y) in a["bots"]
            .as_array()
            .unwrap()
            .iter()
            .zip(b["bots"].as_array().unwrap())
        {
            for f in [
                "seats",
                "firsts",
                "wins",
                "draws",
                "losses",
                "mean_score",
                "rating",
                "uncertainty",
                "ordinal",
            ] {
                assert_eq!(x[f], y[f], "{f}");
            }
        }
    }

    let other_args = arena_args(&["--players", "2,3", "--games", "6", "--seed", "41"]);
    play_shards_here(&dir, "other", 3, &other_args);
    let other = shard_file(&dir, "other", 3, 3);
    refuses_what_is_not_one_plan(&dir, &["arena"], &files, &other);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_sprt_played_in_rounds_of_shards_reaches_the_live_verdict() {
    let dir = fresh_dir("sprt");
    let args = arena_args(&[
        "--sprt",
        "greedy,random",
        "--round-games",
        "4",
        "--max-games",
        "40",
        "--seed",
        "11",
    ]);
    let live = ok(tester(&args), "the live SPRT");
    let live_report = text(&live.stdout);
    assert!(live_report.contains("-> H1 accepted"), "{live_report}");
    let rounds_to_verdict = live_report
        .lines()
        .find_map(|l| l.strip_prefix("== 2 players: "))
        .and_then(|l| l.split(' ').next())
        .map(|games| games.parse::<usize>().unwrap() / 4)
        .unwrap();
    let round_args = |round: usize| with(&args, &["--round", &round.to_string()]);
    let files_until = |last: usize| -> Vec<PathBuf> {
        (1..=last)
            .flat_map(|r| shard_files(&dir, &format!("round-{r}"), 2))
            .collect()
    };
    // The rounds, each as 2 shards: through scripts/sprt-rounds.sh (which merges after each
    // round and stops at the verdict) when GNU parallel is installed, else here.
    let mut round = 1;
    if gnu_parallel() {
        let output = Command::new(format!("{SCRIPTS}/sprt-rounds.sh"))
            .env("TESTER", TESTER)
            .args(["-n", "2", "-j", "2", "-o"])
            .arg(&dir)
            .arg("--")
            .args(&args)
            .output()
            .unwrap();
        let log = text(&ok(output, "sprt-rounds.sh").stdout);
        assert!(log.contains("-> H1 accepted"), "{log}");
        while shard_file(&dir, &format!("round-{}", round + 1), 1, 2).exists() {
            round += 1;
        }
    } else {
        loop {
            play_shards(&dir, &format!("round-{round}"), 2, &round_args(round));
            if merge(&["arena"], &files_until(round)).status.code() != Some(3) {
                break;
            }
            round += 1;
            assert!(round <= rounds_to_verdict);
        }
    }
    assert_eq!(round, rounds_to_verdict);
    // After each earlier round the merge asks for the next one (exit status 3).
    for r in 1..round {
        let merged = merge(&["arena"], &files_until(r));
        let report = text(&merged.stdout);
        assert_eq!(merged.status.code(), Some(3), "{report}");
        let next = format!("no verdict yet: play round {}", r + 1);
        assert!(report.contains(&next), "{report}");
    }
    let files = files_until(round);
    let merged = ok(merge(&["arena"], &files), "the merge with the verdict");
    assert_eq!(
        arena_without_times(&text(&merged.stdout)),
        arena_without_times(&live_report)
    );
    // A round played past the verdict changes nothing: it is left out, as the live run stops.
    play_shards_here(&dir, "late", 1, &round_args(round + 1));
    let with_late = [files.clone(), shard_files(&dir, "late", 1)].concat();
    let merged_late = ok(merge(&["arena"], &with_late), "merge with a late round");
    assert_eq!(text(&merged_late.stdout), text(&merged.stdout));
    assert!(text(&merged_late.stderr).contains("left out"));
    // A gap in the rounds is a missing shard.
    let gap = [&files[..2], &files[4..]].concat();
    refused(
        merge(&["arena"], &gap),
        "error: tester arena merge: no file holds plan game 4 (2 players, seed 13, rotation 0 of round 2): a shard is missing",
    );
    // SPRT shards name their round.
    let x = path(&dir.join("x.json"));
    let output = tester(&with(&args, &["--shard", "1/2", "--json", &x]));
    refused(
        output,
        "error: tester arena: --shard with --sprt needs --round R",
    );
    let _ = std::fs::remove_dir_all(dir);
}

fn splitter_args(seed: &str) -> Vec<String> {
    let bot = bot();
    let mut args = strings(&[
        "splitter", "--games", "5", "--seed", seed, "--layout", "both", "--silent",
    ]);
    args.extend([
        "--command".to_string(),
        format!("{bot} splitter --policy greedy"),
    ]);
    args.extend([
        "--vs".to_string(),
        format!("{bot} splitter --policy random --seed 5"),
    ]);
    args
}

#[test]
fn splitter_shards_merge_to_the_unsharded_totals_means_and_paired_difference() {
    let dir = fresh_dir("splitter");
    let args = splitter_args("shards");
    let whole = ok(tester(&args), "the unsharded session");
    let (whole_out, whole_err) = (text(&whole.stdout), text(&whole.stderr));
    assert!(whole_err.contains("paired difference"), "{whole_err}");
    // Shard 1/1 is the whole session, and its file merges to its report byte for byte.
    let one = path(&dir.join("one-again.json"));
    let whole_again = ok(
        tester(&with(&args, &["--shard", "1/1", "--json", &one])),
        "shard 1/1",
    );
    let again = ok(
        merge(&["splitter"], &[dir.join("one-again.json")]),
        "merge of 1/1",
    );
    assert_eq!(text(&again.stdout), text(&whole_again.stdout));
    assert_eq!(text(&again.stderr), text(&whole_again.stderr));
    assert_eq!(
        splitter_without_times(&text(&again.stdout)),
        splitter_without_times(&whole_out)
    );

    play_shards(&dir, "shard", 3, &args);
    let files = shard_files(&dir, "shard", 3);
    let merged = ok(merge(&["splitter"], &files), "merge of 3 shards");
    assert_eq!(
        splitter_without_times(&text(&merged.stdout)),
        splitter_without_times(&whole_out)
    );
    assert_eq!(
        splitter_without_times(&text(&merged.stderr)),
        splitter_without_times(&whole_err)
    );

    play_shards_here(&dir, "other", 3, &splitter_args("another"));
    let other = shard_file(&dir, "other", 3, 3);
    refuses_what_is_not_one_plan(&dir, &["splitter"], &files, &other);
    let output = tester(&with(&args, &["--shard", "1/2"]));
    refused(
        output,
        "error: tester splitter: --shard writes its results to --json FILE",
    );
    let _ = std::fs::remove_dir_all(dir);
}

fn scruffle_args(solver_seed: &str) -> Vec<String> {
    strings(&[
        "scruffle",
        "bench",
        "--seeds",
        "71,285,219,91,7",
        "--seconds",
        "0.000001",
        "--solver-seed",
        solver_seed,
        // The shards' merge is under test here, not the bound's convergence: a short U4, and
        // a clock it never meets (a cut would make the rows depend on the load).
        "--u4-sweeps",
        "30",
        "--phase-seconds",
        "3600",
    ])
}

#[test]
fn scruffle_bench_shards_merge_to_the_unsharded_table_and_means() {
    let dir = fresh_dir("scruffle");
    let args = scruffle_args("1");
    let whole_json = dir.join("whole.json");
    let whole = ok(
        tester(&with(&args, &["--json", &path(&whole_json)])),
        "the unsharded bench",
    );
    let whole_report = text(&whole.stdout);
    let again = ok(merge(&["scruffle"], &[whole_json]), "merge of the run");
    assert_eq!(text(&again.stdout), whole_report);

    play_shards(&dir, "shard", 3, &args);
    let files = shard_files(&dir, "shard", 3);
    let merged = ok(merge(&["scruffle"], &files), "merge of 3 shards");
    assert_eq!(
        scruffle_without_times(&text(&merged.stdout)),
        scruffle_without_times(&whole_report)
    );
    assert!(
        whole_report.contains("all 5 outputs valid"),
        "{whole_report}"
    );

    play_shards_here(&dir, "other", 3, &scruffle_args("2"));
    let other = shard_file(&dir, "other", 3, 3);
    refuses_what_is_not_one_plan(&dir, &["scruffle"], &files, &other);
    // A results file of another tool.
    refused(
        merge(&["arena"], &files),
        &format!("error: tester arena merge: {}: results of `tester scruffle bench`, not of `tester arena`", files[0].display()),
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Slurm's `sbatch`, played here: each job runs at once, in submission order; an array runs its
/// tasks one after the other; a job whose `afterok` dependency failed does not run; `--wait`
/// returns the job's status.
const FAKE_SBATCH: &str = r#"#!/usr/bin/env bash
set -u
array='' output=/dev/null wrap='' wait=0 after=''
while [ $# -gt 0 ]; do
  case "$1" in
    --parsable) shift ;;
    --wait) wait=1; shift ;;
    --array=*) array=${1#--array=}; shift ;;
    --output=*) output=${1#--output=}; shift ;;
    --dependency=afterok:*) after=${1#--dependency=afterok:}; shift ;;
    --job-name=*) shift ;;
    --wrap) wrap=$2; shift 2 ;;
    -*) echo "fake sbatch: unknown option $1" >&2; exit 1 ;;
    *) break ;;
  esac
done
jobs=$(dirname "$0")/jobs
id=$(( $(cat "$jobs" 2>/dev/null | wc -l) + 1 ))
export SLURM_SUBMIT_DIR=$PWD SLURM_JOB_ID=$id
status=0
if [ -n "$after" ] && ! grep -qx "$after ok" "$jobs"; then
  status=1
elif [ -n "$array" ]; then
  for k in $(seq "${array%-*}" "${array#*-}"); do
    SLURM_ARRAY_TASK_ID=$k bash "$@" >"${output//%a/$k}" 2>&1 || status=$?
  done
elif [ -n "$wrap" ]; then
  bash -c "$wrap" >"$output" 2>&1 || status=$?
else
  bash "$@" >"$output" 2>&1 || status=$?
fi
[ "$status" = 0 ] && echo "$id ok" >>"$jobs" || echo "$id failed" >>"$jobs"
echo "$id"
if [ "$wait" = 1 ]; then exit "$status"; fi
"#;

#[test]
fn the_slurm_scripts_run_the_array_and_the_merge() {
    let dir = fresh_dir("slurm");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let sbatch = bin.join("sbatch");
    std::fs::write(&sbatch, FAKE_SBATCH).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let args = scruffle_args("1");
    let out = dir.join("out");
    let output = Command::new(format!("{SCRIPTS}/slurm-shards.sh"))
        .env("PATH", &path)
        .env("TESTER", TESTER)
        .args(["-n", "3", "--no-build", "--wait", "--name", "bench", "-o"])
        .arg(&out)
        .arg("--")
        .args(&args)
        .output()
        .unwrap();
    let stdout = text(&ok(output, "slurm-shards.sh").stdout);
    assert!(
        stdout.contains("shard array") && stdout.contains("merge job"),
        "{stdout}"
    );
    let merged = std::fs::read_to_string(out.join("bench-merged.txt")).unwrap();
    let whole = ok(tester(&args), "the unsharded bench");
    assert_eq!(
        scruffle_without_times(&merged),
        scruffle_without_times(&text(&whole.stdout))
    );
    for k in 1..=3 {
        assert!(out.join(format!("bench-{k}-of-3.json")).exists());
        assert!(out.join(format!("bench-{k}-of-3.log")).exists());
    }
    let _ = std::fs::remove_dir_all(dir);
}
