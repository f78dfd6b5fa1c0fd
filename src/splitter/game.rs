//! Game state and placement: the named die goes to (x,y), the other die to the mirror cell
//! (width-1-x, y). Follows the reference Tester's `Game.Place`, including its order of checks.

use super::layout::Layout;
use std::fmt;

/// One roll of two dice, each 1..=6, in the order the Tester sends them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dice(pub u8, pub u8);

impl Dice {
    pub fn is_valid(self) -> bool {
        (1..=6).contains(&self.0) && (1..=6).contains(&self.1)
    }
    /// The die that is not `named` (either one when both are equal).
    pub fn other(self, named: u8) -> u8 {
        if named == self.0 {
            self.1
        } else {
            self.0
        }
    }
}

/// A move as the bot names it: die value `die` at (x, y).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub die: u8,
    pub x: usize,
    pub y: usize,
}

/// Why a placement was refused, worded like the reference Tester.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlaceError {
    NotRolled { die: u8 },
    OutOfRange { x: i64, y: i64 },
    NotFillable { x: usize, y: usize },
    Occupied { x: usize, y: usize, value: u8 },
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlaceError::NotRolled { die } => write!(f, "{die} was not rolled please try again!"),
            PlaceError::OutOfRange { x, y } => {
                write!(f, "Can't place, position out of range: {x},{y}")
            }
            PlaceError::NotFillable { x, y } => {
                write!(f, "Can't place, tile blank / non-placeable place: {x},{y}")
            }
            PlaceError::Occupied { x, y, value } => write!(
                f,
                "Can't place on invalid tile it already has something place: {x},{y} value: {value}"
            ),
        }
    }
}

impl std::error::Error for PlaceError {}

/// Values on the board (0 = empty) plus the rounds still to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub values: Vec<u8>,
    pub rounds_left: usize,
}

impl Board {
    pub fn new(layout: &Layout, rounds: usize) -> Board {
        Board {
            values: vec![0; layout.cells()],
            rounds_left: rounds,
        }
    }

    pub fn is_free(&self, layout: &Layout, cell: usize) -> bool {
        layout.is_fillable(cell) && self.values[cell] == 0
    }

    /// Check a move without applying it. Coordinates arrive as signed numbers from the wire.
    pub fn check(
        &self,
        layout: &Layout,
        dice: Dice,
        die: u8,
        x: i64,
        y: i64,
    ) -> Result<usize, PlaceError> {
        if die != dice.0 && die != dice.1 {
            return Err(PlaceError::NotRolled { die });
        }
        if x < 0 || y < 0 || x as usize >= layout.width() || y as usize >= layout.height() {
            return Err(PlaceError::OutOfRange { x, y });
        }
        let (x, y) = (x as usize, y as usize);
        let cell = layout.index(x, y);
        if !layout.is_fillable(cell) {
            return Err(PlaceError::NotFillable { x, y });
        }
        if self.values[cell] != 0 {
            return Err(PlaceError::Occupied {
                x,
                y,
                value: self.values[cell],
            });
        }
        Ok(cell)
    }

    /// Validate and apply a move; one round is used.
    pub fn place(&mut self, layout: &Layout, dice: Dice, mv: Move) -> Result<(), PlaceError> {
        let cell = self.check(layout, dice, mv.die, mv.x as i64, mv.y as i64)?;
        self.apply(layout, cell, mv.die, dice.other(mv.die));
        Ok(())
    }

    /// Apply an already-checked placement. Written in the Tester's order: on an odd-width board the
    /// middle cell is its own mirror and ends up holding the other die.
    pub fn apply(&mut self, layout: &Layout, cell: usize, named: u8, other: u8) {
        self.values[cell] = named;
        self.values[layout.mirror(cell)] = other;
        self.rounds_left = self.rounds_left.saturating_sub(1);
    }

    /// Every legal move for `dice` (each free cell with each distinct die), in cell order.
    pub fn legal_moves(&self, layout: &Layout, dice: Dice) -> Vec<Move> {
        let mut moves = Vec::new();
        for &cell in layout.fillable() {
            if self.values[cell] != 0 {
                continue;
            }
            let (x, y) = layout.xy(cell);
            moves.push(Move { die: dice.0, x, y });
            if dice.1 != dice.0 {
                moves.push(Move { die: dice.1, x, y });
            }
        }
        moves
    }

