use super::*;
use serde_json::json;

#[test]
fn shard_arguments_are_k_of_n() {
    assert_eq!(parse_shard("3/8"), Ok(Shard { index: 3, count: 8 }));
    assert_eq!(parse_shard(" 1/1 "), Ok(Shard::WHOLE));
    for bad in [
        "0/3", "4/3", "3", "a/b", "1/0", "1/100001", "-1/2", "1/2/3", "", "/", "1/ 2x",
    ] {
        let e = parse_shard(bad).unwrap_err();
        assert!(e.contains("K/N"), "{bad}: {e}");
    }
}

#[test]
fn the_slices_of_a_plan_hold_every_unit_exactly_once() {
    for count in 1..7 {
        for unit in 0..60 {
            let holders = (1..=count)
                .filter(|&index| Shard { index, count }.holds(unit))
                .count();
            assert_eq!(holders, 1, "unit {unit} of {count} shards");
        }
    }
}

#[test]
fn differences_name_the_first_differing_setting() {
    let a = json!({"bots": [{"name": "x", "command": "a"}], "games": 10, "plan": {"sprt": null}});
    let mut b = a.clone();
    assert_eq!(difference("", &a, &b), None);
    b["bots"][0]["command"] = json!("b");
    assert_eq!(
        difference("", &a, &b).unwrap(),
        r#"bots.0.command "\"a\"" vs "\"b\"""#
    );
    let mut c = a.clone();
    c["extra"] = json!(1);
    assert_eq!(difference("", &a, &c).unwrap(), r#"extra "null" vs "1""#);
    let mut d = a.clone();
    d["bots"] = json!([]);
    assert!(difference("", &a, &d).unwrap().starts_with("bots "));
}

/// Parts cut from a plan of `n` games: every shard of `count` over `scope`, games in plan order.
fn cut(n: usize, count: usize, unit: impl Fn(usize) -> usize) -> Vec<(Shard, Vec<usize>)> {
    (1..=count)
        .map(|index| {
            let shard = Shard { index, count };
            (shard, (0..n).filter(|&i| shard.holds(unit(i))).collect())
        })
        .collect()
}

fn parts<'a>(names: &'a [String], cuts: &[(Shard, Vec<usize>)], n: usize) -> Vec<Part<'a>> {
    cuts.iter()
        .zip(names)
        .map(|((shard, games), name)| Part {
            name,
            shard: *shard,
            scope: 0..n,
            games: games.clone(),
        })
        .collect()
}

fn names(k: usize) -> Vec<String> {
    (1..=k).map(|i| format!("s{i}.json")).collect()
}

#[test]
fn shards_in_any_order_assemble_in_plan_order() {
    let unit = |i: usize| i / 2;
    let mut cuts = cut(11, 3, unit);
    cuts.reverse();
    let names = names(3);
    let order = assemble(&parts(&names, &cuts, 11), 0..11, unit, |i| i.to_string()).unwrap();
    let games: Vec<usize> = order.iter().map(|&(p, j)| cuts[p].1[j]).collect();
    assert_eq!(games, (0..11).collect::<Vec<_>>());
    // Slices of different counts that still cover the plan exactly once: 1/2, 2/4 and 4/4.
    let mixed = [
        (Shard { index: 1, count: 2 }, 2),
        (Shard { index: 2, count: 4 }, 4),
        (Shard { index: 4, count: 4 }, 4),
    ]
    .map(|(shard, _)| (shard, (0..11).filter(|&i| shard.holds(i)).collect()));
    assert!(assemble(&parts(&names, &mixed, 11), 0..11, |i| i, |i| i.to_string()).is_ok());
}

