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
        "{} splitter --batches 4 --threads 1 --trace {{trace}}",
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
    let mut dropped_seen = false;
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
            // Greyed: the candidates dropped early, with fewer rollouts than the rest.
            let rows = shown["cands"].as_array().unwrap();
            let most = rows.iter().map(|r| r[2].as_u64().unwrap()).max().unwrap();
            for r in rows.iter().filter(|r| r[3] != "chosen") {
                let dropped = r[2].as_u64().unwrap() < most;
                assert_eq!(r[3] == "dropped", dropped, "{id} roll {k}: {r}");
                dropped_seen |= dropped;
            }
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
    assert!(
        methods.contains("rollouts") && methods.contains("exact"),
        "{methods:?}"
    );
    assert!(dropped_seen, "some candidate is dropped early at 4 batches");
    eval(&mut b, "document.getElementById('g2-1').click()");
    slide(&mut b, "r-slider", 5);
    b.screenshot(&screenshot_path("splitter-replay")).unwrap();
    assert_clean(&mut b, "the report after its controls");
    assert_eq!(b.rare_glyphs().unwrap(), "");
    std::fs::remove_dir_all(&dir).ok();
}

/// The Penguins viewer (`tester penguins --view R --html F`): its controls are drawn shapes, not
/// glyphs a font may lack; forward, back, first, last, play, the slider and the arrow keys move
/// through the game, and the scores shown at every turn are the replay's.
#[test]
fn the_penguins_viewer_steps_through_the_replay() {
    let dir = test_support::scratch_dir("pages-penguins");
    let (replay, html) = (dir.join("game.json"), dir.join("game.html"));
    let fake = format!("{TESTER} penguins --fake-bot first");
    run(Command::new(TESTER)
        .args([
            "penguins",
            "--seed",
            "5",
            "--turn-ms",
            "1000",
            "--bot",
            &fake,
            "--bot",
            &fake,
            "--replay",
        ])
        .arg(&replay));
    run(Command::new(TESTER)
        .args(["penguins", "--view"])
        .arg(&replay)
        .arg("--html")
        .arg(&html));
    let game: Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    let turns = game["turns"].as_array().unwrap();
    assert!(turns.len() > 10);
    let mut b = browser();
    open_clean(&mut b, &html);
    // Each control is an SVG shape of some size, with no text to miss a glyph.
    let controls = eval(
        &mut b,
        "['first','prev','play','next','last'].map(id => { const e = document.getElementById(id); \
         const r = e.querySelector('svg').getBoundingClientRect(); return [e.textContent.trim(), r.width > 8 && r.height > 8]; })",
    );
    for c in controls.as_array().unwrap() {
        assert_eq!(c, &serde_json::json!(["", true]));
    }
    let state = "(() => ({ slider: +document.getElementById('slider').value, info: document.getElementById('info').textContent, \
        scores: Array.from(document.querySelectorAll('#scores tr')).slice(1).map(r => +r.cells[1].textContent) }))()";
    assert_eq!(
        eval(&mut b, "+document.getElementById('slider').max"),
        turns.len()
    );
    for (k, turn) in turns.iter().enumerate() {
        eval(&mut b, "document.getElementById('next').click()");
        let shown = eval(&mut b, state);
        assert_eq!(shown["slider"], k + 1);
        assert_eq!(shown["scores"], turn["scores"], "turn {}", k + 1);
        let action = turn["action"].as_str().unwrap();
        assert!(shown["info"].as_str().unwrap().contains(action), "{shown}");
    }
    eval(&mut b, "document.getElementById('prev').click()");
    assert_eq!(
        eval(&mut b, state)["scores"],
        turns[turns.len() - 2]["scores"]
    );
    eval(&mut b, "document.getElementById('first').click()");
    assert!(eval(&mut b, state)["info"]
        .as_str()
        .unwrap()
        .starts_with("start"));
    slide(&mut b, "slider", 7);
    assert_eq!(eval(&mut b, state)["scores"], turns[6]["scores"]);
    b.call(
        "Input.dispatchKeyEvent",
        serde_json::json!({ "type": "keyDown", "key": "ArrowRight" }),
    )
    .unwrap();
    assert_eq!(eval(&mut b, state)["slider"], 8);
    eval(&mut b, "document.getElementById('last').click()");
    assert_eq!(
        eval(&mut b, state)["scores"],
        turns[turns.len() - 1]["scores"]
    );
    eval(&mut b, "document.getElementById('play').click()");
    assert_eq!(
        eval(&mut b, "document.getElementById('play').className"),
        "playing"
    );
    eval(&mut b, "new Promise(r => setTimeout(r, 500))");
    assert_eq!(
        eval(&mut b, state)["slider"],
        1,
        "play from the end starts again"
    );
    eval(&mut b, "document.getElementById('play').click()");
    assert_eq!(
        eval(&mut b, "document.getElementById('play').className"),
        ""
    );
    slide(&mut b, "slider", turns.len() / 2);
    b.screenshot(&screenshot_path("penguins-viewer")).unwrap();
    assert_clean(&mut b, "the viewer after its controls");
    std::fs::remove_dir_all(&dir).ok();
}

