use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    bot::cli::pipe::die_quietly_on_broken_pipe();
    bot::cli::Cli::parse().run()
}
