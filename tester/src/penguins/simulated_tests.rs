//! The referee's bookkeeping driven in-process (random moves instead of bot processes): the
//! independent checker must accept every such replay, with pushes and deactivated seats; and the
//! replay reader (JSON, checker, viewer) is fuzzed with damaged replays: a result or a one-line
//! error, never a panic. `FUZZ_CASES` / `FUZZ_SEED` as in the crate's other fuzz tests.

use std::time::Duration;

use bot::penguins::{generate_board, MoveList, Rules, State};
use bot::search::rng::SplitMix64;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

use super::check::check;
use super::referee::{conclude, fail_seat, new_replay, play_and_record, RefereeConfig};
use super::replay::Replay;

/// A game of random moves; seats listed in `failing` fail (in that order) at turns from
/// `first_failure` on, one every 5 turns.
fn simulated(
    seed: u64,
    players: usize,
    rules: Rules,
    failing: &[usize],
    first_failure: usize,
) -> Replay {
    let config = RefereeConfig {
        seed,
        rules,
        first_turn: Duration::from_millis(1000),
        turn: Duration::from_millis(50),
        cpu_time: false,
    };
    let commands: Vec<String> = (0..players).map(|p| format!("random bot {p}")).collect();
    let mut state = State::new(&generate_board(seed), players, rules).unwrap();
    let mut replay = new_replay(&config, &commands, &state);
    let mut rng = SplitMix64::new(seed);
    let mut moves = MoveList::new();
    let mut failures = failing.iter().peekable();
    let mut too_few_left = false;
    while !state.is_over() {
        let turn = replay.turns.len();
        let due = turn >= first_failure + 5 * (failing.len() - failures.len());
        if due && failures.peek() == Some(&&state.to_move()) {
            failures.next();
            if !fail_seat(&mut replay, &mut state, "timeout", "simulated".into()) {
                too_few_left = players > 2;
                break;
            }
            continue;
        }
        state.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len())];
        replay.turns.push(play_and_record(&mut state, mv, turn));
    }
    conclude(&mut replay, &state, too_few_left);
    replay
}

#[test]
fn the_checker_accepts_every_simulated_game() {
    let rule_sets = [
        "league2",
        "league1",
        "league2,score-under",
        "league1,no-early-end,one-fish",
        "league2,no-early-end",
    ];
    let (mut pushes, mut deactivated, mut early) = (0, 0, 0);
    for seed in 0..90u64 {
        let players = 2 + (seed % 3) as usize;
        let rules = Rules::parse(rule_sets[seed as usize % rule_sets.len()]).unwrap();
        // Some games lose one seat, a few two, at varying points (placement included).
        let failing: Vec<usize> = match seed % 6 {
            0 | 1 => vec![(seed as usize / 6) % players],
            2 => vec![1, 0],
            _ => vec![],
        };
        let replay = simulated(seed, players, rules, &failing, (seed as usize * 7) % 40);
        let verified = check(&replay)
            .unwrap_or_else(|e| panic!("seed {seed} ({players}p, {}): {e}", replay.rules));
        assert_eq!(verified, replay.turns.len());
        pushes += replay.turns.iter().filter(|t| t.pushed.is_some()).count();
        deactivated += (players > 2 && replay.failures.iter().any(Option::is_some)) as usize;
        early += replay.end_reason.starts_with("early end") as usize;
    }
    assert!(
        pushes > 50 && deactivated > 10 && early > 10,
        "{pushes} {deactivated} {early}"
    );
}

/// Damage to a replay: a JSON value replaced somewhere, an array entry removed, or raw bytes.
#[derive(Clone, Debug)]
enum Damage {
    Set(Vec<usize>, serde_json::Value),
    Remove(Vec<usize>),
    Bytes(usize, Vec<u8>),
}