/// `tester arena --replays DIR` writes an index of every game: one row each with the replay's
/// scores, sortable, each linking a viewer that opens cleanly.
#[test]
fn the_arena_index_links_every_games_viewer() {
    let dir = test_support::scratch_dir("pages-arena");
    let replays = dir.join("replays");
    let fake = format!("{TESTER} penguins --fake-bot first");
    run(Command::new(TESTER)
        .args([
            "arena",
            "--quiet",
            "--games",
            "4",
            "--seed",
            "11",
            "--turn-ms",
            "1000",
            "--workers",
            "2",
        ])
        .arg("--bot")
        .arg(format!("one={fake}"))
        .arg("--bot")
        .arg(format!("two={fake}"))
        .arg("--replays")
        .arg(&replays));
    let index = replays.join("index.html");
    let mut b = browser();
    open_clean(&mut b, &index);
    let rows = eval(
        &mut b,
        "Array.from(document.querySelectorAll('#games tbody tr')).map(r => [r.querySelector('a').getAttribute('href'), \
         Array.from(r.querySelectorAll('.seat')).map(s => +s.dataset.score), +r.cells[4].dataset.v])",
    );
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for row in rows {
        let href = row[0].as_str().unwrap();
        assert!(replays.join(href).is_file(), "{href}");
        let json = replays.join(href.replace(".html", ".json"));
        let game: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(row[1], game["final_scores"], "{href}");
        assert_eq!(row[2], game["turns"].as_array().unwrap().len(), "{href}");
    }
    // Sorting by turns: ascending, then descending on a second click.
    let turns =
        "Array.from(document.querySelectorAll('#games tbody tr')).map(r => +r.cells[4].dataset.v)";
    for ascending in [true, false] {
        eval(
            &mut b,
            "document.querySelector('th[data-col=\"4\"]').click()",
        );
        let order: Vec<u64> = eval(&mut b, turns)
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert!(
            order
                .windows(2)
                .all(|w| (w[0] <= w[1]) == ascending || w[0] == w[1]),
            "{order:?}"
        );
    }
    b.screenshot(&screenshot_path("arena-index")).unwrap();
    // Following a link opens that game's viewer.
    assert_clean(&mut b, "the index after sorting");
    eval(&mut b, "document.querySelector('#games tbody a').click()");
    b.wait_load().unwrap();
    assert_clean(&mut b, "the viewer opened from the index");
    let title = eval(&mut b, "document.title");
    assert!(
        title.as_str().unwrap().starts_with("Penguins seed"),
        "{title}"
    );
    assert_eq!(b.rare_glyphs().unwrap(), "");
    std::fs::remove_dir_all(&dir).ok();
}

