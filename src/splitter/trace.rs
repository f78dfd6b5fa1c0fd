//! Why the bot chose a move, when asked (`bot splitter --trace FILE`): every candidate placement
//! the search weighed, with its mean and the rollouts it had. Off by default: the player then
//! holds no record and the search tests one `Option` per move, nothing more.
//!
//! A candidate's mean depends on how the move was chosen (`Method`): the mean result of its
//! rollouts (estimated final points), its exact expected final score (the last rolls, solved
//! exhaustively), or its final score (the last roll).

use super::game::{Board, Dice, Move, Placement};
use super::layout::Layout;
use super::score::score;
use serde::Serialize;

/// How a move was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// By a policy that weighs no candidates (random, greedy, value, expectimax).
    #[default]
    Policy,
    /// Monte-Carlo: each candidate's mean over its rollouts (all on shared dice; a candidate
    /// clearly behind the leader stops early, so it had fewer).
    Rollouts,
    /// Exact: each candidate's expected final score with every later roll placed optimally (the
    /// last rolls), or its final score (the last roll).
    Exact,
    /// The only placement left: nothing to weigh.
    Only,
    /// The game was out of time: the quick fallback move, unweighed.
    Floor,
}

/// One candidate placement as weighed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    pub placement: Placement,
    /// Its mean (see `Method`); None when it was not weighed.
    pub mean: Option<f32>,
    pub rollouts: u32,
}

/// The record of one move.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoveTrace {
    pub method: Method,
    pub candidates: Vec<Candidate>,
}

impl MoveTrace {
    pub fn clear(&mut self) {
        self.method = Method::Policy;
        self.candidates.clear();
    }

    /// Monte-Carlo: `results[i]` are candidate `opts[i]`'s rollout results.
    pub(super) fn rollouts(&mut self, opts: &[Placement], results: &[Vec<f32>]) {
        self.method = Method::Rollouts;
        self.candidates = opts
            .iter()
            .zip(results)
            .map(|(&placement, r)| Candidate {
                placement,
                mean: Some(r.iter().sum::<f32>() / r.len().max(1) as f32),
                rollouts: r.len() as u32,
            })
            .collect();
    }

    /// Exact: each candidate's value by `worth`.
    pub(super) fn exact(&mut self, opts: &[Placement], mut worth: impl FnMut(Placement) -> f32) {
        self.method = Method::Exact;
        self.candidates = opts
            .iter()
            .map(|&placement| Candidate {
                placement,
                mean: Some(worth(placement)),
                rollouts: 0,
            })
            .collect();
    }

    /// The last roll: each candidate's final score.
    pub(super) fn last_roll(&mut self, layout: &Layout, board: &Board, opts: &[Placement]) {
        let mut values = board.values.clone();
        self.exact(opts, |p| {
            values.copy_from_slice(&board.values);
            values[p.cell] = p.a;
            values[layout.mirror(p.cell)] = p.b;
            score(layout, &values) as f32
        });
    }

    /// A move with nothing weighed (`Only` or `Floor`): the chosen placement alone.
    pub(super) fn unweighed(&mut self, method: Method, chosen: Placement) {
        self.method = method;
        self.candidates = vec![Candidate {
            placement: chosen,
            mean: None,
            rollouts: 0,
        }];
    }

    /// Rollouts of every candidate.
    pub fn total_rollouts(&self) -> u64 {
        self.candidates.iter().map(|c| c.rollouts as u64).sum()
    }

