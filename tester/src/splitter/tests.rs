//! The tester against scripted fake bots (bash one-liners): a legal bot whose score is recomputed
//! independently, invalid moves, a hung bot, a bot that exits, the old dialect, `--vs`, `--jobs`.

use super::session::{parse_answer, Outcome};
use super::*;
use bot::splitter::{game_dice, game_seed, official, score, Board, Move};
use std::time::Duration;

/// The 22 left-half cells of layout 1, in the order the scripted bot fills them.
const LEFT_CELLS: [(usize, usize); 22] = [
    (2, 0),
    (3, 0),
    (1, 1),
    (2, 1),
    (3, 1),
    (0, 2),
    (1, 2),
    (2, 2),
    (3, 2),
    (0, 3),
    (1, 3),
    (2, 3),
    (3, 3),
    (0, 4),
    (1, 4),
    (2, 4),
    (3, 4),
    (1, 5),
    (2, 5),
    (3, 5),
    (2, 6),
    (3, 6),
];

/// A bash bot that answers the first die at the next left-half cell, with a debug line first.
fn scripted_bot(sep: &str) -> String {
    let cells: Vec<String> = LEFT_CELLS
        .iter()
        .map(|(x, y)| format!("\"{x}{sep}{y}\""))
        .collect();
    format!(
        "read h; for i in 1 2 3 4 5 6 7; do read r; done; c=({}); k=0; while read a b; do echo \"# thinking\"; echo \"$a ${{c[$k]}}\"; k=$((k+1)); done",
        cells.join(" ")
    )
}

fn config(command: &str) -> Config {
    Config {
        command: command.to_string(),
        vs: None,
        games: 3,
        silent: false,
        seed: Some("fake".to_string()),
        layouts: vec![1],
        jobs: 1,
        json: None,
        timeout: Duration::from_millis(5000),
        progress: false,
        keep_going: false,
        shard: None,
    }
}

