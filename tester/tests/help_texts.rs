//! Every option and argument of every `tester` subcommand has a help text.

#[test]
fn every_tester_option_is_explained() {
    let missing = test_support::help::undocumented(env!("CARGO_BIN_EXE_tester"));
    assert!(
        missing.is_empty(),
        "options without help:\n{}",
        missing.join("\n")
    );
}
