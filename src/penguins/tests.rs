//! Cross-checks of the bitboard rules against the naive twin, and known answers.

use super::board::{cell_at, parse_cell, VALID};
use super::naive::NaiveGame;
use super::rng::SplitMix64;
use super::*;

fn sorted_moves(state: &State, player: usize) -> Vec<(usize, Option<usize>, usize)> {
    let mut list = MoveList::new();
    state.moves_of(player, &mut list);
    let mut moves: Vec<_> = list
        .iter()
        .map(|m| {
            let from = (!m.is_placement()).then_some(m.from as usize);
            (m.penguin as usize, from, m.to as usize)
        })
        .collect();
    moves.sort_unstable();
    moves
}

fn random_rules(rng: &mut SplitMix64) -> Rules {
    Rules {
        placement: if rng.below(3) == 0 {
            Placement::OneFishOnly
        } else {
            Placement::AnyTile
        },
        push: rng.below(3) != 0,
        score_tiles_under_penguins: rng.below(4) == 0,
        end_when_leader_alone: rng.below(3) != 0,
    }
}

/// A generated board with, sometimes, extra random holes.
fn random_board(rng: &mut SplitMix64) -> [u8; 64] {
    let mut fish = generate_board(rng.next_u64());
    if rng.below(2) == 0 {
        let holes = rng.below(30);
        for _ in 0..holes {
            fish[rng.below(64) as usize] = 0;
        }
    }
    fish
}

/// Play random games in lockstep on both implementations, comparing everything at every ply.
#[test]
fn bitboard_rules_match_the_naive_twin_on_random_games() {
    let mut rng = SplitMix64::new(2024);
    let mut positions = 0;
    for game in 0..1000 {
        let players = 2 + rng.below(3) as usize;
        let rules = random_rules(&mut rng);
        let fish = random_board(&mut rng);
        let mut state = State::new(&fish, players, rules).unwrap();
        let mut naive = NaiveGame::new(rules, players, fish);
        let mut history = Vec::new();
        loop {
            positions += 1;
            let ctx = format!(
                "game {game} ply {} rules {}",
                history.len(),
                rules.describe()
            );
            assert_eq!(state.is_over(), naive.over, "{ctx}");
            assert_eq!(state.scores(), &naive.scores[..], "{ctx}");
            assert_eq!(state.final_scores(), naive.final_scores(), "{ctx}");
            assert_eq!(state.hash(), state.compute_hash(), "{ctx}");
            for p in 0..players {
                let mut expected = naive.moves(p);
                expected.sort_unstable();
                assert_eq!(sorted_moves(&state, p), expected, "{ctx} player {p}");
                assert_eq!(state.has_move(p), !expected.is_empty(), "{ctx} player {p}");
            }
            if state.is_over() {
                break;
            }
            assert_eq!(state.to_move(), naive.to_move, "{ctx}");
            let mut moves = MoveList::new();
            state.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let before = state.clone();
            let undo = state.apply(mv);
            naive.apply((
                mv.penguin as usize,
                (!mv.is_placement()).then_some(mv.from as usize),
                mv.to as usize,
            ));
            history.push((before, undo));
        }
        // Undo all the way back: every intermediate state is restored exactly.
        while let Some((before, undo)) = history.pop() {
            state.undo(undo);
            assert_eq!(state, before, "game {game} undo to ply {}", history.len());
        }
    }
    assert!(positions > 30_000, "only {positions} positions compared");
}

