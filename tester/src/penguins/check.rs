//! Independent replay checker (`tester penguins --check REPLAY`): re-plays a replay with its own
//! plain rules (a fish array, a penguin list, cell-by-cell stepping written from the spec and the
//! statements) and verifies every turn: whose turn it was, that the action was legal, the penguin
//! it pushed into the sea (if any), the board, penguins and scores after it; seats deactivated
//! after a failure; then that the game really ended, the final scores and the ranks. It shares no
//! code with the library's rules, which produced the replay.

use super::replay::{Pushed, Replay};

/// (dcol, drow) for the six directions on even (0-based) rows and on odd rows (spec, even-r).
const EVEN_ROW: [(i32, i32); 6] = [(1, 0), (-1, 0), (1, -1), (0, -1), (1, 1), (0, 1)];
const ODD_ROW: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, -1), (-1, -1), (0, 1), (-1, 1)];

/// The rules, as the replay names them. The two statement levels: level 1 plays without pushing,
/// level 2 adds "A penguin can push another penguin into the sea, if: it moves next to the penguin
/// which is on an ice block at the edge of the sea. The penguin, the pushed penguin and the sea
/// (or sea hole) must be on the same line." Both end early when "only one player is still in the
/// game ... and the last player is winning" (read: one player can move and is strictly ahead).
#[derive(Default)]
struct Switches {
    push: bool,
    one_fish: bool,
    score_under: bool,
    early_end: bool,
}

impl Switches {
    fn read(text: &str) -> Result<Switches, String> {
        let level2 = Switches {
            push: true,
            early_end: true,
            ..Switches::default()
        };
        let mut rules = level2;
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "league2" | "default" => {
                    rules = Switches {
                        push: true,
                        early_end: true,
                        ..Switches::default()
                    }
                }
                "league1" => {
                    rules = Switches {
                        early_end: true,
                        ..Switches::default()
                    }
                }
                "push" => rules.push = true,
                "no-push" => rules.push = false,
                "early-end" => rules.early_end = true,
                "no-early-end" => rules.early_end = false,
                "one-fish" => rules.one_fish = true,
                "score-under" => rules.score_under = true,
                other => {
                    let shown: String = other.chars().take(40).collect();
                    return Err(format!("unknown rule {shown:?}"));
                }
            }
        }
        Ok(rules)
    }
}

struct Game {
    rules: Switches,
    players: usize,
    per: usize,
    fish: Vec<u8>,
    /// Cell per penguin id (`owner * per + k`).
    at: Vec<Option<usize>>,
    /// Pushed into the sea.
    gone: Vec<bool>,
    /// Seats deactivated after a failure.
    out: Vec<bool>,
    scores: Vec<u32>,
}

fn is_cell(col: i32, row: i32) -> bool {
    (0..8).contains(&row) && (0..8).contains(&col) && !(row % 2 == 0 && col == 7)
}

fn neighbour(cell: usize, dir: usize) -> Option<usize> {
    let (col, row) = ((cell % 8) as i32, (cell / 8) as i32);
    let (dc, dr) = if row % 2 == 0 {
        EVEN_ROW[dir]
    } else {
        ODD_ROW[dir]
    };
    is_cell(col + dc, row + dr).then_some(((row + dr) * 8 + col + dc) as usize)
}

fn name(cell: usize) -> String {
    format!("{}{}", (b'A' + (cell % 8) as u8) as char, cell / 8 + 1)
}

fn cell_named(text: &str) -> Option<usize> {
    (0..64).find(|&c| is_cell((c % 8) as i32, (c / 8) as i32) && name(c) == text)
}

impl Game {
    fn occupied(&self, cell: usize) -> Option<usize> {
        self.at.iter().position(|&c| c == Some(cell))
    }

    fn open(&self, cell: usize) -> bool {
        self.fish[cell] > 0 && self.occupied(cell).is_none()
    }

    fn unplaced(&self, player: usize) -> Option<usize> {
        (player * self.per..(player + 1) * self.per)
            .find(|&i| self.at[i].is_none() && !self.gone[i])
    }

    /// A seat still in the game has penguins to place.
    fn placing(&self) -> bool {
        (0..self.players).any(|p| !self.out[p] && self.unplaced(p).is_some())
    }