#[test]
fn missing_doubled_short_and_foreign_shards_are_refused_by_name() {
    let unit = |i: usize| i;
    let describe = |i: usize| format!("game {i}");
    let names = names(4);
    let whole = cut(9, 3, unit);
    let check = |cuts: &[(Shard, Vec<usize>)]| {
        assemble(&parts(&names, cuts, 9), 0..9, unit, describe).unwrap_err()
    };
    assert_eq!(
        check(&whole[..2]),
        "shard 3/3 is missing: no file holds game 2"
    );
    let doubled = [whole.clone(), vec![whole[1].clone()]].concat();
    assert_eq!(
        check(&doubled),
        "s4.json: shard 2/3 is given twice (also s2.json)"
    );
    let mut short = whole.clone();
    short[1].1.pop();
    assert_eq!(
        check(&short),
        "s2.json: shard 2/3 lacks 1 of its 3 games (the first: game 7): did it stop early? play it again"
    );
    let mut foreign = whole.clone();
    foreign[0].1.push(1);
    assert_eq!(
        check(&foreign),
        "s1.json: game 1 does not belong to shard 1/3"
    );
    let mut twice = whole.clone();
    twice[0].1.push(0);
    assert_eq!(check(&twice), "s1.json: game 0 appears twice");
    let overlapping = [
        whole[0].clone(),
        (Shard { index: 1, count: 2 }, vec![0, 2, 4, 6, 8]),
    ];
    assert_eq!(
        check(&overlapping),
        "s1.json and s2.json both hold game 0 (shards 1/3 and 1/2)"
    );
}

/// The slow, obvious definition: every part holds exactly its slice of its scope, and the parts
/// together hold each game of the required range and of every scope exactly once.
fn naive_assemble(
    parts: &[Part],
    required: Range<usize>,
    unit: impl Fn(usize) -> usize,
) -> Option<Vec<(usize, usize)>> {
    for part in parts {
        let mut held = part.games.clone();
        held.sort_unstable();
        let claim: Vec<usize> = part
            .scope
            .clone()
            .filter(|&i| part.shard.holds(unit(i)))
            .collect();
        if held != claim {
            return None;
        }
    }
    let mut all: Vec<usize> = parts.iter().flat_map(|p| p.games.clone()).collect();
    all.sort_unstable();
    let count = all.len();
    all.dedup();
    let covered = parts
        .iter()
        .map(|p| p.scope.clone())
        .chain([required.clone()]);
    if all.len() != count || covered.flatten().any(|i| all.binary_search(&i).is_err()) {
        return None;
    }
    Some(
        required
            .map(|i| {
                parts
                    .iter()
                    .enumerate()
                    .find_map(|(p, part)| Some((p, part.games.iter().position(|&g| g == i)?)))
                    .unwrap()
            })
            .collect(),
    )
}

mod fuzz {
    use super::*;
    use test_support::fuzz::config;
    use test_support::proptest::prelude::*;

    proptest! {
        #![proptest_config(config("shard assembly against its naive twin"))]
        #[test]
        fn assembly_agrees_with_the_naive_definition(
            n in 1usize..40,
            per_unit in 1usize..3,
            rounds in 1usize..4,
            counts in prop::collection::vec(1usize..5, 3),
            edits in prop::collection::vec((0usize..6, 0usize..64, 0usize..64), 0..3),
            shuffle in any::<u64>(),
        ) {
            use rand::seq::SliceRandom;
            use rand::SeedableRng;
            let unit = |i: usize| i / per_unit;
            // The plan in `rounds` scopes, each cut in its own number of shards.
            let size = n.div_ceil(rounds);
            let mut cuts: Vec<(Shard, Range<usize>, Vec<usize>)> = Vec::new();
            for r in 0..rounds {
                let scope = (r * size).min(n)..((r + 1) * size).min(n);
                let count = counts[r % counts.len()];
                for index in 1..=count {
                    let shard = Shard { index, count };
                    let games = scope.clone().filter(|&i| shard.holds(unit(i))).collect();
                    cuts.push((shard, scope.clone(), games));
                }
            }
            // Damage: drop, double or shorten a part, add a game, move a part to another slice.
            for (kind, a, b) in edits {
                let len = cuts.len();
                if len == 0 {
                    break;
                }
                let p = a % len;
                match kind {
                    0 => { cuts.remove(p); }
                    1 => { let c = cuts[p].clone(); cuts.push(c); }
                    2 => { cuts[p].2.pop(); }
                    3 => { cuts[p].2.push(b % n); }
                    4 => { let c = cuts[p].0.count; cuts[p].0.index = b % c + 1; }
                    _ => {
                        let len = cuts[p].2.len();
                        if len > 0 {
                            cuts[p].2.swap(0, b % len);
                        }
                    }
                }
            }
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(shuffle);
            cuts.shuffle(&mut rng);
            for cut in &mut cuts {
                cut.2.shuffle(&mut rng);
            }
            let names = names(cuts.len());
            let parts: Vec<Part> = cuts
                .iter()
                .zip(&names)
                .map(|((shard, scope, games), name)| Part {
                    name,
                    shard: *shard,
                    scope: scope.clone(),
                    games: games.clone(),
                })
                .collect();
            let fast = assemble(&parts, 0..n, unit, |i| format!("game {i}"));
            let slow = naive_assemble(&parts, 0..n, unit);
            match (&fast, &slow) {
                (Ok(a), Some(b)) => prop_assert_eq!(a, b),
                (Err(e), None) => {
                    prop_assert!(!e.contains('\n') && e.len() < 300, "{e}");
                }
                _ => prop_assert!(false, "fast {fast:?}, naive {slow:?}"),
            }
        }
    }
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("shard-test-{}-{name}", std::process::id()))
}

