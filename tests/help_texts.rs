//! Every option and argument of every `bot` subcommand has a help text, and the docs list every
//! option (on the page the README's Commands table links for it) and no option `--help` lacks.

const BOT: &str = env!("CARGO_BIN_EXE_bot");

#[test]
fn every_bot_option_is_explained() {
    let missing = test_support::help::undocumented(BOT);
    assert!(
        missing.is_empty(),
        "options without help:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_bot_option_is_on_its_docs_page_and_every_documented_one_exists() {
    let root = test_support::docs::root(env!("CARGO_MANIFEST_DIR"));
    let problems = test_support::options::problems(BOT, &root);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
