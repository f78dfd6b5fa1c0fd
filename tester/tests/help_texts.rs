//! Every option and argument of every `tester` subcommand has a help text.

/// Subcommands whose help another change brings (issue 16 gave Scruffle's CLI to its own
/// helper); empty this list once it is merged.
const ELSEWHERE: &[&str] = &["scruffle"];

#[test]
fn every_tester_option_is_explained() {
    let missing = test_support::help::undocumented(env!("CARGO_BIN_EXE_tester"), ELSEWHERE);
    assert!(
        missing.is_empty(),
        "options without help:\n{}",
        missing.join("\n")
    );
}
