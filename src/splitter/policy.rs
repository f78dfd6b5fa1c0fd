//! Move choice: the policies, and a player that only picks among the legal placements.
//! - `random`: a uniformly random legal placement (the official Example bot's strength);
//! - `greedy`: the placement that most improves the hand evaluation (`eval.rs`);
//! - `value`: the placement with the best learned afterstate value (`learned/`);
//! - `expectimax`: the placement with the best average over the next roll of the best learned
//!   value after it (`expectimax.rs`);
//! - `search`: flat Monte-Carlo over the future dice (`search.rs`).

use super::bits::BitEval;
use super::clock::{GameClock, Plan, DEFAULT_GAME_MS};
use super::eval::{EvalParams, Evaluator};
use super::evaluation::HandMask;
pub use super::game::{placements, Placement};
use super::game::{Board, Dice, Move};
use super::layout::Layout;
use super::learned::play::PlayValue;
use super::learned::LearnedValue;
use super::trace::{Method, MoveTrace};
use super::{endgame, expectimax};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyKind {
    Random,
    Greedy,
    Value,
    Expectimax,
    Search,
}

impl std::str::FromStr for PolicyKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "random" => Ok(PolicyKind::Random),
            "greedy" => Ok(PolicyKind::Greedy),
            "value" => Ok(PolicyKind::Value),
            "expectimax" => Ok(PolicyKind::Expectimax),
            "search" => Ok(PolicyKind::Search),
            _ => Err(format!(
                "unknown policy '{s}' (expected search, expectimax, value, greedy or random)"
            )),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Settings {
    pub kind: PolicyKind,
    /// Wall-time budget of one game for `search`, spent by plan over its moves (`clock.rs`).
    pub game_ms: u64,
    /// If set, `search` stops after this many rollout batches instead of the clock (reproducible).
    pub batches: Option<u32>,
    pub seed: u64,
    /// Threads for the search rollouts (results do not depend on it, only speed).
    pub threads: usize,
    /// Evaluation weights; None = the tuned set for this layout (`EvalParams::for_layout`).
    pub params: Option<EvalParams>,
    /// The learned value; None = the built-in one for an official layout (other boards have
    /// none, and the policies that need it fall back to the hand evaluation).
    pub value: Option<Arc<LearnedValue>>,
    /// Baseline for `bot bench splitter`: rollouts valued by the float value every afterstate
    /// from scratch, as the search did before the fixed-point player (moves within float
    /// rounding of the default's, at about three times the cost).
    pub reference_rollouts: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            kind: PolicyKind::Search,
            game_ms: DEFAULT_GAME_MS,
            batches: None,
            seed: 1,
            threads: 1,
            params: None,
            value: None,
            reference_rollouts: false,
        }
    }
}

/// Default rollout threads: the cores this process may use, at most two. The moves do not depend
/// on the thread count (rollouts are pure functions of their dice); on an idle machine a fixed
/// amount of work (`bot bench splitter --games 1 --layout 1 --batches 200`) took 1.66 s with one
/// thread and 0.84 s with two. On a one-core machine (or `taskset -c 0`) a second thread would
/// only share the core, so it is one.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(2))
}

pub struct Player<'a> {
    pub(super) layout: &'a Layout,
    pub(super) settings: Settings,
    pub(super) rng: Xoshiro256PlusPlus,
    pub(super) ev: Evaluator<'a>,
    /// Worker threads for rollouts (None: run them on the calling thread).
    pub(super) pool: Option<rayon::ThreadPool>,
    /// The fast mask evaluator, when the board has at most 64 cells.
    pub(super) hand: Option<HandMask>,
    /// The learned value as the player values afterstates, when there is one for this layout.
    pub(super) value: Option<Arc<PlayValue>>,
    /// The float value, for the baseline rollouts (`Settings::reference_rollouts`).
    pub(super) reference: Option<Arc<LearnedValue>>,
    pub(super) scratch: Vec<u8>,
    opts: Vec<Placement>,
    /// Rollouts run by the last `search` call (for stats).
    pub last_rollouts: u64,
    /// The search's game clock, started by its first move; the time `new` took is charged to it.
    pub clock: Option<GameClock>,
    setup: Duration,
    /// Why the last move was chosen, when the caller asks for it by setting `Some` (`trace.rs`);
    /// None (the default) records nothing.
    pub trace: Option<MoveTrace>,
}

