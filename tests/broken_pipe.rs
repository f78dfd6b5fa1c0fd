//! `bot` commands whose output is closed (`bot ... | head -1`) end quietly, killed by SIGPIPE as
//! other Unix tools are, with nothing on stderr (no panic message).

use std::process::Command;
use test_support::pipe::{with_closed_stdout, SIGPIPE};

const BOT: &str = env!("CARGO_BIN_EXE_bot");

#[test]
fn a_closed_output_ends_bot_commands_quietly() {
    let grid = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/crossword/test_cases/15x15_1.cwg"
    );
    for args in [
        vec!["crossword", "rate", grid],
        vec![
            "bench",
            "penguins",
            "--positions",
            "1",
            "--nodes",
            "100",
            "--playouts",
            "10",
        ],
        vec![
            "bench",
            "honey",
            "--levels",
            "1",
            "--vocab",
            "100",
            "--load-runs",
            "1",
        ],
    ] {
        let (ended, stderr) = with_closed_stdout(Command::new(BOT).args(&args));
        assert_eq!(ended, Ok(SIGPIPE), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