    /// Every legal (penguin, from, to) for `player`: a placement on a free ice block while it
    /// has penguins to place, else a straight slide over free ice.
    fn moves(&self, player: usize) -> Vec<(usize, Option<usize>, usize)> {
        let mut out = Vec::new();
        if self.out[player] {
            return out;
        }
        if let Some(id) = self.unplaced(player) {
            for cell in 0..64 {
                let real = is_cell((cell % 8) as i32, (cell / 8) as i32);
                if real && self.open(cell) && (!self.rules.one_fish || self.fish[cell] == 1) {
                    out.push((id, None, cell));
                }
            }
            return out;
        }
        for id in player * self.per..(player + 1) * self.per {
            let Some(from) = self.at[id] else { continue };
            for dir in 0..6 {
                let mut cell = from;
                while let Some(next) = neighbour(cell, dir).filter(|&n| self.open(n)) {
                    out.push((id, Some(from), next));
                    cell = next;
                }
            }
        }
        out
    }

    /// Play a legal move; the penguin it pushed into the sea, if any (id, cell).
    fn play(
        &mut self,
        player: usize,
        (id, from, to): (usize, Option<usize>, usize),
    ) -> Option<(usize, usize)> {
        self.at[id] = Some(to);
        let from = from?;
        self.scores[player] += 100 * self.fish[from] as u32 + 1;
        self.fish[from] = 0;
        if !self.rules.push {
            return None;
        }
        // "It moves next to the penguin ... on the same line": the slide's direction, one more
        // step; that penguin's next cell the same way must be sea (no cell, or no ice).
        let dir = (0..6).find(|&d| {
            std::iter::successors(neighbour(from, d), |&c| neighbour(c, d)).any(|c| c == to)
        })?;
        let next = neighbour(to, dir)?;
        let victim = self.occupied(next)?;
        let sea_behind = neighbour(next, dir).is_none_or(|b| self.fish[b] == 0);
        if !sea_behind {
            return None;
        }
        self.at[victim] = None;
        self.gone[victim] = true;
        Some((victim, next))
    }

    fn can_move(&self, player: usize) -> bool {
        !self.moves(player).is_empty()
    }

    /// Who plays after `after` (skipping seats that cannot move), or `None` when the game is over:
    /// nobody can move, or (early end) only one can and it is strictly ahead of every other seat
    /// still in the game.
    fn next_player(&self, after: usize) -> Option<usize> {
        let next = (1..=self.players)
            .map(|k| (after + k) % self.players)
            .find(|&p| self.can_move(p))?;
        if self.rules.early_end && !self.placing() {
            let able = (0..self.players).filter(|&p| self.can_move(p)).count();
            let ahead = (0..self.players)
                .all(|q| q == next || self.out[q] || self.scores[q] < self.scores[next]);
            if able == 1 && ahead {
                return None;
            }
        }
        Some(next)
    }

    fn board_rows(&self) -> Vec<String> {
        self.fish
            .chunks(8)
            .map(|r| r.iter().map(|f| char::from(b'0' + f)).collect())
            .collect()
    }

    fn final_scores(&self) -> Vec<u32> {
        let mut scores = self.scores.clone();
        if self.rules.score_under {
            for (i, cell) in self.at.iter().enumerate() {
                if let Some(c) = cell {
                    scores[i / self.per] += 100 * self.fish[*c] as u32 + 1;
                }
            }
        }
        scores
    }
}

/// Under the CPU judge the wall clock still bounds an answer, at this many times the limit.
const CPU_JUDGE_WALL_FACTOR: u64 = 4;

/// The failure kinds the referee records.
const FAILURE_KINDS: [&str; 3] = ["timeout", "invalid", "ended"];

