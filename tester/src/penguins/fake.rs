//! Scripted fake bots for referee tests (`tester penguins --fake-bot KIND`): well-behaved, late,
//! illegal, silent, crashing. They read the real protocol with the library's reader.

use std::io::Write;
use std::time::Duration;

use bot::penguins::protocol::{read_init, read_turn, LineReader};

/// KIND: `first` (plays the first listed action), `late:N:MS` (like `first`, but from its N-th
/// turn, counted from 0, waits MS milliseconds first), `illegal` (answers an action not listed),
/// `garbage` (answers a non-command), `silent` (never answers), `exit` (quits at once).
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
            "garbage" => "hello".to_string(),
            _ => {
                if turn_no >= late_from {
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
        ["first" | "illegal" | "garbage" | "silent" | "exit"] => Ok((parts[0], usize::MAX, 0)),
        ["late", from, ms] => {
            let from = from.parse().map_err(|_| format!("bad turn in {kind:?}"))?;
            let ms = ms
                .parse()
                .map_err(|_| format!("bad milliseconds in {kind:?}"))?;
            Ok(("late", from, ms))
        }
        _ => Err(format!(
            "unknown fake bot {kind:?} (first, late:N:MS, illegal, garbage, silent, exit)"
        )),
    }
}
