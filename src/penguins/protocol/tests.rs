//! Protocol tests: answers always come from the list (and are its own text), malformed input is
//! reported and survived, pushed-off penguins are rebuilt whatever the ids, the rules are inferred
//! from a scripted game, and the turn loop answers once per turn.

use std::collections::HashMap;
use std::time::Instant;

use super::*;
use crate::penguins::board::{cell_name, parse_cell};
use crate::penguins::generator::generate_board;
use crate::penguins::policy::{make_policy, Policy, RandomPolicy};
use crate::penguins::rng::SplitMix64;
use crate::penguins::{perft, Move, MoveList, Rules, State};

fn position(seed: u64, players: usize, plies: usize, rules: Rules) -> State {
    let mut state = State::new(&generate_board(seed), players, rules).unwrap();
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
        Budget::CodinGame,
    )
    .unwrap();
    let out = String::from_utf8(out).unwrap();
    // The first turn names the time budget; the tests look at the notes after it.
    let err = String::from_utf8(err).unwrap();
    let budget_line = format!("{}\n", Budget::CodinGame.describe());
    let notes = match err.find(&budget_line) {
        Some(at) => format!("{}{}", &err[..at], &err[at + budget_line.len()..]),
        None => err,
    };
    (out.lines().map(String::from).collect(), notes)
}

fn parse_turn(text: &str, init: &Init) -> Turn {
    read_turn(&mut LineReader::new(text.as_bytes()), init)
        .unwrap()
        .unwrap()
}

fn sorted_keys(moves: &[Move]) -> Vec<(u8, u8)> {
    let mut keys: Vec<_> = moves.iter().map(|m| (m.from, m.to)).collect();
    keys.sort_unstable();
    keys
}

