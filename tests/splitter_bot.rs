//! Runs the built `bot splitter` binary: whole games over real pipes, both dialects, CRLF,
//! garbage lines, a broken header, and a clean exit at end of input.

use bot::splitter::{game_dice, official, Board, Dice, Move};
mod common;

fn run_bot(input: &str, extra: &[&str]) -> (i32, String, String) {
    let args: Vec<&str> = ["splitter", "--game-ms", "200"]
        .into_iter()
        .chain(extra.iter().copied())
        .collect();
    common::run_bot(&args, input)
}

fn game_text(layout: u8, dice: &[Dice], old: bool, eol: &str) -> String {
    let l = official(layout);
    let mut s = l.header_text(22).replace('\n', eol);
    for (i, d) in dice.iter().enumerate() {
        if i == 5 {
            s.push_str(&format!("this is not a dice line{eol}"));
        }
        s.push_str(&if old {
            format!("d {} {}{eol}", d.0, d.1)
        } else {
            format!("{} {}{eol}", d.0, d.1)
        });
    }
    s
}

/// Check every answer with the rules; returns the final board.
fn replay(layout: u8, dice: &[Dice], out: &str, old: bool) -> Board {
    let l = official(layout);
    let answers: Vec<&str> = out.lines().filter(|a| !a.starts_with('#')).collect();
    assert_eq!(
        answers.len(),
        dice.len(),
        "one answer per dice line:\n{out}"
    );
    let mut board = Board::new(&l, 22);
    for (d, a) in dice.iter().zip(answers) {
        let body = if old {
            a.strip_prefix("p ").expect("old dialect answer")
        } else {
            a
        };
        let nums: Vec<usize> = body.split([' ', ',']).map(|t| t.parse().unwrap()).collect();
        assert_eq!(old, body.contains(','), "{a}");
        board
            .place(
                &l,
                *d,
                Move {
                    die: nums[0] as u8,
                    x: nums[1],
                    y: nums[2],
                },
            )
            .unwrap();
    }
    board
}

#[test]
fn full_games_over_pipes_in_both_dialects_with_crlf() {
    for (layout, old, eol, policy) in [
        (1, false, "\n", "search"),
        (2, true, "\r\n", "search"),
        (2, false, "\r\n", "random"),
    ] {
        let dice = game_dice("binary", layout as u32, 22);
        let (code, out, err) = run_bot(&game_text(layout, &dice, old, eol), &["--policy", policy]);
        assert_eq!(code, 0, "{err}");
        let board = replay(layout, &dice, &out, old);
        assert_eq!(board.free_cells(&official(layout)), 0);
        assert!(
            err.contains("ignoring \"this is not a dice line\""),
            "{err}"
        );
    }
}

