use clap::Parser;
use std::process::ExitCode;

#[derive(Parser)]
pub struct Args {}

#[derive(Parser)]
pub struct BenchArgs {}

pub fn run(_args: Args) -> ExitCode {
    super::fail("bot honey: not implemented yet")
}

pub fn bench(_args: BenchArgs) -> ExitCode {
    super::fail("bot bench honey: not implemented yet")
}