/// Each answer is one of the listed actions, and a well-formed input raises no note.
#[test]
fn answers_come_from_the_list_and_agree_silently() {
    for (seed, players, plies) in [(1, 2, 0), (2, 2, 8), (3, 3, 5), (4, 4, 12), (5, 2, 30)] {
        let state = position(seed, players, plies, Rules::default());
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

/// Action lines written without `MOVE`, or with extra words: read as the same moves (no mismatch
/// note), and the answer is the chosen line's own text, byte for byte.
#[test]
fn action_lines_without_move_or_with_extra_words_are_answered_with_their_own_text() {
    let state = position(8, 2, 12, Rules::default());
    let styles: [fn(&str, &str) -> String; 4] = [
        |id, cell| format!("{id} {cell}"),
        |id, cell| format!("MOVE {id} {cell} slide"),
        |id, cell| format!("PLACE-OR-MOVE {id} {cell}"),
        |id, cell| format!("move {id} {}", cell.to_lowercase()),
    ];
    for (k, style) in styles.iter().enumerate() {
        let mut text = String::new();
        for line in turn_input(&state).lines() {
            match line.strip_prefix("MOVE ") {
                Some(rest) => {
                    let (id, cell) = rest.split_once(' ').unwrap();
                    text.push_str(&style(id, cell));
                }
                None => text.push_str(line),
            }
            text.push('\n');
        }
        for policy in ["greedy", "random"] {
            let (answers, notes) = run(&(init_input(&state, 0) + &text), policy);
            assert_eq!(notes, "", "style {k}");
            assert!(
                text.lines().any(|l| l == answers[0]),
                "style {k}: {answers:?}"
            );
        }
    }
}

#[test]
fn a_missing_action_is_reported_and_never_played() {
    let state = position(2, 2, 8, Rules::default());
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
    let state = position(5, 2, 10, Rules::default());
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
        // Control characters and bytes that are not UTF-8 are quoted escaped.
        (
            edit(2, "1\u{1b}[31m\u{10ff89}", turn.len()),
            "\"1\\u{1b}[31m\\x89\"",
        ),
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

/// Prompted with 0 actions: our own generator's move when it has one (the list may be wrong; any
/// answer loses if it is not), else one of our penguins standing still, in the stub's form.
#[test]
fn zero_listed_actions_get_the_decided_answer() {
    let state = position(6, 2, 14, Rules::default());
    let me = state.to_move();
    let text = turn_input(&state);
    let count_at = text.lines().position(|l| l.starts_with("MOVE")).unwrap() - 1;
    let mut lines: Vec<&str> = text.lines().take(count_at).collect();
    lines.push("0");
    let input = init_input(&state, me) + &lines.join("\n") + "\n";
    let (answers, notes) = run(&input, "greedy");
    assert!(text.lines().any(|l| l == answers[0]), "{answers:?}");
    assert!(notes.contains("prompted with 0 listed actions"), "{notes}");
    // A stuck player: its only penguin is surrounded by water.
    let mut fish = [0u8; 64];
    let cell = |n: &str| parse_cell(n).unwrap();
    for name in ["B2", "E5", "F5"] {
        fish[cell(name) as usize] = 1;
    }
    let stuck = State::from_position(
        Rules::default(),
        2,
        1,
        &fish,
        &[(0, cell("B2")), (1, cell("E5"))],
        &[0, 0],
        1,
    )
    .unwrap();
    let text = turn_input(&stuck).replace("\n1\nMOVE 1 F5\n", "\n0\n");
    let (answers, notes) = run(&(init_input(&stuck, 0) + &text), "greedy");
    assert_eq!(answers, ["MOVE 0 B2"], "{notes}");
    assert!(notes.contains("standing still"), "{notes}");
}

/// The turn's text with CodinGame ids given by `ids` (ours -> theirs) in penguin and action lines.
fn relabelled(state: &State, ids: &[u32]) -> String {
    let mut out = String::new();
    let mut in_penguins = false;
    for (k, line) in turn_input(state).lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if k == 1 + 8 + state.players() {
            in_penguins = true;
        }
        match words.as_slice() {
            [id, owner, cell] if in_penguins && *id != "MOVE" => {
                let id: usize = id.parse().unwrap();
                out.push_str(&format!("{} {owner} {cell}", ids[id]));
            }
            ["MOVE", id, cell] => {
                let id: usize = id.parse().unwrap();
                out.push_str(&format!("MOVE {} {cell}", ids[id]));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// League-2 games: after pushes the input lists fewer penguins, under CodinGame ids numbered in
/// any order. The bot's rebuilt position must give exactly the referee's moves at every turn, and
/// `perft` read from the same text must count what the referee's position counts.
#[test]
fn positions_with_pushed_penguins_are_rebuilt_whatever_the_ids() {
    let rules = Rules::LEAGUE2;
    let mut rng = SplitMix64::new(31);
    let (mut after_push, mut perft_checked) = (0, 0);
    for seed in 0..30 {
        let players = 2 + (seed % 3) as usize;
        let mut state = State::new(&generate_board(seed), players, rules).unwrap();
        let total = players * state.penguins_per_player();
        // A random permutation of 0..total, spread out (ids need not be small or dense).
        let mut ids: Vec<u32> = (0..total as u32).map(|i| i * 7 + 3).collect();
        for i in (1..total).rev() {
            ids.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut policy = RandomPolicy::new(seed);
        let mut moves = MoveList::new();
        while !state.is_over() {
            let me = state.to_move();
            let init = Init {
                players,
                me,
                per_player: state.penguins_per_player(),
            };
            let text = relabelled(&state, &ids);
            let turn = parse_turn(&text, &init);
            let decision = decide(&init, &turn, rules, &mut policy, Instant::now());
            assert!(
                decision.notes.is_empty(),
                "seed {seed}: {:?}",
                decision.notes
            );
            assert!(text.lines().any(|l| l == decision.output));
            // Without the action list, the lost tiles tell that placement is over.
            for listed in [true, false] {
                let mut shown = turn.clone();
                if !listed {
                    shown.actions.clear();
                }
                let (rebuilt, _) = build_state(&init, &shown, rules).unwrap();
                let mut ours = MoveList::new();
                rebuilt.legal_moves(&mut ours);
                state.legal_moves(&mut moves);
                assert_eq!(sorted_keys(&ours), sorted_keys(&moves), "seed {seed}");
            }
            let pushed = state.penguins_on_board().count() < total && !state.in_placement();
            if pushed {
                after_push += 1;
                if perft_checked < 40 {
                    let position = init_input(&state, me) + &text;
                    let mut read = perft::read_position(position.as_bytes(), rules).unwrap();
                    let mut real = state.clone();
                    assert_eq!(perft::perft(&mut read, 3), perft::perft(&mut real, 3));
                    perft_checked += 1;
                }
            }
            let mv = policy.choose(&state, &moves, Instant::now());
            state.apply(mv);
        }
    }
    assert!(after_push > 100 && perft_checked == 40, "{after_push}");
}

/// Prefers slides that push under its own model; otherwise the first listed.
struct Pusher;

impl Policy for Pusher {
    fn name(&self) -> &str {
        "pusher"
    }
    fn choose(&mut self, state: &State, legal: &[Move], _: Instant) -> Move {
        let pushing = legal.iter().find(|&&m| state.pushed_by(m).is_some());
        *pushing.unwrap_or(&legal[0])
    }
}

/// A scripted game against a referee that plays `referee_rules`, the bot starting from league2
/// and pushing whenever it can: (every note the bot wrote, the bot's rules at the end, how many
/// of its answers were pushes in its own model).
fn scripted_game(seed: u64, players: usize, referee_rules: Rules) -> (Vec<String>, Rules, usize) {
    let mut state = State::new(&generate_board(seed), players, referee_rules).unwrap();
    let init = Init {
        players,
        me: 0,
        per_player: state.penguins_per_player(),
    };
    let mut pusher = Pusher;
    let mut bot = Player::new(init, Rules::LEAGUE2, &mut pusher);
    let mut other = RandomPolicy::new(seed);
    let (mut notes, mut pushes) = (Vec::new(), 0);
    let mut moves = MoveList::new();
    while !state.is_over() {
        state.legal_moves(&mut moves);
        let mv = if state.to_move() == 0 {
            let turn = parse_turn(&turn_input(&state), &init);
            let decision = bot.answer(&turn, Instant::now());
            notes.extend(decision.notes);
            let (id, to) = parse_action(&decision.output).unwrap();
            // Did the answer push, in the model the bot answered with?
            let (model, ids) = build_state(&init, &turn, bot.rules()).unwrap();
            let mv = action_to_move(&model, &ids, 0, id, to);
            pushes += model.pushed_by(mv).is_some() as usize;
            *moves
                .iter()
                .find(|m| m.penguin as u32 == id && m.to == to)
                .expect("a listed action")
        } else {
            other.choose(&state, &moves, Instant::now())
        };
        state.apply(mv);
    }
    (notes, bot.rules(), pushes)
}

/// Rule inference: against a league-1 referee the first slide (anyone's) that stops next to a
/// penguin at the sea's edge leaves it in place; the bot says so once, at the latest on the turn
/// after its own first push-expecting answer, and plays league 1 from then on (no mismatch notes,
/// no more expected pushes). Against a league-2 referee it never switches.
#[test]
fn the_bot_infers_from_the_game_that_pushing_is_off() {
    let (mut switched, mut before_own_push, mut league2_pushes) = (0, 0, 0);
    for seed in 0..12 {
        let players = 2 + (seed % 3) as usize;
        let (notes, rules, pushes) = scripted_game(seed, players, Rules::LEAGUE1);
        assert!(
            notes.iter().all(|n| n.contains("pushing is off")),
            "seed {seed}: {notes:?}"
        );
        assert!(
            notes.len() <= 1 && pushes <= 1,
            "seed {seed}: {notes:?} {pushes}"
        );
        if pushes == 1 {
            assert_eq!(
                notes.len(),
                1,
                "seed {seed}: the bot's own push showed nothing"
            );
        }
        if notes.len() == 1 {
            assert_eq!(rules, Rules::LEAGUE1);
            switched += 1;
            before_own_push += (pushes == 0) as usize;
        }
        let (notes, rules, pushes) = scripted_game(seed, players, Rules::LEAGUE2);
        assert!(notes.is_empty(), "seed {seed}: {notes:?}");
        assert_eq!(rules, Rules::LEAGUE2);
        league2_pushes += pushes;
    }
    assert!(switched >= 10, "only {switched} of 12 games showed it");
    assert!(
        before_own_push >= 3,
        "others' slides told it first in {before_own_push} games"
    );
    assert!(
        league2_pushes >= 12,
        "only {league2_pushes} pushes in the league-2 games"
    );
}

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
    let (answers, notes) = run(&input, "greedy");
    assert_eq!(answers.len(), expected_turns);
    for (answer, position) in answers.iter().zip(&turns) {
        let (id, to) = parse_action(answer).unwrap();
        position.legal_moves(&mut moves);
        assert!(
            moves.iter().any(|m| m.penguin as u32 == id && m.to == to),
            "{answer}"
        );
    }
    assert!(notes.contains("actionCount"), "{notes}");
    assert!(notes.contains("skipped a leftover action line"), "{notes}");
}

/// Input that is not a Penguins game names the real problem instead of "no input".
#[test]
fn binary_or_empty_input_names_the_problem() {
    let mut policy = make_policy("random", 1).unwrap();
    let mut play_bytes = |bytes: &[u8]| {
        play(
            bytes,
            &mut Vec::new(),
            &mut Vec::new(),
            policy.as_mut(),
            Rules::default(),
            Budget::CodinGame,
        )
        .unwrap_err()
    };
    assert_eq!(
        play_bytes(b"\x7fELF\x02\x01\x01\x00\n\x00\x00"),
        "line 1: nbPlayers: expected an integer in 2..4, got \"\\u{7f}ELF\\u{2}\\u{1}\\u{1}\\u{0}\""
    );
    assert!(play_bytes(b"").starts_with("no input"));
    let long = vec![b'9'; 1 << 20];
    let err = play_bytes(&long);
    assert!(err.len() < 200, "{err}");
}

/// The bot's rebuilt ids: each owner's penguins renumbered in CodinGame-id order.
#[test]
fn ids_are_renumbered_per_owner_in_codingame_order() {
    let state = position(3, 3, 9, Rules::default());
    let ids = [40, 2, 17, 9, 33, 1, 8, 5, 12];
    let init = Init {
        players: 3,
        me: state.to_move(),
        per_player: 3,
    };
    let turn = parse_turn(&relabelled(&state, &ids), &init);
    let (rebuilt, map) = build_state(&init, &turn, Rules::default()).unwrap();
    let mut expected = HashMap::new();
    for owner in 0..3 {
        let mut theirs: Vec<u32> = (0..3).map(|k| ids[owner * 3 + k]).collect();
        theirs.sort_unstable();
        for (rank, id) in theirs.into_iter().enumerate() {
            expected.insert(id, owner * 3 + rank);
        }
    }
    assert_eq!(map, expected);
    for (id, owner, cell) in state.penguins_on_board() {
        let ours = map[&ids[id]];
        assert_eq!(rebuilt.penguin_owner(ours), owner);
        assert_eq!(
            cell_name(rebuilt.penguin_cell(ours).unwrap()),
            cell_name(cell)
        );
    }
}

/// A referee that plays on where our early-end rule would stop (a tie read differently, or no
/// early end): the bot still searches the listed moves rather than giving up on them.
#[test]
fn asked_to_move_after_our_early_end_the_bot_still_searches() {
    let plain = Rules::parse("league2,no-early-end").unwrap();
    let mut fish = [0u8; 64];
    let cell = |n: &str| parse_cell(n).unwrap();
    for name in ["A2", "B2", "C2", "D2", "A6"] {
        fish[cell(name) as usize] = 1;
    }
    // Player 0 alone can move and leads: over under league 2, not without the early end.
    let penguins = [(0, cell("A2")), (1, cell("A6"))];
    let state = State::from_position(plain, 2, 1, &fish, &penguins, &[500, 100], 0).unwrap();
    assert!(!state.is_over());
    let input = init_input(&state, 0) + &turn_input(&state);
    let (answers, notes) = run(&input, "greedy");
    assert!(notes.contains("searching without it"), "{notes}");
    assert!(!notes.contains("no listed action matches"), "{notes}");
    assert!(turn_input(&state).lines().any(|l| l == answers[0]));
}

/// A bad playerId or penguin count is reported on stderr naming its line, the next init line is
/// still read as the next init line, and each turn gets exactly one answer from its list.
#[test]
fn a_bad_init_line_is_reported_and_every_turn_still_gets_one_listed_answer() {
    let first = position(8, 2, 0, Rules::default());
    let second = position(8, 2, 1, Rules::default());
    let turns = [turn_input(&first), turn_input(&second)];
    for (init, line, field) in [
        ("2\n5\n4\n", 2, "playerId"),
        ("2\n-1\n4\n", 2, "playerId"),
        ("2\nme\n4\n", 2, "playerId"),
        ("2\n0\n9\n", 3, "nbPenguinsPerPlayer"),
        ("2\n5\nfour\n", 2, "playerId"),
    ] {
        let input = format!("{init}{}{}", turns[0], turns[1]);
        let (answers, notes) = run(&input, "greedy");
        assert_eq!(answers.len(), 2, "{init:?}: {answers:?}\n{notes}");
        for (answer, turn) in answers.iter().zip(&turns) {
            assert!(turn.lines().any(|l| l == answer), "{init:?}: {answer}");
        }
        let first_note = notes.lines().next().unwrap_or("");
        assert!(
            first_note.starts_with(&format!("line {line}: {field}: expected an integer")),
            "{init:?}: {notes}"
        );
        assert!(
            !notes.contains("nbRows"),
            "{init:?}: lines shifted: {notes}"
        );
    }
}