impl<'a> Player<'a> {
    pub fn new(layout: &'a Layout, settings: Settings) -> Player<'a> {
        let setup = Instant::now();
        let rng = Xoshiro256PlusPlus::seed_from_u64(settings.seed);
        let params = settings
            .params
            .clone()
            .unwrap_or_else(|| EvalParams::for_layout(layout));
        let ev = Evaluator::new(layout, params.clone());
        let hand = BitEval::new(layout, params).map(HandMask::new);
        let float = settings
            .value
            .clone()
            .or_else(|| LearnedValue::built_in(layout).map(Arc::new));
        let value = float.as_ref().map(|value| Arc::new(PlayValue::new(value)));
        let reference = float.filter(|_| settings.reference_rollouts);
        let pool = (settings.threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(settings.threads)
                    .build()
                    .ok()
            })
            .flatten();
        Player {
            layout,
            settings,
            rng,
            ev,
            pool,
            hand,
            value,
            reference,
            scratch: vec![0; layout.cells()],
            opts: Vec::new(),
            last_rollouts: 0,
            clock: None,
            setup: setup.elapsed(),
            trace: None,
        }
    }

    /// A legal move for `dice` on `board`, or None when the board has no free cell.
    pub fn choose(&mut self, board: &Board, dice: Dice) -> Option<Move> {
        let mut opts = std::mem::take(&mut self.opts);
        placements(self.layout, &board.values, dice, &mut opts);
        self.last_rollouts = 0;
        if let Some(trace) = &mut self.trace {
            trace.clear();
        }
        let pick = if opts.is_empty() {
            None
        } else {
            Some(match self.settings.kind {
                PolicyKind::Random => opts[self.rng.random_range(0..opts.len())],
                PolicyKind::Value | PolicyKind::Expectimax if self.value.is_some() => {
                    self.value_pick(board, &opts)
                }
                PolicyKind::Greedy | PolicyKind::Value | PolicyKind::Expectimax => {
                    self.ev
                        .set_rounds_after(board.rounds_left.saturating_sub(1));
                    greedy_pick(&mut self.ev, &mut self.scratch, &board.values, &opts)
                }
                PolicyKind::Search => self.timed_search(board, &opts),
            })
        };
        if let (Some(trace), Some(p), false) = (
            &mut self.trace,
            pick,
            self.settings.kind == PolicyKind::Search,
        ) {
            trace.unweighed(Method::Policy, p);
        }
        self.opts = opts;
        pick.map(|p| p.to_move(self.layout))
    }

    /// The search within this move's share of the game clock (or its batches), or the floor
    /// move when the game is out of time. `opts` must not be empty.
    fn timed_search(&mut self, board: &Board, opts: &[Placement]) -> Placement {
        let free_pairs = opts.iter().filter(|p| p.a == opts[0].a).count();
        let moves_left = board.rounds_left.min(free_pairs);
        let total_pairs = (self.layout.fillable().len() / 2).max(1);
        let (game_ms, setup) = (self.settings.game_ms as f64, self.setup);
        let clock = self.clock.get_or_insert_with(|| {
            GameClock::new(Plan::new(game_ms, moves_left, total_pairs), setup)
        });
        let start = clock.start_move();
        let limit = match self.settings.batches {
            Some(batches) => Some(Limit::Batches(batches)),
            None => clock
                .deadline(start, free_pairs, moves_left)
                .map(Limit::Until),
        };
        let pick = match limit {
            Some(limit) => self.search(board, opts, limit),
            None => None,
        };
        let floor = pick.is_none();
        let allowance = match (floor, &self.clock) {
            (true, Some(clock)) => clock.floor_allowance(moves_left),
            _ => Duration::ZERO,
        };
        let pick = pick.unwrap_or_else(|| self.floor_pick(board, opts, allowance));
        if let (Some(trace), true) = (&mut self.trace, floor) {
            trace.unweighed(Method::Floor, pick);
        }
        if let Some(clock) = &mut self.clock {
            clock.end_move(start, floor);
        }
        pick
    }

