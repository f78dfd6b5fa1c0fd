//! One seat of our Penguins referee's protocol (CodinGame's, see docs/penguins.md) played by
//! jthemphill/htmf's MCTS bot (`MCTSBot::new`: PUCT with uniform priors and random playouts to
//! the end of the game). Built by `scripts/opponents.sh` against a local checkout of htmf; no
//! htmf code lives in this repository.
//!
//!     htmf-adapter [--ms N]        # N ms of search per turn (default 1000), from the first line
//!     htmf-adapter --playouts N    # N playouts per turn instead (fixed compute, any load)
//!
//! htmf plays 2 players, placement on one-fish tiles, no pushing (our `league1,one-fish`). It
//! scores every tile a penguin ever stood on, the tiles under its penguins included (our
//! `score-under`). Each turn the adapter rebuilds an htmf position from the input and starts a
//! fresh search tree (htmf's own tree reuse needs its own engine's positions). htmf draws its
//! random numbers from the OS, so its games are not reproducible move by move.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use htmf::board::{Board, Player};
use htmf::cellset::CellSet;
use htmf::game::{Action, GameState};
use htmf::hex::EvenR;
use htmf_bots::MCTSBot;

/// Placements in a 2-player game (4 penguins each).
const PLACEMENTS: usize = 8;

/// When a turn's search stops.
#[derive(Clone, Copy)]
enum Limit {
    Until(Instant),
    Playouts(u64),
}

struct Penguin {
    id: usize,
    owner: usize,
    cell: usize,
}

struct Turn {
    /// Fish per cell, index `row * 8 + col` (0 = hole or no cell).
    fish: [u8; 64],
    penguins: Vec<Penguin>,
    /// Listed actions: (text, penguin id, target cell).
    actions: Vec<(String, usize, usize)>,
}

fn main() {
    let mut ms = 1000u64;
    let mut playouts: Option<u64> = None;
    let args: Vec<String> = std::env::args().collect();
    let mut k = 1;
    while k < args.len() {
        match (args[k].as_str(), args.get(k + 1)) {
            ("--ms", Some(v)) => ms = v.parse().unwrap_or_else(|_| fail("--ms: a number")),
            ("--playouts", Some(v)) => {
                playouts = Some(v.parse().unwrap_or_else(|_| fail("--playouts: a number")))
            }
            _ => fail(&format!(
                "unknown argument {:?} (usage: --ms N | --playouts N)",
                args[k]
            )),
        }
        k += 2;
    }
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    let mut next = || lines.next();
    let players: usize = number(next());
    let me: usize = number(next());
    let _per_player: usize = number(next());
    if players != 2 {
        fail("htmf plays 2-player games only");
    }
    let mut initial_fish: Option<[u8; 64]> = None;
    let mut claimed = [0u64; 2];
    let mut out = std::io::stdout();
    while let Some(first) = next() {
        let started = Instant::now();
        let turn = read_turn(first, &mut next);
        let fish = *initial_fish.get_or_insert(turn.fish);
        for p in &turn.penguins {
            claimed[p.owner] |= 1 << htmf_index(p.cell);
        }
        let limit = match playouts {
            Some(n) => Limit::Playouts(n),
            None => Limit::Until(started + Duration::from_millis(ms)),
        };
        let answer = choose(&turn, &fish, claimed, me, limit);
        writeln!(out, "{answer}").and_then(|_| out.flush()).ok();
    }
}

fn fail(message: &str) -> ! {
    eprintln!("htmf-adapter: {message}");
    std::process::exit(2)
}

fn number<T: std::str::FromStr>(line: Option<String>) -> T {
    let line = line.unwrap_or_else(|| fail("input ended"));
    line.trim()
        .parse()
        .unwrap_or_else(|_| fail(&format!("expected a number, got {line:?}")))
}

fn cell_of(name: &str) -> usize {
    let b = name.as_bytes();
    if b.len() != 2 || !(b'A'..=b'H').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        fail(&format!("bad cell {name:?}"));
    }
    (b[1] - b'1') as usize * 8 + (b[0] - b'A') as usize
}

fn read_turn(first: String, next: &mut impl FnMut() -> Option<String>) -> Turn {
    let rows: usize = number(Some(first));
    let mut fish = [0u8; 64];
    for row in 0..rows {
        let line = next().unwrap_or_else(|| fail("input ended in the board"));
        for (col, ch) in line.trim().bytes().enumerate().take(8) {
            fish[row * 8 + col] = ch.saturating_sub(b'0');
        }
    }
    for _ in 0..2 {
        let _score: i64 = number(next());
    }
    let penguins = read_list(next, "penguin", |_, words| match words {
        [id, owner, cell] => Some(Penguin {
            id: number(Some(id.to_string())),
            owner: number(Some(owner.to_string())),
            cell: cell_of(cell),
        }),
        _ => None,
    });
    let actions = read_list(next, "action", |line, words| match words {
        [_, id, cell, ..] => Some((
            line.to_string(),
            number(Some(id.to_string())),
            cell_of(cell),
        )),
        _ => None,
    });
    Turn {
        fish,
        penguins,
        actions,
    }
}

