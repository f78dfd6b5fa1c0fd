//! Slow, obviously-correct twin of the rules for tests: a fish array, a penguin list and
//! cell-by-cell stepping with its own neighbour table. Shares nothing with the bitboard code.
//!
//! The push comes from the level-2 statement, read word by word: "A penguin can push another
//! penguin into the sea, if: it moves next to the penguin which is on an ice block at the edge of
//! the sea. The penguin, the pushed penguin and the sea (or sea hole) must be on the same line."
//! So: after a slide in some direction, look one more step that way; a penguin standing there
//! whose own next step that way is sea (no cell, or a cell without ice) is pushed.

use super::rules::{Placement, Rules};

/// (dcol, drow) per direction for even (0-based) rows and odd rows, straight from the spec.
const EVEN: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)];
const ODD: [(i32, i32); 6] = [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)];

fn real(col: i32, row: i32) -> bool {
    (0..8).contains(&col) && (0..8).contains(&row) && !(row % 2 == 0 && col == 7)
}

fn step(cell: usize, dir: usize) -> Option<usize> {
    let (col, row) = ((cell % 8) as i32, (cell / 8) as i32);
    let (dc, dr) = if row % 2 == 0 { EVEN[dir] } else { ODD[dir] };
    real(col + dc, row + dr).then(|| ((row + dr) * 8 + col + dc) as usize)
}

#[derive(Clone, Debug)]
pub struct NaiveGame {
    pub rules: Rules,
    pub players: usize,
    pub per_player: usize,
    pub fish: [u8; 64],
    /// Cell of each penguin by id (`owner * per_player + k`), `None` when not on the board.
    pub cells: Vec<Option<usize>>,
    pub gone: Vec<bool>,
    pub scores: Vec<u32>,
    pub to_move: usize,
    pub over: bool,
}

impl NaiveGame {
    pub fn new(rules: Rules, players: usize, fish: [u8; 64]) -> Self {
        let per_player = 6 - players;
        let mut game = NaiveGame {
            rules,
            players,
            per_player,
            fish,
            cells: vec![None; players * per_player],
            gone: vec![false; players * per_player],
            scores: vec![0; players],
            to_move: 0,
            over: false,
        };
        game.advance_from(0);
        game
    }

    /// The same position as `state` (penguins keep their ids; none counts as pushed off).
    pub fn from_state(state: &super::State) -> Self {
        let players = state.players();
        let per_player = state.penguins_per_player();
        let mut fish = [0u8; 64];
        for (cell, f) in fish.iter_mut().enumerate() {
            *f = state.fish_at(cell as u8);
        }
        let mut cells = vec![None; players * per_player];
        for (id, _, cell) in state.penguins_on_board() {
            cells[id] = Some(cell as usize);
        }
        // Off the board with placement over: pushed into the sea.
        let placing = (0..players).any(|p| state.next_unplaced(p).is_some());
        let gone = cells.iter().map(|c| c.is_none() && !placing).collect();
        NaiveGame {
            rules: *state.rules(),
            players,
            per_player,
            fish,
            cells,
            gone,
            scores: state.scores().to_vec(),
            to_move: state.to_move(),
            over: state.is_over(),
        }
    }

    fn occupant(&self, cell: usize) -> Option<usize> {
        self.cells.iter().position(|&c| c == Some(cell))
    }

    fn enterable(&self, cell: usize) -> bool {
        self.fish[cell] > 0 && self.occupant(cell).is_none()
    }

    /// (penguin, from, to) with from = None for placements.
    pub fn moves(&self, player: usize) -> Vec<(usize, Option<usize>, usize)> {
        let ids = player * self.per_player..(player + 1) * self.per_player;
        let mut out = Vec::new();
        if let Some(id) = ids
            .clone()
            .find(|&i| self.cells[i].is_none() && !self.gone[i])
        {
            for cell in 0..64 {
                let allowed = match self.rules.placement {
                    Placement::AnyTile => true,
                    Placement::OneFishOnly => self.fish[cell] == 1,
                };
                if self.enterable(cell) && allowed {
                    out.push((id, None, cell));
                }
            }
            return out;
        }
        for id in ids {
            let Some(from) = self.cells[id] else { continue };
            for dir in 0..6 {
                let mut at = from;
                while let Some(next) = step(at, dir) {
                    if !self.enterable(next) {
                        break;
                    }
                    out.push((id, Some(from), next));
                    at = next;
                }
            }
        }
        out
    }

    /// The direction of the straight line from `from` to `to`, by stepping.
    fn direction(from: usize, to: usize) -> usize {
        (0..6)
            .find(|&dir| std::iter::successors(step(from, dir), |&c| step(c, dir)).any(|c| c == to))
            .expect("a slide follows a line")
    }

    pub fn apply(&mut self, (id, from, to): (usize, Option<usize>, usize)) {
        if let Some(from) = from {
            self.scores[self.to_move] += 100 * self.fish[from] as u32 + 1;
            self.fish[from] = 0;
            self.cells[id] = Some(to);
            if self.rules.push {
                let dir = Self::direction(from, to);
                let next_to_it = step(to, dir).and_then(|c| self.occupant(c).map(|v| (v, c)));
                if let Some((victim, at)) = next_to_it {
                    let at_the_edge = match step(at, dir) {
                        None => true,
                        Some(beyond) => self.fish[beyond] == 0,
                    };
                    if at_the_edge {
                        self.cells[victim] = None;
                        self.gone[victim] = true;
                    }
                }
            }
        }
        self.cells[id] = Some(to);
        self.advance_from((self.to_move + 1) % self.players);
    }

    fn advance_from(&mut self, start: usize) {
        for k in 0..self.players {
            let p = (start + k) % self.players;
            if !self.moves(p).is_empty() {
                self.to_move = p;
                if self.rules.end_when_leader_alone {
                    let placing =
                        (0..self.cells.len()).any(|i| self.cells[i].is_none() && !self.gone[i]);
                    let able = (0..self.players)
                        .filter(|&q| !self.moves(q).is_empty())
                        .count();
                    // Strictly ahead: on a tie the game plays on.
                    let leads =
                        (0..self.players).all(|q| q == p || self.scores[q] < self.scores[p]);
                    if !placing && able == 1 && leads {
                        self.over = true;
                    }
                }
                return;
            }
        }
        self.over = true;
    }

    pub fn final_scores(&self) -> Vec<u32> {
        let mut scores = self.scores.clone();
        if self.rules.score_tiles_under_penguins {
            for (id, cell) in self.cells.iter().enumerate() {
                if let Some(c) = cell {
                    scores[id / self.per_player] += 100 * self.fish[*c] as u32 + 1;
                }
            }
        }
        scores
    }

    pub fn perft(&self, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over {
            return 0;
        }
        self.moves(self.to_move)
            .into_iter()
            .map(|mv| {
                let mut next = self.clone();
                next.apply(mv);
                next.perft(depth - 1)
            })
            .sum()
    }
}
