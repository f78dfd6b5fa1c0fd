//! Every kind of page the project writes, opened in a real headless Chromium with its script
//! running (`test_support::browser`): the Splitter report and its replays, the Penguins viewer and
//! the arena's index of games, the Scruffle plan page, the crossword SVG. Each test fails on any
//! console error, uncaught exception or request for anything but a local file; works the page's
//! controls; checks that what the page shows is what the tester (or an independent twin) computed;
//! and saves a screenshot under `target/pages/` for a person to look at.
//!
//! A missing browser fails these tests (./test.sh installs it). They run the `bot` binary built
//! beside the tester (`cargo test --workspace` and `cargo build --release` build both).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use test_support::browser::Browser;

const TESTER: &str = env!("CARGO_BIN_EXE_tester");

/// The `bot` binary beside the tester.
fn bot() -> PathBuf {
    let path = Path::new(TESTER).with_file_name("bot");
    assert!(
        path.is_file(),
        "{} is missing: build it first (cargo build --release)",
        path.display()
    );
    path
}

/// Where the screenshots go: `target/pages/NAME.png`.
fn screenshot_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target folder")
        .join("pages")
        .join(format!("{name}.png"))
}

fn browser() -> Browser {
    Browser::launch().unwrap_or_else(|e| panic!("{e}"))
}