    /// One line of the trace file (JSON): the roll (1-based), its dice, the move answered, how it
    /// was chosen, and each candidate as the move that names it, with its mean (2 decimals) and
    /// rollouts.
    pub fn json_line(&self, layout: &Layout, roll: usize, dice: Dice, chosen: Move) -> String {
        #[derive(Serialize)]
        struct Line {
            roll: usize,
            dice: [u8; 2],
            chosen: [usize; 3],
            method: Method,
            rollouts: u64,
            candidates: Vec<Entry>,
        }
        #[derive(Serialize)]
        struct Entry {
            #[serde(rename = "move")]
            mv: [usize; 3],
            mean: Option<f64>,
            rollouts: u32,
        }
        let as_array = |m: Move| [m.die as usize, m.x, m.y];
        let line = Line {
            roll,
            dice: [dice.0, dice.1],
            chosen: as_array(chosen),
            method: self.method,
            rollouts: self.total_rollouts(),
            candidates: self
                .candidates
                .iter()
                .map(|c| Entry {
                    mv: as_array(c.placement.to_move(layout)),
                    mean: c.mean.map(|m| (m as f64 * 100.0).round() / 100.0),
                    rollouts: c.rollouts,
                })
                .collect(),
        };
        serde_json::to_string(&line).expect("a trace line always serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::super::dotnet_random::game_dice;
    use super::super::layout::official;
    use super::super::policy::{Player, PolicyKind, Settings};
    use super::*;

    /// Rolls played greedily before the search takes over (keeps the tests quick).
    const GREEDY_ROLLS: usize = 8;

    /// Play one seeded game, its first `GREEDY_ROLLS` greedily, the rest by the search at a fixed
    /// number of rollout batches; the moves, and the search's records when `traced`.
    fn play(layout: &Layout, game: u32, batches: u32, traced: bool) -> (Vec<Move>, Vec<MoveTrace>) {
        let settings = Settings {
            batches: Some(batches),
            seed: game as u64,
            ..Settings::default()
        };
        let mut greedy = Player::new(
            layout,
            Settings {
                kind: PolicyKind::Greedy,
                ..Settings::default()
            },
        );
        let mut player = Player::new(layout, settings);
        player.trace = traced.then(MoveTrace::default);
        let mut board = Board::new(layout, 22);
        let (mut moves, mut records) = (Vec::new(), Vec::new());
        for (k, dice) in game_dice("trace", game, 22).into_iter().enumerate() {
            if k < GREEDY_ROLLS {
                let mv = greedy.choose(&board, dice).expect("free cells remain");
                board.place(layout, dice, mv).unwrap();
                moves.push(mv);
                continue;
            }
            let mv = player.choose(&board, dice).expect("free cells remain");
            board.place(layout, dice, mv).unwrap();
            moves.push(mv);
            if let Some(t) = &player.trace {
                assert_eq!(t.total_rollouts(), player.last_rollouts);
                records.push(t.clone());
            }
        }
        (moves, records)
    }

    /// Tracing changes nothing the bot plays: at fixed compute the moves are the same with the
    /// record on and off, on both layouts.
    #[test]
    fn the_trace_does_not_change_the_moves() {
        for n in [1, 2] {
            let layout = official(n);
            for game in 0..2 {
                let (plain, none) = play(&layout, game, 4, false);
                let (traced, records) = play(&layout, game, 4, true);
                assert!(none.is_empty());
                assert_eq!(plain, traced, "layout {n} game {game}");
                assert_eq!(records.len(), 22 - GREEDY_ROLLS);
            }
        }
    }

    /// Every record tells the truth about its move: its candidates are the legal placements, the
    /// move played is the one with the best mean among those weighed to the end (all rollouts
    /// are on shared dice, so they have the most), and the last roll's means are the final scores.
    #[test]
    fn each_record_names_the_move_played_and_its_best_mean() {
        let layout = official(2);
        let mut methods = std::collections::BTreeSet::new();
        for game in 0..2 {
            let (moves, records) = play(&layout, game, 5, true);
            let mut board = Board::new(&layout, 22);
            let rolls = game_dice("trace", game, 22).into_iter().zip(&moves);
            for (k, (dice, mv)) in rolls.enumerate() {
                let Some(record) = k.checked_sub(GREEDY_ROLLS).map(|r| &records[r]) else {
                    board.place(&layout, dice, *mv).unwrap();
                    continue;
                };
                methods.insert(format!("{:?}", record.method));
                let mut opts = Vec::new();
                super::super::game::placements(&layout, &board.values, dice, &mut opts);
                let named: Vec<Placement> = record.candidates.iter().map(|c| c.placement).collect();
                match record.method {
                    Method::Rollouts | Method::Exact => assert_eq!(named, opts, "roll {k}"),
                    _ => assert_eq!(named.len(), 1, "roll {k}"),
                }
                let most = record.candidates.iter().map(|c| c.rollouts).max().unwrap();
                let best = record
                    .candidates
                    .iter()
                    .filter(|c| c.rollouts == most)
                    .map(|c| c.mean.unwrap_or(f32::NEG_INFINITY))
                    .fold(f32::NEG_INFINITY, f32::max);
                let played = record
                    .candidates
                    .iter()
                    .find(|c| c.placement.to_move(&layout) == *mv)
                    .unwrap_or_else(|| panic!("roll {k}: {mv:?} is not a candidate"));
                assert_eq!(played.rollouts, most, "roll {k}");
                if record.method != Method::Only {
                    assert_eq!(played.mean, Some(best), "roll {k}");
                }
                board.place(&layout, dice, *mv).unwrap();
                if k == 21 {
                    assert_eq!(record.method, Method::Exact);
                    assert_eq!(
                        played.mean,
                        Some(score(&layout, &board.values) as f32),
                        "the last roll's mean is the final score"
                    );
                }
            }
        }
        assert!(
            methods.contains("Rollouts") && methods.contains("Exact"),
            "{methods:?}"
        );
    }

    /// Other policies weigh nothing: their record is the move alone.
    #[test]
    fn a_policy_without_candidates_records_its_move_alone() {
        let layout = official(1);
        let settings = Settings {
            kind: PolicyKind::Greedy,
            ..Settings::default()
        };
        let mut player = Player::new(&layout, settings);
        player.trace = Some(MoveTrace::default());
        let board = Board::new(&layout, 22);
        let mv = player.choose(&board, Dice(2, 3)).unwrap();
        let record = player.trace.as_ref().unwrap();
        assert_eq!(record.method, Method::Policy);
        assert_eq!(record.candidates.len(), 1);
        assert_eq!(record.candidates[0].placement.to_move(&layout), mv);
    }

    #[test]
    fn a_line_is_json_with_the_move_and_each_candidate() {
        let layout = official(1);
        let mut record = MoveTrace::default();
        let opts = [
            Placement {
                cell: 2,
                a: 3,
                b: 5,
            },
            Placement {
                cell: 2,
                a: 5,
                b: 3,
            },
        ];
        record.rollouts(&opts, &[vec![30.0, 31.0], vec![29.0]]);
        let line = record.json_line(&layout, 4, Dice(3, 5), opts[0].to_move(&layout));
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["roll"], 4);
        assert_eq!(v["dice"], serde_json::json!([3, 5]));
        assert_eq!(v["chosen"], serde_json::json!([3, 2, 0]));
        assert_eq!(v["method"], "rollouts");
        assert_eq!(v["rollouts"], 3);
        assert_eq!(v["candidates"][0]["move"], serde_json::json!([3, 2, 0]));
        assert_eq!(v["candidates"][0]["mean"], 30.5);
        assert_eq!(v["candidates"][1]["rollouts"], 1);
        assert!(!line.contains('\n'));
    }
}
