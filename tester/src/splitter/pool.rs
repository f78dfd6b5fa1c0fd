//! `tester splitter pool`: one mean and confidence interval over several runs' results files,
//! counting each dice sequence once. The Tester's game i uses `Random(hash(seed) + i)`, and the
//! hash of `final43` is the hash of `final42` plus one: two 400-game runs on those seeds share
//! 399 dice sequences. Pooling them as if independent shrinks the interval about sqrt(2) times
//! too much, so here the plays of one dice are averaged first and the interval is over dice.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::session::GameRecord;
use super::shard::SplitterFile;
use bot::splitter::stats::{stats, Stats};

#[derive(clap::Args, Debug)]
pub struct PoolArgs {
    /// Results files of `tester splitter --json FILE` (or of `--shard K/N --json FILE`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// Every game of the files, in file order.
pub fn load(files: &[PathBuf]) -> Result<Vec<GameRecord>, String> {
    let mut games = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let bytes = bot::source_error::read_bytes(path).map_err(|e| e.to_string())?;
        // Two shapes: every game in one list, or a shard's file (an object).
        let parsed = if bytes.trim_ascii_start().starts_with(b"[") {
            serde_json::from_slice::<Vec<GameRecord>>(&bytes)
        } else {
            serde_json::from_slice::<SplitterFile>(&bytes)
                .map(|f| f.main.into_iter().chain(f.vs).collect())
        };
        let file = parsed.map_err(|e| {
            format!(
                "{name}: not a results file of `tester splitter --json` ({})",
                crate::shard::one_line(&e.to_string())
            )
        })?;
        games.extend(file);
    }
    Ok(games)
}

/// One bot on one layout, pooled.
#[derive(Debug, Clone, PartialEq)]
pub struct Pooled {
    pub layout: u8,
    pub command: String,
    pub plays: usize,
    /// Distinct dice sequences (int seeds) among the plays.
    pub dice: usize,
    /// Mean over plays, and its interval as if every play had its own dice.
    pub play_mean: f64,
    pub play_ci95: f64,
    /// Mean of the per-dice means, and its interval over dice.
    pub dice_mean: f64,
    pub dice_sd: f64,
    pub dice_ci95: f64,
}

/// Pool the completed games per (layout, command); a failed game carries no score.
pub fn pool(games: &[GameRecord]) -> Vec<Pooled> {
    let mut groups: BTreeMap<(u8, &str), BTreeMap<i32, Vec<f64>>> = BTreeMap::new();
    for g in games.iter().filter(|g| g.error.is_none()) {
        groups
            .entry((g.layout, g.command.as_str()))
            .or_default()
            .entry(g.int_seed)
            .or_default()
            .push(g.score as f64);
    }
    groups
        .into_iter()
        .map(|((layout, command), by_dice)| {
            let plays: Vec<f64> = by_dice.values().flatten().copied().collect();
            let means: Vec<f64> = by_dice
                .values()
                .map(|s| s.iter().sum::<f64>() / s.len() as f64)
                .collect();
            let (p, d) = (stats(&plays), stats(&means));
            Pooled {
                layout,
                command: command.to_string(),
                plays: p.n,
                dice: d.n,
                play_mean: p.mean,
                play_ci95: p.ci95,
                dice_mean: d.mean,
                dice_sd: d.sd,
                dice_ci95: d.ci95,
            }
        })
        .collect()
}

