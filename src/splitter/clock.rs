//! The game clock: one wall-time budget per game, spent by plan over its moves.
//!
//! The plan gives every move a weight by how many mirror pairs are still free before it: the early
//! moves (more than half the pairs free, plus one) weigh `EARLY_WEIGHT`, the later ones less and
//! less (x1.2 down to x0.4 of one unit). A move's budget is its weight's share of
//! `PLANNED_SHARE` of the game budget; a game behind plan (a busy or slow machine) scales the
//! rest of its moves down to what is left, and below `MIN_SEARCH_MS` a move plays the floor: the
//! greedy move with the learned value, well under a millisecond. Time a move does not use is not
//! lent to later ones, so a quiet machine plays faster than the budget. The rest of the budget
//! (`1 - PLANNED_SHARE`) is kept for the floor moves and for a search's last poll past its
//! deadline.
//!
//! The clock counts from the first dice line, and the bot's own start-up work (loading the
//! learned value, starting the rollout threads) is charged to it as well: a slow machine starts
//! slowly and then searches less, but the game's total stays within its budget.

use std::time::{Duration, Instant};

/// Default budget of one game in milliseconds: 200 games take at most 200 x 1.4 s = 280 s of the
/// bot's time, plus the process start-up per game (a few milliseconds), within the contest's
/// stricter reading (10 minutes) on a machine of any speed and within 5 minutes on this one.
pub const DEFAULT_GAME_MS: u64 = 1400;

/// Plan weight of an early move against one unit for a move in the middle of the game: the
/// early moves have the most options and the longest consequences.
pub const EARLY_WEIGHT: f64 = 3.0;

/// Share of the game budget the plan hands out to the moves; the rest is the reserve.
pub const PLANNED_SHARE: f64 = 0.9;

/// Below this a move does not search: it plays the floor move.
pub const MIN_SEARCH_MS: f64 = 1.0;

/// Share of a move's even part of the time left that a floor move may spend (`floor_allowance`).
pub const FLOOR_SHARE: f64 = 0.5;

/// Plan weight of a move made with `free_pairs` of `total_pairs` still free.
pub fn weight(free_pairs: usize, total_pairs: usize) -> f64 {
    if 2 * free_pairs > total_pairs + 2 {
        EARLY_WEIGHT
    } else {
        (2.0 * free_pairs as f64 / total_pairs.max(1) as f64).clamp(0.4, 1.2)
    }
}

/// The summed weights of `moves` moves made from `free_pairs` free pairs on (one pair fewer each).
pub fn weights_ahead(free_pairs: usize, moves: usize, total_pairs: usize) -> f64 {
    (0..moves.min(free_pairs))
        .map(|i| weight(free_pairs - i, total_pairs))
        .sum()
}

/// A game's plan: its budget and the summed weights of all its moves.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub game_ms: f64,
    pub total_weight: f64,
    pub total_pairs: usize,
}

impl Plan {
    /// The plan of a game of `rounds` moves on a board of `total_pairs` mirror pairs, all free.
    pub fn new(game_ms: f64, rounds: usize, total_pairs: usize) -> Plan {
        Plan {
            game_ms,
            total_weight: weights_ahead(total_pairs, rounds, total_pairs).max(1e-9),
            total_pairs,
        }
    }

    /// The budget in milliseconds of a move made `elapsed_ms` into the game with `free_pairs`
    /// pairs free and `moves_left` moves to play (this one included): its planned share, or less
    /// when the game is behind plan. None: too little is left, play the floor move.
    pub fn move_budget_ms(
        &self,
        elapsed_ms: f64,
        free_pairs: usize,
        moves_left: usize,
    ) -> Option<f64> {
        let planned_total = self.game_ms * PLANNED_SHARE;
        let w = weight(free_pairs, self.total_pairs);
        let planned = planned_total * w / self.total_weight;
        let ahead = weights_ahead(free_pairs, moves_left, self.total_pairs).max(w);
        let left = planned_total - elapsed_ms;
        let budget = planned.min(left * w / ahead);
        (budget >= MIN_SEARCH_MS).then_some(budget)
    }
}