/// The fields the page shows that no re-play decides: the limits, each turn's time within its
/// limit, the failure kinds, the action's exact spelling.
fn check_shown_fields(replay: &Replay) -> Result<(), String> {
    let most = bot::cli::args::MAX_SECONDS * 1000;
    for (name, ms) in [
        ("first_turn_ms", replay.first_turn_ms),
        ("turn_ms", replay.turn_ms),
    ] {
        if !(1..=most).contains(&ms) {
            return Err(format!("{name} {ms} outside 1..={most}"));
        }
    }
    let mut started = vec![false; replay.players.len()];
    for t in &replay.turns {
        let limit = match std::mem::replace(&mut started[t.player], true) {
            false => replay.first_turn_ms,
            true => replay.turn_ms,
        };
        // Under the CPU judge the CPU time meets the limit, and the wall clock only bounds the
        // wait; a turn without a CPU reading was judged by the wall clock.
        let (judged, wall_limit) = match (replay.cpu_time, t.cpu_ms) {
            (true, Some(cpu)) => (Some(cpu), limit * CPU_JUDGE_WALL_FACTOR),
            _ => (None, limit),
        };
        if !(t.time_ms >= 0.0 && t.time_ms <= wall_limit as f64) {
            return Err(format!(
                "turn {}: time {} ms outside 0..={wall_limit} ms (an answer over the limit is a timeout)",
                t.turn, t.time_ms
            ));
        }
        if let Some(cpu) = judged.filter(|&c| !(c >= 0.0 && c <= limit as f64)) {
            return Err(format!(
                "turn {}: CPU time {cpu} ms outside 0..={limit} ms (the CPU judge's limit)",
                t.turn
            ));
        }
    }
    for (seat, failure) in replay.failures.iter().enumerate() {
        if let Some(f) = failure
            .as_ref()
            .filter(|f| !FAILURE_KINDS.contains(&f.kind.as_str()))
        {
            let kind = bot::source_error::quote(&f.kind);
            return Err(format!(
                "seat {seat}: failure kind {kind} (expected timeout, invalid or ended)"
            ));
        }
    }
    Ok(())
}

/// Verify `replay`; `Ok` says how many turns were checked.
pub fn check(replay: &Replay) -> Result<usize, String> {
    super::viewer::check(replay)?;
    check_shown_fields(replay)?;
    if replay.penguins_per_player != 6 - replay.players.len() {
        return Err(format!(
            "{} penguins per player with {} players (expected {})",
            replay.penguins_per_player,
            replay.players.len(),
            6 - replay.players.len()
        ));
    }
    let actions: Vec<&str> = replay.turns.iter().map(|t| t.action.as_str()).collect();
    let failed_at: Vec<Option<usize>> = (replay.failures.iter())
        .map(|f| f.as_ref().map(|f| f.turn))
        .collect();
    let mut verify = |index: usize, player: usize, game: &Game, pushed: &Option<Pushed>| {
        let (t, record) = (index, &replay.turns[index]);
        if record.turn != index {
            return Err(format!("record {index} is numbered turn {}", record.turn));
        }
        if record.player != player {
            return Err(format!(
                "turn {t}: seat {} moved, but it was seat {player}'s turn",
                record.player
            ));
        }
        if record.pushed != *pushed {
            return Err(format!(
                "turn {t}: {} pushed {}, the replay says {}",
                record.action,
                describe(pushed),
                describe(&record.pushed)
            ));
        }
        if record.board != game.board_rows() {
            return Err(format!("turn {t}: board after {} differs", record.action));
        }
        let mut penguins: Vec<(usize, usize, String)> = (0..game.players * game.per)
            .filter_map(|i| game.at[i].map(|c| (i, i / game.per, name(c))))
            .collect();
        penguins.sort();
        let mut listed = record.penguins.clone();
        listed.sort();
        if listed != penguins {
            return Err(format!("turn {t}: penguins after {} differ", record.action));
        }
        if record.scores != game.scores {
            return Err(format!(
                "turn {t}: scores {:?}, expected {:?}",
                record.scores, game.scores
            ));
        }
        Ok(())
    };
    let setup = (
        &replay.initial_board[..],
        replay.rules.as_str(),
        replay.players.len(),
    );
    let outcome = play_through(setup, &actions, &failed_at, &mut verify)?;
    if replay.final_scores != outcome.final_scores {
        return Err(format!(
            "final scores {:?}, expected {:?}",
            replay.final_scores, outcome.final_scores
        ));
    }
    let ranks = expected_ranks(&outcome.final_scores, &failed_at);
    if replay.ranks != ranks {
        return Err(format!("ranks {:?}, expected {ranks:?}", replay.ranks));
    }
    let reason = end_reason(&outcome.game, &failed_at);
    if replay.end_reason != reason {
        return Err(format!(
            "end reason {}, expected {}",
            bot::source_error::quote(&replay.end_reason),
            bot::source_error::quote(&reason)
        ));
    }
    Ok(replay.turns.len())
}

