//! "A bound is a bound": every claim the solver makes about the optimum (`optimal: N`, `best
//! bound: B`) against literal exhaustive play, on tiny cases whose lists repeat entries and nest
//! them inside each other, at budgets from a millisecond up, through the same entry point as
//! `bot scruffle` (`Case::solve_timed`).

use super::input::{Board, Cell};
use super::solver::Budget;
use super::{exhaustive, grid, Case};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::{Duration, Instant};

/// A board of 1x1 to 4x3 cells: a quarter of them uniform (one digit, or all `D` or all `T`),
/// the rest mixed, obstacles and zeros included.
fn tiny_board(rng: &mut Xoshiro256PlusPlus) -> Board {
    let (width, height) = (rng.random_range(1..=4), rng.random_range(1..=3));
    let mixed = |rng: &mut Xoshiro256PlusPlus| match rng.random_range(0..12) {
        0 => Cell::Obstacle,
        1 => Cell::Double,
        2 => Cell::Triple,
        _ => Cell::Letter(rng.random_range(0..=9)),
    };
    let uniform = match rng.random_range(0..8) {
        0 => Some(Cell::Triple),
        1 => Some(Cell::Double),
        2 => Some(Cell::Letter(rng.random_range(1..=9))),
        _ => None,
    };
    let cells = (0..width * height)
        .map(|_| uniform.unwrap_or_else(|| mixed(rng)))
        .collect();
    Board {
        width,
        height,
        cells,
    }
}

/// 1-6 entries around a base word over A, B and Z: copies of earlier entries, pieces of the base
/// (so entries nest inside each other and inside the base) and a few strangers.
fn nested_list(rng: &mut Xoshiro256PlusPlus) -> Vec<Vec<u8>> {
    let letter = |rng: &mut Xoshiro256PlusPlus| b"AAABBZ"[rng.random_range(0..6)];
    let base: Vec<u8> = (0..rng.random_range(1..=4)).map(|_| letter(rng)).collect();
    let mut words: Vec<Vec<u8>> = vec![base.clone()];
    for _ in 1..rng.random_range(1..=6) {
        let word = match rng.random_range(0..10) {
            0..4 => words[rng.random_range(0..words.len())].clone(),
            4..8 => {
                let a = rng.random_range(0..base.len());
                let b = rng.random_range(a + 1..=base.len());
                base[a..b].to_vec()
            }
            _ => (0..rng.random_range(1..=3)).map(|_| letter(rng)).collect(),
        };
        words.push(word);
    }
    // The base is not always first, so the copies and pieces are not always later entries.
    let at = rng.random_range(0..words.len());
    words.swap(0, at);
    words
}

/// What a run of `check_claims` saw.
#[derive(Debug, Default)]
struct Tally {
    cases: u64,
    /// Two runs per case.
    runs: u64,
    optimal: u64,
    bounded: u64,
    silent: u64,
    /// Cases where the plan reached the exhaustive optimum.
    reached: u64,
}

/// Cases `first..first + count`: each gets a budget log-uniform in [1 ms, `max_seconds`] and
/// runs like `bot scruffle` (whose deadline falls before 25 ms, so the shortest budgets stop
/// every phase at once), then runs again with the solver's own deadline a thousandth of that
/// budget away (1 us to `max_seconds` ms: the exact stage cut short at any point). Every claim
/// of both runs is checked against the exhaustive optimum; panics at the first false claim,
/// naming the seed.
fn check_claims(first: u64, count: u64, max_seconds: f64) -> Tally {
    let mut tally = Tally::default();
    for seed in first..first + count {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let board = tiny_board(&mut rng);
        let words = nested_list(&mut rng);
        let seconds = 10f64.powf(rng.random_range(-3.0..=max_seconds.log10()));
        let budget = Duration::from_secs_f64(seconds);
        let (case, timed, _) =
            Case::solve_timed(&board, words.clone(), Instant::now(), budget, seed);
        let optimum = exhaustive::optimum(&case.layout, &case.words);
        let direct = case.solve(seed, Budget::until(Instant::now() + budget / 1000));
        for (run, solution) in [("timed", timed), ("direct", direct)] {
            let what = format!(
                "seed {seed}, {run}, {seconds:.4} s, words {:?}",
                strings(&words)
            );
            let stats = &solution.stats;
            assert_eq!(stats.broken_claim, None, "{what}");
            let replayed = grid::replay(&case.layout, &case.words, &solution.plays);
            assert_eq!(replayed, Ok(solution.score), "{what}");
            assert!(solution.score <= optimum, "{what}: plan above {optimum}");
            if stats.proven_optimal {
                assert_eq!(solution.score, optimum, "{what}: a false optimum");
                tally.optimal += 1;
            } else if let Some(bound) = stats.bound {
                assert!(bound >= optimum, "{what}: best bound {bound} < {optimum}");
                tally.bounded += 1;
            } else {
                tally.silent += 1;
            }
            tally.reached += (solution.score == optimum) as u64;
            tally.runs += 1;
        }
        tally.cases += 1;
    }
    tally
}

fn strings(words: &[Vec<u8>]) -> Vec<&str> {
    words
        .iter()
        .map(|w| std::str::from_utf8(w).expect("ASCII"))
        .collect()
}

/// The CI-sized twin: 500 cases at 1-100 ms (and 1-100 us).
#[test]
fn claims_hold_against_exhaustive_play_with_repeated_and_nested_entries() {
    let tally = check_claims(0, 500, 0.1);
    eprintln!("{tally:?}");
    assert!(tally.optimal > 400, "{tally:?}");
    assert!(
        tally.bounded + tally.silent > 0,
        "no cut-short run: {tally:?}"
    );
}

