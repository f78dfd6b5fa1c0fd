//! The CodinGame protocol, bot side: read the init lines and each turn, rebuild the position,
//! cross-check our move generator against the referee's action list, answer with an action
//! taken from that list (never anything else).
//!
//! Input problems never stop the bot: each is reported on stderr as one line naming the input
//! line, and the bot still answers with a listed action (or, if the list itself is unreadable, a
//! move from its own generator).

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use super::board::{parse_cell, Cell, CELLS, COLS, NO_CELL, ROWS, VALID};
use super::policy::{default_policy, Policy};
use super::rules::Rules;
use super::state::{Move, MoveList, State};

/// Time allowed for the first turn and for the others, minus what we keep as a margin.
pub const FIRST_TURN_BUDGET: Duration = Duration::from_millis(900);
pub const TURN_BUDGET: Duration = Duration::from_millis(40);

/// The three init lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Init {
    pub players: usize,
    pub me: usize,
    pub per_player: usize,
}

/// One penguin line: `id ownerId pos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PenguinLine {
    pub id: u32,
    pub owner: usize,
    pub cell: Cell,
}

/// One listed action as sent, and what we understood of it (`MOVE <id> <cell>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub text: String,
    pub parsed: Option<(u32, Cell)>,
}

/// One turn's input. `problems` lists what was malformed (each names its line).
#[derive(Clone, Debug, Default)]
pub struct Turn {
    pub fish: Vec<u8>,
    pub scores: Vec<u32>,
    pub penguins: Vec<PenguinLine>,
    pub actions: Vec<Action>,
    /// False when the action count line was unreadable (then `actions` is empty but unknown).
    pub actions_known: bool,
    pub problems: Vec<String>,
}

/// Reads lines and counts them, for error messages.
pub struct LineReader<R> {
    input: R,
    line_no: usize,
    /// A line read ahead and given back (resynchronising after a bad count).
    pending: Option<String>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> Self {
        LineReader {
            input,
            line_no: 0,
            pending: None,
        }
    }

    /// The next line without its end-of-line, or `None` at end of input (or a read error).
    pub fn next_line(&mut self) -> Option<String> {
        if let Some(line) = self.pending.take() {
            self.line_no += 1;
            return Some(line);
        }
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                self.line_no += 1;
                Some(line.trim_end_matches(['\n', '\r']).to_string())
            }
        }
    }

    /// Block until input is available (or ended): the turn's clock starts when its first line
    /// arrives, not when the whole turn has been parsed.
    pub fn wait_for_input(&mut self) {
        if self.pending.is_none() {
            let _ = self.input.fill_buf();
        }
    }

    /// Give back the line just read; the next `next_line` returns it again.
    fn unread(&mut self, line: String) {
        self.line_no -= 1;
        self.pending = Some(line);
    }

    pub fn line_no(&self) -> usize {
        self.line_no
    }

    fn require(&mut self, what: &str) -> Result<String, String> {
        self.next_line().ok_or_else(|| {
            format!(
                "input ended after line {} while reading {what}",
                self.line_no
            )
        })
    }

    /// A line holding one integer in `range`; `Err` text names the line.
    fn number(&mut self, what: &str, range: std::ops::RangeInclusive<i64>) -> Result<i64, String> {
        let line = self.require(what)?;
        match line.trim().parse::<i64>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(format!(
                "line {}: {what}: expected an integer in {}..{}, got {line:?}",
                self.line_no,
                range.start(),
                range.end()
            )),
        }
    }
}

/// Read the three init lines.
pub fn read_init<R: BufRead>(reader: &mut LineReader<R>) -> Result<Init, String> {
    let players = reader.number("nbPlayers", 2..=4)? as usize;
    let me = reader.number("playerId", 0..=(players as i64 - 1))? as usize;
    let per_player = reader.number("nbPenguinsPerPlayer", 1..=4)? as usize;
    Ok(Init {
        players,
        me,
        per_player,
    })
}

