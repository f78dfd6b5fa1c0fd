//! `bot penguins` and `bot penguins perft` as processes: exit codes and one-line errors.

mod common;

fn run(args: &[&str], input: &str) -> (bool, String, String) {
    let (code, stdout, stderr) = common::run_bot(args, input);
    (code == 0, stdout, stderr)
}

fn first_perft_position() -> String {
    let text = include_str!("../data/penguins/perft.txt");
    let start = text.find("position\n").unwrap() + "position\n".len();
    let end = start + text[start..].find("end\n").unwrap();
    text[start..end].to_string()
}

#[test]
fn perft_prints_the_count_and_rejects_broken_input() {
    let position = first_perft_position();
    let (ok, out, _) = run(&["penguins", "perft", "--depth", "2"], &position);
    assert!(ok);
    assert_eq!(out.trim(), "perft 2 = 3540");
    let (ok, out, err) = run(&["penguins", "perft", "--depth", "2"], "2\n0\n");
    assert!(!ok);
    assert_eq!(out, "");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: perft: stdin: input ended after line 2"),
        "{err}"
    );
}

#[test]
fn playing_answers_from_the_list_and_reports_its_seed() {
    let position = first_perft_position();
    let (ok, out, err) = run(
        &["penguins", "--policy", "random", "--seed", "4"],
        &position,
    );
    assert!(ok);
    let answer = out.trim();
    assert!(position.lines().any(|l| l == answer), "{answer}");
    assert!(err.contains("policy random seed 4"), "{err}");
    let (ok, _, err) = run(&["penguins", "--policy", "nonsense"], "");
    assert!(!ok);
    assert!(err.contains("unknown policy \"nonsense\""), "{err}");
}

#[test]
fn policy_errors_and_help_name_every_engine_truthfully() {
    let (ok, _, err) = run(&["penguins", "--policy", "bogus"], "");
    assert!(!ok);
    for name in ["engine", "mcts", "ab", "random", "greedy"] {
        assert!(err.contains(name), "{name} missing: {err}");
    }
    assert_eq!(err.lines().count(), 1, "{err}");
    let (ok, help, _) = run(&["penguins", "--help"], "");
    assert!(ok);
    assert!(help.contains("MCTS for 2, 3 and 4 players"), "{help}");
    assert!(!help.contains("ab for 2 players"), "{help}");
    assert!(help.contains("league2"), "{help}");
}

#[test]
fn input_that_is_not_a_penguins_game_names_the_problem() {
    let (ok, out, err) = run(&["penguins"], "\u{7f}ELF\u{2}\u{1}\u{1}\n\u{0}\u{0}\n");
    assert!(!ok);
    assert_eq!(out, "");
    let last = err.lines().last().unwrap();
    assert_eq!(
        last,
        "error: line 1: nbPlayers: expected an integer in 2..4, got \"\\u{7f}ELF\\u{2}\\u{1}\\u{1}\""
    );
    let (ok, _, err) = run(&["penguins"], "");
    assert!(!ok);
    assert!(err.contains("no input"), "{err}");
}

#[test]
fn the_time_budget_is_named_at_the_first_turn_and_checked() {
    let position = first_perft_position();
    for (args, shown) in [
        (vec![], "time budget codingame: search stops 900 ms"),
        (
            vec!["--budget", "conservative"],
            "time budget conservative: search stops 620 ms",
        ),
    ] {
        let mut all = vec!["penguins", "--policy", "greedy"];
        all.extend(args);
        let (ok, out, err) = run(&all, &position);
        assert!(ok, "{err}");
        assert_eq!(out.lines().count(), 1);
        assert!(err.contains(shown), "{err}");
    }
    let (ok, _, err) = run(&["penguins", "--budget", "slow"], "");
    assert!(!ok);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("unknown budget \"slow\""), "{err}");
}
