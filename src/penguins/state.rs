//! Game state: tiles, penguins, scores, whose turn; move generation, apply/undo, scoring, game end.
//!
//! Tiles are three bitboards (one per fish count); penguins are one bitboard per player plus the
//! cell of each penguin. Penguin ids are `owner * penguins_per_player + k`, placed in id order.

use super::board::{cell_name, nearest_along, LINE_DIRECTION, NO_DIRECTION};
use super::board::{cells_of, Cell, ADJACENT, CELLS, DIRECTIONS, NEIGHBOUR, NO_CELL, RAY, VALID};
use super::rules::{Placement, Rules};
use super::zobrist::{PENGUIN_KEYS, SIDE_KEYS, TILE_KEYS};

pub const MAX_PLAYERS: usize = 4;
/// Room for players * penguins_per_player (at most 9 in the real game: 3 players x 3).
pub const MAX_PENGUINS: usize = 16;

/// Points for removing a tile: 100 per fish plus 1 for the tile, so a score is a (fish, tiles) key.
pub const fn tile_points(fish: u8) -> u32 {
    100 * fish as u32 + 1
}

/// A placement (`from == NO_CELL`) or a slide (`from` -> `to`). Under the push rule a slide may
/// also push a penguin into the sea (`State::pushed_by`); the move itself looks the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub penguin: u8,
    pub from: Cell,
    pub to: Cell,
}

impl Move {
    pub fn is_placement(&self) -> bool {
        self.from == NO_CELL
    }

    /// The CodinGame command, `MOVE <penguinId> <cell>` (placement uses the same form).
    pub fn command(&self) -> String {
        format!("MOVE {} {}", self.penguin, cell_name(self.to))
    }
}

/// Fixed-capacity move list. Worst case: a placement has at most 60 targets; a slide stays on one
/// of the 3 lines through its cell, each crossing at most 8 cells, so at most 3 * 7 = 21 targets
/// per penguin (a push is a slide, not an extra move), and a player has at most 4 penguins:
/// 4 * 21 = 84 <= 128.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

pub const MAX_MOVES: usize = 128;

impl MoveList {
    pub fn new() -> Self {
        MoveList {
            moves: [Move {
                penguin: 0,
                from: NO_CELL,
                to: NO_CELL,
            }; MAX_MOVES],
            len: 0,
        }
    }

    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// What `apply` changed, for `undo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    mv: Move,
    mover: u8,
    was_over: bool,
    hash: u64,
    /// Fish on the tile the mover left (0 for a placement).
    fish_left: u8,
    /// The penguin pushed into the sea, or `NO_PENGUIN`.
    pushed: u8,
}

const NO_PENGUIN: u8 = u8::MAX;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    rules: Rules,
    players: u8,
    per_player: u8,
    /// `fish[k]`: tiles holding k + 1 fish.
    fish: [u64; 3],
    penguin_cell: [Cell; MAX_PENGUINS],
    /// Penguins pushed into the sea (push rule): off the board but not "unplaced".
    removed: u16,
    /// Players taken out of the game by the referee (a failed seat in a 3-4 player game): they
    /// never move again, their penguins stay on the board as obstacles.
    inactive: u8,
    occupied: [u64; MAX_PLAYERS],
    scores: [u32; MAX_PLAYERS],
    to_move: u8,
    over: bool,
    hash: u64,
}