/// Read one turn. `Ok(None)` at a clean end of input (the game is over); `Err` only when the
/// input ends inside the turn. Malformed lines are recorded in `problems` and skipped over.
pub fn read_turn<R: BufRead>(
    reader: &mut LineReader<R>,
    init: &Init,
) -> Result<Option<Turn>, String> {
    let mut turn = Turn {
        fish: vec![0; CELLS],
        ..Turn::default()
    };
    // Action lines left over from a turn whose action count was unreadable are skipped.
    let first = loop {
        let Some(line) = reader.next_line() else {
            return Ok(None);
        };
        if !line.trim_start().starts_with("MOVE") {
            break line;
        }
        turn.problems.push(format!(
            "line {}: skipped a leftover action line {line:?}",
            reader.line_no()
        ));
    };
    let rows = match first.trim().parse::<usize>() {
        Ok(n) if n <= 64 => n,
        _ => {
            turn.problems.push(format!(
                "line {}: nbRows: expected an integer (8), got {first:?}; assuming 8",
                reader.line_no()
            ));
            ROWS
        }
    };
    if rows != ROWS {
        turn.problems.push(format!(
            "line {}: nbRows is {rows}, expected {ROWS}",
            reader.line_no()
        ));
    }
    for row in 0..rows {
        let line = reader.require("a board row")?;
        if row < ROWS {
            read_row(&line, row, reader.line_no(), &mut turn);
        }
    }
    for player in 0..init.players {
        let line = reader.require("a score")?;
        let score = match line.trim().parse::<i64>() {
            Ok(n) => n.clamp(0, u32::MAX as i64) as u32,
            Err(_) => {
                turn.problems.push(format!(
                    "line {}: score of player {player}: expected an integer, got {line:?}",
                    reader.line_no()
                ));
                0
            }
        };
        turn.scores.push(score);
    }
    match counted(reader, "nbPenguins", 64, &mut turn.problems)? {
        Some(penguins) => {
            for _ in 0..penguins {
                let line = reader.require("a penguin line")?;
                match parse_penguin(&line, init) {
                    Ok(p) => turn.penguins.push(p),
                    Err(e) => turn
                        .problems
                        .push(format!("line {}: penguin: {e}", reader.line_no())),
                }
            }
        }
        None => {
            // Unknown count: take penguin-shaped lines until the one-number action count.
            loop {
                let line = reader.require("a penguin line or actionCount")?;
                match parse_penguin(&line, init) {
                    Ok(p) => turn.penguins.push(p),
                    Err(_) => {
                        reader.unread(line);
                        break;
                    }
                }
            }
        }
    }
    let actions = counted(reader, "actionCount", 1024, &mut turn.problems)?;
    turn.actions_known = actions.is_some();
    for _ in 0..actions.unwrap_or(0) {
        let line = reader.require("an action line")?;
        let parsed = parse_action(&line);
        if parsed.is_none() {
            turn.problems.push(format!(
                "line {}: action: expected \"MOVE <id> <cell>\", got {line:?}",
                reader.line_no()
            ));
        }
        turn.actions.push(Action {
            text: line.trim().to_string(),
            parsed,
        });
    }
    Ok(Some(turn))
}

/// A count line; `None` (and a problem) when unreadable or above `max`.
fn counted<R: BufRead>(
    reader: &mut LineReader<R>,
    what: &str,
    max: usize,
    problems: &mut Vec<String>,
) -> Result<Option<usize>, String> {
    let line = reader.require(what)?;
    match line.trim().parse::<usize>() {
        Ok(n) if n <= max => Ok(Some(n)),
        _ => {
            problems.push(format!(
                "line {}: {what}: expected an integer in 0..{max}, got {line:?}",
                reader.line_no()
            ));
            Ok(None)
        }
    }
}

fn read_row(line: &str, row: usize, line_no: usize, turn: &mut Turn) {
    let text = line.trim();
    let mut bad = text.len() != COLS;
    for (col, ch) in text.chars().take(COLS).enumerate() {
        let cell = row * COLS + col;
        match ch.to_digit(10) {
            Some(f @ 0..=3) if f == 0 || VALID >> cell & 1 == 1 => turn.fish[cell] = f as u8,
            _ => bad = true,
        }
    }
    if bad {
        turn.problems.push(format!(
            "line {line_no}: row {}: expected 8 digits 0-3 (0 on a short row's last cell), got {line:?}",
            row + 1
        ));
    }
}