/// What a game's moves decide, re-played by this checker.
pub struct Outcome {
    pub final_scores: Vec<u32>,
    pub ranks: Vec<usize>,
    /// The seat that made each move.
    pub movers: Vec<usize>,
    pub end_reason: String,
    game: Game,
}

/// Re-play `actions` (`MOVE id cell`, in turn order) on `initial_board` (8 rows of 8 digits)
/// under `rules` with `players` seats, each seat out from the turn in `failed_at` (if any), and
/// say what they decide; `Err` when a move is not legal or the game does not end where they do.
pub fn outcome(
    initial_board: &[String],
    rules: &str,
    players: usize,
    actions: &[&str],
    failed_at: &[Option<usize>],
) -> Result<Outcome, String> {
    let setup = (initial_board, rules, players);
    let mut outcome = play_through(setup, actions, failed_at, &mut |_, _, _, _| Ok(()))?;
    outcome.ranks = expected_ranks(&outcome.final_scores, failed_at);
    outcome.end_reason = end_reason(&outcome.game, failed_at);
    Ok(outcome)
}

/// Called after each move with its index, its mover, the game after it and whom it pushed.
type Verify<'a> = dyn FnMut(usize, usize, &Game, &Option<Pushed>) -> Result<(), String> + 'a;

/// The re-play both `check` and `outcome` share: every move legal and by the seat to move, seats
/// deactivated at their failure, the game over exactly when the moves end.
fn play_through(
    (initial_board, rules, players): (&[String], &str, usize),
    actions: &[&str],
    failed_at: &[Option<usize>],
    verify: &mut Verify,
) -> Result<Outcome, String> {
    let per = 6usize.saturating_sub(players);
    let board_ok = initial_board.len() == 8
        && (initial_board.iter())
            .all(|r| r.len() == 8 && r.bytes().all(|b| (b'0'..=b'3').contains(&b)));
    if !(2..=4).contains(&players) || failed_at.len() != players || !board_ok {
        return Err(format!(
            "{players} players, {} failures, a board of {} rows: not a Penguins game",
            failed_at.len(),
            initial_board.len()
        ));
    }
    let mut game = Game {
        rules: Switches::read(rules)?,
        players,
        per,
        fish: initial_board.concat().bytes().map(|b| b - b'0').collect(),
        at: vec![None; players * per],
        gone: vec![false; players * per],
        out: vec![false; players],
        scores: vec![0; players],
    };
    if (0..64).any(|c| !is_cell((c % 8) as i32, (c / 8) as i32) && game.fish[c] > 0) {
        return Err("initial_board has fish on a cell that does not exist".into());
    }
    let failed = |seat: usize| failed_at[seat];
    let mut to_move = (0..players).find(|&p| game.can_move(p));
    let mut movers = Vec::with_capacity(actions.len());
    for (t, action) in actions.iter().enumerate() {
        to_move = deactivate_failed(&mut game, to_move, t, &failed);
        if game.out.iter().filter(|&&o| !o).count() < 2 {
            return Err(format!("turn {t}: played with fewer than two seats left"));
        }
        let player = to_move.ok_or(format!("turn {t}: the game was already over"))?;
        let words: Vec<&str> = action.split_whitespace().collect();
        let parsed = match words.as_slice() {
            ["MOVE", id, cell] => id.parse::<usize>().ok().zip(cell_named(cell)),
            _ => None,
        };
        let (id, to) = parsed
            .filter(|&(id, to)| *action == format!("MOVE {id} {}", name(to)))
            .ok_or(format!(
                "turn {t}: unreadable action {}",
                bot::source_error::quote(action)
            ))?;
        let mv = game
            .moves(player)
            .into_iter()
            .find(|&(i, _, c)| i == id && c == to)
            .ok_or(format!("turn {t}: {action} is not legal"))?;
        let pushed = game.play(player, mv).map(|(victim, cell)| Pushed {
            id: victim,
            owner: victim / per,
            cell: name(cell),
        });
        verify(t, player, &game, &pushed)?;
        movers.push(player);
        to_move = game.next_player(player);
    }
    // Failures after the last move; fewer than two seats left ends the game (with 2 players,
    // any failure does).
    to_move = deactivate_failed(&mut game, to_move, actions.len(), &failed);
    if game.out.iter().filter(|&&o| !o).count() >= 2 {
        if let Some(p) = to_move {
            return Err(format!("the game stops but seat {p} could still move"));
        }
    }
    for (seat, turn) in failed_at.iter().enumerate() {
        if let Some(turn) = turn {
            if !game.out[seat] {
                return Err(format!(
                    "seat {seat} failed at turn {turn} but was never out of the game"
                ));
            }
        }
    }
    Ok(Outcome {
        final_scores: game.final_scores(),
        ranks: Vec::new(),
        movers,
        end_reason: String::new(),
        game,
    })
}

