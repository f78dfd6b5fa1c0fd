//! Turn-time figures per bot from the times the referee recorded: later-turn percentiles on the
//! wall clock and in CPU time, the counts over a threshold (a turn slow on the wall clock but not
//! in CPU time was descheduled, not too slow), and the slowest first turn.

use serde::Serialize;

use super::schedule::GameResult;

#[derive(Clone, Debug, Serialize)]
pub struct TimingLine {
    pub name: String,
    /// Turns after each seat's first one, answered in time (a timeout is counted in `timeouts`).
    pub later_turns: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
    pub max_ms: f64,
    /// Later turns slower than `slow_ms`.
    pub slow_turns: usize,
    pub slow_ms: f64,
    /// Later turns with a CPU-time reading, and their CPU-time figures.
    pub cpu_turns: usize,
    pub cpu_p50_ms: f64,
    pub cpu_p999_ms: f64,
    pub cpu_max_ms: f64,
    /// Later turns that used more than `slow_ms` of CPU time (too slow)...
    pub cpu_slow_turns: usize,
    /// ... and those slower than `slow_ms` on the wall clock only (descheduled).
    pub descheduled_turns: usize,
    pub first_turns: usize,
    pub max_first_ms: f64,
}

/// Nearest-rank percentile: the smallest value with at least `p`% of the values at or below
/// it (`p` in 0..=100; 0 gives the minimum). `None` for no values. Reorders `values`.
pub fn percentile(values: &mut [f64], p: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let rank = (p / 100.0 * values.len() as f64).ceil() as usize;
    let index = rank.clamp(1, values.len()) - 1;
    let (_, value, _) = values.select_nth_unstable_by(index, f64::total_cmp);
    Some(*value)
}

/// The timing line of bot `bot` over its seats in `games` (referee errors left out).
pub fn timing_line(name: &str, bot: usize, games: &[GameResult], slow_ms: f64) -> TimingLine {
    let mut later = Vec::new();
    let mut pairs = Vec::new();
    let mut firsts = Vec::new();
    for game in games.iter().filter(|g| g.referee_error.is_none()) {
        for seat in (0..game.players).filter(|&s| game.seats[s] == bot) {
            later.extend_from_slice(&game.later_turn_ms[seat]);
            let cpu = game.later_turn_cpu_ms.get(seat).map_or(&[][..], |c| c);
            for (&wall, &cpu) in game.later_turn_ms[seat].iter().zip(cpu) {
                pairs.extend(cpu.map(|cpu| (wall, cpu)));
            }
            firsts.extend(game.first_turn_ms[seat]);
        }
    }
    let mut cpu: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let at = |values: &mut Vec<f64>, p: f64| percentile(values, p).unwrap_or(0.0);
    TimingLine {
        name: name.to_string(),
        later_turns: later.len(),
        slow_turns: later.iter().filter(|&&t| t > slow_ms).count(),
        slow_ms,
        p50_ms: at(&mut later, 50.0),
        p99_ms: at(&mut later, 99.0),
        p999_ms: at(&mut later, 99.9),
        max_ms: at(&mut later, 100.0),
        cpu_turns: cpu.len(),
        cpu_slow_turns: cpu.iter().filter(|&&t| t > slow_ms).count(),
        descheduled_turns: pairs
            .iter()
            .filter(|&&(wall, cpu)| wall > slow_ms && cpu <= slow_ms)
            .count(),
        cpu_p50_ms: at(&mut cpu, 50.0),
        cpu_p999_ms: at(&mut cpu, 99.9),
        cpu_max_ms: at(&mut cpu, 100.0),
        first_turns: firsts.len(),
        max_first_ms: firsts.iter().copied().fold(0.0, f64::max),
    }
}