/// The clock of one game: when it started, the start-up work charged to it, and what the moves
/// took.
#[derive(Debug, Clone)]
pub struct GameClock {
    pub plan: Plan,
    /// Start-up work charged to the game (loading values, starting threads).
    pub setup: Duration,
    /// When the first dice line was read (set by the first move).
    started: Option<Instant>,
    /// Moves played and the longest one.
    pub moves: usize,
    pub longest: Duration,
    /// Moves that played the floor because the game was out of time.
    pub floor_moves: usize,
}

impl GameClock {
    pub fn new(plan: Plan, setup: Duration) -> GameClock {
        GameClock {
            plan,
            setup,
            started: None,
            moves: 0,
            longest: Duration::ZERO,
            floor_moves: 0,
        }
    }

    /// Start the clock at the first move (the first dice line); returns the move's start.
    pub fn start_move(&mut self) -> Instant {
        let now = Instant::now();
        self.started.get_or_insert(now);
        now
    }

    /// The game's time so far: since the first dice line, plus the start-up work.
    pub fn used(&self) -> Duration {
        self.setup + self.started.map_or(Duration::ZERO, |s| s.elapsed())
    }

    /// Record a finished move that started at `start`.
    pub fn end_move(&mut self, start: Instant, floor: bool) {
        self.moves += 1;
        self.longest = self.longest.max(start.elapsed());
        self.floor_moves += usize::from(floor);
    }

    /// The deadline of a move starting at `start`, or None for the floor move.
    pub fn deadline(
        &self,
        start: Instant,
        free_pairs: usize,
        moves_left: usize,
    ) -> Option<Instant> {
        let elapsed = self.used().as_secs_f64() * 1000.0;
        let ms = self.plan.move_budget_ms(elapsed, free_pairs, moves_left)?;
        Some(start + Duration::from_secs_f64(ms / 1000.0))
    }

    /// What a floor move may spend when `moves_left` moves are left, this one included: half
    /// its even share of what is left of the game's budget (nothing once the budget is spent),
    /// so that the floor moves never take the game past its budget.
    pub fn floor_allowance(&self, moves_left: usize) -> Duration {
        let left = self.plan.game_ms - self.used().as_secs_f64() * 1000.0;
        let ms = (left * FLOOR_SHARE / moves_left.max(1) as f64).max(0.0);
        Duration::from_secs_f64(ms / 1000.0)
    }