/// Why the game ended, in the referee's words: a failure in a 2-player game; else fewer than two
/// seats left, an early end (one seat can move and is ahead) or nobody able to move, naming the
/// deactivated seats.
fn end_reason(game: &Game, failed_at: &[Option<usize>]) -> String {
    let list = |seats: Vec<usize>| {
        let names: Vec<String> = seats.iter().map(usize::to_string).collect();
        names.join(", ")
    };
    let failed: Vec<usize> = (0..game.players)
        .filter(|&p| failed_at[p].is_some())
        .collect();
    if game.players == 2 && !failed.is_empty() {
        return format!("player {} lost by default", failed[0]);
    }
    let left: Vec<usize> = (0..game.players).filter(|&p| !game.out[p]).collect();
    let base = if game.players > 2 && left.len() < 2 {
        format!("only seat {} is left in the game", list(left))
    } else if let Some(leader) = (0..game.players).find(|&p| game.can_move(p)) {
        format!("early end: only seat {leader} could still move and it was ahead")
    } else {
        "no player can move".to_string()
    };
    match failed.is_empty() {
        true => base,
        false => format!("{base} (deactivated: seat {})", list(failed)),
    }
}

/// Take out every seat whose failure happened at record `index` while it was its turn (the
/// failed turn has no record); returns who plays now.
fn deactivate_failed(
    game: &mut Game,
    mut to_move: Option<usize>,
    index: usize,
    failed_at: &dyn Fn(usize) -> Option<usize>,
) -> Option<usize> {
    while let Some(p) = to_move.filter(|&p| failed_at(p) == Some(index) && !game.out[p]) {
        game.out[p] = true;
        if game.out.iter().filter(|&&o| !o).count() < 2 {
            return None;
        }
        to_move = game.next_player(p);
    }
    to_move
}

/// Ranks: seats still in the game by score (ties share); failed seats below them, a later
/// failure above an earlier one.
fn expected_ranks(scores: &[u32], failed_at: &[Option<usize>]) -> Vec<usize> {
    let in_game: Vec<usize> = (0..scores.len())
        .filter(|&p| failed_at[p].is_none())
        .collect();
    (0..scores.len())
        .map(|p| match failed_at[p] {
            None => 1 + in_game.iter().filter(|&&q| scores[q] > scores[p]).count(),
            Some(turn) => {
                let later = failed_at.iter().flatten().filter(|&&t| t > turn).count();
                in_game.len() + 1 + later
            }
        })
        .collect()
}

