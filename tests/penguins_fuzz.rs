//! Property-based fuzzing of the Penguins input readers: the turn loop (init and turn parser,
//! position rebuild, decision), and the perft position reader. Inputs are real positions with
//! random damage (lines dropped, doubled, swapped, replaced by random bytes, cut short) and plain
//! random bytes. Each must give a result or a one-line error: no panic, no multi-line message, no
//! message that echoes a long line, and one answer per turn the loop read.
//!
//! `FUZZ_CASES` sets the number of cases per property (default as in `test_support::fuzz`); `FUZZ_SEED` the seed
//! (default drawn from the clock; printed, so a failure can be replayed).

use std::time::Instant;

use bot::penguins::policy::make_policy;
use bot::penguins::protocol::{play, read_init_lenient, read_turn, Budget, LineReader};
use bot::penguins::{perft, Rules};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

/// The runner: `FUZZ_CASES` cases, seeded by `FUZZ_SEED` (both printed), shared settings.
fn runner(name: &str) -> TestRunner {
    TestRunner::new(test_support::fuzz::config(name))
}

/// The positions of the pinned perft file: real CodinGame inputs (init lines + one turn).
fn positions() -> Vec<String> {
    let text = include_str!("../data/penguins/perft.txt");
    text.split("position\n")
        .skip(1)
        .map(|part| part.split("end\n").next().unwrap().to_string())
        .collect()
}

/// One way of damaging a text's lines.
#[derive(Clone, Debug)]
enum Damage {
    Drop(usize),
    Double(usize),
    Swap(usize, usize),
    Replace(usize, Vec<u8>),
    Insert(usize, Vec<u8>),
    Cut(usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    let bytes = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..40),
        // Plausible tokens: numbers, cells, words, huge and negative numbers.
        prop::sample::select(vec![
            "8",
            "0",
            "-1",
            "99999999999999999999",
            "MOVE",
            "MOVE 1",
            "MOVE 99 A1",
            "3 C5",
            "A1",
            "H1",
            "11111111",
            "1111111",
            "4444444",
            "0 0 A1",
            "0 9 A1",
            "x y z",
            "",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
    ];
    prop_oneof![
        any::<usize>().prop_map(Damage::Drop),
        any::<usize>().prop_map(Damage::Double),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Damage::Swap(a, b)),
        (any::<usize>(), bytes.clone()).prop_map(|(a, b)| Damage::Replace(a, b)),
        (any::<usize>(), bytes).prop_map(|(a, b)| Damage::Insert(a, b)),
        any::<usize>().prop_map(Damage::Cut),
    ]
}

fn apply(text: &str, damages: &[Damage]) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = text.lines().map(|l| l.as_bytes().to_vec()).collect();
    for d in damages {
        let n = lines.len().max(1);
        match d {
            Damage::Drop(i) if !lines.is_empty() => {
                lines.remove(i % n);
            }
            Damage::Double(i) if !lines.is_empty() => {
                let line = lines[i % n].clone();
                lines.insert(i % n, line);
            }
            Damage::Swap(a, b) if !lines.is_empty() => lines.swap(a % n, b % n),
            Damage::Replace(i, b) if !lines.is_empty() => lines[i % n] = b.clone(),
            Damage::Insert(i, b) => lines.insert(i % (lines.len() + 1), b.clone()),
            Damage::Cut(i) => lines.truncate(i % (lines.len() + 1)),
            _ => {}
        }
    }
    let mut out = lines.join(&b'\n');
    out.push(b'\n');
    out
}

/// A damaged real position (several turns of one game, so the loop's resynchronisation is hit),
/// or plain random bytes.
fn input() -> impl Strategy<Value = Vec<u8>> {
    let all = positions();
    let damaged = (
        prop::sample::select(all),
        1usize..4,
        prop::collection::vec(damage(), 0..6),
    )
        .prop_map(|(position, turns, damages)| {
            let (init, turn) = split_init(&position);
            apply(&(init + &turn.repeat(turns)), &damages)
        });
    prop_oneof![
        4 => damaged,
        1 => prop::collection::vec(any::<u8>(), 0..600),
    ]
}

fn split_init(position: &str) -> (String, String) {
    let mut lines = position.lines();
    let init: String = lines.by_ref().take(3).map(|l| format!("{l}\n")).collect();
    let turn: String = lines.map(|l| format!("{l}\n")).collect();
    (init, turn)
}

/// A message fit for one stderr line: no newline, and no long echo of the input.
fn one_line(message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.contains('\n'), "multi-line message {message:?}");
    prop_assert!(message.chars().count() < 400, "long message {message:?}");
    Ok(())
}

#[test]
fn the_turn_loop_survives_damaged_input() {
    runner("turn loop")
        .run(&input(), |bytes| {
            // The same bytes through the readers directly: each turn is read or refused in one line.
            let mut reader = LineReader::new(&bytes[..]);
            let mut turns_read = 0;
            // As the loop does: past a readable player count, unreadable init lines get defaults.
            if let Ok((init, problems)) = read_init_lenient(&mut reader) {
                for p in &problems {
                    one_line(p)?;
                }
                loop {
                    match read_turn(&mut reader, &init) {
                        Ok(Some(turn)) => {
                            turns_read += 1;
                            for p in &turn.problems {
                                one_line(p)?;
                            }
                        }
                        Ok(None) => break,
                        Err(e) => {
                            one_line(&e)?;
                            break;
                        }
                    }
                }
            }
            // And through the whole loop, with a fast engine.
            let mut policy = make_policy("mcts:playouts=20", 1).unwrap();
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let started = Instant::now();
            let result = play(
                &bytes[..],
                &mut out,
                &mut err,
                policy.as_mut(),
                Rules::LEAGUE2,
                Budget::CodinGame,
            );
            prop_assert!(started.elapsed().as_secs() < 20, "slow case");
            match result {
                Ok(()) => {
                    let answers = String::from_utf8(out).unwrap();
                    prop_assert_eq!(answers.lines().count(), turns_read);
                    for line in answers.lines() {
                        prop_assert!(line.len() <= 4096);
                    }
                }
                Err(e) => one_line(&e)?,
            }
            let notes = String::from_utf8_lossy(&err).to_string();
            for note in notes.lines() {
                prop_assert!(note.chars().count() < 400, "long note {note:?}");
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn the_perft_reader_gives_a_position_or_one_line() {
    runner("perft reader")
        .run(&input(), |bytes| {
            match perft::read_position(&bytes[..], Rules::LEAGUE2) {
                Ok(mut state) => {
                    // A position it accepts is one the rules can search.
                    let _ = perft::perft(&mut state, 2);
                }
                Err(e) => one_line(&e)?,
            }
            Ok(())
        })
        .unwrap();
}

/// The undamaged positions read back without a problem (so the damage is what the errors are
/// about).
#[test]
fn undamaged_positions_read_cleanly() {
    for position in positions() {
        perft::read_position(position.as_bytes(), Rules::LEAGUE2).unwrap();
    }
}