/// `tester scruffle score ... --html F`: the page's total is the tester's; at any placement the
/// slider, the buttons and the keys reach, its score and the running total are those of the
/// solver's own exact scoring (an independent twin of the checker), the cells it adds and
/// crosses are the ones a replay of the letters finds and are painted so; sorting by score puts
/// the best placement first.
#[test]
fn the_scruffle_plan_page_shows_each_placement() {
    use bot::scruffle::{input, solver::Budget, Case};
    let dir = test_support::scratch_dir("pages-scruffle");
    run(Command::new(TESTER)
        .args([
            "scruffle", "gen", "--seed", "5", "--width", "24", "--height", "18", "--words", "400",
            "-o",
        ])
        .arg(&dir));
    let (board_path, words_path) = (dir.join("scruffle-5.board"), dir.join("scruffle-5.words"));
    let board = input::Board::read(&board_path).unwrap();
    let words = input::read_words(&words_path).unwrap();
    let case = Case::new(&board, words.clone());
    let plays = case.solve(5, Budget::work(30)).plays;
    assert!(plays.len() > 20, "{}", plays.len());
    let text = case.format(&plays);
    let placements = dir.join("plan.txt");
    std::fs::write(&placements, &text).unwrap();
    let html = dir.join("plan.html");
    let out = run(Command::new(TESTER)
        .args(["scruffle", "score", "--board"])
        .arg(&board_path)
        .arg("--words")
        .arg(&words_path)
        .arg("--placements")
        .arg(&placements)
        .arg("--html")
        .arg(&html));
    let total = out.split_whitespace().nth(2).unwrap().to_string();
    assert_eq!(total, case.total(&plays).to_string());
    let mut b = browser();
    open_clean(&mut b, &html);
    assert_eq!(
        eval(&mut b, "document.getElementById('total').textContent"),
        total
    );
    assert_eq!(
        eval(&mut b, "+document.getElementById('slider').max"),
        plays.len()
    );
    // The letters on the board, replayed here from the placement lines.
    let lines: Vec<(bool, usize, usize, usize)> = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0] == "V",
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect();
    let width = std::fs::read_to_string(&board_path)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .trim()
        .len();
    let mut filled = std::collections::HashSet::new();
    let cell_size = eval(&mut b, "document.getElementById('board').width")
        .as_u64()
        .unwrap() as usize
        / width;
    let now = "(() => Object.assign({}, document.getElementById('now').dataset))()";
    let n = plays.len();
    let checked = [1, 2, n / 3, n / 2, n - 1, n];
    for (k, &(vertical, index, x, y)) in lines.iter().enumerate() {
        let cells: Vec<(usize, usize)> = (0..words[index].len())
            .map(|i| if vertical { (x, y + i) } else { (x + i, y) })
            .collect();
        let adds: Vec<bool> = cells.iter().map(|c| !filled.contains(c)).collect();
        filled.extend(cells.iter().copied());
        let step = k + 1;
        if !checked.contains(&step) {
            continue;
        }
        slide(&mut b, "slider", step);
        let shown = eval(&mut b, now);
        assert_eq!(shown["step"], step.to_string());
        assert_eq!(
            shown["score"],
            case.total(&plays[k..=k]).to_string(),
            "placement {step}"
        );
        assert_eq!(
            shown["total"],
            case.total(&plays[..=k]).to_string(),
            "placement {step}"
        );
        let added = adds.iter().filter(|&&a| a).count();
        assert_eq!(shown["adds"], added.to_string(), "placement {step}");
        assert_eq!(
            shown["crosses"],
            (adds.len() - added).to_string(),
            "placement {step}"
        );
        // Each cell painted green (added) or orange (crossed), read back from the canvas.
        for (&(cx, cy), &add) in cells.iter().zip(&adds) {
            let pixel = eval(
                &mut b,
                &format!("Array.from(document.getElementById('board').getContext('2d').getImageData({}, {}, 1, 1).data.slice(0, 3))", cx * cell_size + 1, cy * cell_size + 1),
            );
            let want = if add {
                [0x74, 0xc4, 0x76]
            } else {
                [0xfd, 0x8d, 0x3c]
            };
            assert_eq!(
                pixel,
                serde_json::json!(want),
                "placement {step} cell ({cx},{cy})"
            );
        }
    }
    // Buttons and keys.
    eval(&mut b, "document.getElementById('first').click()");
    assert_eq!(eval(&mut b, now)["step"], "0");
    eval(
        &mut b,
        "document.getElementById('next').click(); document.getElementById('next').click()",
    );
    assert_eq!(
        eval(&mut b, now)["total"],
        case.total(&plays[..2]).to_string()
    );
    eval(&mut b, "document.getElementById('prev').click()");
    assert_eq!(eval(&mut b, now)["step"], "1");
    b.call(
        "Input.dispatchKeyEvent",
        serde_json::json!({ "type": "keyDown", "key": "End" }),
    )
    .unwrap();
    assert_eq!(eval(&mut b, now)["total"], total);
    // Sorting by score: the first row is a best placement.
    eval(
        &mut b,
        "document.querySelector('button[data-order=score]').click()",
    );
    let first_row = eval(&mut b, "+document.querySelector('#rows tr').dataset.step");
    let best = (0..n).map(|k| case.total(&plays[k..=k])).max().unwrap();
    assert_eq!(
        case.total(&plays[first_row.as_u64().unwrap() as usize - 1..][..1]),
        best
    );
    eval(
        &mut b,
        "document.querySelector('button[data-order=play]').click()",
    );
    assert_eq!(
        eval(&mut b, "+document.querySelector('#rows tr').dataset.step"),
        1
    );
    slide(&mut b, "slider", n / 2);
    b.screenshot(&screenshot_path("scruffle-plan")).unwrap();
    assert_clean(&mut b, "the plan page after its controls");
    std::fs::remove_dir_all(&dir).ok();
}

/// The crossword SVG (`bot crossword generate ... --svg`), opened as a document: it draws the
/// grid's letters in reading order and one "???" per question.
#[test]
fn the_crossword_svg_shows_the_grids_letters() {
    let dir = test_support::scratch_dir("pages-crossword");
    let example = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/data/crossword/example_grids/6x6.cwg");
    let (grid_path, svg) = (dir.join("grid.cwg"), dir.join("grid.svg"));
    run(Command::new(bot())
        .args(["crossword", "generate"])
        .arg(&example)
        .args(["--first", "--reproducible", "--seconds", "20", "-o"])
        .arg(&grid_path)
        .arg("--svg")
        .arg(&svg));
    let grid =
        bot::crossword::grid::Grid::parse(&std::fs::read_to_string(&grid_path).unwrap()).unwrap();
    let letters: String = grid
        .cells
        .iter()
        .filter_map(|c| match c {
            bot::crossword::grid::Cell::Letter(b) => Some(*b as char),
            _ => None,
        })
        .collect();
    assert!(letters.len() > 10, "{letters}");
    let mut b = browser();
    open_clean(&mut b, &svg);
    let texts = eval(
        &mut b,
        "Array.from(document.querySelectorAll('text')).map(t => t.textContent)",
    );
    let texts: Vec<&str> = texts
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let shown: String = texts.iter().filter(|t| t.len() == 1).copied().collect();
    assert_eq!(shown, letters);
    assert_eq!(
        texts.iter().filter(|t| **t == "???").count(),
        grid.questions.len()
    );
    b.screenshot(&screenshot_path("crossword-svg")).unwrap();
    std::fs::remove_dir_all(&dir).ok();
}
