use clap::Parser;
use std::process::ExitCode;

#[derive(Parser)]
pub struct Args {}

pub fn run(_args: Args) -> ExitCode {
    crate::fail("tester splitter: not implemented yet")
}
