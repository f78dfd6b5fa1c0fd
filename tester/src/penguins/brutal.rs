//! The cg-brutaltester referee interface: `-p1 CMD -p2 CMD [-p3 CMD -p4 CMD] [-d seed=N] [-l FILE]`;
//! prints one score per seat per line (-1 for a seat that failed).

use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bot::penguins::Rules;

use super::referee::RefereeConfig;

#[derive(Debug, PartialEq, Eq)]
pub struct BrutalArgs {
    pub players: Vec<String>,
    pub seed: Option<u64>,
    pub log: Option<String>,
}

/// Parse the raw arguments; the error names the offending argument.
pub fn parse(raw: &[String]) -> Result<BrutalArgs, String> {
    let mut seats: [Option<String>; 4] = Default::default();
    let mut seed = None;
    let mut log = None;
    let mut i = 0;
    while i < raw.len() {
        let flag = raw[i].as_str();
        let value = raw
            .get(i + 1)
            .ok_or_else(|| format!("{flag} needs a value"))?;
        match flag {
            "-p1" | "-p2" | "-p3" | "-p4" => {
                let seat = (flag.as_bytes()[2] - b'1') as usize;
                seats[seat] = Some(value.clone());
            }
            "-d" => {
                // brutaltester passes "seed=N" (possibly among other key=value pairs).
                for pair in value.split([' ', ',', ';']).filter(|p| !p.is_empty()) {
                    if let Some(n) = pair.strip_prefix("seed=") {
                        let n = n
                            .parse::<i64>()
                            .map_err(|_| format!("-d: bad seed {n:?}"))?;
                        seed = Some(n as u64);
                    }
                }
            }
            "-l" => log = Some(value.clone()),
            other => {
                return Err(format!(
                    "unknown argument {other:?} (expected -p1..-p4, -d, -l)"
                ))
            }
        }
        i += 2;
    }
    let count = seats.iter().take_while(|s| s.is_some()).count();
    if count < 2 || seats[count..].iter().any(Option::is_some) {
        return Err("give -p1 and -p2 (and optionally -p3, then -p4)".into());
    }
    Ok(BrutalArgs {
        players: seats.into_iter().flatten().collect(),
        seed,
        log,
    })
}

pub fn run(raw: &[String], rules: &str, first_ms: u64, turn_ms: u64) -> ExitCode {
    let args = match parse(raw) {
        Ok(a) => a,
        Err(e) => return crate::fail(format!("tester penguins: {e}")),
    };
    let rules = match Rules::parse(rules) {
        Ok(r) => r,
        Err(e) => return crate::fail(format!("--rules: {e}")),
    };
    let seed = args.seed.unwrap_or_else(|| {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        nanos % 1_000_000_007
    });
    eprintln!("tester penguins: seed {seed}");
    let config = RefereeConfig {
        seed,
        rules,
        first_turn: Duration::from_millis(first_ms),
        turn: Duration::from_millis(turn_ms),
        cpu_time: false,
    };
    let (replay, _log) = match super::referee_game(&config, &args.players, &[("-l", &args.log)]) {
        Ok(played) => played,
        Err(code) => return code,
    };
    for score in replay.brutaltester_scores() {
        println!("{score}");
    }
    for (seat, failure) in replay.failures.iter().enumerate() {
        if let Some(f) = failure {
            eprintln!("seat {seat}: {} at turn {}: {}", f.kind, f.turn, f.detail);
        }
    }
    if let Err(e) = super::save(&replay, args.log.as_deref(), None) {
        return crate::fail(e);
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn parses_the_brutaltester_form() {
        let args = parse(&strings(&[
            "-p1", "a x", "-p2", "b", "-d", "seed=42", "-l", "g.json",
        ]))
        .unwrap();
        assert_eq!(args.players, strings(&["a x", "b"]));
        assert_eq!(args.seed, Some(42));
        assert_eq!(args.log.as_deref(), Some("g.json"));
        let four = parse(&strings(&["-p2", "b", "-p1", "a", "-p4", "d", "-p3", "c"])).unwrap();
        assert_eq!(four.players, strings(&["a", "b", "c", "d"]));
    }

    #[test]
    fn rejects_gaps_unknown_flags_and_missing_values() {
        assert!(parse(&strings(&["-p1", "a"])).is_err());
        assert!(parse(&strings(&["-p1", "a", "-p3", "c"])).is_err());
        assert!(parse(&strings(&["-p1", "a", "-p2", "b", "-x", "1"]))
            .unwrap_err()
            .contains("-x"));
        assert!(parse(&strings(&["-p1", "a", "-p2"]))
            .unwrap_err()
            .contains("-p2 needs"));
        assert!(parse(&strings(&["-p1", "a", "-p2", "b", "-d", "seed=zz"])).is_err());
    }
}
