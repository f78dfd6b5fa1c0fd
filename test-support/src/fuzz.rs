//! Settings shared by every property-based ("fuzz") test of the workspace, so one variable scales
//! them all: `FUZZ_CASES` cases per property (default 256, what CI runs; e.g. `FUZZ_CASES=100000
//! cargo test --release fuzz` for a long run), from the seed `FUZZ_SEED` (default: drawn from the
//! clock). The seed is printed, and a failing test shows it with the smallest failing input.

use proptest::test_runner::{Config, RngSeed};

/// Cases per property when `FUZZ_CASES` is not set.
pub const CI_CASES: u32 = 256;

/// The proptest settings for the property `name`.
pub fn config(name: &str) -> Config {
    let cases = env_number("FUZZ_CASES").map_or(CI_CASES, |n| n.clamp(1, u32::MAX as u64) as u32);
    let seed = env_number("FUZZ_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    eprintln!("fuzz {name}: FUZZ_SEED={seed} FUZZ_CASES={cases}");
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        // No regression files written into the source tree; the printed seed reproduces a run.
        failure_persistence: None,
        ..Config::default()
    }
}

/// A variable's value as a number; a value that is not one is an error worth stopping for.
fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    Some(
        text.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text:?} is not a whole number")),
    )
}
