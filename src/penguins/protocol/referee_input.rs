//! The other side of the protocol: the lines a referee sends a player (our own referee uses them,
//! and the tests feed them to the bot).

use crate::penguins::board::{cell_name, Cell, COLS, ROWS};
use crate::penguins::state::{MoveList, State};

/// The CodinGame input the player to move receives for `state`: the rows, the scores, the
/// penguins on the board, and the legal actions as `MOVE <id> <cell>`.
pub fn turn_input(state: &State) -> String {
    let mut text = format!("{ROWS}\n");
    for row in 0..ROWS {
        for col in 0..COLS {
            text.push(char::from(b'0' + state.fish_at((row * COLS + col) as Cell)));
        }
        text.push('\n');
    }
    for score in state.scores() {
        text.push_str(&format!("{score}\n"));
    }
    let penguins: Vec<_> = state.penguins_on_board().collect();
    text.push_str(&format!("{}\n", penguins.len()));
    for (id, owner, cell) in penguins {
        text.push_str(&format!("{id} {owner} {}\n", cell_name(cell)));
    }
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    text.push_str(&format!("{}\n", moves.len()));
    for mv in moves.iter() {
        text.push_str(&format!("{}\n", mv.command()));
    }
    text
}

/// The init lines the referee sends `player`.
pub fn init_input(state: &State, player: usize) -> String {
    format!(
        "{}\n{player}\n{}\n",
        state.players(),
        state.penguins_per_player()
    )
}
