//! Which games to play: a fixed seed list, each seed played once per seat rotation, and the
//! per-game result the tables are built from.

use serde::{Deserialize, Serialize};

use crate::penguins::replay::Replay;

/// One game to play: the board seed, which rotation of the seed's lineup, and the bot per seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Scheduled {
    pub seed: u64,
    pub rotation: usize,
    pub seats: Vec<usize>,
}

/// `games / players` seeds from `first_seed`, each played in all `players` rotations. The lineup
/// spreads the bots over the seats in blocks (2 bots in 4 seats: A A B B) so that no two rotations
/// are the same game; the lineup's first bot shifts with the seed when there are more bots than
/// seats.
pub fn plan(bots: usize, players: usize, games: usize, first_seed: u64) -> Vec<Scheduled> {
    (0..games / players)
        .flat_map(|i| {
            (0..players).map(move |rotation| seating(bots, players, first_seed, i, rotation))
        })
        .collect()
}

/// The game of the plan's `i`-th seed in seat rotation `rotation`.
pub fn seating(
    bots: usize,
    players: usize,
    first_seed: u64,
    i: usize,
    rotation: usize,
) -> Scheduled {
    let lineup: Vec<usize> = (0..players)
        .map(|j| (j * bots / players + i) % bots)
        .collect();
    Scheduled {
        seed: first_seed + i as u64,
        rotation,
        seats: (0..players)
            .map(|j| lineup[(j + rotation) % players])
            .collect(),
    }
}

/// What the tables need from one game (also what a shard's results file holds of it).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameResult {
    pub players: usize,
    pub seed: u64,
    pub rotation: usize,
    /// Bot index per seat.
    pub seats: Vec<usize>,
    /// The exact command per seat (with `{seed}` filled in), to replay the game.
    pub commands: Vec<String>,
    pub final_scores: Vec<u32>,
    /// 1 = best; failed seats last.
    pub ranks: Vec<usize>,
    /// Failure kind per seat (`timeout`, `invalid`, `ended`).
    pub failures: Vec<Option<String>>,
    pub failure_details: Vec<Option<String>>,
    pub turns: usize,
    /// Slowest answer per seat (the first turn included).
    pub max_turn_ms: Vec<f64>,
    /// Per seat: the time of its first turn (the longer limit), if it answered in time.
    pub first_turn_ms: Vec<Option<f64>>,
    /// Per seat: every later turn's time, for the percentiles (in the JSON too, so that a merge
    /// of shards prints the same timing table).
    pub later_turn_ms: Vec<Vec<f64>>,
    /// Per seat: the CPU time of each of those turns, when the system could tell.
    #[serde(default)]
    pub later_turn_cpu_ms: Vec<Vec<Option<f64>>>,
    /// The referee itself could not run the game (e.g. a command would not start).
    pub referee_error: Option<String>,
    /// Every move in turn order as penguin id and cell (`0D4 1C3 ...`), so a merge re-plays the
    /// game to re-check the numbers above.
    pub moves: String,
}

impl GameResult {
    pub fn new(
        game: &Scheduled,
        commands: &[String],
        replay: Result<Replay, String>,
    ) -> GameResult {
        let players = game.seats.len();
        let mut result = GameResult {
            players,
            seed: game.seed,
            rotation: game.rotation,
            seats: game.seats.clone(),
            commands: commands.to_vec(),
            final_scores: vec![0; players],
            ranks: vec![1; players],
            failures: vec![None; players],
            failure_details: vec![None; players],
            turns: 0,
            max_turn_ms: vec![0.0; players],
            first_turn_ms: vec![None; players],
            later_turn_ms: vec![Vec::new(); players],
            later_turn_cpu_ms: vec![Vec::new(); players],
            referee_error: None,
            moves: String::new(),
        };
        match replay {
            Err(e) => result.referee_error = Some(e),
            Ok(replay) => {
                result.final_scores = replay.final_scores;
                result.ranks = replay.ranks;
                for (seat, failure) in replay.failures.into_iter().enumerate() {
                    if let Some(f) = failure {
                        result.failures[seat] = Some(f.kind);
                        result.failure_details[seat] =
                            Some(format!("turn {}: {}", f.turn, f.detail));
                    }
                }
                result.turns = replay.turns.len();
                let moves: Vec<String> = (replay.turns.iter())
                    .map(|t| t.action.trim_start_matches("MOVE ").replace(' ', ""))
                    .collect();
                result.moves = moves.join(" ");
                for t in &replay.turns {
                    result.max_turn_ms[t.player] = result.max_turn_ms[t.player].max(t.time_ms);
                    // A seat's first recorded turn is the one that had the first-turn limit.
                    match result.first_turn_ms[t.player] {
                        None => result.first_turn_ms[t.player] = Some(t.time_ms),
                        Some(_) => {
                            result.later_turn_ms[t.player].push(t.time_ms);
                            result.later_turn_cpu_ms[t.player].push(t.cpu_ms);
                        }
                    }
                }
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seed_is_played_in_every_rotation_without_duplicates() {
        for (bots, players) in [(2, 2), (2, 3), (2, 4), (3, 2), (3, 4), (4, 4), (5, 3)] {
            let plan = plan(bots, players, 12 * players, 100);
            assert_eq!(plan.len(), 12 * players);
            for chunk in plan.chunks(players) {
                let seed = chunk[0].seed;
                assert!(chunk.iter().all(|g| g.seed == seed));
                // Each seat rotation is a distinct lineup, and every seat sees every lineup bot.
                for (i, a) in chunk.iter().enumerate() {
                    for b in &chunk[i + 1..] {
                        assert_ne!(a.seats, b.seats, "{bots} bots {players} seats");
                    }
                }
                for seat in 0..players {
                    let mut here: Vec<usize> = chunk.iter().map(|g| g.seats[seat]).collect();
                    let mut lineup = chunk[0].seats.clone();
                    here.sort();
                    lineup.sort();
                    assert_eq!(here, lineup);
                }
            }
            // With at least as many seats as bots, every bot plays.
            if bots <= players {
                for bot in 0..bots {
                    assert!(plan[0].seats.contains(&bot));
                }
            }
        }
        assert_eq!(plan(2, 4, 7, 1).len(), 4, "rounded down to whole rotations");
    }
}
