//! In-process games on seeded dice, for the bench (no tester processes involved).

use super::dotnet_random::game_dice;
use super::game::Board;
use super::layout::Layout;
use super::policy::{Player, Settings};
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct GameResult {
    pub score: u32,
    pub move_times: Vec<Duration>,
    pub rollouts: u64,
}

/// Play game `game` of `--seed seed` (the Tester's dice) with `settings`; the policy's own seed is
/// `settings.seed + game` so every game is reproducible on its own.
pub fn play_seeded_game(layout: &Layout, seed: &str, game: u32, settings: &Settings) -> GameResult {
    let rounds = layout.default_rounds();
    let mut settings = settings.clone();
    settings.seed = settings.seed.wrapping_add(game as u64);
    let mut player = Player::new(layout, settings);
    let mut board = Board::new(layout, rounds);
    let mut move_times = Vec::with_capacity(rounds);
    let mut rollouts = 0;
    for dice in game_dice(seed, game, rounds) {
        let t = Instant::now();
        let mv = player.choose(&board, dice);
        move_times.push(t.elapsed());
        rollouts += player.last_rollouts;
        match mv {
            Some(mv) => board
                .place(layout, dice, mv)
                .expect("policies only return legal moves"),
            None => break,
        }
    }
    GameResult {
        score: super::score::score(layout, &board.values),
        move_times,
        rollouts,
    }
}