/// The full twin (3 minutes on one core, 10 on a busy machine): `SCRUFFLE_CLAIM_CASES` cases
/// (10,000 by default) from seed `SCRUFFLE_CLAIM_SEED` (1,000,000), budgets 1 ms to 1 s.
/// `cargo test --release -p bot --lib claims_hold_on_ten_thousand -- --ignored --nocapture`
#[test]
#[ignore]
fn claims_hold_on_ten_thousand_cases_at_budgets_up_to_a_second() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (first, count) = (
        env("SCRUFFLE_CLAIM_SEED", 1_000_000),
        env("SCRUFFLE_CLAIM_CASES", 10_000),
    );
    let started = Instant::now();
    let tally = check_claims(first, count, 1.0);
    eprintln!(
        "seeds {first}..{}: {tally:?}, 0 false claims, {:.0} s",
        first + count,
        started.elapsed().as_secs_f64()
    );
}

/// The bounds themselves on the same lists, with nothing cut by a clock: U2, U3 and every sweep
/// of U4 at least the exhaustive optimum, and the exact search's bound after 1 to 8 nodes too.
#[test]
fn every_bound_holds_on_lists_with_repeated_and_nested_entries() {
    use super::bounds::U4Params;
    use super::plan::Context;
    let far = Instant::now() + Duration::from_secs(3600);
    let mut below_u3 = 0;
    for seed in 0..300u64 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(50_000 + seed);
        let board = tiny_board(&mut rng);
        let words = nested_list(&mut rng);
        let case = Case::new(&board, words);
        let optimum = exhaustive::optimum(&case.layout, &case.words);
        let what = format!("seed {seed}, words {:?}", strings(&case.words));
        let u4 = case.u4(
            0,
            U4Params {
                iterations: 60,
                deadline: None,
                parallel: false,
            },
        );
        let simple = u4.simple;
        assert!(
            simple.u2 >= optimum && simple.u3 >= optimum,
            "{what}: {simple:?} < {optimum}"
        );
        for (k, &v) in u4.history.iter().enumerate() {
            assert!(
                v + 1e-6 >= optimum as f64,
                "{what}: sweep {k} gives {v} < {optimum}"
            );
        }
        below_u3 += (u4.value < simple.u3) as usize;
        let ctx = Context::new(&case.layout, &case.words, &case.table);
        let nodes = rng.random_range(1..=8);
        let exact = super::exact::solve_board(&ctx, &[], far, nodes);
        let bound = exact
            .bound
            .expect("a search with nodes to spend bounds the optimum");
        assert!(
            bound >= optimum,
            "{what}: {nodes} nodes bound {bound} < {optimum}"
        );
        if exact.proven {
            assert_eq!(exact.score, optimum, "{what}");
        }
    }
    assert!(below_u3 > 50, "U4 should often beat U3 here: {below_u3}");
}

/// A board of `side` x `side` cells of `cell`, and the words A, AA, ... (`side` letters), `side`
/// times each: every entry nests in the longer ones and repeats.
fn uniform_case(side: usize, cell: Cell) -> (Board, Vec<Vec<u8>>) {
    let board = Board {
        width: side,
        height: side,
        cells: vec![cell; side * side],
    };
    let words = (1..=side)
        .flat_map(|len| std::iter::repeat_n(vec![b'A'; len], side))
        .collect();
    (board, words)
}

/// Known answers: on 4x4 and 6x6 boards of `5` every entry of such a list fits at its best
/// position at once (a plan of U1, 200 and 630, which a second's run finds), and a run cut
/// short claimed 195 and 615 optimal. On 16x16 boards, a short run's claims stay above what a
/// second's run finds.
#[test]
fn uniform_boards_of_nested_copies_get_no_false_claim() {
    let cases = [
        (4, Cell::Letter(5), Some(200)),
        (6, Cell::Letter(5), Some(630)),
        (16, Cell::Letter(5), None),
        (16, Cell::Triple, None),
    ];
    for (side, cell, optimum) in cases {
        let (board, words) = uniform_case(side, cell);
        let second = Duration::from_secs(1);
        let (_, long, _) = Case::solve_timed(&board, words.clone(), Instant::now(), second, 1);
        if let Some(optimum) = optimum {
            assert_eq!(long.score, optimum, "{side}x{side}: a second's run");
        }
        let best = optimum.unwrap_or(long.score);
        let budgets: &[f64] = match side {
            16 => &[0.001, 0.05, 0.2],
            _ => &[0.001, 0.005, 0.02, 0.05],
        };
        for &seconds in budgets {
            let budget = Duration::from_secs_f64(seconds);
            let (case, short, _) =
                Case::solve_timed(&board, words.clone(), Instant::now(), budget, 1);
            let direct = case.solve(1, Budget::until(Instant::now() + budget / 1000));
            for solution in [short, direct] {
                let what = format!(
                    "{side}x{side} {cell:?} at {seconds} s: {:?}",
                    solution.stats
                );
                assert_eq!(solution.stats.broken_claim, None, "{what}");
                if solution.stats.proven_optimal {
                    assert!(solution.score >= best, "{what}: optimal {}", solution.score);
                }
                if let Some(bound) = solution.stats.bound {
                    assert!(bound >= best, "{what}: bound {bound} < {best}");
                }
            }
        }
    }
}