    /// The floor move, for a move the clock leaves no search: the best it can afford in
    /// `allowance`. The exact endgame when at most two rolls follow and it fits (1-5 ms on the
    /// official boards), else the expectimax over the next roll (`expectimax.rs`) when it fits,
    /// else greedy with the learned value (well under a millisecond); greedy with the hand
    /// evaluation where there is no learned value. Each is sized before it starts and the first
    /// two stop at the allowance's end (then the greedy move is played).
    pub(super) fn floor_pick(
        &mut self,
        board: &Board,
        opts: &[Placement],
        allowance: Duration,
    ) -> Placement {
        let Some(value) = self.value.clone() else {
            self.ev
                .set_rounds_after(board.rounds_left.saturating_sub(1));
            return greedy_pick(&mut self.ev, &mut self.scratch, &board.values, opts);
        };
        let greedy = value_greedy(&value, board, opts);
        let deadline = Instant::now() + allowance;
        let ms = allowance.as_secs_f64() * 1000.0;
        let free_pairs = opts.iter().filter(|p| p.a == opts[0].a).count();
        let after = board.rounds_left.saturating_sub(1);
        let future = after.min(free_pairs.saturating_sub(1));
        if future == 0 {
            // The last move: V after it is its exact score.
            return greedy;
        }
        let b = value.features.geo.from_values(&board.values);
        if let (true, Some(hand)) = (future <= endgame::ENDGAME_ROLLS, &self.hand) {
            let work = endgame::work(opts.len(), free_pairs - 1, future);
            if work <= endgame::MAX_WORK && work as f64 <= ms * endgame::WORK_PER_MS {
                let geo = hand.be.geometry();
                if let Some(p) = endgame::best(geo, &b, opts, future, Some(deadline)) {
                    return p;
                }
            }
        }
        let work = expectimax::work(opts.len(), free_pairs - 1);
        if work as f64 <= ms * expectimax::WORK_PER_MS {
            if let Some(p) = expectimax::best_until(&value, &b, opts, after, deadline) {
                return p;
            }
        }
        greedy
    }

    /// `value` and `expectimax`: the option with the best learned V after it, or the best
    /// average over the next roll of the best V then.
    fn value_pick(&self, board: &Board, opts: &[Placement]) -> Placement {
        let value = self.value.as_deref().expect("checked by the caller");
        if self.settings.kind == PolicyKind::Expectimax {
            let b = value.features.geo.from_values(&board.values);
            let after = board.rounds_left.saturating_sub(1);
            return super::expectimax::best(value, &b, opts, after);
        }
        value_greedy(value, board, opts)
    }
}

/// The option with the best learned V after it (the first on ties).
fn value_greedy(value: &PlayValue, board: &Board, opts: &[Placement]) -> Placement {
    let geo = &value.features.geo;
    let b = geo.from_values(&board.values);
    let after = board.rounds_left.saturating_sub(1);
    let mut best = (opts[0], f32::NEG_INFINITY);
    for &p in opts {
        let mut next = b;
        geo.apply(&mut next, p.cell, p.a, p.b);
        let v = value.value(&next, after);
        if v > best.1 {
            best = (p, v);
        }
    }
    best.0
}

/// When a search stops: after a number of rollout batches (fixed compute, reproducible), or at a
/// deadline.
#[derive(Debug, Clone, Copy)]
pub enum Limit {
    Batches(u32),
    Until(Instant),
}

