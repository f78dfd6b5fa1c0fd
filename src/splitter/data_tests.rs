//! Known-answer tests read from `../shared/data/splitter/`, and an independent naive scorer
//! compared with the fast one on many seeded random boards.

use super::game::{Board, Dice, Move};
use super::layout::{official, Layout, HEART, STAR};
use super::score::score;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const DATA: &str = "../shared/data/splitter";

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{DATA}/{name}"))
        .unwrap_or_else(|e| panic!("{DATA}/{name}: {e}"))
}

fn parse_row(line: &str) -> Vec<u8> {
    line.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

/// Blocks separated by `test` lines; comment lines dropped.
fn blocks(text: &str, start: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if line.starts_with(start) {
            out.push(Vec::new());
        }
        if let Some(b) = out.last_mut() {
            b.push(line.to_string());
        }
    }
    out
}

/// Naive scorer: per value, label components by repeated relaxation of minimum labels (a different
/// algorithm from the fast flood fill), then apply the rules literally.
fn naive_score(layout: &Layout, values: &[u8]) -> u32 {
    let (w, h) = (layout.width(), layout.height());
    let mut points = 0;
    for v in 1..=6u8 {
        let mut label: Vec<Option<usize>> =
            (0..w * h).map(|i| (values[i] == v).then_some(i)).collect();
        loop {
            let mut changed = false;
            for y in 0..h {
                for x in 0..w {
                    let i = y * w + x;
                    let Some(mut best) = label[i] else { continue };
                    let mut around = vec![];
                    if x > 0 {
                        around.push(i - 1);
                    }
                    if x + 1 < w {
                        around.push(i + 1);
                    }
                    if y > 0 {
                        around.push(i - w);
                    }
                    if y + 1 < h {
                        around.push(i + w);
                    }
                    for j in around {
                        if let Some(l) = label[j] {
                            best = best.min(l);
                        }
                    }
                    if Some(best) != label[i] {
                        label[i] = Some(best);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for root in 0..w * h {
            let members: Vec<usize> = (0..w * h).filter(|&i| label[i] == Some(root)).collect();
            if members.len() == v as usize {
                points += v as u32;
                if members.iter().any(|&i| layout.code(i) == STAR) {
                    points += v as u32;
                }
            }
        }
        let hearts: Vec<usize> = (0..w * h).filter(|&i| layout.code(i) == HEART).collect();
        if !hearts.is_empty() && hearts.iter().all(|&i| values[i] == v) {
            points += 5;
        }
    }
    points
}

#[test]
fn all_score_vectors() {
    let text = read("score_tests.txt");
    let all = blocks(&text, "test ");
    assert_eq!(all.len(), 8);
    for b in all {
        let name = &b[0];
        let li = b.iter().position(|l| l == "layout").unwrap();
        let si = b.iter().position(|l| l == "state").unwrap();
        let ei = b.iter().position(|l| l.starts_with("expected")).unwrap();
        let rows: Vec<Vec<u8>> = b[li + 1..si].iter().map(|l| parse_row(l)).collect();
        let layout = Layout::new(&rows).unwrap();
        let state: Vec<u8> = b[si + 1..ei].iter().flat_map(|l| parse_row(l)).collect();
        let expected: u32 = b[ei]["expected ".len()..].parse().unwrap();
        assert_eq!(score(&layout, &state), expected, "{name}");
        assert_eq!(naive_score(&layout, &state), expected, "{name} (naive)");
    }
}

/// Named test grids used by `game_tests.txt` (from ScoreTests.cs).
fn test_grid(name: &str, inline_rows: &[Vec<u8>]) -> Layout {
    match name {
        "GridF" => Layout::new(&[vec![3, 3], vec![1, 1], vec![2, 2]]).unwrap(),
        "GridE" if inline_rows.is_empty() => Layout::new(&[
            vec![0, 1, 1, 1, 1, 0],
            vec![3, 1, 1, 3, 1, 1],
            vec![0, 1, 1, 1, 1, 0],
        ])
        .unwrap(),
        _ => Layout::new(inline_rows).unwrap(),
    }
}

#[test]
fn all_game_tests_including_the_failing_placement() {
    let text = read("game_tests.txt");
    let all = blocks(&text, "test ");
    assert_eq!(all.len(), 3);
    let mut failures_seen = 0;
    for b in all {
        let name = b[0].clone();
        let grid_name = b[1].strip_prefix("grid ").unwrap();
        // Rows directly after `grid` (if any) define the grid inline.
        let inline: Vec<Vec<u8>> = b[2..]
            .iter()
            .take_while(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .map(|l| parse_row(l))
            .collect();
        let layout = test_grid(grid_name, &inline);
        let mut board = Board::new(&layout, layout.default_rounds());
        let mut dice = Dice(1, 1);
        let mut i = 2 + inline.len();
        while i < b.len() {
            let words: Vec<&str> = b[i].split_whitespace().collect();
            let nums: Vec<usize> = words[1..].iter().filter_map(|w| w.parse().ok()).collect();
            match words[0] {
                "rounds-at-start" => assert_eq!(board.rounds_left, nums[0], "{name}"),
                "expect-rounds" => assert_eq!(board.rounds_left, nums[0], "{name}"),
                "dice" => dice = Dice(nums[0] as u8, nums[1] as u8),
                "place" => {
                    let mv = Move {
                        die: nums[0] as u8,
                        x: nums[1],
                        y: nums[2],
                    };
                    board
                        .place(&layout, dice, mv)
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                }
                "place-fails" => {
                    let mv = Move {
                        die: nums[0] as u8,
                        x: nums[1],
                        y: nums[2],
                    };
                    let before = board.clone();
                    assert!(
                        board.place(&layout, dice, mv).is_err(),
                        "{name}: placement should fail"
                    );
                    assert_eq!(board, before, "{name}: a failed placement changes nothing");
                    failures_seen += 1;
                }
                "expect-points" => {
                    assert_eq!(score(&layout, &board.values), nums[0] as u32, "{name}")
                }
                "expect-state" => {
                    let rows: Vec<u8> = b[i + 1..i + 1 + layout.height()]
                        .iter()
                        .flat_map(|l| parse_row(l))
                        .collect();
                    assert_eq!(board.values, rows, "{name}");
                    i += layout.height();
                }
                other => panic!("{name}: unknown directive {other}"),
            }
            i += 1;
        }
    }
    assert_eq!(failures_seen, 1);
}

#[test]
fn all_doc_transcripts_replay_to_their_final_board_and_score() {
    let text = read("doc_transcripts.txt");
    let all = blocks(&text, "transcript ");
    assert_eq!(all.len(), 3);
    for b in all {
        let name = &b[0];
        let grid = b.iter().find_map(|l| l.strip_prefix("grid ")).unwrap();
        let layout = official(if grid == "GridA" { 1 } else { 2 });
        let mut board = Board::new(&layout, 22);
        let mut dice = None;
        let mut moves = 0;
        for l in &b {
            let nums: Vec<usize> = l
                .split_whitespace()
                .skip(1)
                .filter_map(|w| w.parse().ok())
                .collect();
            if l.starts_with("roll ") {
                dice = Some(Dice(nums[0] as u8, nums[1] as u8));
            } else if l.starts_with("move ") {
                let mv = Move {
                    die: nums[0] as u8,
                    x: nums[1],
                    y: nums[2],
                };
                board
                    .place(&layout, dice.take().unwrap(), mv)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                moves += 1;
            }
        }
        assert_eq!(moves, 22, "{name}");
        assert_eq!(board.rounds_left, 0);
        let fi = b.iter().position(|l| l == "final").unwrap();
        let final_rows: Vec<u8> = b[fi + 1..fi + 8]
            .iter()
            .flat_map(|l| parse_row(l))
            .collect();
        assert_eq!(board.values, final_rows, "{name}");
        let expected: u32 = b
            .iter()
            .find_map(|l| l.strip_prefix("score "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(score(&layout, &board.values), expected, "{name}");
        assert_eq!(
            naive_score(&layout, &board.values),
            expected,
            "{name} (naive)"
        );
    }
}

/// Random layouts of random sizes (mirror-symmetric fillability, random stars and hearts) and
/// random fillings, some partial; values are drawn from a narrow range so groups form often.
#[test]
fn fast_scorer_matches_naive_scorer_on_random_boards() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x5EED_2024);
    let mut nonzero = 0;
    for case in 0..3000 {
        let w = rng.random_range(1..=9usize);
        let h = rng.random_range(1..=8usize);
        let mut rows = vec![vec![0u8; w]; h];
        for row in rows.iter_mut() {
            for x in 0..w.div_ceil(2) {
                if rng.random_bool(0.85) {
                    row[x] = 1;
                    row[w - 1 - x] = 1;
                }
            }
            for c in row.iter_mut().filter(|c| **c == 1) {
                *c = match rng.random_range(0..10) {
                    0 => STAR,
                    1 => HEART,
                    _ => 1,
                };
            }
        }
        let layout = Layout::new(&rows).unwrap();
        let top = rng.random_range(1..=6u8);
        let fill = rng.random_range(0.5..=1.0);
        let values: Vec<u8> = (0..w * h)
            .map(|i| {
                if layout.is_fillable(i) && rng.random_bool(fill) {
                    rng.random_range(1..=top)
                } else {
                    0
                }
            })
            .collect();
        let fast = score(&layout, &values);
        assert_eq!(
            fast,
            naive_score(&layout, &values),
            "case {case}: {values:?} on {rows:?}"
        );
        nonzero += (fast > 0) as u32;
    }
    assert!(
        nonzero > 1000,
        "random boards should often score: {nonzero}"
    );
}