fn value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::json;
    prop_oneof![
        any::<i64>().prop_map(|n| json!(n)),
        (0u64..70).prop_map(|n| json!(n)),
        any::<f64>().prop_map(|x| json!(x)),
        prop::sample::select(vec![
            "",
            "MOVE 0 A1",
            "MOVE 99 H1",
            "league3",
            "A9",
            "11111111",
            "push"
        ])
        .prop_map(|s| json!(s)),
        Just(serde_json::Value::Null),
        Just(json!([])),
        Just(json!({"id": 0, "owner": 9, "cell": "Z9"})),
    ]
}

fn damage() -> impl Strategy<Value = Damage> {
    let path = prop::collection::vec(any::<usize>(), 1..5);
    prop_oneof![
        3 => (path.clone(), value()).prop_map(|(p, v)| Damage::Set(p, v)),
        1 => path.prop_map(Damage::Remove),
        1 => (any::<usize>(), prop::collection::vec(any::<u8>(), 0..8)).prop_map(|(at, b)| Damage::Bytes(at, b)),
    ]
}

/// The value reached by following `path` (indices into arrays and objects, wrapped).
fn walk<'a>(at: &'a mut serde_json::Value, path: &[usize]) -> &'a mut serde_json::Value {
    let Some((&step, rest)) = path.split_first() else {
        return at;
    };
    let len = match &*at {
        serde_json::Value::Array(items) => items.len(),
        serde_json::Value::Object(map) => map.len(),
        _ => 0,
    };
    if len == 0 {
        return at;
    }
    match at {
        serde_json::Value::Array(items) => walk(&mut items[step % len], rest),
        serde_json::Value::Object(map) => walk(map.values_mut().nth(step % len).unwrap(), rest),
        other => other,
    }
}

fn damaged(base: &serde_json::Value, damages: &[Damage]) -> Vec<u8> {
    let mut json = base.clone();
    let mut bytes_damage = Vec::new();
    for d in damages {
        match d {
            Damage::Set(path, v) => *walk(&mut json, path) = v.clone(),
            Damage::Remove(path) => {
                let (last, rest) = path.split_last().unwrap();
                if let serde_json::Value::Array(items) = walk(&mut json, rest) {
                    if !items.is_empty() {
                        let n = items.len();
                        items.remove(last % n);
                    }
                }
            }
            Damage::Bytes(at, b) => bytes_damage.push((*at, b.clone())),
        }
    }
    let mut text = json.to_string().into_bytes();
    for (at, b) in bytes_damage {
        let at = at % (text.len() + 1);
        text.splice(at..at, b);
    }
    text
}

/// The runner: `FUZZ_CASES` cases, seeded by `FUZZ_SEED` (both printed), shared settings.
fn runner() -> TestRunner {
    TestRunner::new(test_support::fuzz::config("replay reader"))
}

#[test]
fn the_replay_reader_gives_a_result_or_one_line_on_damaged_replays() {
    let bases: Vec<serde_json::Value> = [(3, 2, &[][..]), (4, 3, &[1][..]), (5, 4, &[2, 3][..])]
        .iter()
        .map(|&(seed, players, failing)| {
            serde_json::to_value(simulated(seed, players, Rules::LEAGUE2, failing, 15)).unwrap()
        })
        .collect();
    let strategy = (0..bases.len(), prop::collection::vec(damage(), 1..4));
    runner()
        .run(&strategy, |(base, damages)| {
            let text = damaged(&bases[base], &damages);
            let one_line = |e: &str| e.lines().count() <= 1 && e.chars().count() < 400;
            match Replay::from_json(&String::from_utf8_lossy(&text)) {
                Err(e) => prop_assert!(one_line(&e), "{e}"),
                Ok(replay) => {
                    if let Err(e) = check(&replay) {
                        prop_assert!(one_line(&e), "{e}");
                    }
                    if super::viewer::check(&replay).is_ok() {
                        let page = super::viewer::render(&replay);
                        prop_assert!(page.starts_with("<!DOCTYPE html>"));
                    }
                }
            }
            Ok(())
        })
        .unwrap();
}
