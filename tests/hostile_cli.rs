//! Absurd arguments and misused paths against the `bot` command line: seeds at the end of the
//! u64 range, bench counts far beyond memory, an output that would replace an input. Each is a
//! clear error (or correct work), never a panic, an abort or silently less work than asked.

mod common;

use common::run_bot;
use std::process::Command;

/// The solved 3x3 example of the challenge README as a layout to fill, and its four words.
const LAYOUT: &str = "3\n3\n?.?\n?..\n?..\n0 0 4\n0 2 0\n1 0 3\n2 0 3\n";
const WORDS: &str = "LEA\nID\nEI\nAD\n";

#[test]
fn a_crossword_seed_range_never_runs_past_the_last_seed() {
    let dir = test_support::scratch_dir("hostile-cli-seeds");
    let (layout, words) = (dir.join("l.cwg"), dir.join("w.txt"));
    std::fs::write(&layout, LAYOUT).unwrap();
    std::fs::write(&words, WORDS).unwrap();
    let fill = |extra: &[&str]| {
        let mut args = vec!["crossword", "fill", layout.to_str().unwrap()];
        args.extend(["--words", words.to_str().unwrap(), "--seconds", "5"]);
        args.extend(extra);
        run_bot(&args, "")
    };
    // The last seed alone is one run.
    let (code, out, err) = fill(&["--seed", "18446744073709551615"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("seed 18446744073709551615: filled, valid"),
        "{out}"
    );
    // Five runs from three seeds before the end: all five, or a clear refusal; never two.
    let (code, out, err) = fill(&["--seed", "18446744073709551613", "--runs", "5"]);
    let runs = out
        .lines()
        .filter(|l| l.contains(": filled, valid"))
        .count();
    match code {
        0 => assert_eq!(runs, 5, "{out}"),
        _ => {
            assert_eq!(runs, 0, "{out}");
            assert!(
                err.contains("--runs 5") && err.contains("18446744073709551615"),
                "{err}"
            );
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// Run `bot ARGS`, whose output would replace `input`: it must be refused, `input` still `text`.
fn refused_over_input(args: &[&str], input: &std::path::Path, text: &str) {
    let (code, out, err) = run_bot(args, "");
    assert_ne!(code, 0, "{args:?}: {out}{err}");
    assert!(err.contains("would replace the input"), "{args:?}: {err}");
    assert_eq!(std::fs::read_to_string(input).unwrap(), text, "{args:?}");
}

#[test]
fn writing_over_an_input_grid_is_refused_and_leaves_it_alone() {
    let dir = test_support::scratch_dir("hostile-cli-out-dir");
    let grid = dir.join("g.cwg");
    let text = "5\n5\n.....\n.....\n.....\n.....\n.....\n";
    std::fs::write(&grid, text).unwrap();
    let folder = dir.to_str().unwrap();
    for out_dir in [folder.to_string(), format!("{folder}/.")] {
        let args = ["--out-dir", &out_dir, "--seconds", "2", "--first"];
        refused_over_input(
            &[&["crossword", "generate", folder], &args[..]].concat(),
            &grid,
            text,
        );
    }
    // `fill -o` naming its own input, spelled the same or otherwise: a layout that fills.
    let (layout, words) = (dir.join("l.cwg"), dir.join("w.txt"));
    std::fs::write(&layout, LAYOUT).unwrap();
    std::fs::write(&words, WORDS).unwrap();
    let (layout_arg, words_arg) = (layout.to_str().unwrap(), words.to_str().unwrap());
    for output in [layout_arg.to_string(), format!("{folder}/./l.cwg")] {
        let args = ["-o", &output, "--words", words_arg, "--seconds", "2"];
        refused_over_input(
            &[&["crossword", "fill", layout_arg], &args[..]].concat(),
            &layout,
            LAYOUT,
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bench_counts_beyond_their_caps_are_clap_errors() {
    // Under a 2 GB address-space limit and 20 s, so an uncapped count fails fast instead of
    // swapping or running for hours.
    for args in [
        "--size 100000",
        "--size 4294967296",
        "--vocab 100000000",
        "--levels 100000000",
        "--load-runs 100000000000",
        "--hand-size 100000000000",
    ] {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 2000000; exec timeout 20 {} bench honey {args}",
                env!("CARGO_BIN_EXE_bot")
            ))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args}: {stderr}");
        assert!(
            stderr.contains("must be a whole number from"),
            "{args}: {stderr}"
        );
    }
}