pub fn run_pool(args: PoolArgs) -> ExitCode {
    let games = match load(&args.files) {
        Ok(g) => g,
        Err(e) => return crate::fail(format!("tester splitter pool: {e}")),
    };
    let pooled = pool(&games);
    if pooled.is_empty() {
        return crate::fail("tester splitter pool: no completed game in the files");
    }
    let mut out = std::io::stdout().lock();
    for p in pooled {
        let line = writeln!(
            out,
            "layout {} {}: {} plays of {} distinct dice; over dice: mean {:.3} sd {:.3} {} (over plays, as if independent: {:.3} {})",
            p.layout,
            p.command,
            p.plays,
            p.dice,
            p.dice_mean,
            p.dice_sd,
            Stats { n: p.dice, mean: p.dice_mean, sd: p.dice_sd, ci95: p.dice_ci95 }.ci_text(3),
            p.play_mean,
            Stats { n: p.plays, mean: p.play_mean, sd: 0.0, ci95: p.play_ci95 }.pm_text(3)
        );
        match line.and_then(|_| out.flush()) {
            Ok(()) => {}
            Err(e) if bot::cli::pipe::is_broken_pipe(&e) => bot::cli::pipe::die_of_broken_pipe(),
            Err(e) => return crate::fail(format!("tester splitter pool: cannot write: {e}")),
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(command: &str, seed: &str, game: u32, score: u32) -> GameRecord {
        GameRecord {
            command: command.into(),
            layout: 1,
            game,
            int_seed: bot::splitter::game_seed(seed, game),
            dice: vec![[1, 2]],
            moves: vec![[1, 0, 0]],
            score,
            move_ms: vec![1.0],
            game_ms: 1.0,
            error: None,
            log: Vec::new(),
            trace: None,
        }
    }

    #[test]
    fn seeds_one_apart_in_their_last_character_share_all_but_one_game() {
        for game in 0..400 {
            assert_eq!(
                bot::splitter::game_seed("final43", game),
                bot::splitter::game_seed("final42", game + 1)
            );
        }
    }

    #[test]
    fn pooling_counts_each_dice_once() {
        // Two runs of 4 games on related seeds: 3 dice in common, 5 in all.
        let run = |seed: &str, scores: [u32; 4]| -> Vec<GameRecord> {
            (0..4)
                .map(|g| record("a", seed, g, scores[g as usize]))
                .collect()
        };
        let mut games = run("s2", [40, 30, 50, 20]);
        games.extend(run("s3", [32, 48, 22, 44]));
        games.push(record("b", "s2", 0, 7));
        let mut failed = record("a", "zz", 0, 0);
        failed.error = Some("timeout".into());
        games.push(failed);
        let pooled = pool(&games);
        assert_eq!(pooled.len(), 2);
        let a = &pooled[0];
        assert_eq!((a.command.as_str(), a.plays, a.dice), ("a", 8, 5));
        // Per dice: 40, (30 + 32) / 2, (50 + 48) / 2, (20 + 22) / 2, 44.
        let means = [40.0, 31.0, 49.0, 21.0, 44.0];
        let mean = means.iter().sum::<f64>() / 5.0;
        let sd = (means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / 4.0).sqrt();
        assert!((a.dice_mean - mean).abs() < 1e-9);
        assert!((a.dice_sd - sd).abs() < 1e-9);
        // Student's t with 4 degrees of freedom.
        assert!((a.dice_ci95 - 2.776445 * sd / 5f64.sqrt()).abs() < 1e-5);
        assert!((a.play_mean - 286.0 / 8.0).abs() < 1e-9);
        assert_eq!((pooled[1].plays, pooled[1].dice), (1, 1));
    }

    #[test]
    fn both_file_shapes_are_read_and_anything_else_is_refused_in_one_line() {
        let dir = std::env::temp_dir().join(format!("splitter-pool-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let games: Vec<GameRecord> = (0..3).map(|g| record("a", "s", g, 30 + g)).collect();
        let plain = dir.join("plain.json");
        std::fs::write(&plain, serde_json::to_string(&games).unwrap()).unwrap();
        let shard = dir.join("shard.json");
        let run =
            crate::shard::RunInfo::new("splitter", crate::shard::Shard { index: 1, count: 1 });
        let config = serde_json::json!({"command": "a", "vs": null, "games": 3, "seed": "s",
            "layouts": [1], "timeout_ms": 1000});
        let body = serde_json::json!({"run": run, "config": config, "layout_ms": {"1": 900},
            "main": games[..2], "vs": games[2..]});
        std::fs::write(&shard, body.to_string()).unwrap();
        assert_eq!(load(&[plain.clone(), shard]).unwrap().len(), 6);
        let broken = dir.join("broken.json");
        std::fs::write(&broken, "[{\"command\": \"a\",\n\u{1b}").unwrap();
        let e = load(&[plain, broken]).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "{}: not a results file",
                dir.join("broken.json").display()
            )),
            "{e}"
        );
        assert!(!e.contains('\n') && !e.contains('\u{1b}'), "{e}");
        let missing = load(&[dir.join("none.json")]).unwrap_err();
        assert!(missing.contains("none.json"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