fn describe(pushed: &Option<Pushed>) -> String {
    match pushed {
        Some(p) => format!("penguin {} (seat {}) on {}", p.id, p.owner, p.cell),
        None => "nobody".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_follow_the_worked_example() {
        // From F4 (odd row): E5 is SW, F5 is SE, F3 is NE, then G2, G1 further NE.
        let f4 = 3 * 8 + 5;
        let ne: Vec<String> = std::iter::successors(neighbour(f4, 2), |&c| neighbour(c, 2))
            .map(name)
            .collect();
        assert_eq!(ne, ["F3", "G2", "G1"]);
        assert_eq!(neighbour(f4, 4).map(name).as_deref(), Some("F5"));
        assert_eq!(neighbour(f4, 5).map(name).as_deref(), Some("E5"));
        assert_eq!(neighbour(6, 0), None, "G1 east is the missing H1");
    }

    #[test]
    fn rule_names_follow_the_statement_levels() {
        let l1 = Switches::read("league1").unwrap();
        assert!(!l1.push && l1.early_end);
        let l2 = Switches::read("league2").unwrap();
        assert!(l2.push && l2.early_end);
        let mixed = Switches::read("league1,push,no-early-end,score-under").unwrap();
        assert!(mixed.push && !mixed.early_end && mixed.score_under);
        assert!(Switches::read("bogus").is_err());
    }

    /// A real game: the library's rules, the first legal move each turn; seat 1 fails at its
    /// third turn when `failing`.
    fn played(failing: bool) -> Replay {
        use crate::penguins::referee::RefereeConfig;
        use crate::penguins::referee::{conclude, fail_seat, new_replay, play_and_record};
        use bot::penguins::{generate_board, MoveList, Rules, State};
        let rules = Rules::parse("league2").unwrap();
        let config = RefereeConfig {
            seed: 3,
            rules,
            first_turn: std::time::Duration::from_millis(1000),
            turn: std::time::Duration::from_millis(50),
            cpu_time: false,
        };
        let mut state = State::new(&generate_board(3), 2, rules).unwrap();
        let mut replay = new_replay(&config, &["a".into(), "b".into()], &state);
        let mut moves = MoveList::new();
        while !state.is_over() {
            if failing && state.to_move() == 1 && replay.turns.len() >= 5 {
                fail_seat(&mut replay, &mut state, "timeout", "no answer".into());
                break;
            }
            state.legal_moves(&mut moves);
            let turn = replay.turns.len();
            let mut record = play_and_record(&mut state, moves[0], turn);
            record.time_ms = 0.5;
            replay.turns.push(record);
        }
        conclude(&mut replay, &state, false);
        replay
    }

    #[test]
    fn every_field_the_viewer_shows_is_checked() {
        for failing in [false, true] {
            let replay = played(failing);
            assert!(check(&replay).is_ok(), "{:?}", check(&replay));
        }
        let evil = "<img src=x onerror=alert(1)>".to_string();
        type Edit<'a> = Box<dyn Fn(&mut Replay) + 'a>;
        let edits: Vec<(&str, Edit)> = vec![
            ("end_reason", Box::new(|r| r.end_reason = evil.clone())),
            (
                "failure kind",
                Box::new(|r| {
                    if let Some(f) = r.failures[1].as_mut() {
                        f.kind = evil.clone();
                    }
                }),
            ),
            ("turn time", Box::new(|r| r.turns[2].time_ms = 1e9)),
            (
                "negative turn time",
                Box::new(|r| r.turns[2].time_ms = -1.0),
            ),
            ("first turn time", Box::new(|r| r.turns[0].time_ms = 1000.5)),
            (
                "action spelling",
                Box::new(|r| {
                    r.turns[0].action = r.turns[0].action.replace(' ', "  ");
                }),
            ),
            ("limits", Box::new(|r| r.turn_ms = 0)),
        ];
        for (what, edit) in &edits {
            let mut replay = played(true);
            edit(&mut replay);
            assert!(
                check(&replay).is_err(),
                "{what} edited, yet the replay checks"
            );
        }
    }

    /// Under the CPU judge a turn may take longer than its limit on the wall clock (the bot was
    /// descheduled) but not in CPU time, and never over 4 times the limit on the wall clock.
    #[test]
    fn the_cpu_judge_is_checked_by_cpu_time() {
        let cpu_judged = |wall: f64, cpu: Option<f64>| {
            let mut replay = played(false);
            replay.cpu_time = true;
            replay.turns[2].time_ms = wall;
            replay.turns[2].cpu_ms = cpu;
            check(&replay)
        };
        assert!(cpu_judged(55.4, Some(40.1)).is_ok());
        assert!(cpu_judged(199.0, Some(49.9)).is_ok());
        assert!(cpu_judged(55.4, Some(50.5)).is_err());
        assert!(cpu_judged(201.0, Some(10.0)).is_err());
        assert!(
            cpu_judged(55.4, None).is_err(),
            "no CPU reading: the wall clock judges"
        );
        assert!(cpu_judged(40.0, Some(-1.0)).is_err());
        let mut wall_judged = played(false);
        wall_judged.turns[2].time_ms = 55.4;
        wall_judged.turns[2].cpu_ms = Some(40.1);
        assert!(check(&wall_judged).is_err());
    }
}
