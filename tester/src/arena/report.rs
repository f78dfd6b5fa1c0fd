//! Arena tables: per-bot W/D/L against the other bots' seats, first places, scores, failures,
//! Weng-Lin ratings; pairwise results; SPRT outcome; JSON and CSV.

use serde::Serialize;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use super::plan::PlanConfig;
use super::schedule::GameResult;
use super::sprt::{SprtConfig, Verdict};
use super::timing::{print_timing, timing_line, TimingLine};
use super::BotSpec;
use crate::shard::RunInfo;

#[derive(Clone, Debug, Serialize)]
pub struct BotLine {
    pub name: String,
    /// Seats this bot filled.
    pub seats: usize,
    /// Seats that finished first (shared first places included).
    pub firsts: usize,
    /// Against every seat of another bot in the same game: better rank / same / worse.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub mean_score: f64,
    pub timeouts: usize,
    pub invalid: usize,
    pub ended: usize,
    pub max_turn_ms: f64,
    /// Weng-Lin (OpenSkill) mu, sigma and the conservative mu - 3 sigma.
    pub rating: f64,
    pub uncertainty: f64,
    pub ordinal: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct PairLine {
    pub a: String,
    pub b: String,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Section {
    pub players: usize,
    pub games: usize,
    pub referee_errors: usize,
    pub first_seed: u64,
    pub last_seed: u64,
    pub bots: Vec<BotLine>,
    pub pairs: Vec<PairLine>,
    /// Per bot: turn-time percentiles, turns over `--slow-ms`, slowest first turn.
    pub timing: Vec<TimingLine>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SprtOutcome {
    pub a: String,
    pub b: String,
    pub config: SprtConfig,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub llr: f64,
    pub bounds: (f64, f64),
    pub verdict: Verdict,
    /// Elo of A over B with a 95% interval.
    pub elo: Option<(f64, f64, f64)>,
    /// A merge of the rounds played so far without a verdict: the round to play next.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_round: Option<usize>,
}

#[derive(Serialize)]
pub struct Summary {
    /// Format, build and shard: with `config`, `rounds`, `workers`, `seconds` and `games`, this
    /// summary is the results file `tester arena merge` reads.
    pub run: RunInfo,
    /// SPRT rounds played (first, last).
    pub rounds: Option<(usize, usize)>,
    pub config: PlanConfig,
    pub bots: Vec<BotSpec>,
    pub workers: usize,
    pub first_turn_ms: u64,
    pub turn_ms: u64,
    pub rules: String,
    pub first_seed: u64,
    pub seconds: f64,
    pub sections: Vec<Section>,
    pub sprt: Option<SprtOutcome>,
    pub games: Vec<GameResult>,
}

/// W/D/L of bot `a` against bot `b` over every (seat of a, seat of b) pair, by rank.
pub fn pairwise(games: &[GameResult], a: usize, b: usize) -> (u64, u64, u64) {
    let (mut w, mut d, mut l) = (0, 0, 0);
    for game in games.iter().filter(|g| g.referee_error.is_none()) {
        for (i, &x) in game.seats.iter().enumerate() {
            for (j, &y) in game.seats.iter().enumerate() {
                if x == a && y == b && i != j {
                    match game.ranks[i].cmp(&game.ranks[j]) {
                        std::cmp::Ordering::Less => w += 1,
                        std::cmp::Ordering::Equal => d += 1,
                        std::cmp::Ordering::Greater => l += 1,
                    }
                }
            }
        }
    }
    (w, d, l)
}

/// Ratings from the games in order: every seat is a one-player team carrying its bot's rating;
/// a bot in several seats takes the mean of its seats' updated ratings.
pub fn ratings(bots: usize, games: &[GameResult]) -> Vec<WengLinRating> {
    let config = WengLinConfig::new();
    let mut ratings = vec![WengLinRating::new(); bots];
    for game in games.iter().filter(|g| g.referee_error.is_none()) {
        let teams: Vec<[WengLinRating; 1]> = game.seats.iter().map(|&b| [ratings[b]]).collect();
        let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(&game.ranks)
            .map(|(team, &rank)| (&team[..], MultiTeamOutcome::new(rank)))
            .collect();
        let updated = weng_lin_multi_team(&input, &config);
        for (bot, rating) in ratings.iter_mut().enumerate() {
            let mine: Vec<&WengLinRating> = game
                .seats
                .iter()
                .zip(&updated)
                .filter(|(&b, _)| b == bot)
                .map(|(_, team)| &team[0])
                .collect();
            if !mine.is_empty() {
                let n = mine.len() as f64;
                rating.rating = mine.iter().map(|r| r.rating).sum::<f64>() / n;
                rating.uncertainty = mine.iter().map(|r| r.uncertainty).sum::<f64>() / n;
            }
        }
    }
    ratings
}

pub fn section(players: usize, bots: &[BotSpec], games: &[GameResult], slow_ms: f64) -> Section {
    let ok: Vec<&GameResult> = games.iter().filter(|g| g.referee_error.is_none()).collect();
    let rated = ratings(bots.len(), games);
    let lines = bots
        .iter()
        .enumerate()
        .map(|(bot, spec)| {
            let seats: Vec<(&GameResult, usize)> = ok
                .iter()
                .flat_map(|g| {
                    (0..g.players)
                        .filter(move |&s| g.seats[s] == bot)
                        .map(move |s| (*g, s))
                })
                .collect();
            let (mut wins, mut draws, mut losses) = (0, 0, 0);
            for other in (0..bots.len()).filter(|&o| o != bot) {
                let (w, d, l) = pairwise(games, bot, other);
                wins += w;
                draws += d;
                losses += l;
            }
            let kind = |k: &str| {
                seats
                    .iter()
                    .filter(|(g, s)| g.failures[*s].as_deref() == Some(k))
                    .count()
            };
            let rating = rated[bot];
            BotLine {
                name: spec.name.clone(),
                seats: seats.len(),
                firsts: seats.iter().filter(|(g, s)| g.ranks[*s] == 1).count(),
                wins,
                draws,
                losses,
                mean_score: seats
                    .iter()
                    .map(|(g, s)| g.final_scores[*s] as f64)
                    // (`sum` of no numbers is -0.0, which would print as "-0.0".)
                    .fold(0.0, |a, b| a + b)
                    / seats.len().max(1) as f64,
                timeouts: kind("timeout"),
                invalid: kind("invalid"),
                ended: kind("ended"),
                max_turn_ms: seats
                    .iter()
                    .map(|(g, s)| g.max_turn_ms[*s])
                    .fold(0.0, f64::max),
                rating: rating.rating,
                uncertainty: rating.uncertainty,
                ordinal: rating.rating - 3.0 * rating.uncertainty,
            }
        })
        .collect();
    let mut pairs = Vec::new();
    for a in 0..bots.len() {
        for b in a + 1..bots.len() {
            let (wins, draws, losses) = pairwise(games, a, b);
            pairs.push(PairLine {
                a: bots[a].name.clone(),
                b: bots[b].name.clone(),
                wins,
                draws,
                losses,
            });
        }
    }
    Section {
        players,
        games: games.len(),
        referee_errors: games.len() - ok.len(),
        first_seed: games.iter().map(|g| g.seed).min().unwrap_or(0),
        last_seed: games.iter().map(|g| g.seed).max().unwrap_or(0),
        bots: lines,
        pairs,
        timing: bots
            .iter()
            .enumerate()
            .map(|(bot, spec)| timing_line(&spec.name, bot, games, slow_ms))
            .collect(),
    }
}

pub fn print_section(section: &Section) {
    println!(
        "\n== {} players: {} games, seeds {}..{} (every seed in every seat rotation), referee errors {}",
        section.players, section.games, section.first_seed, section.last_seed, section.referee_errors
    );
    println!(
        "{:<12} {:>5} {:>6} {:>6} {:>6} {:>6} {:>6} {:>9} {:>5} {:>5} {:>5} {:>6} {:>6} {:>7} {:>7}",
        "bot", "seats", "firsts", "W", "D", "L", "W%", "avg score", "t/o", "inval", "ended", "mu", "sigma", "mu-3s", "max ms"
    );
    // W/D/L: against each seat of another bot in the same game, by final rank.
    for b in &section.bots {
        let played = (b.wins + b.draws + b.losses).max(1) as f64;
        println!(
            "{:<12} {:>5} {:>6} {:>6} {:>6} {:>6} {:>5.1}% {:>9.1} {:>5} {:>5} {:>5} {:>6.2} {:>6.2} {:>7.2} {:>7.1}",
            b.name,
            b.seats,
            b.firsts,
            b.wins,
            b.draws,
            b.losses,
            100.0 * (b.wins as f64 + b.draws as f64 / 2.0) / played,
            b.mean_score,
            b.timeouts,
            b.invalid,
            b.ended,
            b.rating,
            b.uncertainty,
            b.ordinal,
            b.max_turn_ms
        );
    }
    for p in &section.pairs {
        println!(
            "  {} vs {}: W/D/L {}/{}/{}",
            p.a, p.b, p.wins, p.draws, p.losses
        );
    }
    print_timing(&section.timing);
}

pub fn print_sprt(outcome: &SprtOutcome) {
    let verdict = match outcome.verdict {
        Verdict::H1 => format!("H1 accepted: {} is stronger than {}", outcome.a, outcome.b),
        Verdict::H0 => format!(
            "H0 accepted: {} is not stronger by {} Elo",
            outcome.a, outcome.config.elo1
        ),
        Verdict::Continue => match outcome.next_round {
            Some(round) => format!("no verdict yet: play round {round}"),
            None => "no verdict within --max-games".to_string(),
        },
    };
    let elo = match outcome.elo {
        Some((e, lo, hi)) => format!("{e:+.1} Elo [{lo:+.1}, {hi:+.1}]"),
        None => "Elo undefined (one-sided results, or fewer than 2 games)".into(),
    };
    println!(
        "\nSPRT {} vs {} (elo0 {}, elo1 {}, alpha {}, beta {}): W/D/L {}/{}/{}, LLR {:.2} in [{:.2}, {:.2}] -> {verdict}; {elo}",
        outcome.a,
        outcome.b,
        outcome.config.elo0,
        outcome.config.elo1,
        outcome.config.alpha,
        outcome.config.beta,
        outcome.wins,
        outcome.draws,
        outcome.losses,
        outcome.llr,
        outcome.bounds.0,
        outcome.bounds.1
    );
}

/// One row per game and seat.
pub fn csv(summary: &Summary) -> String {
    let mut out =
        String::from("players,seed,rotation,seat,bot,score,rank,failure,turns,referee_error\n");
    for g in &summary.games {
        for seat in 0..g.players {
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{}\n",
                g.players,
                g.seed,
                g.rotation,
                seat,
                summary.bots[g.seats[seat]].name,
                g.final_scores[seat],
                g.ranks[seat],
                g.failures[seat].as_deref().unwrap_or(""),
                g.turns,
                g.referee_error
                    .as_deref()
                    .map(|e| e.replace(',', ";"))
                    .unwrap_or_default()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(seats: &[usize], ranks: &[usize]) -> GameResult {
        GameResult {
            players: seats.len(),
            seed: 1,
            rotation: 0,
            seats: seats.to_vec(),
            commands: vec![String::new(); seats.len()],
            final_scores: vec![0; seats.len()],
            ranks: ranks.to_vec(),
            failures: vec![None; seats.len()],
            failure_details: vec![None; seats.len()],
            turns: 10,
            max_turn_ms: vec![1.0; seats.len()],
            first_turn_ms: vec![None; seats.len()],
            later_turn_ms: vec![Vec::new(); seats.len()],
            later_turn_cpu_ms: vec![Vec::new(); seats.len()],
            referee_error: None,
            moves: String::new(),
        }
    }

    #[test]
    fn pairwise_counts_every_cross_seat_pair() {
        // 4 seats, bots A A B B: A finishes 1st and 3rd, B 2nd and 4th.
        let games = [game(&[0, 0, 1, 1], &[1, 3, 2, 4])];
        assert_eq!(pairwise(&games, 0, 1), (3, 0, 1));
        assert_eq!(pairwise(&games, 1, 0), (1, 0, 3));
        let mut broken = game(&[0, 1], &[1, 2]);
        broken.referee_error = Some("x".into());
        assert_eq!(pairwise(&[broken], 0, 1), (0, 0, 0));
    }

    #[test]
    fn the_bot_that_keeps_winning_is_rated_higher() {
        let games: Vec<GameResult> = (0..20)
            .map(|k| {
                if k % 2 == 0 {
                    game(&[0, 1], &[1, 2])
                } else {
                    game(&[1, 0], &[2, 1])
                }
            })
            .collect();
        let r = ratings(2, &games);
        assert!(r[0].rating > 25.0 && r[1].rating < 25.0, "{r:?}");
        assert!(r[0].uncertainty < 25.0 / 3.0);
        let even: Vec<GameResult> = (0..20)
            .map(|k| {
                if k % 2 == 0 {
                    game(&[0, 1], &[1, 2])
                } else {
                    game(&[0, 1], &[2, 1])
                }
            })
            .collect();
        let r = ratings(2, &even);
        assert!((r[0].rating - r[1].rating).abs() < 1.5, "{r:?}");
    }
}