/// A count line, then that many lines, each read by `parse` from the line and its words (`None`:
/// malformed).
fn read_list<T>(
    next: &mut impl FnMut() -> Option<String>,
    what: &str,
    parse: impl Fn(&str, &[&str]) -> Option<T>,
) -> Vec<T> {
    let count: usize = number(next());
    (0..count)
        .map(|_| {
            let line = next().unwrap_or_else(|| fail(&format!("input ended in the {what}s")));
            let words: Vec<&str> = line.split_whitespace().collect();
            parse(&line, &words).unwrap_or_else(|| fail(&format!("bad {what} line {line:?}")))
        })
        .collect()
}

/// htmf numbers the 60 cells row by row (rows of 7, 8, 7, ...), in the same even-r layout as
/// ours: our cell `row * 8 + col` is htmf's cell `(row, col)`.
fn htmf_index(cell: usize) -> u8 {
    Board::evenr_to_index(&EvenR {
        col: (cell % 8) as i64,
        row: (cell / 8) as i64,
    })
}

fn our_cell(index: u8) -> usize {
    let hex = Board::index_to_evenr(index);
    hex.row as usize * 8 + hex.col as usize
}

/// htmf's position for this turn, seen by the player with htmf label `label[p]` for our `p`.
fn position(turn: &Turn, fish: &[u8; 64], claimed: [u64; 2], label: [usize; 2]) -> GameState {
    let mut board = Board {
        penguins: [CellSet::new(); 2],
        fish: [CellSet::new(); 3],
        claimed: [CellSet::new(); 2],
    };
    for (cell, &n) in fish.iter().enumerate() {
        if n > 0 {
            let k = n as usize - 1;
            board.fish[k] = board.fish[k].insert(htmf_index(cell));
        }
    }
    for p in 0..2 {
        board.claimed[label[p]] = CellSet { data: claimed[p] };
    }
    let placed = turn.penguins.len();
    for p in &turn.penguins {
        let set = &mut board.penguins[label[p.owner]];
        *set = set.insert(htmf_index(p.cell));
    }
    if placed >= PLACEMENTS {
        // htmf drops penguins that cannot move; so do its playouts.
        board.reap();
    }
    let removed =
        fish.iter().filter(|&&n| n > 0).count() - turn.fish.iter().filter(|&&n| n > 0).count();
    let turn_no = if placed < PLACEMENTS {
        placed
    } else {
        PLACEMENTS + removed
    };
    GameState {
        turn: turn_no,
        board,
    }
}

fn choose(turn: &Turn, fish: &[u8; 64], claimed: [u64; 2], me: usize, limit: Limit) -> String {
    let Some(first) = turn.actions.first() else {
        return "MOVE 0 A1".to_string();
    };
    // htmf's placement order is 0 1 1 0 0 1 1 0 and ours 0 1 0 1 ...; its movement turns
    // alternate from turn 8 skipping stuck players, like ours. So during placement the players
    // are relabelled when htmf would expect the other one to place, and during movement its turn
    // counter is moved on by one when its parity names the other player.
    let placed = turn.penguins.len();
    let mut label = [0, 1];
    let snake = |t: usize| if (t / 2) % 2 == 1 { 1 - t % 2 } else { t % 2 };
    if placed < PLACEMENTS && snake(placed) != me {
        label = [1, 0];
    }
    let mut state = position(turn, fish, claimed, label);
    if placed >= PLACEMENTS && state.active_player() != Some(Player { id: me }) {
        state.turn += 1;
    }
    let seat = Player { id: label[me] };
    if state.active_player() != Some(seat) {
        eprintln!("htmf-adapter: cannot present this position to htmf; playing the first action");
        return first.0.clone();
    }
    let mut bot = MCTSBot::new(state, seat);
    let mut playouts = 0u64;
    while match limit {
        Limit::Until(deadline) => Instant::now() < deadline,
        Limit::Playouts(n) => playouts < n,
    } {
        bot.playout();
        playouts += 1;
    }
    let (id, to) = match bot.take_action() {
        Action::Place(cell) => (None, our_cell(cell)),
        Action::Move(from, cell) => {
            let from = our_cell(from);
            let id = turn.penguins.iter().find(|p| p.cell == from).map(|p| p.id);
            (id, our_cell(cell))
        }
        _ => (None, usize::MAX),
    };
    eprintln!("htmf-adapter: {playouts} playouts");
    turn.actions
        .iter()
        .find(|(_, pid, cell)| *cell == to && id.is_none_or(|i| i == *pid))
        .unwrap_or(first)
        .0
        .clone()
}