impl State {
    /// A fresh game: `fish` per cell (0 = hole), 2-4 players with 6 - players penguins each.
    pub fn new(fish: &[u8; CELLS], players: usize, rules: Rules) -> Result<State, String> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(format!("players must be 2..4, got {players}"));
        }
        State::from_position(rules, players, 6 - players, fish, &[], &[0; 4], 0)
    }

    /// Any position: `penguins` are (owner, cell) pairs, numbered in the order given within each
    /// owner; `to_move` is advanced to the first player (from it, in turn order) that can move.
    pub fn from_position(
        rules: Rules,
        players: usize,
        per_player: usize,
        fish: &[u8; CELLS],
        penguins: &[(usize, Cell)],
        scores: &[u32],
        to_move: usize,
    ) -> Result<State, String> {
        if !(1..=MAX_PLAYERS).contains(&players) {
            return Err(format!("players must be 1..4, got {players}"));
        }
        if per_player == 0 || players * per_player > MAX_PENGUINS {
            return Err(format!(
                "{players} players x {per_player} penguins: at most {MAX_PENGUINS} penguins in all"
            ));
        }
        if to_move >= players {
            return Err(format!(
                "player to move {to_move} but only {players} players"
            ));
        }
        let mut state = State {
            rules,
            players: players as u8,
            per_player: per_player as u8,
            fish: [0; 3],
            penguin_cell: [NO_CELL; MAX_PENGUINS],
            removed: 0,
            inactive: 0,
            occupied: [0; MAX_PLAYERS],
            scores: [0; MAX_PLAYERS],
            to_move: to_move as u8,
            over: false,
            hash: 0,
        };
        for (cell, &count) in fish.iter().enumerate() {
            match count {
                0 => {}
                1..=3 if VALID >> cell & 1 == 1 => state.fish[count as usize - 1] |= 1 << cell,
                1..=3 => {
                    return Err(format!(
                        "{} is not a board cell but has fish",
                        cell_name(cell as u8)
                    ))
                }
                _ => {
                    return Err(format!(
                        "{} has {count} fish (must be 0..3)",
                        cell_name(cell as u8)
                    ))
                }
            }
        }
        let mut placed = [0usize; MAX_PLAYERS];
        for &(owner, cell) in penguins {
            if owner >= players {
                return Err(format!("penguin owner {owner} but only {players} players"));
            }
            if cell as usize >= CELLS || state.ice() >> cell & 1 == 0 {
                return Err(format!("penguin on {} which is not ice", cell_name(cell)));
            }
            if state.all_penguins() >> cell & 1 == 1 {
                return Err(format!("two penguins on {}", cell_name(cell)));
            }
            if placed[owner] == per_player {
                return Err(format!(
                    "player {owner} has more than {per_player} penguins"
                ));
            }
            let id = owner * per_player + placed[owner];
            placed[owner] += 1;
            state.penguin_cell[id] = cell;
            state.occupied[owner] |= 1 << cell;
        }
        for (player, score) in scores.iter().take(players).enumerate() {
            state.scores[player] = *score;
        }
        state.select_first_able(to_move);
        state.hash = state.compute_hash();
        Ok(state)
    }

    /// Declare the placement phase over: every penguin not on the board counts as pushed into
    /// the sea (what a bot must assume when it rebuilds a push-variant position from the input,
    /// which lists only the penguins on the board). The player to move is re-selected from the
    /// current one.
    pub fn end_placement(&mut self) {
        for id in 0..self.players as usize * self.per_player as usize {
            if self.penguin_cell[id] == NO_CELL {
                self.removed |= 1 << id;
            }
        }
        self.over = false;
        self.select_first_able(self.to_move as usize);
        self.hash = self.compute_hash();
    }

    // ---- queries -------------------------------------------------------------------------

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn players(&self) -> usize {
        self.players as usize
    }
    pub fn penguins_per_player(&self) -> usize {
        self.per_player as usize
    }
    /// The player to act (meaningless once `is_over`).
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }
    pub fn is_over(&self) -> bool {
        self.over
    }
    /// Running score: 100 per fish + 1 per tile removed by that player's moves.
    pub fn score(&self, player: usize) -> u32 {
        self.scores[player]
    }
    pub fn scores(&self) -> &[u32] {
        &self.scores[..self.players as usize]
    }
    /// The Zobrist hash of tiles, penguin positions (per owner) and the player to move; scores are
    /// not hashed. Maintained incrementally; equals `compute_hash()`.
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Fish on `cell` (0 for a hole or a missing cell).
    pub fn fish_at(&self, cell: Cell) -> u8 {
        let bit = 1u64 << cell;
        (self.fish[0] & bit != 0) as u8
            + 2 * (self.fish[1] & bit != 0) as u8
            + 3 * (self.fish[2] & bit != 0) as u8
    }
    /// Tiles holding exactly `count` fish (1..3).
    pub fn tiles_with(&self, count: u8) -> u64 {
        self.fish[count as usize - 1]
    }
    /// Every tile still on the board (with or without a penguin).
    pub fn ice(&self) -> u64 {
        self.fish[0] | self.fish[1] | self.fish[2]
    }
    pub fn penguins_of(&self, player: usize) -> u64 {
        self.occupied[player]
    }
    pub fn all_penguins(&self) -> u64 {
        self.occupied.iter().fold(0, |acc, b| acc | b)
    }
    /// Tiles a penguin may enter: ice without a penguin.
    pub fn free(&self) -> u64 {
        self.ice() & !self.all_penguins()
    }
    pub fn penguin_owner(&self, penguin: usize) -> usize {
        penguin / self.per_player as usize
    }
    /// The penguin's cell, or `None` when unplaced or pushed into the sea.
    pub fn penguin_cell(&self, penguin: usize) -> Option<Cell> {
        let cell = self.penguin_cell[penguin];
        (cell != NO_CELL).then_some(cell)
    }
    /// Penguin ids of `player`.
    pub fn penguin_ids(&self, player: usize) -> std::ops::Range<usize> {
        let per = self.per_player as usize;
        player * per..(player + 1) * per
    }
    /// (id, owner, cell) of every penguin on the board, by id.
    pub fn penguins_on_board(&self) -> impl Iterator<Item = (usize, usize, Cell)> + '_ {
        (0..self.players as usize * self.per_player as usize).filter_map(|id| {
            self.penguin_cell(id)
                .map(|cell| (id, self.penguin_owner(id), cell))
        })
    }
    /// The penguin on `cell`, if any.
    pub fn penguin_at(&self, cell: Cell) -> Option<usize> {
        if self.all_penguins() >> cell & 1 == 0 {
            return None;
        }
        (0..self.players as usize * self.per_player as usize)
            .find(|&id| self.penguin_cell[id] == cell)
    }
    /// The next penguin `player` would place, if any is unplaced.
    pub fn next_unplaced(&self, player: usize) -> Option<usize> {
        self.penguin_ids(player)
            .find(|&id| self.penguin_cell[id] == NO_CELL && self.removed >> id & 1 == 0)
    }
    /// Penguins `player` still has to place (pushed ones are gone, not unplaced).
    pub fn unplaced_count(&self, player: usize) -> usize {
        self.penguin_ids(player)
            .filter(|&id| self.penguin_cell[id] == NO_CELL && self.removed >> id & 1 == 0)
            .count()
    }

    /// True while any player still in the game has a penguin to place.
    pub fn in_placement(&self) -> bool {
        (0..self.players as usize).any(|p| self.is_active(p) && self.next_unplaced(p).is_some())
    }

    /// Cells where a penguin may be placed under the rules.
    pub fn placement_targets(&self) -> u64 {
        match self.rules.placement {
            Placement::AnyTile => self.free(),
            Placement::OneFishOnly => self.free() & self.fish[0],
        }
    }

    /// Cells reached by sliding from `from` in `dir` over free ice (`free` given for speed).
    pub fn slide_targets(from: Cell, dir: usize, free: u64) -> u64 {
        let ray = RAY[dir][from as usize];
        match nearest_along(dir, ray & !free) {
            None => ray,
            Some(blocker) => ray & !RAY[dir][blocker as usize] & !(1u64 << blocker),
        }
    }

    /// Every cell the penguin on `from` may slide to (pushing never adds a destination).
    pub fn destinations(&self, from: Cell) -> u64 {
        let free = self.free();
        let mut targets = 0;
        for dir in 0..DIRECTIONS {
            targets |= Self::slide_targets(from, dir, free);
        }
        targets
    }

    /// The penguin a legal slide `mv` pushes into the sea, if any: under the push rule, the slide
    /// stops right before a penguin (any owner) whose next cell in the slide's direction is a hole,
    /// a missing cell or off the board. Two penguins in a row shield each other: the next cell
    /// of the first holds ice (under the second), so neither is pushed.
    pub fn pushed_by(&self, mv: Move) -> Option<usize> {
        if !self.rules.push || mv.is_placement() {
            return None;
        }
        let dir = LINE_DIRECTION[mv.from as usize][mv.to as usize];
        if dir == NO_DIRECTION {
            return None;
        }
        let victim = NEIGHBOUR[mv.to as usize][dir as usize];
        if victim == NO_CELL || self.all_penguins() >> victim & 1 == 0 {
            return None;
        }
        let beyond = NEIGHBOUR[victim as usize][dir as usize];
        if beyond != NO_CELL && self.ice() >> beyond & 1 == 1 {
            return None;
        }
        self.penguin_at(victim)
    }

    /// Legal moves of the player to move (empty once the game is over).
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if !self.over {
            self.moves_of(self.to_move as usize, out);
        }
    }

    /// Moves `player` would have if it were its turn: placements while it has unplaced penguins,
    /// slides (and pushes) after.
    pub fn moves_of(&self, player: usize, out: &mut MoveList) {
        out.clear();
        if let Some(id) = self.next_unplaced(player) {
            for to in cells_of(self.placement_targets()) {
                out.push(Move {
                    penguin: id as u8,
                    from: NO_CELL,
                    to,
                });
            }
            return;
        }
        for id in self.penguin_ids(player) {
            let from = self.penguin_cell[id];
            if from == NO_CELL {
                continue;
            }
            for to in cells_of(self.destinations(from)) {
                out.push(Move {
                    penguin: id as u8,
                    from,
                    to,
                });
            }
        }
    }

    /// Whether `player` has any legal move (cheap: a free neighbour is enough). A deactivated
    /// player has none.
    pub fn has_move(&self, player: usize) -> bool {
        if !self.is_active(player) {
            return false;
        }
        if self.next_unplaced(player).is_some() {
            return self.placement_targets() != 0;
        }
        let free = self.free();
        cells_of(self.occupied[player]).any(|from| ADJACENT[from as usize] & free != 0)
    }

    /// False once the referee has deactivated `player`.
    pub fn is_active(&self, player: usize) -> bool {
        self.inactive >> player & 1 == 0
    }

    /// Take `player` out of the game (the referee's answer to a failed seat in a 3-4 player
    /// game): it never moves again, its penguins stay on the board as obstacles (and can still
    /// be pushed). Play passes on to the next player that can move, or the game ends.
    pub fn deactivate(&mut self, player: usize) {
        self.inactive |= 1 << player;
        if !self.over {
            let start = if self.to_move as usize == player {
                (player + 1) % self.players as usize
            } else {
                self.to_move as usize
            };
            self.select_first_able(start);
            self.hash = self.compute_hash();
        }
    }

    /// Whether `mv` is legal now (slow path, for referees and input checks).
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    // ---- making moves --------------------------------------------------------------------

    /// Play a legal move of the player to move; the turn passes to the next player that can move
    /// (stuck players are skipped) or the game ends. Illegal moves are the caller's bug.
    pub fn apply(&mut self, mv: Move) -> Undo {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?}");
        let mover = self.to_move as usize;
        let mut undo = Undo {
            mv,
            mover: mover as u8,
            was_over: self.over,
            hash: self.hash,
            fish_left: 0,
            pushed: NO_PENGUIN,
        };
        let to_bit = 1u64 << mv.to;
        if mv.is_placement() {
            self.occupied[mover] |= to_bit;
            self.hash ^= PENGUIN_KEYS[mover][mv.to as usize];
        } else {
            let from_bit = 1u64 << mv.from;
            let fish = self.fish_at(mv.from);
            undo.fish_left = fish;
            self.fish[fish as usize - 1] &= !from_bit;
            self.hash ^= TILE_KEYS[fish as usize - 1][mv.from as usize];
            self.scores[mover] += tile_points(fish);
            if let Some(victim) = self.pushed_by(mv) {
                // The pushed penguin falls into the sea; its tile stays.
                let cell = self.penguin_cell[victim];
                let owner = self.penguin_owner(victim);
                self.occupied[owner] &= !(1u64 << cell);
                self.penguin_cell[victim] = NO_CELL;
                self.removed |= 1 << victim;
                self.hash ^= PENGUIN_KEYS[owner][cell as usize];
                undo.pushed = victim as u8;
            }
            self.occupied[mover] ^= from_bit | to_bit;
            self.hash ^=
                PENGUIN_KEYS[mover][mv.from as usize] ^ PENGUIN_KEYS[mover][mv.to as usize];
        }
        self.penguin_cell[mv.penguin as usize] = mv.to;
        self.hash ^= SIDE_KEYS[mover];
        self.select_first_able((mover + 1) % self.players as usize);
        self.hash ^= SIDE_KEYS[self.to_move as usize];
        undo
    }

    /// Take back the move `undo` came from (must be the last one applied).
    pub fn undo(&mut self, undo: Undo) {
        let mv = undo.mv;
        let mover = undo.mover as usize;
        let to_bit = 1u64 << mv.to;
        if mv.is_placement() {
            self.occupied[mover] &= !to_bit;
            self.penguin_cell[mv.penguin as usize] = NO_CELL;
        } else {
            let from_bit = 1u64 << mv.from;
            self.occupied[mover] ^= from_bit | to_bit;
            self.penguin_cell[mv.penguin as usize] = mv.from;
            self.fish[undo.fish_left as usize - 1] |= from_bit;
            self.scores[mover] -= tile_points(undo.fish_left);
            if undo.pushed != NO_PENGUIN {
                // The victim stood one step past `to`, in the slide's direction.
                let victim = undo.pushed as usize;
                let dir = LINE_DIRECTION[mv.from as usize][mv.to as usize] as usize;
                let cell = NEIGHBOUR[mv.to as usize][dir];
                let owner = self.penguin_owner(victim);
                self.occupied[owner] |= 1u64 << cell;
                self.penguin_cell[victim] = cell;
                self.removed &= !(1 << victim);
            }
        }
        self.to_move = undo.mover;
        self.over = undo.was_over;
        self.hash = undo.hash;
    }

    /// Make the first player from `start` (in turn order) that can move the player to move; end
    /// the game when nobody can (or, under `end_when_leader_alone`, when only one player can and
    /// it is strictly ahead of every other player still in the game: a tie plays on).
    fn select_first_able(&mut self, start: usize) {
        let players = self.players as usize;
        let next = (0..players)
            .map(|k| (start + k) % players)
            .find(|&p| self.has_move(p));
        match next {
            None => self.over = true,
            Some(player) => {
                self.to_move = player as u8;
                if self.rules.end_when_leader_alone && !self.in_placement() {
                    let able = (0..players).filter(|&p| self.has_move(p)).count();
                    let leads = (0..players).all(|p| {
                        p == player || !self.is_active(p) || self.scores[p] < self.scores[player]
                    });
                    if able == 1 && leads {
                        self.over = true;
                    }
                }
            }
        }
    }

    // ---- results -------------------------------------------------------------------------

    /// Scores as the game ends: running scores, plus the tiles under each player's penguins when
    /// `score_tiles_under_penguins` is on.
    pub fn final_scores(&self) -> Vec<u32> {
        (0..self.players as usize)
            .map(|p| {
                let mut score = self.scores[p];
                if self.rules.score_tiles_under_penguins {
                    score += cells_of(self.occupied[p])
                        .map(|c| tile_points(self.fish_at(c)))
                        .sum::<u32>();
                }
                score
            })
            .collect()
    }

    /// Players with the best final score (several on a draw).
    pub fn winners(&self) -> Vec<usize> {
        let scores = self.final_scores();
        let best = scores.iter().copied().max().unwrap_or(0);
        (0..scores.len()).filter(|&p| scores[p] == best).collect()
    }

    /// The hash recomputed from scratch (to check the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let mut hash = SIDE_KEYS[self.to_move as usize];
        for (k, tiles) in self.fish.iter().enumerate() {
            for cell in cells_of(*tiles) {
                hash ^= TILE_KEYS[k][cell as usize];
            }
        }
        for (player, bits) in self.occupied.iter().enumerate() {
            for cell in cells_of(*bits) {
                hash ^= PENGUIN_KEYS[player][cell as usize];
            }
        }
        hash
    }

    /// Fish per cell, as the CodinGame input sends it.
    pub fn fish_grid(&self) -> [u8; CELLS] {
        let mut grid = [0u8; CELLS];
        for (cell, slot) in grid.iter_mut().enumerate() {
            *slot = self.fish_at(cell as Cell);
        }
        grid
    }
}
