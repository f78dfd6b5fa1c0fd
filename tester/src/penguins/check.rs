//! Independent replay checker (`tester penguins --check REPLAY`): re-plays a replay with its own
//! plain rules (a fish array, a penguin list, cell-by-cell stepping written from the spec) and
//! verifies every turn: whose turn it was, that the action was legal, and the board, penguins and
//! scores after it; then that the game really ended and the final scores. It shares no code with
//! the library's rules, which produced the replay.

use super::replay::Replay;

/// (dcol, drow) for the six directions on even (0-based) rows and on odd rows (spec, even-r).
const EVEN_ROW: [(i32, i32); 6] = [(1, 0), (-1, 0), (1, -1), (0, -1), (1, 1), (0, 1)];
const ODD_ROW: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, -1), (-1, -1), (0, 1), (-1, 1)];

#[derive(Default)]
struct Switches {
    push: bool,
    one_fish: bool,
    score_under: bool,
    early_end: bool,
}

struct Game {
    rules: Switches,
    players: usize,
    per: usize,
    fish: Vec<u8>,
    /// Cell per penguin id (`owner * per + k`).
    at: Vec<Option<usize>>,
    gone: Vec<bool>,
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

    /// Every legal (penguin, from, to) for `player`.
    fn moves(&self, player: usize) -> Vec<(usize, Option<usize>, usize)> {
        let mut out = Vec::new();
        if let Some(id) = self.unplaced(player) {
            for cell in 0..64 {
                if self.open(cell) && (!self.rules.one_fish || self.fish[cell] == 1) {
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
                if self.rules.push {
                    if let Some(next) = neighbour(from, dir) {
                        let enemy = self.occupied(next).is_some_and(|v| v / self.per != player);
                        let drop = neighbour(next, dir).is_none_or(|b| self.fish[b] == 0);
                        if enemy && drop {
                            out.push((id, Some(from), next));
                        }
                    }
                }
            }
        }
        out
    }

    fn next_player(&self, after: usize) -> Option<usize> {
        (1..=self.players)
            .map(|k| (after + k) % self.players)
            .find(|&p| !self.moves(p).is_empty())
    }

    fn board_rows(&self) -> Vec<String> {
        self.fish
            .chunks(8)
            .map(|r| r.iter().map(|f| char::from(b'0' + f)).collect())
            .collect()
    }
}

/// Verify `replay`; `Ok` says how many turns were checked.
pub fn check(replay: &Replay) -> Result<usize, String> {
    super::viewer::check(replay)?;
    let mut rules = Switches::default();
    for word in replay
        .rules
        .split(',')
        .filter(|w| !w.is_empty() && *w != "default")
    {
        match word {
            "push" => rules.push = true,
            "one-fish" => rules.one_fish = true,
            "score-under" => rules.score_under = true,
            "early-end" => rules.early_end = true,
            other => return Err(format!("unknown rule {other:?}")),
        }
    }
    let players = replay.players.len();
    let per = replay.penguins_per_player;
    let mut game = Game {
        rules,
        players,
        per,
        fish: replay
            .initial_board
            .concat()
            .bytes()
            .map(|b| b - b'0')
            .collect(),
        at: vec![None; players * per],
        gone: vec![false; players * per],
        scores: vec![0; players],
    };
    let mut to_move = if game.moves(0).is_empty() {
        game.next_player(0)
    } else {
        Some(0)
    };
    let failed = replay.failures.iter().any(Option::is_some);
    for record in &replay.turns {
        let t = record.turn;
        let player = to_move.ok_or(format!("turn {t}: the game was already over"))?;
        if record.player != player {
            return Err(format!(
                "turn {t}: seat {} moved, but it was seat {player}'s turn",
                record.player
            ));
        }
        let words: Vec<&str> = record.action.split_whitespace().collect();
        let parsed = match words.as_slice() {
            ["MOVE", id, cell] => id.parse::<usize>().ok().zip(
                (0..64).find(|&c| is_cell((c % 8) as i32, (c / 8) as i32) && name(c) == *cell),
            ),
            _ => None,
        };
        let (id, to) = parsed.ok_or(format!("turn {t}: unreadable action {:?}", record.action))?;
        let mv = game
            .moves(player)
            .into_iter()
            .find(|&(i, _, c)| i == id && c == to)
            .ok_or(format!("turn {t}: {} is not legal", record.action))?;
        if let (_, Some(from), _) = mv {
            game.scores[player] += 100 * game.fish[from] as u32 + 1;
            game.fish[from] = 0;
            if let Some(victim) = game.occupied(to) {
                game.at[victim] = None;
                game.gone[victim] = true;
            }
        }
        game.at[id] = Some(to);
        if record.board != game.board_rows() {
            return Err(format!("turn {t}: board after {} differs", record.action));
        }
        let mut penguins: Vec<(usize, usize, String)> = (0..players * per)
            .filter_map(|i| game.at[i].map(|c| (i, i / per, name(c))))
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
        to_move = game.next_player(player);
        if rules_end_early(&game, to_move) {
            to_move = None;
        }
    }
    if !failed {
        if let Some(p) = to_move {
            return Err(format!("the replay stops but seat {p} could still move"));
        }
        let mut expected = game.scores.clone();
        if game.rules.score_under {
            for (i, cell) in game.at.iter().enumerate() {
                if let Some(c) = cell {
                    expected[i / per] += 100 * game.fish[*c] as u32 + 1;
                }
            }
        }
        if replay.final_scores != expected {
            return Err(format!(
                "final scores {:?}, expected {expected:?}",
                replay.final_scores
            ));
        }
    }
    Ok(replay.turns.len())
}

/// `early-end`: after placement, only one player can move and it strictly leads.
fn rules_end_early(game: &Game, next: Option<usize>) -> bool {
    let Some(p) = next else { return false };
    if !game.rules.early_end || (0..game.players).any(|q| game.unplaced(q).is_some()) {
        return false;
    }
    let able = (0..game.players)
        .filter(|&q| !game.moves(q).is_empty())
        .count();
    able == 1 && (0..game.players).all(|q| q == p || game.scores[q] < game.scores[p])
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
}