#[derive(serde::Deserialize, Debug)]
struct Body {
    #[allow(dead_code)]
    games: Vec<u32>,
}

fn file(tool: &str, version: &str, config: serde_json::Value) -> serde_json::Value {
    json!({
        "run": {"format": FORMAT, "tool": tool, "version": version, "shard": {"index": 1, "count": 2}},
        "config": config,
        "games": [1, 2],
    })
}

/// `load` on files with these contents: the error, or the number of files read.
fn load_these(contents: &[Vec<u8>]) -> Result<usize, String> {
    let paths: Vec<_> = (0..contents.len())
        .map(|i| temp(&format!("load-{i}.json")))
        .collect();
    for (path, text) in paths.iter().zip(contents) {
        std::fs::write(path, text).unwrap();
    }
    let result = load::<Body>(&paths, "arena").map(|files| files.len());
    for path in &paths {
        let _ = std::fs::remove_file(path);
    }
    // Errors name the file by its path: shorten it for the assertions.
    result.map_err(|e| e.replace(&temp("load-").display().to_string(), "load-"))
}

#[test]
fn files_from_other_tools_builds_formats_or_plans_are_refused_with_one_line() {
    let good = file("arena", VERSION, json!({"games": 4}));
    let bytes = |v: &serde_json::Value| v.to_string().into_bytes();
    assert_eq!(load_these(&[bytes(&good), bytes(&good)]), Ok(2));
    let cases: Vec<(Vec<Vec<u8>>, &str)> = vec![
        (
            vec![
                bytes(&good),
                bytes(&file("arena", "0.0.9 (commit abc)", json!({"games": 4}))),
            ],
            "load-1.json: written by \"0.0.9 (commit abc)\", but load-0.json by",
        ),
        (
            vec![
                bytes(&good),
                bytes(&file("arena", VERSION, json!({"games": 6}))),
            ],
            "load-1.json: another configuration than load-0.json: games \"4\" vs \"6\"",
        ),
        (
            vec![bytes(&file("splitter", VERSION, json!({})))],
            "load-0.json: results of `tester splitter`, not of `tester arena`",
        ),
        (
            vec![b"{\"run\": 3".to_vec()],
            "load-0.json: not a results file of `tester arena --shard`",
        ),
        (
            vec![vec![0xff, 0xfe, 0x00]],
            "load-0.json: not a results file",
        ),
        (vec![b"[]".to_vec()], "load-0.json: not a results file"),
        (
            vec![{
                let mut v = good.clone();
                v["run"]["format"] = json!(2);
                bytes(&v)
            }],
            "load-0.json: results format 2 (this tester reads format 1)",
        ),
        (
            vec![{
                let mut v = good.clone();
                v["run"]["shard"] = json!({"index": 3, "count": 2});
                bytes(&v)
            }],
            "load-0.json: shard 3/2: K/N needs",
        ),
        (
            vec![{
                let mut v = good.clone();
                v["games"] = json!("x".repeat(5000));
                bytes(&v)
            }],
            "load-0.json: invalid type: string",
        ),
    ];
    for (contents, expected) in cases {
        let e = load_these(&contents).unwrap_err();
        assert!(e.starts_with(expected), "{e}\nexpected: {expected}");
        assert!(!e.contains('\n') && e.chars().count() < 400, "{e}");
    }
    assert_eq!(
        load::<Body>(&[] as &[&str], "arena").unwrap_err(),
        "no results files given"
    );
    let e = load::<Body>(&["/nonexistent/x.json"], "arena").unwrap_err();
    assert!(e.starts_with("/nonexistent/x.json: cannot read"), "{e}");
    let e = load::<Body>(&["/dev/zero"], "arena").unwrap_err();
    assert_eq!(e, "/dev/zero: larger than 256 MiB, not read");
}
