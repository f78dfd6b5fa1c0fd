//! The arena's fixed plan, as data: the configuration that decides every game (bots, seeds,
//! limits, rules, player counts or the SPRT pair), the games in plan order and where a played game
//! sits in it. The live run, a shard and the merge all walk the same plan.

use serde::{Deserialize, Serialize};

use super::schedule::{plan as seatings, seating, GameResult, Scheduled};
use super::sprt::SprtConfig;
use super::BotSpec;

/// Everything that decides the games and the report; nothing about how they are run (workers,
/// output files, shard).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanConfig {
    pub bots: Vec<BotSpec>,
    pub first_seed: u64,
    pub first_turn_ms: u64,
    pub turn_ms: u64,
    pub slow_ms: f64,
    /// Answers judged by CPU time instead of the wall clock.
    #[serde(default)]
    pub cpu_time: bool,
    pub rules: String,
    pub plan: Plan,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Plan {
    /// Per player count, `games / players` seeds each in every seat rotation.
    Fixed { players: Vec<usize>, games: usize },
    /// Bot `a` against bot `b`, seeds in both seatings, checked after every round of
    /// `round_games` games until a verdict or `max_games`.
    Sprt {
        a: usize,
        b: usize,
        test: SprtConfig,
        max_games: usize,
        round_games: usize,
    },
}

/// A part of the plan reported together: one player count's section, or one SPRT round.
pub struct Block {
    pub players: usize,
    /// 1-based SPRT round.
    pub round: Option<usize>,
    /// (plan index, game), in plan order.
    pub games: Vec<(usize, Scheduled)>,
}

impl PlanConfig {
    /// A plan `tester arena` can play (also checked when a file brings it): bots, player counts
    /// and game counts within the options' bounds, every seed small enough for `{seed}`.
    pub fn check(&self) -> Result<(), String> {
        let max_games = super::MAX_GAMES as usize;
        let names = self.bots.iter().map(|b| b.name.as_str());
        if self.bots.len() < 2
            || names
                .clone()
                .enumerate()
                .any(|(i, n)| names.clone().take(i).any(|m| m == n))
        {
            return Err("at least two bots, each with its own name".into());
        }
        let limits = [self.first_turn_ms, self.turn_ms];
        let max_ms = bot::cli::args::MAX_SECONDS * 1000;
        if limits.iter().any(|ms| !(1..=max_ms).contains(ms))
            || !(0.0..=max_ms as f64).contains(&self.slow_ms)
        {
            return Err("time limits outside 1 ms..one day".into());
        }
        match &self.plan {
            Plan::Fixed { players, games } => {
                if players.is_empty() || players.iter().any(|p| !(2..=4).contains(p)) {
                    return Err(format!("--players {players:?}: each must be 2, 3 or 4"));
                }
                if let Some((i, p)) =
                    (players.iter().enumerate()).find(|(i, p)| players[..*i].contains(p))
                {
                    return Err(format!(
                        "--players: {p} is given twice (position {})",
                        i + 1
                    ));
                }
                if *games > max_games {
                    return Err(format!("--games {games}: at most {max_games}"));
                }
                if let Some(p) = players.iter().find(|&&p| games / p == 0) {
                    return Err(format!(
                        "--games {games} is fewer than one rotation of {p} seats"
                    ));
                }
            }
            Plan::Sprt {
                a,
                b,
                test,
                max_games: most,
                round_games,
            } => {
                if a == b || *a >= self.bots.len() || *b >= self.bots.len() {
                    return Err("--sprt: A and B must be two of the bots".into());
                }
                SprtConfig::new(test.elo0, test.elo1, test.alpha, test.beta)?;
                if !(1..=max_games).contains(most) {
                    return Err(format!("--max-games {most}: from 1 to {max_games}"));
                }
                if !(2..=max_games).contains(round_games) || round_games % 2 == 1 {
                    return Err(format!(
                        "--round-games {round_games}: even, from 2 to {max_games}"
                    ));
                }
            }
        }
        // Every seed of the plan, times 10 plus a seat, must fit (`{seed}` in a command).
        let last = self.first_seed.checked_add(self.len() as u64);
        if last.is_none_or(|s| s > u64::MAX / 10) {
            return Err(format!(
                "--seed {}: too large for this plan",
                self.first_seed
            ));
        }
        Ok(())
    }

    /// The sections of a fixed plan, or SPRT rounds `first..=last` (1-based).
    pub fn blocks(&self, rounds: Option<(usize, usize)>) -> Vec<Block> {
        match &self.plan {
            Plan::Fixed { players, games } => {
                let mut next = 0;
                players
                    .iter()
                    .map(|&p| {
                        let plan = seatings(self.bots.len(), p, *games, self.first_seed);
                        let start = next;
                        next += plan.len();
                        Block {
                            players: p,
                            round: None,
                            games: (start..).zip(plan).collect(),
                        }
                    })
                    .collect()
            }
            Plan::Sprt { round_games, .. } => {
                let (first, last) = rounds.unwrap_or((1, self.rounds()));
                (first..=last)
                    .map(|round| Block {
                        players: 2,
                        round: Some(round),
                        games: ((round - 1) * round_games..round * round_games)
                            .map(|i| (i, self.sprt_game(i)))
                            .collect(),
                    })
                    .collect()
            }
        }
    }

    /// SPRT rounds that reach `max_games` (0 for a fixed plan).
    pub fn rounds(&self) -> usize {
        match &self.plan {
            Plan::Fixed { .. } => 0,
            Plan::Sprt {
                max_games,
                round_games,
                ..
            } => max_games.div_ceil(*round_games),
        }
    }