fn parse_penguin(line: &str, init: &Init) -> Result<PenguinLine, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() != 3 {
        return Err(format!("expected \"id ownerId pos\", got {line:?}"));
    }
    let id = words[0]
        .parse::<u32>()
        .map_err(|_| format!("bad id in {line:?}"))?;
    let owner = match words[1].parse::<usize>() {
        Ok(o) if o < init.players => o,
        _ => return Err(format!("bad owner in {line:?}")),
    };
    let cell = parse_cell(words[2]).ok_or_else(|| format!("bad cell in {line:?}"))?;
    Ok(PenguinLine { id, owner, cell })
}

/// `MOVE <id> <cell>` (extra words such as a message are ignored) -> (id, cell).
pub fn parse_action(line: &str) -> Option<(u32, Cell)> {
    let mut words = line.split_whitespace();
    if !words.next()?.eq_ignore_ascii_case("MOVE") {
        return None;
    }
    let id = words.next()?.parse::<u32>().ok()?;
    let cell = parse_cell(words.next()?)?;
    Some((id, cell))
}

/// The position a turn describes, with `init.me` to move, and the map from CodinGame penguin ids
/// to our ids. Penguins are numbered per owner in CodinGame-id order.
pub fn build_state(
    init: &Init,
    turn: &Turn,
    rules: Rules,
) -> Result<(State, HashMap<u32, usize>), String> {
    let mut fish = [0u8; CELLS];
    fish.copy_from_slice(&turn.fish);
    let mut lines = turn.penguins.clone();
    lines.sort_by_key(|p| (p.owner, p.id));
    let mut ids = HashMap::new();
    let mut rank = vec![0usize; init.players];
    let mut placed = Vec::new();
    for p in &lines {
        if ids.contains_key(&p.id) {
            return Err(format!("penguin id {} listed twice", p.id));
        }
        ids.insert(p.id, p.owner * init.per_player + rank[p.owner]);
        rank[p.owner] += 1;
        placed.push((p.owner, p.cell));
    }
    let mut state = State::from_position(
        rules,
        init.players,
        init.per_player,
        &fish,
        &placed,
        &turn.scores,
        init.me,
    )?;
    if placement_is_over(turn, &ids, placed.len(), init) {
        state.end_placement();
    }
    Ok((state, ids))
}

/// Whether penguins missing from the input were pushed into the sea rather than not yet placed.
/// The listed actions tell (slides only name penguins on the board); without them, a board that
/// has lost a tile is past placement (placing never removes tiles; the generated board has 60).
fn placement_is_over(turn: &Turn, ids: &HashMap<u32, usize>, on_board: usize, init: &Init) -> bool {
    if on_board == init.players * init.per_player {
        return false; // nobody is missing: nothing to decide
    }
    let parsed: Vec<u32> = turn
        .actions
        .iter()
        .filter_map(|a| a.parsed.map(|p| p.0))
        .collect();
    if !parsed.is_empty() {
        return parsed.iter().all(|id| ids.contains_key(id));
    }
    turn.fish.iter().filter(|&&f| f > 0).count() < 60
}

/// A listed action as a move in `state`: a penguin on the board slides, any other id places.
pub fn action_to_move(
    state: &State,
    ids: &HashMap<u32, usize>,
    me: usize,
    id: u32,
    to: Cell,
) -> Move {
    match ids
        .get(&id)
        .and_then(|&ours| Some((ours, state.penguin_cell(ours)?)))
    {
        Some((ours, from)) => Move {
            penguin: ours as u8,
            from,
            to,
        },
        None => Move {
            penguin: state.next_unplaced(me).unwrap_or(0) as u8,
            from: NO_CELL,
            to,
        },
    }
}