    pub fn free_cells(&self, layout: &Layout) -> usize {
        layout
            .fillable()
            .iter()
            .filter(|&&c| self.values[c] == 0)
            .count()
    }

    /// Rows of values, y = 0 first.
    pub fn rows(&self, layout: &Layout) -> Vec<Vec<u8>> {
        self.values
            .chunks(layout.width())
            .map(|r| r.to_vec())
            .collect()
    }
}

/// One distinct placement: `a` goes to `cell`, `b` to its mirror.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub cell: usize,
    pub a: u8,
    pub b: u8,
}

impl Placement {
    /// A placeholder before the best placement is known (any search sets a real one).
    pub const NONE: Placement = Placement {
        cell: 0,
        a: 0,
        b: 0,
    };

    pub fn to_move(self, layout: &Layout) -> Move {
        let (x, y) = layout.xy(self.cell);
        Move { die: self.a, x, y }
    }
}

/// The distinct placements for `dice`: each free mirror pair once (from its left cell), with both
/// die orders when the dice differ. Naming the right cell gives the same boards, so nothing is lost.
pub fn placements(layout: &Layout, values: &[u8], dice: Dice, out: &mut Vec<Placement>) {
    out.clear();
    for &cell in layout.fillable() {
        if values[cell] != 0 || layout.mirror(cell) < cell {
            continue;
        }
        out.push(Placement {
            cell,
            a: dice.0,
            b: dice.1,
        });
        if dice.0 != dice.1 {
            out.push(Placement {
                cell,
                a: dice.1,
                b: dice.0,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout::official;
    use super::*;

    #[test]
    fn placement_checks_in_tester_order() {
        let l = official(1);
        let mut b = Board::new(&l, 22);
        let d = Dice(2, 5);
        assert_eq!(
            b.check(&l, d, 3, 0, 0),
            Err(PlaceError::NotRolled { die: 3 })
        );
        assert_eq!(
            b.check(&l, d, 2, 8, 0),
            Err(PlaceError::OutOfRange { x: 8, y: 0 })
        );
        assert_eq!(
            b.check(&l, d, 2, -1, 0),
            Err(PlaceError::OutOfRange { x: -1, y: 0 })
        );
        assert_eq!(
            b.check(&l, d, 2, 0, 0),
            Err(PlaceError::NotFillable { x: 0, y: 0 })
        );
        b.place(&l, d, Move { die: 2, x: 2, y: 0 }).unwrap();
        assert_eq!(b.values[l.index(2, 0)], 2);
        assert_eq!(b.values[l.index(5, 0)], 5);
        assert_eq!(b.rounds_left, 21);
        let e = b.place(&l, d, Move { die: 5, x: 5, y: 0 }).unwrap_err();
        assert_eq!(
            e,
            PlaceError::Occupied {
                x: 5,
                y: 0,
                value: 5
            }
        );
        assert!(e.to_string().contains("already has something"));
    }

    #[test]
    fn legal_moves_are_exactly_the_accepted_ones() {
        let l = official(2);
        let mut b = Board::new(&l, 22);
        b.place(&l, Dice(1, 6), Move { die: 1, x: 0, y: 0 })
            .unwrap();
        for dice in [Dice(3, 4), Dice(6, 6)] {
            let moves = b.legal_moves(&l, dice);
            let per_cell = if dice.0 == dice.1 { 1 } else { 2 };
            assert_eq!(moves.len(), 42 * per_cell);
            // Brute force over every (die, x, y) the wire could carry.
            let mut accepted = 0;
            for die in 0..=7u8 {
                for y in -1..=7i64 {
                    for x in -1..=8i64 {
                        let ok = b.check(&l, dice, die, x, y).is_ok();
                        let listed = moves
                            .iter()
                            .any(|m| m.die == die && m.x as i64 == x && m.y as i64 == y);
                        assert_eq!(ok, listed, "die {die} at {x},{y}");
                        accepted += ok as usize;
                    }
                }
            }
            assert_eq!(accepted, moves.len());
        }
    }
}