/// The placement with the largest evaluation gain (first one on ties).
pub(super) fn greedy_pick(
    ev: &mut Evaluator,
    scratch: &mut [u8],
    values: &[u8],
    opts: &[Placement],
) -> Placement {
    scratch.copy_from_slice(values);
    let mut best = opts[0];
    let mut best_gain = f32::NEG_INFINITY;
    for &p in opts {
        let gain = ev.delta(scratch, p.cell, p.a, p.b);
        if gain > best_gain {
            best_gain = gain;
            best = p;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::super::layout::official;
    use super::*;

    /// Every policy, on many seeded games of both layouts, always returns a move the rules accept.
    #[test]
    fn every_policy_plays_only_legal_moves() {
        for n in [1, 2] {
            let layout = official(n);
            for kind in [
                PolicyKind::Random,
                PolicyKind::Greedy,
                PolicyKind::Value,
                PolicyKind::Expectimax,
                PolicyKind::Search,
            ] {
                let games = match kind {
                    PolicyKind::Search | PolicyKind::Expectimax => 2,
                    _ => 40,
                };
                for g in 0..games {
                    let settings = Settings {
                        kind,
                        batches: Some(1),
                        seed: g,
                        ..Settings::default()
                    };
                    let mut player = Player::new(&layout, settings);
                    let mut board = Board::new(&layout, 22);
                    for dice in super::super::dotnet_random::game_dice("legal", g as u32, 22) {
                        let mv = player.choose(&board, dice).expect("a free cell exists");
                        board.place(&layout, dice, mv).unwrap();
                    }
                    assert_eq!(board.free_cells(&layout), 0);
                    assert_eq!(player.choose(&board, Dice(1, 2)), None);
                }
            }
        }
    }

    /// Boards over 64 cells use the array evaluator in rollouts; odd widths have self-mirrored
    /// cells. Both still play only legal moves, with and without threads.
    #[test]
    fn search_on_large_and_odd_boards_is_legal() {
        // 9 x 8 = 72 cells, only the first and last rows fillable (keeps the test quick).
        let rows: Vec<Vec<u8>> = (0..8)
            .map(|y| {
                (0..9)
                    .map(|x| {
                        if y % 7 != 0 {
                            0
                        } else if x == 0 || x == 8 {
                            2
                        } else {
                            1
                        }
                    })
                    .collect()
            })
            .collect();
        let big = Layout::new(&rows).unwrap();
        assert!(big.cells() > 64);
        let small_odd = Layout::parse_rows("1 1 3 1 1\n2 1 1 1 2\n", 1).unwrap();
        for (layout, threads) in [(&big, 1), (&small_odd, 1), (&small_odd, 2)] {
            let rounds = layout.default_rounds();
            let settings = Settings {
                batches: Some(2),
                threads,
                ..Settings::default()
            };
            let mut player = Player::new(layout, settings);
            let mut board = Board::new(layout, rounds);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
            for _ in 0..rounds {
                let dice = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
                let mv = player.choose(&board, dice).expect("free cells remain");
                board.place(layout, dice, mv).unwrap();
            }
        }
    }

    /// Threads change only the speed: with a batch limit the moves are identical.
    #[test]
    fn threads_do_not_change_the_choice() {
        let layout = official(2);
        let play = |threads| {
            // Past the search's `PRUNE_AFTER` batches, so that pruning runs on merged results too.
            let settings = Settings {
                batches: Some(5),
                threads,
                seed: 4,
                ..Settings::default()
            };
            let mut player = Player::new(&layout, settings);
            let mut board = Board::new(&layout, 22);
            let mut moves = Vec::new();
            for dice in super::super::dotnet_random::game_dice("threads", 0, 5) {
                let mv = player.choose(&board, dice).unwrap();
                board.place(&layout, dice, mv).unwrap();
                moves.push(mv);
            }
            moves
        };
        assert_eq!(play(1), play(2));
    }

    /// Placements cover every distinct outcome of the legal moves (brute force over `legal_moves`).
    #[test]
    fn placements_cover_every_distinct_legal_outcome() {
        let layout = official(2);
        let mut board = Board::new(&layout, 22);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut opts = Vec::new();
        for round in 0..22 {
            let dice = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
            let mut outcomes = std::collections::HashSet::new();
            for mv in board.legal_moves(&layout, dice) {
                let mut b = board.clone();
                b.place(&layout, dice, mv).unwrap();
                outcomes.insert(b.values);
            }
            placements(&layout, &board.values, dice, &mut opts);
            let mine: std::collections::HashSet<Vec<u8>> = opts
                .iter()
                .map(|p| {
                    let mut b = board.clone();
                    b.place(&layout, dice, p.to_move(&layout)).unwrap();
                    b.values
                })
                .collect();
            assert_eq!(
                mine.len(),
                opts.len(),
                "round {round}: placements are distinct"
            );
            assert_eq!(mine, outcomes, "round {round}");
            board
                .place(
                    &layout,
                    dice,
                    opts[rng.random_range(0..opts.len())].to_move(&layout),
                )
                .unwrap();
        }
    }

    /// With one roll left, search must find the best final score (exhaustive check).
    #[test]
    fn last_move_is_optimal() {
        let layout = official(1);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        for _ in 0..50 {
            let mut board = Board::new(&layout, 22);
            let settings = Settings {
                kind: PolicyKind::Random,
                seed: rng.random(),
                ..Settings::default()
            };
            let mut random = Player::new(&layout, settings);
            for _ in 0..21 {
                let dice = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
                let mv = random.choose(&board, dice).unwrap();
                board.place(&layout, dice, mv).unwrap();
            }
            let last = Dice(rng.random_range(1..=6), rng.random_range(1..=6));
            let exhaustive = board
                .legal_moves(&layout, last)
                .into_iter()
                .map(|mv| {
                    let mut b = board.clone();
                    b.place(&layout, last, mv).unwrap();
                    super::super::score::score(&layout, &b.values)
                })
                .max()
                .unwrap();
            let mut search = Player::new(
                &layout,
                Settings {
                    batches: Some(1),
                    ..Settings::default()
                },
            );
            let mv = search.choose(&board, last).unwrap();
            board.place(&layout, last, mv).unwrap();
            assert_eq!(
                super::super::score::score(&layout, &board.values),
                exhaustive
            );
        }
    }

    /// The floor plays greedy with the learned value when it has no time, the exact endgame
    /// when at most two rolls follow and there is time, and the expectimax over the next roll
    /// otherwise, on random boards of both official layouts at every stage of the game; sized
    /// too large for its time (the first move at 0.2 ms), it plays the greedy move in about
    /// that time.
    #[test]
    fn the_floor_plays_the_best_it_can_afford() {
        use rand::Rng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(17);
        let mut kinds = [0; 3];
        for n in [1, 2] {
            let layout = official(n);
            let mut player = Player::new(&layout, Settings::default());
            let value = player.value.clone().unwrap();
            let geo = value.features.geo.clone();
            for game in 0..6 {
                let mut board = Board::new(&layout, 22);
                for dice in super::super::dotnet_random::game_dice("floor", game, 22) {
                    let mut opts = Vec::new();
                    placements(&layout, &board.values, dice, &mut opts);
                    if opts.is_empty() {
                        break;
                    }
                    let greedy = value_greedy(&value, &board, &opts);
                    let none = player.floor_pick(&board, &opts, Duration::ZERO);
                    assert_eq!(none, greedy);
                    let plenty = player.floor_pick(&board, &opts, Duration::from_secs(10));
                    let b = geo.from_values(&board.values);
                    let after = board.rounds_left - 1;
                    let free_pairs = opts.iter().filter(|p| p.a == opts[0].a).count();
                    let future = after.min(free_pairs - 1);
                    let expected = match future {
                        0 => greedy,
                        1..=2 => {
                            kinds[1] += 1;
                            super::super::endgame::best(&geo, &b, &opts, future, None).unwrap()
                        }
                        _ => {
                            kinds[2] += 1;
                            expectimax::best(&value, &b, &opts, after)
                        }
                    };
                    kinds[0] += 1;
                    assert_eq!(plenty, expected, "layout {n}, game {game}, {after} after");
                    let pick = opts[rng.random_range(0..opts.len())];
                    board.place(&layout, dice, pick.to_move(&layout)).unwrap();
                }
            }
            // Too little time for the expectimax of a first move: the greedy move, on time.
            let board = Board::new(&layout, 22);
            let mut opts = Vec::new();
            placements(&layout, &board.values, Dice(2, 5), &mut opts);
            let started = Instant::now();
            let pick = player.floor_pick(&board, &opts, Duration::from_micros(200));
            assert!(started.elapsed() < Duration::from_millis(50));
            assert_eq!(pick, value_greedy(&value, &board, &opts));
        }
        assert!(kinds[1] > 10 && kinds[2] > 100, "{kinds:?}");
    }
}