/// What one turn decided: the line to print and any notes for stderr.
#[derive(Debug)]
pub struct Decision {
    pub output: String,
    pub notes: Vec<String>,
}

/// Decide one turn: rebuild the state, cross-check, let `policy` choose among the listed actions
/// that our generator agrees with, and answer with the listed text.
pub fn decide(
    init: &Init,
    turn: &Turn,
    rules: Rules,
    policy: &mut dyn Policy,
    deadline: Instant,
) -> Decision {
    let mut notes = turn.problems.clone();
    let built = build_state(init, turn, rules);
    let (state, ids) = match built {
        Ok(pair) => (Some(pair.0), pair.1),
        Err(e) => {
            notes.push(format!("cannot rebuild the position: {e}"));
            (None, HashMap::new())
        }
    };
    let mut ours = MoveList::new();
    if let Some(state) = &state {
        if state.to_move() == init.me && !state.is_over() {
            state.legal_moves(&mut ours);
        }
    }
    // Listed actions our generator also produces: the policy chooses among these.
    let mut agreed: Vec<(Move, usize)> = Vec::new();
    if let Some(state) = &state {
        let mut listed = Vec::new();
        for (index, action) in turn.actions.iter().enumerate() {
            if let Some((id, to)) = action.parsed {
                let mv = action_to_move(state, &ids, init.me, id, to);
                listed.push(mv);
                if ours.contains(&mv) {
                    agreed.push((mv, index));
                }
            }
        }
        if turn.actions_known {
            if let Some(note) = mismatch_note(&ours, &listed) {
                notes.push(note);
            }
        }
    }
    let output = if let (Some(state), false) = (&state, agreed.is_empty()) {
        let legal: Vec<Move> = agreed.iter().map(|a| a.0).collect();
        let chosen = policy.choose(state, &legal, deadline);
        let index = agreed
            .iter()
            .find(|a| a.0 == chosen)
            .map(|a| a.1)
            .unwrap_or_else(|| {
                notes.push(format!(
                    "policy {} chose {chosen:?}, not a listed action; playing the first",
                    policy.name()
                ));
                agreed[0].1
            });
        command_text(&turn.actions[index].text)
    } else if let Some(first) = turn.actions.first() {
        // The list wins even when we understand none of it.
        notes.push("no listed action matches our generator; playing the first listed".into());
        command_text(&first.text)
    } else if let (Some(state), false) = (&state, ours.is_empty()) {
        notes.push("no action list; playing a move from our own generator".into());
        let chosen = policy.choose(state, &ours, deadline);
        chosen.command()
    } else {
        notes.push("no action list and no legal move known; sending WAIT".into());
        "WAIT".to_string()
    };
    Decision { output, notes }
}

/// A listed action as a command line: listed text with `MOVE` prefixed if it was left out.
fn command_text(text: &str) -> String {
    let first = text.split_whitespace().next().unwrap_or("");
    if first.eq_ignore_ascii_case("MOVE") {
        text.to_string()
    } else {
        format!("MOVE {text}")
    }
}