/// The statement's worked example: from F4 the reachable cells are F5, E5, E4, D4, F3, G2, G1.
/// Holes at G6, E6, C4, E3 and G4 end the rays where the example's picture ends them.
#[test]
fn worked_example_from_f4() {
    let mut fish = [0u8; 64];
    for cell in board::cells_of(VALID) {
        fish[cell as usize] = 1;
    }
    for hole in ["G6", "E6", "C4", "E3", "G4"] {
        fish[parse_cell(hole).unwrap() as usize] = 0;
    }
    let f4 = parse_cell("F4").unwrap();
    assert_eq!(f4, cell_at(5, 3));
    let state =
        State::from_position(Rules::default(), 2, 1, &fish, &[(0, f4), (1, 0)], &[], 0).unwrap();
    let mut reached: Vec<String> = board::cells_of(state.destinations(f4))
        .map(cell_name)
        .collect();
    reached.sort();
    let mut expected = ["F5", "E5", "E4", "D4", "F3", "G2", "G1"]
        .map(String::from)
        .to_vec();
    expected.sort();
    assert_eq!(reached, expected);
}

#[test]
fn stuck_players_are_skipped_and_the_game_ends_when_nobody_can_move() {
    // Player 1's penguin sits on an island; player 0 and 2 can move.
    let mut fish = [0u8; 64];
    for name in ["A2", "B2", "C2", "A6", "A8", "B8"] {
        fish[parse_cell(name).unwrap() as usize] = 2;
    }
    let cell = |n: &str| parse_cell(n).unwrap();
    let penguins = [(0, cell("A2")), (1, cell("A6")), (2, cell("A8"))];
    let mut state = State::from_position(Rules::default(), 3, 1, &fish, &penguins, &[], 0).unwrap();
    assert!(!state.has_move(1));
    let mv = Move {
        penguin: 0,
        from: cell("A2"),
        to: cell("B2"),
    };
    state.apply(mv);
    assert_eq!(state.to_move(), 2, "player 1 is skipped");
    assert_eq!(state.score(0), 201);
    let mv = Move {
        penguin: 2,
        from: cell("A8"),
        to: cell("B8"),
    };
    state.apply(mv);
    assert_eq!(
        state.to_move(),
        0,
        "player 2 is now stuck too, player 1 still"
    );
    state.apply(Move {
        penguin: 0,
        from: cell("B2"),
        to: cell("C2"),
    });
    assert!(state.is_over());
    assert_eq!(state.final_scores(), vec![402, 0, 201]);
    assert_eq!(state.winners(), vec![0]);
}

#[test]
fn tiles_under_penguins_score_only_under_the_variant() {
    let cell = |n: &str| parse_cell(n).unwrap();
    let mut fish = [0u8; 64];
    fish[cell("A2") as usize] = 3;
    fish[cell("D5") as usize] = 1;
    let penguins = [(0, cell("A2")), (1, cell("D5"))];
    for (rules, expected) in [
        (Rules::default(), vec![0, 0]),
        (Rules::parse("score-under").unwrap(), vec![301, 101]),
    ] {
        let state = State::from_position(rules, 2, 1, &fish, &penguins, &[], 0).unwrap();
        assert!(state.is_over());
        assert_eq!(state.final_scores(), expected);
    }
}

/// A row of ice with holes at `holes` (names), penguins at (owner, name), `per_player` each.
fn hand_position(
    ice: &[&str],
    holes: &[&str],
    penguins: &[(usize, &str)],
    per_player: usize,
    rules: Rules,
) -> State {
    let cell = |n: &str| parse_cell(n).unwrap();
    let mut fish = [0u8; 64];
    for name in ice {
        fish[cell(name) as usize] = 1;
    }
    for name in holes {
        fish[cell(name) as usize] = 0;
    }
    let placed: Vec<(usize, u8)> = penguins.iter().map(|&(o, n)| (o, cell(n))).collect();
    let mut state = State::from_position(rules, 2, per_player, &fish, &placed, &[0, 0], 0).unwrap();
    state.end_placement(); // penguins not listed are off the board
    state
}

const ROW_2: [&str; 8] = ["A2", "B2", "C2", "D2", "E2", "F2", "G2", "H2"];
const ROW_1: [&str; 7] = ["A1", "B1", "C1", "D1", "E1", "F1", "G1"];

