//! Games the referee could not play (a bot that did not start, a replay that failed its check,
//! games skipped after one of those): not results. No table, rating or verdict counts them; the
//! run names the first cause of each kind and fails.

use super::schedule::GameResult;

/// The referee error of a game not started because an earlier one could not be played.
pub const SKIPPED: &str = "skipped: the arena starts no game after one that could not be played";

/// One kind of cause: the text of a referee error before its first ": " (`NAME did not start`,
/// `the replay check failed`, `skipped`).
#[derive(Debug)]
pub struct Kind<'a> {
    pub kind: &'a str,
    pub games: usize,
    /// The first game (in plan order) with this kind, and its whole cause.
    pub first: &'a GameResult,
}

/// The kinds of the games not played, in the order they first appear.
pub fn kinds(games: &[GameResult]) -> Vec<Kind<'_>> {
    let mut kinds: Vec<Kind> = Vec::new();
    for game in games {
        let Some(error) = &game.referee_error else {
            continue;
        };
        let kind = error.split(": ").next().unwrap_or(error);
        match kinds.iter_mut().find(|k| k.kind == kind) {
            Some(known) => known.games += 1,
            None => kinds.push(Kind {
                kind,
                games: 1,
                first: game,
            }),
        }
    }
    kinds
}

/// One line per kind of cause, for stderr: how many games, the first one, and its cause.
pub fn lines(games: &[GameResult]) -> Vec<String> {
    let total = games.len();
    kinds(games)
        .into_iter()
        .map(|k| {
            let error = k.first.referee_error.as_deref().unwrap_or_default();
            if error == SKIPPED {
                return format!(
                    "not played: {} of {total} games skipped (the arena starts no game after one that could not be played)",
                    k.games
                );
            }
            let cause = error[k.kind.len()..].trim_start_matches(": ");
            format!(
                "not played: {} in {} of {total} games (first: {} players, seed {}, rotation {}): {cause}",
                k.kind, k.games, k.first.players, k.first.seed, k.first.rotation
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::schedule::Scheduled;

    fn game(seed: u64, error: Option<&str>) -> GameResult {
        let scheduled = Scheduled {
            seed,
            rotation: 0,
            seats: vec![0, 1],
        };
        let commands = vec!["a".to_string(), "b".to_string()];
        let mut result = GameResult::new(&scheduled, &commands, Err("x".into()));
        result.referee_error = error.map(str::to_string);
        result
    }

    #[test]
    fn each_kind_of_cause_is_named_once_with_its_first_game() {
        let games = [
            game(1, None),
            game(
                2,
                Some("typo did not start: the bot exited with status 127"),
            ),
            game(3, Some("the replay check failed: turn 4: not a legal move")),
            game(
                4,
                Some("typo did not start: cannot start sh -c \"x\": Too many open files"),
            ),
            game(5, Some(SKIPPED)),
            game(6, Some(SKIPPED)),
        ];
        let lines = lines(&games);
        assert_eq!(
            lines,
            [
                "not played: typo did not start in 2 of 6 games (first: 2 players, seed 2, rotation 0): the bot exited with status 127",
                "not played: the replay check failed in 1 of 6 games (first: 2 players, seed 3, rotation 0): turn 4: not a legal move",
                "not played: 2 of 6 games skipped (the arena starts no game after one that could not be played)",
            ]
        );
        assert!(kinds(&games[..1]).is_empty());
    }
}