    /// Plan index range of SPRT rounds `first..=last`.
    pub fn round_range(&self, first: usize, last: usize) -> std::ops::Range<usize> {
        match &self.plan {
            Plan::Fixed { .. } => 0..0,
            Plan::Sprt { round_games, .. } => (first - 1) * round_games..last * round_games,
        }
    }

    /// Games in the plan (every round of an SPRT).
    pub fn len(&self) -> usize {
        match &self.plan {
            Plan::Fixed { .. } => self.sections().map(|(_, _, n)| n).sum(),
            Plan::Sprt { round_games, .. } => self.rounds() * round_games,
        }
    }

    /// Per section of a fixed plan: (players, first plan index, games).
    fn sections(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let (players, games) = match &self.plan {
            Plan::Fixed { players, games } => (players.as_slice(), *games),
            Plan::Sprt { .. } => (&[][..], 0),
        };
        players.iter().scan(0, move |start, &p| {
            let n = games / p * p;
            *start += n;
            Some((p, *start - n, n))
        })
    }

    /// Game `i` of an SPRT plan: seed `first_seed + i / 2`, A first on even `i`.
    fn sprt_game(&self, i: usize) -> Scheduled {
        let (a, b) = match self.plan {
            Plan::Sprt { a, b, .. } => (a, b),
            Plan::Fixed { .. } => (0, 1),
        };
        Scheduled {
            seed: self.first_seed + (i / 2) as u64,
            rotation: i % 2,
            seats: if i.is_multiple_of(2) {
                vec![a, b]
            } else {
                vec![b, a]
            },
        }
    }

    /// Shards are cut by seed, so the seatings of a seed are played on one machine (as engine
    /// testers keep game pairs together): the seed's number in the plan.
    pub fn unit(&self, index: usize) -> usize {
        match &self.plan {
            Plan::Sprt { .. } => index / 2,
            Plan::Fixed { .. } => {
                let mut seeds_before = 0;
                for (p, start, n) in self.sections() {
                    if index < start + n {
                        return seeds_before + (index - start) / p;
                    }
                    seeds_before += n / p;
                }
                seeds_before + index
            }
        }
    }

    /// Where a played game sits in the plan (by player count, seed and rotation), if anywhere.
    pub fn index_of(&self, game: &GameResult) -> Option<usize> {
        let offset = usize::try_from(game.seed.checked_sub(self.first_seed)?).ok()?;
        match &self.plan {
            Plan::Sprt { .. } => {
                let i = offset.checked_mul(2)?.checked_add(game.rotation)?;
                (game.players == 2 && game.rotation < 2 && i < self.len()).then_some(i)
            }
            Plan::Fixed { .. } => {
                let (p, start, n) = self.sections().find(|s| s.0 == game.players)?;
                let i = offset.checked_mul(p)?.checked_add(game.rotation)?;
                (game.rotation < p && i < n).then_some(start + i)
            }
        }
    }

    /// The game at plan index `index` (which must be in the plan).
    pub fn scheduled(&self, index: usize) -> Scheduled {
        match &self.plan {
            Plan::Sprt { .. } => self.sprt_game(index),
            Plan::Fixed { .. } => {
                let (p, start, _) = self
                    .sections()
                    .find(|&(_, start, n)| index < start + n)
                    .expect("an index of the plan");
                let i = index - start;
                seating(self.bots.len(), p, self.first_seed, i / p, i % p)
            }
        }
    }

    /// How errors name plan game `index`.
    pub fn describe(&self, index: usize) -> String {
        let game = self.scheduled(index);
        let round = match &self.plan {
            Plan::Sprt { round_games, .. } => format!(" of round {}", index / round_games + 1),
            Plan::Fixed { .. } => String::new(),
        };
        format!(
            "plan game {index} ({} players, seed {}, rotation {}{round})",
            game.seats.len(),
            game.seed,
            game.rotation
        )
    }

    /// A game read from a file, checked against plan game `index`: the same seats and commands,
    /// and one value per seat everywhere (so the tables never index out of range).
    pub fn check_game(&self, index: usize, game: &GameResult) -> Result<(), String> {
        let planned = self.scheduled(index);
        let players = planned.seats.len();
        if game.seats != planned.seats {
            return Err(format!(
                "{}: seats {:?}, the plan has {:?}",
                self.describe(index),
                game.seats,
                planned.seats
            ));
        }
        if game.commands != seat_commands(&planned, &self.bots) {
            return Err(format!(
                "{}: other bot commands than the plan's",
                self.describe(index)
            ));
        }
        let lengths = [
            game.final_scores.len(),
            game.ranks.len(),
            game.failures.len(),
            game.failure_details.len(),
            game.max_turn_ms.len(),
            game.first_turn_ms.len(),
            game.later_turn_ms.len(),
        ];
        if lengths.iter().any(|&n| n != players) {
            return Err(format!(
                "{}: per-seat lists of lengths {lengths:?} for {players} seats",
                self.describe(index)
            ));
        }
        if game.ranks.iter().any(|r| !(1..=players).contains(r)) {
            return Err(format!(
                "{}: ranks {:?} outside 1..={players}",
                self.describe(index),
                game.ranks
            ));
        }
        Ok(())
    }
}

/// The exact command per seat: `{seed}` becomes `game_seed * 10 + seat`.
pub fn seat_commands(game: &Scheduled, bots: &[BotSpec]) -> Vec<String> {
    game.seats
        .iter()
        .enumerate()
        .map(|(seat, &bot)| {
            let seat_seed = game.seed * 10 + seat as u64;
            bots[bot].command.replace("{seed}", &seat_seed.to_string())
        })
        .collect()
}