/// A one-line description of the difference between our moves and the listed ones, if any.
fn mismatch_note(ours: &[Move], listed: &[Move]) -> Option<String> {
    let key = |m: &Move| (m.from, m.to);
    let mut ours_keys: Vec<_> = ours.iter().map(key).collect();
    let mut listed_keys: Vec<_> = listed.iter().map(key).collect();
    ours_keys.sort_unstable();
    ours_keys.dedup();
    listed_keys.sort_unstable();
    listed_keys.dedup();
    if ours_keys == listed_keys {
        return None;
    }
    let show = |keys: Vec<(Cell, Cell)>| {
        keys.iter()
            .take(6)
            .map(|&(f, t)| format!("{}-{}", super::cell_name(f), super::cell_name(t)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let missing: Vec<_> = listed_keys
        .iter()
        .copied()
        .filter(|k| !ours_keys.contains(k))
        .collect();
    let extra: Vec<_> = ours_keys
        .iter()
        .copied()
        .filter(|k| !listed_keys.contains(k))
        .collect();
    Some(format!(
        "move generator mismatch (the list wins): ours {} moves, listed {}; listed but not ours [{}]; ours but not listed [{}]",
        ours_keys.len(),
        listed_keys.len(),
        show(missing),
        show(extra)
    ))
}

/// Play a whole game: init lines, then one answer per turn until the input ends.
pub fn play<R: BufRead, W: Write>(
    input: R,
    output: &mut W,
    errors: &mut dyn Write,
    policy: &mut dyn Policy,
    rules: Rules,
) -> Result<(), String> {
    let mut reader = LineReader::new(input);
    let init = match read_init(&mut reader) {
        Ok(init) => init,
        Err(e) if reader.line_no() == 0 => return Err(format!("no input: {e}")),
        Err(e) => {
            let _ = writeln!(errors, "{e}; assuming 2 players, me = 0, 4 penguins each");
            Init {
                players: 2,
                me: 0,
                per_player: 4,
            }
        }
    };
    let mut first = true;
    loop {
        reader.wait_for_input();
        let started = Instant::now();
        let turn = match read_turn(&mut reader, &init) {
            Ok(Some(turn)) => turn,
            Ok(None) => return Ok(()),
            Err(e) => {
                let _ = writeln!(errors, "{e}");
                return Ok(());
            }
        };
        let budget = if first {
            FIRST_TURN_BUDGET
        } else {
            TURN_BUDGET
        };
        first = false;
        let decision = decide(&init, &turn, rules, policy, started + budget);
        for note in &decision.notes {
            let _ = writeln!(errors, "{note}");
        }
        writeln!(output, "{}", decision.output).map_err(|e| format!("cannot write: {e}"))?;
        output.flush().map_err(|e| format!("cannot write: {e}"))?;
    }
}

/// The bundle's entry point: play on stdin/stdout with the default policy and rules.
pub fn codingame_main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut policy = default_policy();
    let result = play(
        stdin.lock(),
        &mut stdout.lock(),
        &mut std::io::stderr(),
        policy.as_mut(),
        Rules::default(),
    );
    if let Err(e) = result {
        eprintln!("{e}");
    }
}

/// The CodinGame input the player to move receives for `state` (what the referee sends): the
/// rows, the scores, the penguins on the board, and the legal actions as `MOVE <id> <cell>`.
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
        text.push_str(&format!("{id} {owner} {}\n", super::cell_name(cell)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::penguins::generator::generate_board;
    use crate::penguins::policy::{make_policy, RandomPolicy};

    fn position(seed: u64, players: usize, plies: usize) -> State {
        let mut state = State::new(&generate_board(seed), players, Rules::default()).unwrap();
        let mut policy = RandomPolicy::new(seed);
        let mut moves = MoveList::new();
        for _ in 0..plies {
            state.legal_moves(&mut moves);
            let mv = policy.choose(&state, &moves, Instant::now());
            state.apply(mv);
        }
        state
    }

    fn run(input: &str, policy: &str) -> (Vec<String>, String) {
        let mut out = Vec::new();
        let mut err = Vec::new();
        let mut policy = make_policy(policy, 3).unwrap();
        play(
            input.as_bytes(),
            &mut out,
            &mut err,
            policy.as_mut(),
            Rules::default(),
        )
        .unwrap();
        let out = String::from_utf8(out).unwrap();
        (
            out.lines().map(String::from).collect(),
            String::from_utf8(err).unwrap(),
        )
    }

    /// Each answer is one of the listed actions, and a well-formed input raises no note.
    #[test]
    fn answers_come_from_the_list_and_agree_silently() {
        for (seed, players, plies) in [(1, 2, 0), (2, 2, 8), (3, 3, 5), (4, 4, 12), (5, 2, 30)] {
            let state = position(seed, players, plies);
            if state.is_over() {
                continue;
            }
            let turn = turn_input(&state);
            let input = init_input(&state, state.to_move()) + &turn;
            for policy in ["random", "greedy"] {
                let (answers, notes) = run(&input, policy);
                assert_eq!(answers.len(), 1);
                assert!(turn.lines().any(|l| l == answers[0]), "{answers:?}");
                assert_eq!(notes, "", "seed {seed}");
            }
        }
    }

    #[test]
    fn a_missing_action_is_reported_and_never_played() {
        let state = position(2, 2, 8);
        let turn = turn_input(&state);
        let mut lines: Vec<&str> = turn.lines().collect();
        let count_at = lines.iter().position(|l| l.starts_with("MOVE")).unwrap() - 1;
        let count: usize = lines[count_at].parse().unwrap();
        // Keep only the first two listed actions.
        let kept = [lines[count_at + 1], lines[count_at + 2]];
        lines.truncate(count_at);
        let text = format!(
            "{}{}\n2\n{}\n{}\n",
            init_input(&state, 0),
            lines.join("\n"),
            kept[0],
            kept[1]
        );
        let (answers, notes) = run(&text, "greedy");
        assert!(kept.contains(&answers[0].as_str()), "{answers:?}");
        assert!(
            notes.contains(&format!("ours {count} moves, listed 2")),
            "{notes}"
        );
    }

    #[test]
    fn malformed_lines_are_reported_and_a_legal_action_still_played() {
        let state = position(5, 2, 10);
        let init = init_input(&state, state.to_move());
        let turn: Vec<String> = turn_input(&state).lines().map(String::from).collect();
        let count_at = turn.iter().position(|l| l.starts_with("MOVE")).unwrap() - 1;
        let edit = |at: usize, text: &str, keep: usize| {
            let mut lines = turn.clone();
            lines[at] = text.to_string();
            lines.truncate(keep);
            init.clone() + &lines.join("\n") + "\n"
        };
        let cases = [
            // A broken row (line 5 = row 1): the list still wins.
            (edit(1, "9x9x9x9x", turn.len()), "line 5: row 1"),
            // A garbage action line among good ones.
            (
                edit(count_at + 1, "MOVE banana", turn.len()),
                "action: expected",
            ),
            // An unreadable action count: fall back to our own generator.
            (edit(count_at, "lots", count_at + 1), "actionCount"),
            // A broken penguin line.
            (edit(12, "0 zero A1", turn.len()), "penguin: bad owner"),
            // An unreadable penguin count: resynchronised on the action count.
            (edit(11, "two", turn.len()), "nbPenguins"),
        ];
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        for (k, (input, expected_note)) in cases.iter().enumerate() {
            let (answers, notes) = run(input, "random");
            assert_eq!(answers.len(), 1, "case {k}");
            let (id, cell) = parse_action(&answers[0]).expect("a MOVE answer");
            assert!(
                moves.iter().any(|m| m.penguin as u32 == id && m.to == cell),
                "case {k}: {answers:?} {notes}"
            );
            assert!(notes.contains(expected_note), "case {k}: {notes}");
        }
    }

    #[test]
    fn parse_action_accepts_messages_and_rejects_junk() {
        assert_eq!(
            parse_action("MOVE 3 C5"),
            Some((3, parse_cell("C5").unwrap()))
        );
        assert_eq!(
            parse_action("MOVE 3 C5 MSG hi"),
            Some((3, parse_cell("C5").unwrap()))
        );
        for junk in [
            "",
            "MOVE",
            "MOVE x C5",
            "MOVE 3 Z9",
            "JUMP 3 C5",
            "MOVE 3 H1",
        ] {
            assert_eq!(parse_action(junk), None, "{junk:?}");
        }
    }
}

#[cfg(test)]
mod multi_turn_tests {
    use super::*;
    use crate::penguins::generator::generate_board;
    use crate::penguins::policy::make_policy;

    /// A whole game fed turn by turn, with one turn's action count broken: the bot answers every
    /// turn exactly once, skips the leftover action lines, and every answer is legal.
    #[test]
    fn one_answer_per_turn_even_after_a_broken_count() {
        let mut state = State::new(&generate_board(21), 2, Rules::default()).unwrap();
        let mut policy = make_policy("greedy", 1).unwrap();
        let mut input = init_input(&state, 0);
        let mut expected_turns = 0;
        let mut moves = MoveList::new();
        let mut other = make_policy("random", 2).unwrap();
        // Build the input of player 0's first 12 turns, opponent moves chosen by `other`.
        let mut turns = Vec::new();
        while !state.is_over() && expected_turns < 12 {
            if state.to_move() == 0 {
                let mut text = turn_input(&state);
                if expected_turns == 5 {
                    let lines: Vec<&str> = text.lines().collect();
                    let at = lines.iter().position(|l| l.starts_with("MOVE")).unwrap() - 1;
                    let mut broken: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                    broken[at] = "many".into();
                    text = broken.join("\n") + "\n";
                }
                turns.push(state.clone());
                input.push_str(&text);
                expected_turns += 1;
            }
            state.legal_moves(&mut moves);
            let mv = if state.to_move() == 0 {
                policy.choose(&state, &moves, Instant::now())
            } else {
                other.choose(&state, &moves, Instant::now())
            };
            state.apply(mv);
        }
        let mut out = Vec::new();
        let mut err = Vec::new();
        let mut bot = make_policy("greedy", 1).unwrap();
        play(
            input.as_bytes(),
            &mut out,
            &mut err,
            bot.as_mut(),
            Rules::default(),
        )
        .unwrap();
        let answers: Vec<String> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(answers.len(), expected_turns);
        for (answer, position) in answers.iter().zip(&turns) {
            let (id, to) = parse_action(answer).unwrap();
            position.legal_moves(&mut moves);
            assert!(
                moves.iter().any(|m| m.penguin as u32 == id && m.to == to),
                "{answer}"
            );
        }
        let notes = String::from_utf8(err).unwrap();
        assert!(notes.contains("actionCount"), "{notes}");
        assert!(notes.contains("skipped a leftover action line"), "{notes}");
    }
}

#[cfg(test)]
mod push_tests {
    use super::*;
    use crate::penguins::generator::generate_board;
    use crate::penguins::policy::RandomPolicy;

    /// After a push, the input lists fewer penguins; the bot must treat them as gone (not as
    /// unplaced) and agree with the referee's list at every turn of push games.
    #[test]
    fn rebuilt_push_positions_agree_with_the_referee() {
        let rules = Rules::parse("push").unwrap();
        let mut checked_after_push = 0;
        for seed in 0..40 {
            let players = 2 + (seed % 3) as usize;
            let mut state = State::new(&generate_board(seed), players, rules).unwrap();
            let mut policy = RandomPolicy::new(seed);
            let mut moves = MoveList::new();
            while !state.is_over() {
                let me = state.to_move();
                let init = Init {
                    players,
                    me,
                    per_player: state.penguins_per_player(),
                };
                let text = turn_input(&state);
                let mut reader = LineReader::new(text.as_bytes());
                let turn = read_turn(&mut reader, &init).unwrap().unwrap();
                let decision = decide(&init, &turn, rules, &mut policy, Instant::now());
                assert!(
                    decision.notes.is_empty(),
                    "seed {seed}: {:?}",
                    decision.notes
                );
                // Without the action list, the lost tiles tell that placement is over.
                let blind = Turn {
                    actions: Vec::new(),
                    ..turn.clone()
                };
                let (rebuilt, _) = build_state(&init, &blind, rules).unwrap();
                let mut ours = MoveList::new();
                rebuilt.legal_moves(&mut ours);
                state.legal_moves(&mut moves);
                let key = |l: &MoveList| {
                    let mut k: Vec<_> = l.iter().map(|m| (m.from, m.to)).collect();
                    k.sort();
                    k
                };
                assert_eq!(key(&ours), key(&moves), "seed {seed}");
                let pushed = state.penguins_on_board().count() < players * init.per_player;
                if pushed && !state.in_placement() {
                    checked_after_push += 1;
                }
                let mv = policy.choose(&state, &moves, Instant::now());
                state.apply(mv);
            }
        }
        assert!(checked_after_push > 100, "{checked_after_push}");
    }
}