fn run(c: &Config) -> (Result<Outcome, String>, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let r = run_session(c, &mut out, &mut err).map_err(|e| e.to_string());
    (
        r,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// The scripted bot's score on game g, replayed with the rules directly.
fn expected_score(g: u32) -> u32 {
    let layout = official(1);
    let mut board = Board::new(&layout, 22);
    for (dice, &(x, y)) in game_dice("fake", g, 22).into_iter().zip(&LEFT_CELLS) {
        board
            .place(&layout, dice, Move { die: dice.0, x, y })
            .unwrap();
    }
    score(&layout, &board.values)
}

fn last_four(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    lines[lines.len() - 4..]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn legal_bot_gets_its_independently_replayed_score() {
    for sep in [" ", ","] {
        let (r, out, err) = run(&config(&scripted_bot(sep)));
        let outcome = r.unwrap_or_else(|e| panic!("{e}\n{err}"));
        let expected: Vec<u32> = (0..3).map(expected_score).collect();
        let got: Vec<u32> = outcome.main[&1].iter().map(|g| g.score).collect();
        assert_eq!(got, expected);
        let total: u32 = expected.iter().sum();
        let four = last_four(&out);
        assert_eq!(four[0], "Games played 3");
        assert_eq!(four[1], format!("Points gotten {total}"));
        assert_eq!(
            four[2],
            format!("Points per game (avg) {}", total as f64 / 3.0)
        );
        assert!(
            four[3].starts_with("Time taken ") && four[3].ends_with('S'),
            "{}",
            four[3]
        );
        assert!(out.contains("# thinking"), "bot lines are echoed");
        assert_eq!(out.matches("Groups of 6 points").count(), 3);
        assert!(err.contains("mean"), "{err}");
        assert_eq!(outcome.main[&1][0].moves.len(), 22);
        assert_eq!(outcome.main[&1][0].move_ms.len(), 22);
    }
}

#[test]
fn silent_prints_only_the_four_lines() {
    let mut c = config(&scripted_bot(" "));
    c.silent = true;
    let (r, out, _) = run(&c);
    r.unwrap();
    assert_eq!(out.lines().count(), 4, "{out}");
}

#[test]
fn invalid_moves_abort_with_the_official_message() {
    let prefix = "read h; for i in 1 2 3 4 5 6 7; do read r; done; while read a b; do echo";
    for (answer, needle) in [
        ("\"$a 0 0\"", "non-placeable"),
        ("\"7 2 0\"", "7 was not rolled"),
        ("\"$a 9 0\"", "out of range"),
        ("\"$a  2 0\"", "not a number"),
    ] {
        let (r, out, _) = run(&config(&format!("{prefix} {answer}; done")));
        let e = r.unwrap_err();
        assert!(e.contains(needle), "{answer}: {e}");
        assert!(e.contains("layout 1 game 0"), "{e}");
        assert!(out.contains("Games played 0"), "{out}");
    }
    // Occupied: always the same cell.
    let (r, _, _) = run(&config(&format!("{prefix} \"$a 2 0\"; done")));
    assert!(r.unwrap_err().contains("already has something"));
}

#[test]
fn hung_bot_and_old_dialect_time_out_and_dead_bot_is_reported() {
    let mut c = config("cat > /dev/null");
    c.timeout = Duration::from_millis(300);
    let e = run(&c).0.unwrap_err();
    assert!(e.contains("no answer within 300 ms"), "{e}");
    c.command = "read h; for i in 1 2 3 4 5 6 7; do read r; done; while read a b; do echo \"p $a 2,0\"; done".into();
    let (r, out, _) = run(&c);
    assert!(r.unwrap_err().contains("no answer within"));
    assert!(out.contains("Input not a number skipping!"), "{out}");
    c.command = "exit 0".into();
    let e = run(&c).0.unwrap_err();
    assert!(
        e.contains("output closed before it answered") && e.contains("exited with status 0"),
        "{e}"
    );
}

#[test]
fn jobs_vs_both_layouts_and_json() {
    let bot = scripted_bot(" ");
    let mut c = config(&bot);
    c.silent = true;
    c.jobs = 2;
    c.games = 4;
    c.vs = Some(bot.clone());
    let json = std::env::temp_dir().join(format!("splitter-tester-{}.json", std::process::id()));
    c.json = Some(json.clone());
    let (r, out, err) = run(&c);
    let outcome = r.unwrap();
    assert_eq!(outcome.vs[&1].len(), 4);
    assert!(
        err.contains("paired difference (command - vs) over 4 seeds: +0.000"),
        "{err}"
    );
    let (first, last) = (game_seed("fake", 0), game_seed("fake", 3));
    assert_eq!(last, first.wrapping_add(3));
    assert!(
        err.contains(&format!("# seed fake: dice of int seeds {first}..={last}")),
        "{err}"
    );
    let total: u32 = (0..4).map(expected_score).sum();
    assert!(out.contains(&format!("Points gotten {total}")), "{out}");
    let parsed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(parsed.as_array().unwrap().len(), 8);
    assert_eq!(parsed[0]["dice"].as_array().unwrap().len(), 22);
    std::fs::remove_file(json).unwrap();
    // Both layouts: one block of four lines each. The layout-1 bot is illegal on layout 2.
    c.vs = None;
    c.json = None;
    c.layouts = vec![1, 2];
    let (r, out, err) = run(&c);
    let e = r.unwrap_err();
    assert!(e.contains("games failed") || e.contains("layout 2"), "{e}");
    assert!(
        err.contains("tester splitter: layout 2 game") || e.contains("layout 2 game"),
        "{err}"
    );
    // Layout 1 was complete: its four lines; layout 2 stopped: its four lines over no games.
    assert!(out.contains("Layout 1\nGames played 4"), "{out}");
    assert!(out.contains("Layout 2\nGames played 0"), "{out}");
}

#[test]
fn answers_are_parsed_like_the_official_tester() {
    assert_eq!(parse_answer("3 2 1"), Ok(Some((3, 2, 1))));
    assert_eq!(parse_answer("3 2,1"), Ok(Some((3, 2, 1))));
    assert_eq!(parse_answer("3 2 1 extra"), Ok(Some((3, 2, 1))));
    assert_eq!(parse_answer("p 3 2,1"), Ok(None));
    assert_eq!(parse_answer(""), Ok(None));
    assert!(parse_answer("3  2 1").is_err());
    assert!(parse_answer("3 2").is_err());
}

#[test]
fn cli_forms() {
    use clap::Parser;
    #[derive(Parser)]
    struct T {
        #[command(flatten)]
        a: Args,
    }
    let c = config_from_args(T::try_parse_from(["t", "./bot x", "20"]).unwrap().a).unwrap();
    assert_eq!(
        (c.command.as_str(), c.games, c.layouts.clone()),
        ("./bot x", 20, vec![1])
    );
    let c = config_from_args(
        T::try_parse_from([
            "t",
            "--layout",
            "7",
            "--seed",
            "s",
            "--command",
            "./bot",
            "splitter",
            "--game-ms",
            "100",
        ])
        .unwrap()
        .a,
    )
    .unwrap();
    assert_eq!(
        (c.command.as_str(), c.games, c.layouts.clone()),
        ("./bot splitter --game-ms 100", 200, vec![2])
    );
    let c = config_from_args(
        T::try_parse_from(["t", "--layout", "both", "--command", "b"])
            .unwrap()
            .a,
    )
    .unwrap();
    assert_eq!(c.layouts, vec![1, 2]);
    // `--command` and `--vs` take every following word: each stops at the other.
    for argv in [
        ["t", "--command", "./a --game-ms 100", "--vs", "./b"],
        ["t", "--vs", "./b", "--command", "./a --game-ms 100"],
    ] {
        let c = config_from_args(T::try_parse_from(argv).unwrap().a).unwrap();
        assert_eq!(
            (c.command.as_str(), c.vs.as_deref()),
            ("./a --game-ms 100", Some("./b"))
        );
    }
    assert!(config_from_args(T::try_parse_from(["t"]).unwrap().a).is_err());
    assert!(config_from_args(T::try_parse_from(["t", "x", "many"]).unwrap().a).is_err());
}

/// `--help` gives the game count a run without `--games` plays, and what it costs.
#[test]
fn help_states_the_default_game_count() {
    use clap::{CommandFactory, Parser};
    #[derive(Parser)]
    struct T {
        #[command(flatten)]
        a: Args,
    }
    let c = config_from_args(T::try_parse_from(["t", "--command", "b"]).unwrap().a).unwrap();
    assert_eq!(c.games, DEFAULT_GAMES);
    let help = T::command().render_help().to_string();
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("--games"))
        .expect("a --games line");
    assert!(
        line.contains(&format!("[default: {}: about ", c.games)) && line.contains("minutes"),
        "{line}"
    );
}

mod fuzz {
    use super::super::session::{judge, parse_answer, Answer};
    use bot::splitter::{official, Board, Dice};
    use rand::{Rng, SeedableRng};
    use test_support::fuzz::config;
    use test_support::proptest::collection::vec;
    use test_support::proptest::prelude::*;

    /// Answers as bots write them, near misses, and junk.
    fn bot_line() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => (0i64..8, -2i64..10, -2i64..10, prop::sample::select(&[" ", ",", "  ", ", "][..]))
                .prop_map(|(d, x, y, s)| format!("{d} {x}{s}{y}")),
            2 => "[ 0-9,#p\\-x]{0,14}",
            1 => "\\PC{0,30}",
            1 => vec(any::<u8>(), 0..30).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
            1 => Just("99999999999 1 1".to_string()),
        ]
    }

    proptest! {
        #![proptest_config(config("splitter tester: bot answers"))]
        #[test]
        fn bot_lines_are_judged_like_the_official_tester(
            layout_no in 1u8..=2,
            seed in any::<u64>(),
            played in 0usize..22,
            lines in vec(bot_line(), 1..8),
        ) {
            // A board part-way through a game, filled by random legal moves.
            let layout = official(layout_no);
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut roll = || Dice(rng.random_range(1..=6), rng.random_range(1..=6));
            let mut board = Board::new(&layout, 22);
            for _ in 0..played {
                let dice = roll();
                let moves = board.legal_moves(&layout, dice);
                let Some(&mv) = moves.first() else { break };
                board.place(&layout, dice, mv).unwrap();
            }
            let dice = roll();
            for line in &lines {
                match judge(line.as_bytes(), &layout, &board, dice) {
                    Ok(Answer::Move { die, x, y, cell }) => {
                        // Independently: a rolled die, on the board, on an empty fillable cell.
                        prop_assert!(die == dice.0 || die == dice.1);
                        let (w, h) = (layout.width() as i64, layout.height() as i64);
                        prop_assert!((0..w).contains(&x) && (0..h).contains(&y));
                        prop_assert_eq!(cell as i64, y * w + x);
                        prop_assert_eq!(board.values[cell], 0);
                        prop_assert!(layout.fillable().contains(&cell));
                        let mut after = board.clone();
                        after.apply(&layout, cell, die, dice.other(die));
                    }
                    Ok(Answer::Comment) => prop_assert!(line.starts_with('#')),
                    Ok(Answer::NotANumber) => {
                        prop_assert_eq!(parse_answer(line), Ok(None));
                    }
                    Err(e) => {
                        prop_assert!(!e.contains('\n') && e.chars().count() <= 300, "{e:?}");
                        prop_assert!(!e.chars().any(char::is_control), "{e:?}");
                    }
                }
            }
        }
    }
}

