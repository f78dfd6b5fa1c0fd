//! `tester` commands whose output is closed (`tester ... | head -1`) end quietly, as SIGPIPE ends
//! other Unix tools, with no panic message; the Splitter session stops its games first.

use std::process::Command;
use std::time::{Duration, Instant};
use test_support::pipe::{with_closed_stdout, SIGPIPE};

const TESTER: &str = env!("CARGO_BIN_EXE_tester");

#[test]
fn a_closed_output_ends_tester_commands_quietly() {
    let out = std::env::temp_dir().join(format!("pipe-honey-{}", std::process::id()));
    let fake = format!("{TESTER} penguins --fake-bot first");
    let bots = [format!("a={fake}"), format!("b={fake}")];
    let runs: [Vec<&str>; 3] = [
        vec![
            "honey",
            "gen",
            "--seed",
            "5",
            "--out",
            out.to_str().unwrap(),
        ],
        vec![
            "arena", "--quiet", "--games", "2", "--bot", &bots[0], "--bot", &bots[1],
        ],
        // 5000 failing games, kept going, take over a minute: the session must stop when it
        // first writes a game's lines.
        vec![
            "splitter",
            "--games",
            "5000",
            "--keep-going",
            "--seed",
            "p",
            "--command",
            "read h; echo hello",
        ],
    ];
    for args in runs {
        let started = Instant::now();
        let (ended, stderr) = with_closed_stdout(Command::new(TESTER).args(&args));
        assert_eq!(ended, Ok(SIGPIPE), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(started.elapsed() < Duration::from_secs(10), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(out);
}
