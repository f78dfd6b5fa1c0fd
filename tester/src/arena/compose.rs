//! The arena's report as one function of the plan and its games in plan order: the live run, a
//! shard and the merge of shards all print through `compose`, so a merge prints what one machine
//! playing the whole plan prints (ratings are updated game by game in plan order).

use super::plan::{Block, Plan, PlanConfig};
use super::report::{self, Section, SprtOutcome, Summary};
use super::schedule::GameResult;
use super::sprt::{elo_estimate, Verdict};
use super::unplayed;
use crate::shard::RunInfo;

/// Where a block's games come from: played now, or read from shard files; `None` when no one
/// has played it (an SPRT round still to come).
pub type Source<'a> = dyn FnMut(&Block) -> Result<Option<Vec<GameResult>>, String> + 'a;

/// The report's parts, for the JSON and CSV.
pub struct Composed {
    pub sections: Vec<Section>,
    pub sprt: Option<SprtOutcome>,
    /// Every game reported, in plan order.
    pub games: Vec<GameResult>,
    /// SPRT rounds reported (first, last).
    pub rounds: Option<(usize, usize)>,
    /// Games the referee could not play (their causes are printed on stderr): the run fails.
    pub unplayed: usize,
}

pub fn print_header(config: &PlanConfig, workers: &str) {
    println!(
        "arena: {} bots, workers {workers}, limits {}/{} ms{}, rules {}, seeds from {}",
        config.bots.len(),
        config.first_turn_ms,
        config.turn_ms,
        if config.cpu_time { " of CPU time" } else { "" },
        config.rules,
        config.first_seed
    );
    for bot in &config.bots {
        println!("  {} = {}", bot.name, bot.command);
    }
}

pub fn print_total(games: usize, seconds: f64) {
    println!("total: {games} games in {seconds:.1} s");
}

/// Print the tables of `blocks` (and, when `verdict`, the SPRT outcome) from the games `source`
/// gives, and on stderr the first cause of each kind of game not played. An SPRT stops at the
/// first round after which the test decides or `max_games` are played, at the first round
/// `source` does not have, or at the first round with a game not played (then without a
/// verdict: the run has failed).
pub fn compose(
    config: &PlanConfig,
    blocks: &[Block],
    source: &mut Source,
    verdict: bool,
    progress: bool,
) -> Result<Composed, String> {
    let bots = &config.bots;
    let Plan::Sprt {
        a,
        b,
        test,
        max_games,
        ..
    } = config.plan
    else {
        let mut sections = Vec::new();
        let mut all = Vec::new();
        for block in blocks {
            let games = source(block)?.unwrap_or_default();
            let section = report::section(block.players, bots, &games, config.slow_ms);
            report::print_section(&section);
            sections.push(section);
            all.extend(games);
        }
        let unplayed = print_unplayed(&all);
        return Ok(Composed {
            sections,
            sprt: None,
            games: all,
            rounds: None,
            unplayed,
        });
    };
    let mut games = Vec::new();
    let mut rounds: Option<(usize, usize)> = None;
    let mut finished = false;
    for block in blocks {
        let Some(played) = source(block)? else {
            break;
        };
        games.extend(played);
        let round = block.round.unwrap_or(1);
        rounds = Some((rounds.map_or(round, |r| r.0), round));
        if games.iter().any(|g| g.referee_error.is_some()) {
            break;
        }
        if !verdict {
            continue;
        }
        let (w, d, l) = report::pairwise(&games, a, b);
        if progress {
            eprintln!(
                "sprt: {} games, W/D/L {w}/{d}/{l}, LLR {:.2}",
                games.len(),
                test.llr(w, d, l)
            );
        }
        if test.verdict(w, d, l) != Verdict::Continue || games.len() >= max_games {
            finished = true;
            break;
        }
    }
    let section = report::section(2, bots, &games, config.slow_ms);
    report::print_section(&section);
    let unplayed = print_unplayed(&games);
    if verdict && unplayed > 0 {
        println!(
            "\nSPRT {} vs {}: no verdict: {unplayed} of {} games were not played",
            bots[a].name,
            bots[b].name,
            games.len()
        );
    }
    let sprt = (verdict && unplayed == 0).then(|| {
        let (w, d, l) = report::pairwise(&games, a, b);
        SprtOutcome {
            a: bots[a].name.clone(),
            b: bots[b].name.clone(),
            config: test,
            wins: w,
            draws: d,
            losses: l,
            llr: test.llr(w, d, l),
            bounds: test.bounds(),
            verdict: test.verdict(w, d, l),
            elo: elo_estimate(w, d, l),
            next_round: (!finished).then(|| rounds.map_or(1, |r| r.1 + 1)),
        }
    });
    if let Some(outcome) = &sprt {
        report::print_sprt(outcome);
    }
    Ok(Composed {
        sections: vec![section],
        sprt,
        games,
        rounds,
        unplayed,
    })
}

/// Print the causes of the games not played (stderr); how many there are.
fn print_unplayed(games: &[GameResult]) -> usize {
    for line in unplayed::lines(games) {
        eprintln!("{line}");
    }
    games.iter().filter(|g| g.referee_error.is_some()).count()
}

/// The error of a run with games not played (`None` when every game was played).
pub fn unplayed_error(composed: &Composed) -> Option<String> {
    let verdict = match composed.rounds {
        Some(_) => ", no verdict",
        None => "",
    };
    (composed.unplayed > 0).then(|| {
        format!(
            "{} of {} games were not played (causes above): the tables hold only the games played{verdict}; --json and --csv not written",
            composed.unplayed,
            composed.games.len()
        )
    })
}

impl Summary {
    /// The JSON summary; also the results file `merge` reads.
    pub fn new(
        run: RunInfo,
        config: &PlanConfig,
        composed: Composed,
        workers: usize,
        seconds: f64,
    ) -> Summary {
        Summary {
            run,
            rounds: composed.rounds,
            config: config.clone(),
            bots: config.bots.clone(),
            workers,
            first_turn_ms: config.first_turn_ms,
            turn_ms: config.turn_ms,
            rules: config.rules.clone(),
            first_seed: config.first_seed,
            seconds,
            sections: composed.sections,
            sprt: composed.sprt,
            games: composed.games,
        }
    }
}