/// Each push condition of the level-2 statement on a hand position: the slide `from -> to` of
/// penguin 0 pushes `pushed` (or nobody); the fast rules, the naive twin (which reads the rule from
/// the statement's text) and undo all agree.
#[test]
fn push_conditions_on_hand_positions() {
    let cell = |n: &str| parse_cell(n).unwrap();
    // (what, ice, holes, penguins (owner, cell), from, to, pushed penguin id)
    type Case<'a> = (
        &'a str,
        &'a [&'a str],
        &'a [&'a str],
        &'a [(usize, &'a str)],
        &'a str,
        &'a str,
        Option<usize>,
    );
    let cases: [Case; 9] = [
        (
            "hole behind",
            &ROW_2,
            &["F2"],
            &[(0, "A2"), (1, "E2")],
            "A2",
            "D2",
            Some(2),
        ),
        (
            "missing cell behind (H1)",
            &ROW_1,
            &[],
            &[(0, "A1"), (1, "G1")],
            "A1",
            "F1",
            Some(2),
        ),
        (
            "board edge behind",
            &ROW_2,
            &[],
            &[(0, "A2"), (1, "H2")],
            "A2",
            "G2",
            Some(2),
        ),
        (
            "own penguin",
            &ROW_2,
            &["F2"],
            &[(0, "A2"), (0, "E2")],
            "A2",
            "D2",
            Some(1),
        ),
        (
            "not at the edge",
            &ROW_2,
            &[],
            &[(0, "A2"), (1, "E2")],
            "A2",
            "D2",
            None,
        ),
        (
            "stops short of it",
            &ROW_2,
            &["F2"],
            &[(0, "A2"), (1, "E2")],
            "A2",
            "C2",
            None,
        ),
        // D1 touches D2 but lies NE of it, not east, the slide's direction.
        (
            "out of line",
            &[&ROW_2[..], &["D1"]].concat(),
            &["E2"],
            &[(0, "A2"), (1, "D1")],
            "A2",
            "D2",
            None,
        ),
        // Two in a row: the first has ice (under the second) behind it; nobody falls.
        (
            "chain of two",
            &ROW_2,
            &["G2"],
            &[(0, "A2"), (1, "E2"), (1, "F2")],
            "A2",
            "D2",
            None,
        ),
        (
            "chain, own first",
            &ROW_2,
            &["G2"],
            &[(0, "A2"), (0, "E2"), (1, "F2")],
            "A2",
            "D2",
            None,
        ),
    ];
    for (what, ice, holes, penguins, from, to, pushed) in cases {
        let per_player = 2;
        let state = hand_position(ice, holes, penguins, per_player, Rules::LEAGUE2);
        let mv = Move {
            penguin: 0,
            from: cell(from),
            to: cell(to),
        };
        assert!(state.is_legal(mv), "{what}");
        assert_eq!(state.pushed_by(mv), pushed, "{what}");
        let mut after = state.clone();
        let undo = after.apply(mv);
        let mut naive = NaiveGame::from_state(&state);
        naive.apply((0, Some(cell(from) as usize), cell(to) as usize));
        let mut on_board: Vec<usize> = after.penguins_on_board().map(|p| p.0).collect();
        let naive_on_board: Vec<usize> = (0..naive.cells.len())
            .filter(|&i| naive.cells[i].is_some())
            .collect();
        assert_eq!(on_board, naive_on_board, "{what}: naive twin");
        if let Some(victim) = pushed {
            on_board.push(victim);
            // Its tile stays, free now.
            let at = state.penguin_cell(victim).unwrap();
            assert_eq!(after.fish_at(at), 1, "{what}");
            assert_eq!(after.free() >> at & 1, 1, "{what}");
        }
        assert_eq!(on_board.len(), penguins.len(), "{what}");
        assert_eq!(after.hash(), after.compute_hash(), "{what}");
        after.undo(undo);
        assert_eq!(after, state, "{what}: undo");
        // Without the push rule the same slide pushes nobody.
        let league1 = hand_position(ice, holes, penguins, per_player, Rules::LEAGUE1);
        assert_eq!(league1.pushed_by(mv), None, "{what}");
    }
    // A penguin already next to another cannot push it: there is no slide that way.
    let state = hand_position(&ROW_2, &["F2"], &[(0, "D2"), (1, "E2")], 1, Rules::LEAGUE2);
    assert_eq!(state.destinations(cell("D2")) >> cell("E2"), 0);
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    assert!(moves.iter().all(|&m| state.pushed_by(m).is_none()));
}

