//! Every option and argument of every `bot` subcommand has a help text.

#[test]
fn every_bot_option_is_explained() {
    let missing = test_support::help::undocumented(env!("CARGO_BIN_EXE_bot"));
    assert!(
        missing.is_empty(),
        "options without help:\n{}",
        missing.join("\n")
    );
}
