//! `bundler`: write the CodinGame single-file bundle, report its size, optionally compile it.

use std::path::PathBuf;
use std::process::ExitCode;

use bundler::bundle::{bundle, size_line, Config};
use bundler::cfg::CfgSet;
use bundler::check;
use bundler::process::Options;
use clap::Parser;

/// Bundle top-level modules of a crate into one std-only `.rs` file for CodinGame.
#[derive(Parser)]
#[command(name = "bundler", version, about)]
struct Args {
    /// The crate root.
    #[arg(long, default_value = "src/lib.rs")]
    root: PathBuf,
    /// Top-level module to keep (repeatable).
    #[arg(long = "module", short = 'm', default_values = ["penguins", "search"])]
    modules: Vec<String>,
    /// Function `main` calls, as a path from the crate root.
    #[arg(long, default_value = "penguins::codingame_main")]
    entry: String,
    /// Where to write the bundle (`-` for stdout).
    #[arg(long, short = 'o', default_value = "target/codingame/penguins.rs")]
    output: PathBuf,
    /// Cargo feature to treat as enabled (repeatable; all others are off).
    #[arg(long = "feature")]
    features: Vec<String>,
    /// Extra cfg to treat as true: `NAME` or `KEY=VALUE` (repeatable).
    #[arg(long = "cfg")]
    cfgs: Vec<String>,
    /// Treat `debug_assertions` as on (off by default, as under `rustc -O`).
    #[arg(long)]
    debug_assertions: bool,
    /// Keep doc comments and `#[doc]` attributes (removed by default: CodinGame never reads them
    /// and they cost characters).
    #[arg(long)]
    keep_docs: bool,
    /// The default (doc comments are removed); accepted so older command lines still work.
    #[arg(long, hide = true, conflicts_with = "keep_docs")]
    strip_docs: bool,
    /// Remove plain comments too.
    #[arg(long)]
    strip_comments: bool,
    /// Keep the spaces of the source's indentation (by default each 4 leading spaces become a
    /// tab, which saves about 16%; string literals are untouched).
    #[arg(long)]
    spaces: bool,
    /// The default (tabs); accepted so older command lines still work.
    #[arg(long, hide = true, conflicts_with = "spaces")]
    tabs: bool,
    /// Also keep top-level modules the kept ones use (otherwise such a use is an error).
    #[arg(long)]
    auto_deps: bool,
    /// Top-level module that must never be pulled in (repeatable).
    #[arg(long)]
    exclude: Vec<String>,
    /// Character limit (CodinGame: 100000).
    #[arg(long, default_value_t = 100_000)]
    limit: usize,
    /// Compile the bundle alone with `rustc --edition 2021 -O` and report.
    #[arg(long)]
    check: bool,
    /// Keep the compiled executable here (with --check).
    #[arg(long)]
    binary: Option<PathBuf>,
    /// The rustc to check with.
    #[arg(long, default_value = "rustc")]
    rustc: String,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(code) => code,
        Err(message) => {
            for line in message.lines() {
                eprintln!("error: {line}");
            }
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<ExitCode, String> {
    let config = Config {
        root: args.root.clone(),
        modules: args.modules.clone(),
        entry: args.entry.clone(),
        auto_deps: args.auto_deps,
        exclude: args.exclude.clone(),
        options: Options {
            cfg: CfgSet {
                test: false,
                debug_assertions: args.debug_assertions,
                features: args.features.iter().cloned().collect(),
                extra: args.cfgs.iter().cloned().collect(),
            },
            strip_docs: !args.keep_docs,
            strip_comments: args.strip_comments,
            tabs: !args.spaces,
        },
    };
    let made = bundle(&config)?;
    let features = if args.features.is_empty() {
        "none".to_string()
    } else {
        args.features.join(", ")
    };
    eprintln!(
        "bundle of {} (entry {}; features: {features}; strip docs: {}; strip comments: {}; tabs: {})",
        args.root.display(),
        args.entry,
        !args.keep_docs,
        args.strip_comments,
        !args.spaces
    );
    for m in &made.modules {
        eprintln!(
            "  module {:<12} {:>3} files {:>7} characters",
            m.name,
            m.files.len(),
            m.chars
        );
    }
    for r in &made.pulled_in {
        eprintln!(
            "  module {} pulled in: used at {}:{}",
            r.name,
            r.file.display(),
            r.line
        );
    }
    let (chars, line) = size_line(&made.text, args.limit);
    if args.output.as_os_str() == "-" {
        print!("{}", made.text);
    } else {
        if let Some(parent) = args.output.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        bot::cli::output::write(&args.output, &made.text)?;
        eprintln!("wrote {}", args.output.display());
    }
    eprintln!("{line}");
    if chars > args.limit {
        return Err(format!(
            "the bundle has {chars} characters, over the limit of {}",
            args.limit
        ));
    }
    if args.check {
        let scratch = check::scratch_dir("check")?;
        let source = if args.output.as_os_str() == "-" {
            let path = scratch.join("bundle.rs");
            std::fs::write(&path, &made.text).map_err(|e| e.to_string())?;
            path
        } else {
            args.output.clone()
        };
        let binary = args
            .binary
            .clone()
            .unwrap_or_else(|| scratch.join("bundle"));
        let result = check::compile(&args.rustc, &source, &binary)?;
        let _ = std::fs::remove_dir_all(&scratch);
        if !result.ok {
            eprint!("{}", result.diagnostics);
            return Err(format!(
                "compile check FAILED: {} --edition 2021 -O {}",
                result.rustc_version,
                source.display()
            ));
        }
        eprintln!(
            "compile check: ok with {} ({} warnings, {:.1} s){}",
            result.rustc_version,
            result.warnings,
            result.seconds,
            args.binary
                .as_ref()
                .map(|b| format!(", executable {}", b.display()))
                .unwrap_or_default()
        );
    }
    Ok(ExitCode::SUCCESS)
}