/// Hostile bots, each as the `--vs` command beside a legal bot: every game ends within its
/// timeout plus a margin, each failure names its cause, and the legal bot's games are all kept
/// (in the outcome and in --json).
#[test]
fn hostile_bots_fail_with_their_cause_and_lose_no_other_game() {
    let cases: [(&str, &str, &[&str]); 9] = [
        (
            "flood",
            "yes hello",
            &[
                "no answer within 300 ms",
                "lines, none a move (the first: \"hello\"",
            ],
        ),
        (
            "old dialect flood",
            "yes 'p 1 0,0'",
            &["none a move (the first: \"p 1 0,0\""],
        ),
        (
            "no newline",
            "cat /dev/zero",
            &["bytes without a newline (at most 4096 kept)"],
        ),
        (
            "binary skipped",
            "printf '\\377\\376\\001 2 3\\n'; sleep 30",
            &["(the first: \"\\xff\\xfe\\u{1} 2 3\""],
        ),
        (
            "binary field",
            "printf '3 \\377\\001 1\\n'; sleep 30",
            &["answer \"3 \\xff\\u{1} 1\": field 2 is not a number"],
        ),
        (
            "closed stdout",
            "exec >&-; sleep 30",
            &["output closed before it answered", "it is still running"],
        ),
        (
            "silent",
            "sleep 30",
            &["no answer within 300 ms", "hung bot?"],
        ),
        (
            "mid-line exit",
            "printf '3 0'",
            &["exited with status 0, in the middle of the line \"3 0\""],
        ),
        (
            "child holds pipe",
            "sleep 30 & exit 0",
            &["exited with status 0 but a process it started still holds its output open"],
        ),
    ];
    std::thread::scope(|scope| {
        for (name, hostile, needles) in cases {
            scope.spawn(move || {
                let json = std::env::temp_dir().join(format!(
                    "splitter-hostile-{}-{}.json",
                    name.replace(' ', "-"),
                    std::process::id()
                ));
                let mut c = config(&scripted_bot(" "));
                c.vs = Some(hostile.to_string());
                c.games = 2;
                c.jobs = 2;
                c.keep_going = true;
                c.silent = true;
                c.timeout = Duration::from_millis(300);
                c.json = Some(json.clone());
                let started = std::time::Instant::now();
                let (r, _, err) = run(&c);
                let took = started.elapsed();
                assert!(took < Duration::from_secs(4), "{name}: {took:?}");
                let e = r.unwrap_err();
                assert!(e.contains("2 of 4 games failed"), "{name}: {e}");
                let failures: Vec<&str> = err
                    .lines()
                    .filter(|l| l.starts_with("tester splitter: layout 1 game"))
                    .collect();
                assert_eq!(failures.len(), 2, "{name}: {err}");
                for line in &failures {
                    for needle in needles {
                        assert!(line.contains(needle), "{name}: {needle:?} not in {line}");
                    }
                    assert!(
                        line.len() < 500 && !line.contains('\u{1b}'),
                        "{name}: {line}"
                    );
                }
                let games: Vec<serde_json::Value> =
                    serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
                std::fs::remove_file(&json).unwrap();
                assert_eq!(games.len(), 4, "{name}");
                for (g, game) in games.iter().enumerate() {
                    let hostile_game = game["command"] == hostile;
                    assert_eq!(game["game"], g as u64 / 2, "{name}");
                    if hostile_game {
                        let error = game["error"].as_str().unwrap();
                        assert!(error.contains(needles[0]), "{name}: {error}");
                        assert_eq!(game["score"], 0);
                    } else {
                        assert!(game.get("error").is_none(), "{name}: {game}");
                        assert_eq!(game["score"], expected_score(g as u32 / 2), "{name}");
                        assert_eq!(game["moves"].as_array().unwrap().len(), 22);
                    }
                }
            });
        }
    });
}