/// Early end: exactly one player can move and is strictly ahead -> over; a tie, or the one
/// able to move behind, plays on; `no-early-end` always plays on.
#[test]
fn early_end_with_a_leader_and_with_a_tie() {
    let cell = |n: &str| parse_cell(n).unwrap();
    let mut fish = [0u8; 64];
    for name in ["A2", "B2", "C2", "A6"] {
        fish[cell(name) as usize] = 1;
    }
    // Player 1 on the island A6 cannot move; player 0 can.
    let penguins = [(0, cell("A2")), (1, cell("A6"))];
    let build = |rules: Rules, scores: [u32; 2]| {
        State::from_position(rules, 2, 1, &fish, &penguins, &scores, 0).unwrap()
    };
    for rules in [Rules::LEAGUE1, Rules::LEAGUE2] {
        assert!(build(rules, [500, 100]).is_over(), "leader alone");
        assert!(!build(rules, [300, 300]).is_over(), "a tie plays on");
        assert!(!build(rules, [100, 500]).is_over(), "behind plays on");
        // From a tie, one move puts the lone mover ahead: the game ends there.
        let mut state = build(rules, [300, 300]);
        state.apply(Move {
            penguin: 0,
            from: cell("A2"),
            to: cell("B2"),
        });
        assert!(state.is_over());
        assert_eq!(state.final_scores(), vec![401, 300]);
    }
    let plain = Rules::parse("league1,no-early-end").unwrap();
    assert!(!build(plain, [500, 100]).is_over());
}

/// A deactivated player never moves again and its penguins stay; the leader-alone end ignores it.
#[test]
fn a_deactivated_player_is_skipped_and_its_penguins_stay() {
    let mut state = State::new(&generate_board(3), 3, Rules::LEAGUE2).unwrap();
    let mut moves = MoveList::new();
    let mut policy = policy::RandomPolicy::new(3);
    for _ in 0..12 {
        state.legal_moves(&mut moves);
        let mv = policy.choose(&state, &moves, std::time::Instant::now());
        state.apply(mv);
    }
    let before: Vec<_> = state.penguins_on_board().filter(|p| p.1 == 1).collect();
    state.deactivate(1);
    assert_eq!(state.hash(), state.compute_hash());
    while !state.is_over() {
        assert_ne!(state.to_move(), 1);
        assert!(!state.has_move(1));
        state.legal_moves(&mut moves);
        let mv = policy.choose(&state, &moves, std::time::Instant::now());
        state.apply(mv);
    }
    let after: Vec<_> = state.penguins_on_board().filter(|p| p.1 == 1).collect();
    // Still there unless pushed into the sea.
    assert!(after.iter().all(|p| before.contains(p)));
}

#[test]
fn one_fish_placement_variant_restricts_targets() {
    let fish = generate_board(5);
    let any = State::new(&fish, 2, Rules::default()).unwrap();
    let one = State::new(&fish, 2, Rules::parse("one-fish").unwrap()).unwrap();
    assert_eq!(any.placement_targets(), VALID);
    assert_eq!(one.placement_targets(), any.tiles_with(1));
    assert_eq!(one.placement_targets().count_ones(), 30);
}

#[test]
fn placement_rotates_players_then_movement_starts_with_player_0() {
    for players in 2..=4 {
        let mut state = State::new(&generate_board(9), players, Rules::default()).unwrap();
        let mut policy = policy::RandomPolicy::new(1);
        let mut moves = MoveList::new();
        let deadline = std::time::Instant::now();
        for k in 0..players * (6 - players) {
            assert!(state.in_placement());
            assert_eq!(state.to_move(), k % players);
            state.legal_moves(&mut moves);
            assert!(moves.iter().all(|m| m.is_placement()));
            let mv = policy.choose(&state, &moves, deadline);
            state.apply(mv);
        }
        assert!(!state.in_placement());
        assert_eq!(state.to_move(), 0);
        state.legal_moves(&mut moves);
        assert!(moves.iter().all(|m| !m.is_placement()));
    }
}