/// `--trace FILE`: one JSON line per answer, written before it, naming the roll, its dice and
/// the move answered; the moves are the answers. A folder that does not exist is a clap error.
#[test]
fn a_trace_has_one_line_per_answer_naming_it() {
    let dir = test_support::scratch_dir("bot-trace");
    let path = dir.join("game.jsonl");
    let dice = game_dice("trace", 1, 22);
    let trace = ["--trace", path.to_str().unwrap()];
    let (code, out, err) = run_bot(&game_text(1, &dice, false, "\n"), &trace);
    assert_eq!(code, 0, "{err}");
    replay(1, &dice, &out, false);
    let answers: Vec<&str> = out.lines().filter(|a| !a.starts_with('#')).collect();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 22);
    for (k, (line, answer)) in lines.iter().zip(answers).enumerate() {
        assert_eq!(line["roll"], k + 1);
        assert_eq!(line["dice"], serde_json::json!([dice[k].0, dice[k].1]));
        let chosen: Vec<String> = (0..3).map(|i| line["chosen"][i].to_string()).collect();
        assert_eq!(chosen.join(" "), answer, "roll {}", k + 1);
        let named = line["candidates"].as_array().unwrap();
        assert!(named.iter().any(|c| c["move"] == line["chosen"]), "{line}");
    }
    // At fixed compute the trace changes nothing the bot answers.
    let text = game_text(2, &dice, false, "\n");
    let fixed = ["--batches", "4"];
    let (_, plain, _) = run_bot(&text, &fixed);
    let (_, traced, err) = run_bot(&text, &[&fixed[..], &trace[..]].concat());
    let answers = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|a| !a.starts_with('#'))
            .map(String::from)
            .collect()
    };
    assert_eq!(answers(&plain), answers(&traced), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 22);
    let missing = dir.join("no-such-folder").join("t.jsonl");
    let (code, _, err) = run_bot("", &["--trace", missing.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--trace"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn broken_header_exits_non_zero_with_one_line() {
    let (code, out, err) = run_bot("8 7\n0 0 1 1 1 1 0 0\n0 1 x\n", &[]);
    assert_ne!(code, 0);
    assert!(out.lines().all(|l| l.starts_with('#')), "no answers: {out}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(errors[0].contains("line 3"), "{err}");
}

#[test]
fn empty_input_is_an_error_and_bad_policy_is_rejected() {
    let (code, _, err) = run_bot("", &[]);
    assert_ne!(code, 0);
    assert!(err.contains("no header"), "{err}");
    let (code, _, _) = run_bot("", &["--policy", "best"]);
    assert_ne!(code, 0);
}

/// The bench's scores (the `value: mean ...` line without its times) for greedy play with the
/// weight file `file` on layout 2, `games` games of dice seed `t`; fails the test if the bench
/// does.
fn greedy_games_with(file: &str, games: &str) -> String {
    let bench = [
        "bench", "splitter", "--layout", "2", "--games", games, "--policy", "value", "--seed", "t",
        "--value", file,
    ];
    let (code, out, err) = common::run_bot(&bench, "");
    assert_eq!(code, 0, "{out}{err}");
    let line = out
        .lines()
        .find(|l| l.contains("value: mean"))
        .unwrap_or("");
    line.split("move time").next().unwrap_or("").to_string()
}

/// `bot train splitter` with a network: a short run writes a resumable file; resuming it with
/// nothing left to train and `--weights-only` writes the same weights without the training
/// state (smaller); the bench plays with either; a misspelt feature set is one clear line.
#[test]
fn train_with_a_network_then_strip_the_state_and_play() {
    let dir = std::env::temp_dir().join(format!("bot-train-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let full = dir.join("full.bin");
    let slim = dir.join("slim.bin");
    let (full_s, slim_s) = (full.to_str().unwrap(), slim.to_str().unwrap());
    // `bot train splitter` on layout 2 (short curve measurements) with these arguments.
    let train = |more: &[&str]| {
        let base = ["train", "splitter", "--layout", "2", "--curve-games", "5"];
        let args: Vec<&str> = base.iter().chain(more).copied().collect();
        common::run_bot(&args, "")
    };
    let features = ["--features", "groups-v1+pairs+net8x4"];
    let (code, out, err) = train(&[&["--games", "30", "-o", full_s], &features[..]].concat());
    assert_eq!(code, 0, "{out}{err}");
    // One curve point, at the end: the default cadence is games/20 but at least 10,000 games.
    assert!(out.contains("games        30: greedy V"), "{out}");
    let points = out.lines().filter(|l| l.starts_with("games ")).count();
    assert_eq!(points, 1, "{out}");
    let strip = [
        "--games",
        "30",
        "--resume",
        full_s,
        "--weights-only",
        "-o",
        slim_s,
    ];
    let (code, out, err) = train(&strip);
    assert_eq!(code, 0, "{out}{err}");
    let (full_len, slim_len) = (
        std::fs::metadata(&full).unwrap().len(),
        std::fs::metadata(&slim).unwrap().len(),
    );
    assert!(slim_len * 2 < full_len, "{slim_len} vs {full_len}");
    let scores: Vec<String> = [full_s, slim_s]
        .into_iter()
        .map(|file| greedy_games_with(file, "3"))
        .collect();
    assert!(!scores[0].is_empty());
    assert_eq!(scores[0], scores[1], "the same weights play the same games");
    let (code, _, err) = train(&["--games", "5", "--features", "groups-v1+net8", "-o", full_s]);
    assert_ne!(code, 0);
    // clap's usage error: the first line names the flag and the value.
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.starts_with("error: invalid value 'groups-v1+net8' for '--features"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Bad learned-value inputs: an unreadable `--value`, a weight file naming an unknown feature
/// set, an absurd `--net-rate`: each one clear error line naming the flag, non-zero exit.
#[test]
fn bad_value_files_and_rates_are_one_line_errors() {
    let dir = std::env::temp_dir().join(format!("bot-value-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, "splitter-value 1\nlayout x\nfeatures groups-v9 3\n").unwrap();
    let bench = ["bench", "splitter", "--games", "1", "--layout", "2"];
    let train = [
        "train", "splitter", "--layout", "2", "--games", "1", "-o", "x",
    ];
    let cases: [(Vec<&str>, &str); 4] = [
        (
            [&bench[..], &["--value", "/nonexistent/v.bin"]].concat(),
            "error: --value /nonexistent/v.bin: cannot read",
        ),
        (
            [&bench[..], &["--value", bad.to_str().unwrap()]].concat(),
            ":3: unknown feature set \"groups-v9\"",
        ),
        (
            [&train[..], &["--net-rate", "0"]].concat(),
            "error: invalid value '0' for '--net-rate",
        ),
        (
            [&train[..], &["--net-rate", "NaN"]].concat(),
            "error: invalid value 'NaN' for '--net-rate",
        ),
    ];
    for (args, want) in cases {
        let (code, _, err) = common::run_bot(&args, "");
        assert_ne!(code, 0, "{args:?}");
        let first = err.lines().next().unwrap_or("");
        assert!(first.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `bot train splitter-blend`: blending a network file in at share 1 gives its very weights (the
/// bench plays the same games with either file), share 0.5 writes a file that plays; a network
/// given as the table, an unreadable file and a share outside 0..1 are one-line errors.
#[test]
fn blend_two_values_into_one_file() {
    let dir = std::env::temp_dir().join(format!("bot-blend-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (table, net, whole, half) = (at("t.bin"), at("n.bin"), at("whole.bin"), at("half.bin"));
    for (features, out) in [("groups-v1", &table), ("groups-v1+pairs+net8x4", &net)] {
        let args = [
            "train",
            "splitter",
            "--layout",
            "2",
            "--games",
            "20",
            "--curve-games",
            "2",
            "--features",
            features,
            "-o",
            out,
        ];
        let (code, out, err) = common::run_bot(&args, "");
        assert_eq!(code, 0, "{out}{err}");
    }
    let blend = |table: &str, with: &str, share: &str, out: &str| {
        let args = [
            "train",
            "splitter-blend",
            "--layout",
            "2",
            "--table",
            table,
            "--with",
            with,
            "--share",
            share,
            "-o",
            out,
        ];
        common::run_bot(&args, "")
    };
    for (share, out) in [("1", &whole), ("0.5", &half)] {
        let (code, stdout, err) = blend(&table, &net, share, out);
        assert_eq!(code, 0, "{stdout}{err}");
    }
    let games = |file: &str| greedy_games_with(file, "4");
    let with_net = games(&net);
    assert!(!with_net.is_empty());
    assert_eq!(
        games(&whole),
        with_net,
        "share 1 is the blended-in value itself"
    );
    assert!(!games(&half).is_empty());
    let cases: [((&str, &str, &str), &str); 3] = [
        (
            (&net, &table, "0.5"),
            "cannot blend groups-v1+pairs+net8x4 into groups-v1",
        ),
        (
            ("/nonexistent/t.bin", &net, "0.5"),
            "error: --table /nonexistent/t.bin: cannot read",
        ),
        ((&table, &net, "2"), "the share must be in 0..1"),
    ];
    for ((t, w, share), want) in cases {
        let (code, _, err) = blend(t, w, share, &at("bad.bin"));
        assert_ne!(code, 0, "{t} {w} {share}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Boards other than the official ones on the game clock: every cell fillable on 20 x 20 and on
/// 64 x 64 (its largest size), and 8 x 8 with three rounds (an exact endgame there would be huge).
/// Every roll gets a legal answer, and the three-round game reports its time at its end.
#[test]
fn custom_boards_answer_every_roll_on_the_clock() {
    for (w, h, rounds) in [(20, 20, ""), (64, 64, ""), (8, 8, " 3")] {
        let layout = bot::splitter::Layout::new(&vec![vec![1; w]; h]).unwrap();
        let mut input = format!("{w} {h}{rounds}\n");
        for _ in 0..h {
            input.push_str(&vec!["1"; w].join(" "));
            input.push('\n');
        }
        let dice = game_dice("custom", w as u32, 3);
        for d in &dice {
            input.push_str(&format!("{} {}\n", d.0, d.1));
        }
        let (code, out, err) = run_bot(&input, &[]);
        assert_eq!(code, 0, "{w} x {h}: {err}");
        let answers: Vec<&str> = out.lines().filter(|a| !a.starts_with('#')).collect();
        assert_eq!(answers.len(), 3, "{w} x {h}: {out}");
        let mut board = Board::new(&layout, 3);
        for (d, a) in dice.iter().zip(answers) {
            let n: Vec<usize> = a.split(' ').map(|t| t.parse().unwrap()).collect();
            let mv = Move {
                die: n[0] as u8,
                x: n[1],
                y: n[2],
            };
            board.place(&layout, *d, mv).unwrap();
        }
        let ended = err
            .lines()
            .filter(|l| l.contains(": end of game: "))
            .count();
        assert_eq!(ended, usize::from(!rounds.is_empty()), "{w} x {h}: {err}");
    }
}

/// `--paired-with` reads through the capped reader: a file without end is one clear line.
#[test]
fn paired_with_an_endless_file_is_refused_in_one_line() {
    let args = [
        "bench",
        "splitter",
        "--games",
        "1",
        "--layout",
        "1",
        "--policy",
        "greedy",
        "--paired-with",
        "/dev/zero",
    ];
    let (code, out, err) = common::run_bot(&args, "");
    assert_ne!(code, 0, "{out}");
    assert_eq!(
        err.trim_end(),
        "error: --paired-with /dev/zero: larger than 256 MiB, not read"
    );
}
