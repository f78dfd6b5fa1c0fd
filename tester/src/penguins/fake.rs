//! Scripted fake bots for referee tests (`tester penguins --fake-bot KIND`): well-behaved, late,
//! illegal, silent, crashing. They read the real protocol with the library's reader.

use std::io::Write;
use std::time::Duration;

use bot::penguins::protocol::{action_to_move, build_state, read_init, read_turn, LineReader};
use bot::penguins::protocol::{Init, Turn};
use bot::penguins::Rules;

/// KIND: `first` (plays the first listed action), `push` (the first listed action that pushes a
/// penguin into the sea under league 2, else one picked by a fixed stride), `late:N:MS` (like `first`, but from its
/// N-th turn, counted from 0, sleeps MS milliseconds first), `busy:N:MS` (the same, but computes
/// for MS milliseconds of its own CPU time instead of sleeping), `illegal` (answers an action
/// not listed), `garbage` (answers a non-command), `silent` (never answers), `exit` (quits at
/// once).
pub fn run(kind: &str) -> Result<(), String> {
    let (name, late_from, late_ms) = parse_kind(kind)?;
    if name == "exit" {
        return Ok(());
    }
    let stdin = std::io::stdin();
    let mut reader = LineReader::new(stdin.lock());
    let init = read_init(&mut reader)?;
    let mut out = std::io::stdout();
    let mut turn_no = 0;
    while let Some(turn) = read_turn(&mut reader, &init)? {
        let answer = match name {
            "silent" => {
                std::thread::sleep(Duration::from_secs(3600));
                continue;
            }
            "illegal" => "MOVE 99 A2".to_string(),
            // Else a listed action picked by a fixed stride, so that games vary enough for
            // pushes to arise.
            "push" => pushing_action(&init, &turn)
                .or_else(|| {
                    let pick = (turn_no * 7 + 3) % turn.actions.len().max(1);
                    turn.actions.get(pick).map(|a| a.text.clone())
                })
                .ok_or("no listed action")?,
            "garbage" => "hello".to_string(),
            _ => {
                if turn_no >= late_from && name == "busy" {
                    spin_cpu(Duration::from_millis(late_ms));
                } else if turn_no >= late_from {
                    std::thread::sleep(Duration::from_millis(late_ms));
                }
                turn.actions
                    .first()
                    .map(|a| a.text.clone())
                    .ok_or("no listed action")?
            }
        };
        writeln!(out, "{answer}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
        turn_no += 1;
    }
    Ok(())
}

fn parse_kind(kind: &str) -> Result<(&str, usize, u64), String> {
    let parts: Vec<&str> = kind.split(':').collect();
    match parts.as_slice() {
        ["first" | "push" | "illegal" | "garbage" | "silent" | "exit"] => {
            Ok((parts[0], usize::MAX, 0))
        }
        [name @ ("late" | "busy"), from, ms] => {
            let from = from.parse().map_err(|_| format!("bad turn in {kind:?}"))?;
            let ms = ms
                .parse()
                .map_err(|_| format!("bad milliseconds in {kind:?}"))?;
            Ok((name, from, ms))
        }
        _ => Err(format!(
            "unknown fake bot {kind:?} (first, push, late:N:MS, busy:N:MS, illegal, garbage, silent, exit)"
        )),
    }
}

/// Computes until the process has used `cpu` more CPU time (however long that takes on the
/// wall clock).
fn spin_cpu(cpu: Duration) {
    use crate::process::cpu_time::process_cpu_time;
    let me = std::process::id();
    let Some(start) = process_cpu_time(me) else {
        return;
    };
    let mut x = 0u64;
    while process_cpu_time(me).is_some_and(|t| t < start + cpu) {
        for _ in 0..10_000 {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }
}

/// The first listed action that pushes a penguin into the sea under league 2.
fn pushing_action(init: &Init, turn: &Turn) -> Option<String> {
    let (state, ids) = build_state(init, turn, Rules::LEAGUE2).ok()?;
    turn.actions.iter().find_map(|action| {
        let (id, to) = action.parsed?;
        let mv = action_to_move(&state, &ids, init.me, id, to);
        state.pushed_by(mv).map(|_| action.text.clone())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bot::penguins::protocol::{init_input, turn_input};
    use bot::penguins::{parse_cell, State};

    #[test]
    fn the_push_bot_finds_the_pushing_action() {
        let cell = |n: &str| parse_cell(n).unwrap();
        let mut fish = [0u8; 64];
        for name in ["A2", "B2", "C2", "D2", "E2", "B5"] {
            fish[cell(name) as usize] = 2;
        }
        let penguins = [(0, cell("A2")), (1, cell("E2"))];
        let state =
            State::from_position(Rules::LEAGUE2, 2, 1, &fish, &penguins, &[0, 0], 0).unwrap();
        let text = init_input(&state, 0) + &turn_input(&state);
        let mut reader = LineReader::new(text.as_bytes());
        let init = read_init(&mut reader).unwrap();
        let turn = read_turn(&mut reader, &init).unwrap().unwrap();
        assert_eq!(pushing_action(&init, &turn).as_deref(), Some("MOVE 0 D2"));
    }
}
