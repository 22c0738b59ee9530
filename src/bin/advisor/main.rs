//! The `advisor` command-line tool.
//!
//! Owns argument parsing and exit codes; each subcommand lives in its own
//! file and calls the library — the CLI must not re-implement policy.

mod input;
mod replay;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A second opinion for LLM agent loops.
#[derive(Debug, Parser)]
#[command(name = "advisor", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Re-run the emission guard over recorded reviews, with a reason per note.
    Replay(replay::ReplayArgs),
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ADVISOR_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Command::Replay(args) => replay::run(&args),
    }
}
