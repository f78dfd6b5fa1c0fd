//! Every option and argument of every `tester` subcommand has a help text, and the docs list every
//! option (on the page the README's Commands table links for it) and no option `--help` lacks.

const TESTER: &str = env!("CARGO_BIN_EXE_tester");

#[test]
fn every_tester_option_is_explained() {
    let missing = test_support::help::undocumented(TESTER);
    assert!(
        missing.is_empty(),
        "options without help:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_tester_option_is_on_its_docs_page_and_every_documented_one_exists() {
    let root = test_support::docs::root(env!("CARGO_MANIFEST_DIR"));
    let problems = test_support::options::problems(TESTER, &root);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