/// Run a command; its stdout, or a panic with its stderr.
fn run(command: &mut Command) -> String {
    let out = command.output().expect("the command starts");
    assert!(
        out.status.success(),
        "{command:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Open `page`, fail on anything it did wrong, and on glyphs a reader's fonts may lack.
fn open_clean(b: &mut Browser, page: &Path) {
    b.open(page).unwrap();
    assert_clean(b, &page.display().to_string());
    let rare = b.rare_glyphs().unwrap();
    assert!(
        rare.is_empty(),
        "{}: glyphs fonts may lack: {rare:?}",
        page.display()
    );
}

fn assert_clean(b: &mut Browser, what: &str) {
    let problems = b.problems();
    assert!(problems.is_empty(), "{what}: {problems:#?}");
}

fn eval(b: &mut Browser, js: &str) -> Value {
    b.eval(js).unwrap_or_else(|e| panic!("{e}"))
}

/// Move the range input `id` to `value` as a user would (its input event fires).
fn slide(b: &mut Browser, id: &str, value: usize) {
    eval(
        b,
        &format!("{{ const s = document.getElementById('{id}'); s.value = {value}; s.dispatchEvent(new Event('input')); }}"),
    );
}

/// The harness sees what it must: a console error, an exception thrown by a click handler, a
/// request to the network, a glyph outside Latin and punctuation; and nothing on a clean page.
#[test]
fn the_browser_reports_errors_exceptions_requests_and_rare_glyphs() {
    let dir = test_support::scratch_dir("pages-harness");
    let clean = dir.join("clean.html");
    std::fs::write(
        &clean,
        "<!DOCTYPE html><meta charset=utf-8><p id=p>caf\u{e9} \u{2014} ok</p><script>document.getElementById('p').dataset.x = 1</script>",
    )
    .unwrap();
    let broken = dir.join("broken.html");
    std::fs::write(
        &broken,
        "<!DOCTYPE html><meta charset=utf-8><button id=b>\u{23ee}</button>\
         <img src=\"http://example.invalid/x.png\">\
         <script>console.error('bad', 42); document.getElementById('b').onclick = () => { null.x; };</script>",
    )
    .unwrap();
    let mut b = browser();
    b.open(&clean).unwrap();
    assert_eq!(b.problems(), Vec::<String>::new());
    assert_eq!(b.rare_glyphs().unwrap(), "");
    assert_eq!(eval(&mut b, "document.getElementById('p').dataset.x"), "1");
    b.open(&broken).unwrap();
    eval(&mut b, "document.getElementById('b').click()");
    let problems = b.problems().join("\n");
    assert!(problems.contains("console.error: bad 42"), "{problems}");
    assert!(problems.contains("uncaught exception"), "{problems}");
    assert!(
        problems.contains("not offline: the page requested http://example.invalid/x.png"),
        "{problems}"
    );
    assert_eq!(b.rare_glyphs().unwrap(), "\u{23ee}");
    assert!(b.load_ms().unwrap() > 0.0);
    std::fs::remove_dir_all(&dir).ok();
}

/// The Splitter report of games played by the bot with its trace: every game is a card with the
/// tester's score; sorting works; each game replays roll by roll, forward, back, by slider and
/// key, showing the roll's dice, the score so far (checked against the library's scorer at every
/// roll) and the candidates the bot weighed with their means and rollouts (those of its trace).
#[test]
fn the_splitter_report_replays_each_game_with_the_bots_reasons() {
    let dir = test_support::scratch_dir("pages-splitter");
    let (html, json) = (dir.join("report.html"), dir.join("games.json"));
    let command = format!(
        "{} splitter --game-ms 900 --trace {{trace}}",
        bot().display()
    );
    run(Command::new(TESTER)
        .args([
            "splitter", "--games", "2", "--layout", "both", "--seed", "pages",
        ])
        .args(["--jobs", "2", "--silent", "--html"])
        .arg(&html)
        .arg("--json")
        .arg(&json)
        .arg("--command")
        .arg(&command));
    let games: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    let mut b = browser();
    open_clean(&mut b, &html);
    b.screenshot(&screenshot_path("splitter-report")).unwrap();
    // One card per game, with the tester's score.
    let cards = eval(
        &mut b,
        "Array.from(document.querySelectorAll('.game')).map(c => [c.id, +c.dataset.score])",
    );
    let expected: Vec<Value> = games
        .iter()
        .map(|g| serde_json::json!([format!("g{}-{}", g["layout"], g["game"]), g["score"]]))
        .collect();
    assert_eq!(cards.as_array().unwrap(), &expected);
    // Sorting by score, lowest first, then back to game order.
    let order = "Array.from(document.querySelectorAll('.games')).map(box => Array.from(box.children).map(c => +c.dataset.score))";
    eval(
        &mut b,
        "document.querySelector('button[data-sort=score][data-dir=\"1\"]').click()",
    );
    for scores in eval(&mut b, order).as_array().unwrap() {
        let scores: Vec<u64> = scores
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] <= w[1]), "{scores:?}");
    }
    eval(
        &mut b,
        "document.querySelector('button[data-sort=game]').click()",
    );
    let ids = eval(
        &mut b,
        "Array.from(document.querySelectorAll('.game')).map(c => c.id)",
    );
    assert_eq!(ids.as_array().unwrap().len(), 4);
    assert_eq!(ids[0], "g1-0");
    let state = "(() => ({ step: document.getElementById('r-step').textContent, \
        score: +document.getElementById('r-score').dataset.score, \
        dice: Array.from(document.querySelectorAll('#r-dice svg')).map(d => +d.dataset.die), \
        cands: Array.from(document.querySelectorAll('#r-cands tr[data-move]')).map(r => [r.dataset.move, r.dataset.mean, +r.dataset.rollouts, r.className]) }))()";
    let mut methods = std::collections::BTreeSet::new();
    for g in &games {
        let layout = bot::splitter::official(g["layout"].as_u64().unwrap() as u8);
        let id = format!("g{}-{}", g["layout"], g["game"]);
        eval(&mut b, &format!("document.getElementById('{id}').click()"));
        let mut board = bot::splitter::Board::new(&layout, 22);
        for k in 0..=22usize {
            if k > 0 {
                let (d, m) = (&g["dice"][k - 1], &g["moves"][k - 1]);
                let dice =
                    bot::splitter::Dice(d[0].as_u64().unwrap() as u8, d[1].as_u64().unwrap() as u8);
                let mv = bot::splitter::Move {
                    die: m[0].as_u64().unwrap() as u8,
                    x: m[1].as_u64().unwrap() as usize,
                    y: m[2].as_u64().unwrap() as usize,
                };
                board.place(&layout, dice, mv).unwrap();
                eval(&mut b, "document.getElementById('r-next').click()");
            }
            let shown = eval(&mut b, state);
            assert_eq!(shown["step"], format!("roll {k} of 22"), "{id}");
            let so_far = bot::splitter::score(&layout, &board.values);
            assert_eq!(shown["score"], so_far, "{id} roll {k}");
            if k == 0 {
                assert_eq!(shown["dice"], serde_json::json!([]));
                continue;
            }
            assert_eq!(shown["dice"], g["dice"][k - 1], "{id} roll {k}");
            // The candidates shown are the trace's, the move played marked.
            let trace = &g["trace"][k - 1];
            methods.insert(trace["method"].as_str().unwrap().to_string());
            let mut shown_cands: Vec<(String, String, u64)> = shown["cands"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    (
                        r[0].as_str().unwrap().into(),
                        r[1].as_str().unwrap().into(),
                        r[2].as_u64().unwrap(),
                    )
                })
                .collect();
            let mut traced: Vec<(String, String, u64)> = trace["candidates"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let m = &c["move"];
                    let mean = c["mean"].as_f64().map_or(String::new(), |x| x.to_string());
                    (
                        format!("{} {} {}", m[0], m[1], m[2]),
                        mean,
                        c["rollouts"].as_u64().unwrap(),
                    )
                })
                .collect();
            shown_cands.sort();
            traced.sort();
            assert_eq!(shown_cands, traced, "{id} roll {k}");
            let played: Vec<&Value> = shown["cands"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r[3] == "chosen")
                .collect();
            let m = &g["moves"][k - 1];
            assert_eq!(played.len(), 1, "{id} roll {k}");
            assert_eq!(played[0][0], format!("{} {} {}", m[0], m[1], m[2]));
        }
        assert_eq!(
            bot::splitter::score(&layout, &board.values) as u64,
            g["score"].as_u64().unwrap()
        );
        // Back, first, last, the slider and the arrow keys.
        eval(&mut b, "document.getElementById('r-prev').click()");
        assert_eq!(eval(&mut b, state)["step"], "roll 21 of 22");
        eval(&mut b, "document.getElementById('r-first').click()");
        assert_eq!(eval(&mut b, state)["score"], 0);
        eval(&mut b, "document.getElementById('r-last').click()");
        assert_eq!(eval(&mut b, state)["score"], g["score"]);
        slide(&mut b, "r-slider", 7);
        assert_eq!(eval(&mut b, state)["step"], "roll 7 of 22");
        for key in ["ArrowLeft", "ArrowLeft", "ArrowRight"] {
            b.call(
                "Input.dispatchKeyEvent",
                serde_json::json!({ "type": "keyDown", "key": key }),
            )
            .unwrap();
        }
        assert_eq!(eval(&mut b, state)["step"], "roll 6 of 22");
        b.call(
            "Input.dispatchKeyEvent",
            serde_json::json!({ "type": "keyDown", "key": "Escape" }),
        )
        .unwrap();
        assert_eq!(
            eval(&mut b, "document.getElementById('replay').hidden"),
            true
        );
    }
    eprintln!("methods seen in the traces: {methods:?}");
    eval(&mut b, "document.getElementById('g2-1').click()");
    slide(&mut b, "r-slider", 5);
    b.screenshot(&screenshot_path("splitter-replay")).unwrap();
    assert_clean(&mut b, "the report after its controls");
    assert_eq!(b.rare_glyphs().unwrap(), "");
    std::fs::remove_dir_all(&dir).ok();
}