#[test]
fn without_keep_going_the_session_stops_but_keeps_what_was_played() {
    // The `--vs` bot hangs: the session stops starting games, but every game that ran (the
    // legal bot's ones that finished while the first failure was pending too) is reported.
    let json = std::env::temp_dir().join(format!("splitter-stop-{}.json", std::process::id()));
    let mut c = config(&scripted_bot(" "));
    c.vs = Some("sleep 30".to_string());
    c.games = 5;
    c.jobs = 2;
    c.timeout = Duration::from_millis(300);
    c.json = Some(json.clone());
    let (r, out, _) = run(&c);
    let e = r.unwrap_err();
    assert!(e.contains("not played (--keep-going plays them)"), "{e}");
    let games: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    std::fs::remove_file(&json).unwrap();
    let legal: Vec<&serde_json::Value> = games.iter().filter(|g| g["error"].is_null()).collect();
    assert!(!legal.is_empty() && legal.len() < games.len(), "{games:?}");
    for g in &legal {
        let n = g["game"].as_u64().unwrap() as u32;
        assert_eq!(g["score"], expected_score(n));
    }
    assert!(games
        .iter()
        .any(|g| g["error"].as_str().is_some_and(|e| e.contains("no answer"))));
    assert!(
        out.contains(&format!("Games played {}", legal.len())),
        "{out}"
    );
}

/// The average is printed as the official Tester's C# double: shortest round-trip text.
#[test]
fn average_is_printed_like_a_dotnet_double() {
    use super::session::dotnet_double;
    assert_eq!(dotnet_double(634.0 / 20.0), "31.7");
    assert_eq!(dotnet_double(755.0 / 20.0), "37.75");
    assert_eq!(dotnet_double(680.0 / 20.0), "34");
    assert_eq!(dotnet_double(95.0 / 3.0), "31.666666666666668");
    assert_eq!(dotnet_double(f64::NAN), "NaN");
    let lines = super::session::final_lines(20, 634, std::time::Duration::from_millis(2500));
    assert_eq!(lines[2], "Points per game (avg) 31.7");
    assert_eq!(lines[3], "Time taken 2S");
}