/// Pinned perft counts on fixed CodinGame positions (`data/penguins/perft.txt`), each also checked
/// against the naive twin's perft at depth <= 3.
#[test]
fn perft_cases_match_pinned_counts() {
    let text = include_str!("../../data/penguins/perft.txt");
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let mut cases = 0;
    while let Some(header) = lines.next() {
        let name = header.strip_prefix("case ").expect("case line");
        let rules = Rules::parse(lines.next().unwrap().strip_prefix("rules ").unwrap()).unwrap();
        let mut pinned = Vec::new();
        let mut line = lines.next().unwrap();
        while let Some(rest) = line.strip_prefix("perft ") {
            let (depth, count) = rest.split_once(' ').unwrap();
            pinned.push((
                depth.parse::<usize>().unwrap(),
                count.parse::<u64>().unwrap(),
            ));
            line = lines.next().unwrap();
        }
        assert_eq!(line, "position", "{name}");
        let mut position = String::new();
        for l in lines.by_ref().take_while(|l| *l != "end") {
            position.push_str(l);
            position.push('\n');
        }
        let mut state = perft::read_position(position.as_bytes(), rules).unwrap();
        let naive = NaiveGame::from_state(&state);
        for (depth, count) in pinned {
            assert_eq!(
                perft::perft(&mut state, depth),
                count,
                "{name} depth {depth}"
            );
            if depth <= 3 {
                assert_eq!(naive.perft(depth), count, "{name} naive depth {depth}");
            }
        }
        let divided: u64 = perft::divide(&mut state, 2).iter().map(|d| d.1).sum();
        assert_eq!(divided, perft::perft(&mut state, 2), "{name} divide");
        cases += 1;
    }
    assert_eq!(cases, 11);
}

/// Perft under league2 equals the naive twin's (which reads the push from the statement's text) on
/// seeded random positions deep enough in the game for pushes, some with extra holes.
#[test]
fn league2_perft_matches_the_naive_twin_on_random_positions() {
    let mut rng = SplitMix64::new(77);
    let mut with_pushes = 0;
    for case in 0..40 {
        let players = 2 + rng.below(3) as usize;
        let mut state = State::new(&random_board(&mut rng), players, Rules::LEAGUE2).unwrap();
        let plies = players * (6 - players) + rng.below(25) as usize;
        let mut moves = MoveList::new();
        for _ in 0..plies {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state.apply(moves[rng.below(moves.len() as u64) as usize]);
        }
        if state.is_over() {
            continue;
        }
        let naive = NaiveGame::from_state(&state);
        let fast = perft::perft(&mut state.clone(), 3);
        assert_eq!(fast, naive.perft(3), "case {case}");
        let pushes_at_depth_1 = {
            state.legal_moves(&mut moves);
            moves
                .iter()
                .filter(|&&m| state.pushed_by(m).is_some())
                .count()
        };
        with_pushes += (pushes_at_depth_1 > 0) as usize;
    }
    assert!(with_pushes >= 8, "only {with_pushes} positions with a push");
}

#[test]
fn perft_input_errors_name_the_line() {
    let good = include_str!("../../data/penguins/perft.txt");
    let start = good.find("position\n").unwrap() + "position\n".len();
    let position = &good[start..good[start..].find("end\n").unwrap() + start];
    assert!(perft::read_position(position.as_bytes(), Rules::default()).is_ok());
    let broken_row = position.replacen("21211320", "2121x320", 1);
    let err = perft::read_position(broken_row.as_bytes(), Rules::default()).unwrap_err();
    assert!(err.starts_with("line 5: row 1"), "{err}");
    let truncated: String = position.lines().take(9).map(|l| format!("{l}\n")).collect();
    let err = perft::read_position(truncated.as_bytes(), Rules::default()).unwrap_err();
    assert!(err.contains("input ended after line 9"), "{err}");
    let err = perft::read_position("5\n".as_bytes(), Rules::default()).unwrap_err();
    assert!(err.contains("line 1: nbPlayers"), "{err}");
}