pub fn print_timing(lines: &[TimingLine]) {
    let Some(first) = lines.first() else {
        return;
    };
    let over = format!(">{}", first.slow_ms);
    println!(
        "{:<12} {:>11} {:>7} {:>7} {:>7} {:>7} {:>6} | {:>7} {:>7} {:>7} {:>6} {:>7} | {:>12}",
        "turn times",
        "later turns",
        "p50 ms",
        "p99",
        "p99.9",
        "max",
        over,
        "cpu p50",
        "p99.9",
        "max",
        over,
        "desched",
        "max first ms"
    );
    for t in lines {
        println!(
            "{:<12} {:>11} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>6} | {:>7.2} {:>7.2} {:>7.2} {:>6} {:>7} | {:>12.1}",
            t.name,
            t.later_turns,
            t.p50_ms,
            t.p99_ms,
            t.p999_ms,
            t.max_ms,
            t.slow_turns,
            t.cpu_p50_ms,
            t.cpu_p999_ms,
            t.cpu_max_ms,
            t.cpu_slow_turns,
            t.descheduled_turns,
            t.max_first_ms
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The textbook definition: sort, then take the value at rank ceil(p/100 * n), 1-based.
    fn sorted_percentile(values: &[f64], p: f64) -> Option<f64> {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        (1..=n)
            .find(|&rank| rank as f64 * 100.0 >= p * n as f64)
            .map(|rank| sorted[rank - 1])
    }

    #[test]
    fn percentile_agrees_with_the_sort_based_definition() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        for case in 0..500 {
            let n = rng.random_range(1..300);
            // Few distinct values half of the time, so ties are exercised.
            let values: Vec<f64> = (0..n)
                .map(|_| match case % 2 {
                    0 => rng.random_range(0.0..50.0),
                    _ => rng.random_range(0..5) as f64,
                })
                .collect();
            for p in [0.0, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 100.0] {
                let mut work = values.clone();
                assert_eq!(
                    percentile(&mut work, p),
                    sorted_percentile(&values, p),
                    "case {case}, n {n}, p {p}"
                );
            }
        }
        assert_eq!(percentile(&mut [], 50.0), None);
        assert_eq!(percentile(&mut [3.0, 1.0, 2.0, 4.0], 50.0), Some(2.0));
        assert_eq!(percentile(&mut [3.0, 1.0, 2.0, 4.0], 99.0), Some(4.0));
    }

    #[test]
    fn timing_counts_later_turns_over_the_threshold_and_the_slowest_first_turn() {
        let mut game = GameResult {
            players: 2,
            seed: 1,
            rotation: 0,
            seats: vec![0, 1],
            commands: vec![String::new(); 2],
            final_scores: vec![0; 2],
            ranks: vec![1, 2],
            failures: vec![None; 2],
            failure_details: vec![None; 2],
            turns: 6,
            max_turn_ms: vec![0.0; 2],
            first_turn_ms: vec![Some(700.0), Some(20.0)],
            later_turn_ms: vec![vec![10.0, 46.0, 30.0, 60.0], vec![1.0, 2.0]],
            later_turn_cpu_ms: vec![vec![Some(9.0), Some(40.0), None, Some(50.0)], vec![]],
            referee_error: None,
            moves: String::new(),
        };
        let line = timing_line("a", 0, std::slice::from_ref(&game), 45.0);
        assert_eq!((line.later_turns, line.slow_turns), (4, 2));
        assert_eq!((line.p50_ms, line.p99_ms, line.max_ms), (30.0, 60.0, 60.0));
        // CPU: 9, 40, 50 known; 46 ms on the wall with 40 of CPU was descheduled, 60 with 50 of
        // CPU was too slow.
        assert_eq!((line.cpu_turns, line.cpu_slow_turns), (3, 1));
        assert_eq!(line.descheduled_turns, 1);
        assert_eq!((line.cpu_p50_ms, line.cpu_max_ms), (40.0, 50.0));
        assert_eq!((line.first_turns, line.max_first_ms), (1, 700.0));
        // A game the referee could not run contributes nothing.
        game.referee_error = Some("x".into());
        let line = timing_line("a", 0, &[game], 45.0);
        assert_eq!((line.later_turns, line.first_turns), (0, 0));
    }
}