    /// What the game's time went to, for a line on stderr at the end of the game.
    pub fn report(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        format!(
            "{:.0} ms used of {:.0} ({} moves, longest {:.1} ms, {} at the floor; start-up {:.1} ms)",
            ms(self.used()),
            self.plan.game_ms,
            self.moves,
            ms(self.longest),
            self.floor_moves,
            ms(self.setup)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The official board's plan: 22 moves over 22 pairs; the first 10 early.
    fn official() -> Plan {
        Plan::new(1000.0, 22, 22)
    }

    /// On plan, the moves' budgets add up to the planned share of the game, the early ones get
    /// `EARLY_WEIGHT` times a middle move's, and later ones shrink as the pairs run out.
    #[test]
    fn on_plan_the_budgets_add_up_to_the_planned_share() {
        let plan = official();
        let mut elapsed = 0.0;
        let mut budgets = Vec::new();
        for k in 0..22 {
            let b = plan
                .move_budget_ms(elapsed, 22 - k, 22 - k)
                .expect("on plan");
            budgets.push(b);
            elapsed += b;
        }
        let total: f64 = budgets.iter().sum();
        assert!((total - 1000.0 * PLANNED_SHARE).abs() < 1e-6, "{total}");
        let same = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(budgets[..10].windows(2).all(|w| same(w[0], w[1])));
        assert!(budgets[10] < budgets[9]);
        assert!(
            budgets[10..].windows(2).all(|w| w[0] >= w[1] - 1e-9),
            "{budgets:?}"
        );
        // Move 11 has 12 pairs free: weight 24/22 against the early moves' 3.
        assert!((budgets[0] / budgets[10] - 3.0 / (24.0 / 22.0)).abs() < 1e-9);
    }

    /// Moves that end early lend nothing to later ones: each budget is at most its planned share.
    #[test]
    fn time_saved_is_not_lent_to_later_moves() {
        let plan = official();
        let first = plan.move_budget_ms(0.0, 22, 22).unwrap();
        assert_eq!(plan.move_budget_ms(0.0, 21, 21), Some(first));
        let late = plan.move_budget_ms(0.0, 8, 8).unwrap();
        assert!((late - 900.0 * weight(8, 22) / plan.total_weight).abs() < 1e-9);
    }

    /// Behind plan, the moves left share what is left of the planned budget in proportion to
    /// their weights, and once less than `MIN_SEARCH_MS` would be left a move plays the floor.
    #[test]
    fn behind_plan_the_rest_is_scaled_down_then_the_floor() {
        let plan = official();
        // Half the planned share gone after the first move: far behind.
        let b = plan.move_budget_ms(450.0, 21, 21).unwrap();
        let ahead = weights_ahead(21, 21, 22);
        assert!((b - 450.0 * EARLY_WEIGHT / ahead).abs() < 1e-9, "{b}");
        assert!(b < plan.move_budget_ms(0.0, 21, 21).unwrap());
        // Every planned millisecond spent: the floor, for every move left.
        for free in 1..=21 {
            assert_eq!(plan.move_budget_ms(900.0, free, free), None);
            assert_eq!(plan.move_budget_ms(5000.0, free, free), None);
        }
        // Just enough left for one more small search.
        assert!(plan.move_budget_ms(899.0, 1, 1).is_some());
    }

    /// Whatever each move takes (up to its budget), a game never plans past its planned share.
    #[test]
    fn a_game_that_spends_every_budget_ends_within_the_planned_share() {
        for (rounds, pairs) in [(22, 22), (3, 32), (200, 200), (7, 9)] {
            let plan = Plan::new(500.0, rounds, pairs);
            let mut elapsed = 12.0; // start-up
            for k in 0..rounds {
                if let Some(b) = plan.move_budget_ms(elapsed, pairs - k, rounds - k) {
                    elapsed += b;
                }
            }
            assert!(
                elapsed <= 500.0 * PLANNED_SHARE + 1e-6,
                "{rounds} {pairs}: {elapsed}"
            );
        }
    }

    /// Fewer rounds than pairs (a header such as `8 8 3`): the whole budget goes to those moves.
    #[test]
    fn short_games_plan_over_their_own_moves() {
        let plan = Plan::new(300.0, 3, 32);
        let b: f64 = (0..3)
            .map(|k| plan.move_budget_ms(0.0, 32 - k, 3 - k).unwrap())
            .sum();
        assert!((b - 300.0 * PLANNED_SHARE).abs() < 1e-6, "{b}");
    }

    /// A floor move may spend half of its even share of the time left, and nothing once the
    /// game's budget is spent (the start-up work counts).
    #[test]
    fn the_floor_allowance_is_half_a_share_of_what_is_left() {
        let mut clock = GameClock::new(official(), Duration::from_millis(100));
        clock.start_move();
        let allowance = clock.floor_allowance(9).as_secs_f64() * 1000.0;
        assert!(allowance <= 900.0 * FLOOR_SHARE / 9.0 + 1e-6, "{allowance}");
        assert!(allowance > 900.0 * FLOOR_SHARE / 9.0 - 50.0, "{allowance}");
        let spent = GameClock::new(official(), Duration::from_millis(1000));
        assert_eq!(spent.floor_allowance(3), Duration::ZERO);
        let over = GameClock::new(official(), Duration::from_millis(5000));
        assert_eq!(over.floor_allowance(1), Duration::ZERO);
    }
}