/// The same position reached by different move orders has the same hash; different positions
/// (here: every position of many random games) almost never share one.
#[test]
fn hash_is_a_function_of_the_position_only() {
    let fish = generate_board(77);
    let cell = |n: &str| parse_cell(n).unwrap();
    let place = |state: &mut State, to: &str| {
        let player = state.to_move();
        let penguin = state.next_unplaced(player).unwrap() as u8;
        state.apply(Move {
            penguin,
            from: NO_CELL,
            to: cell(to),
        });
    };
    let mut a = State::new(&fish, 2, Rules::default()).unwrap();
    let mut b = a.clone();
    for to in ["A2", "B4", "C6", "D8"] {
        place(&mut a, to);
    }
    for to in ["C6", "D8", "A2", "B4"] {
        place(&mut b, to);
    }
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a.hash(), a.compute_hash());

    let mut seen = std::collections::HashMap::new();
    let mut rng = SplitMix64::new(5);
    let mut moves = MoveList::new();
    for game in 0..200 {
        let mut state = State::new(
            &generate_board(game),
            2 + (game % 3) as usize,
            Rules::default(),
        )
        .unwrap();
        while !state.is_over() {
            let key = (state.fish_grid(), state.all_penguins(), state.to_move(), {
                let mut owners = [0u64; 4];
                for (p, o) in owners.iter_mut().enumerate().take(state.players()) {
                    *o = state.penguins_of(p);
                }
                owners
            });
            if let Some(previous) = seen.insert(state.hash(), key) {
                assert_eq!(previous, key, "hash collision between different positions");
            }
            state.legal_moves(&mut moves);
            state.apply(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    assert!(seen.len() > 5000);
}

#[test]
fn impossible_positions_are_rejected_with_a_reason() {
    let fish = generate_board(1);
    let cell = |n: &str| parse_cell(n).unwrap();
    let build = |fish: &[u8; 64], penguins: &[(usize, u8)], players, per, to_move| {
        State::from_position(Rules::default(), players, per, fish, penguins, &[], to_move)
    };
    assert!(State::new(&fish, 5, Rules::default())
        .unwrap_err()
        .contains("2..4"));
    assert!(build(&fish, &[], 2, 9, 0)
        .unwrap_err()
        .contains("at most 16"));
    assert!(build(&fish, &[], 2, 4, 2)
        .unwrap_err()
        .contains("player to move"));
    let twice = [(0, cell("B2")), (1, cell("B2"))];
    assert!(build(&fish, &twice, 2, 4, 0)
        .unwrap_err()
        .contains("two penguins on B2"));
    let owner = [(3, cell("B2"))];
    assert!(build(&fish, &owner, 2, 4, 0)
        .unwrap_err()
        .contains("owner 3"));
    let too_many = [(0, cell("B2")), (0, cell("C2"))];
    assert!(build(&fish, &too_many, 2, 1, 0)
        .unwrap_err()
        .contains("more than 1"));
    let mut holed = fish;
    holed[cell("B2") as usize] = 0;
    assert!(build(&holed, &[(0, cell("B2"))], 2, 4, 0)
        .unwrap_err()
        .contains("not ice"));
    let mut bad = fish;
    bad[7] = 2; // H1 does not exist
    assert!(build(&bad, &[], 2, 4, 0)
        .unwrap_err()
        .contains("H1 is not a board cell"));
    let mut bad = fish;
    bad[9] = 4;
    assert!(build(&bad, &[], 2, 4, 0).unwrap_err().contains("4 fish"));
}
