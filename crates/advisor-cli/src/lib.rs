//! The `advisor` command-line tool: everything only a command-line host needs.
//!
//! Owns argument parsing, the runtime and exit codes; each subcommand lives in
//! its own file under `cmd/` and calls the library — the CLI must not
//! re-implement policy.
//! The binary (`src/main.rs`) only sets the allocator (mimalloc, default
//! feature) and calls [`main`].
//!
//! ## Map
//!
//! Floors, highest first; a module uses only the floors below it:
//!
//! - Commands, one file each under `cmd/` (mdBook's layout), each with its
//!   helpers in a folder beside it: `review`, `eval`, `hook` (its input,
//!   session, evidence, verdict, lock, state and output), `init`, `trust`,
//!   `replay`, `summarize`, `decision`, `consult`, `mcp` (feature `mcp`).
//! - Shared by the commands: `finish` — the one finish path of `hook`,
//!   `review` and `mcp`: one config loading (`finish/workspace.rs`: the trust
//!   rules, the package scripts) and one drive from a transcript to a
//!   verdict; `model_args` — the model flags of `review`, `eval` and
//!   `consult ask`.
//! - Host I/O: [`config`] — `.advisor/config.toml`, the user config, the trust
//!   rules and the one reviewer choice; [`transcript`] — Claude Code, Codex,
//!   Gemini CLI and OpenAI-style transcript readers.
//! - The reviewer's home: `reviewer` — the agent-CLI presets, the command
//!   reviewer with its recursion marker, Gemini CLI's session clean-up.
//! - Helpers: `deadline` — the hook's hard deadline (a watchdog counted from
//!   the process's start); `package_scripts` — a workspace's `package.json` scripts; `input` — bounded input; `no_links`
//!   — the advisor's own files are never reached through a symbolic link;
//!   `json_out`, `terminal` and `stdout` — output.
//!
//! The public surface is what the fuzz targets and the doctests need:
//! [`main`], [`transcript`]'s readers, [`hook_input`] (the hook's stdin
//! protocol) and [`config`]'s loading under the trust rules.

pub mod config;
pub mod transcript;

mod cmd;
mod deadline;
mod finish;
mod input;
mod json_out;
mod model_args;
mod no_links;
mod package_scripts;
mod reviewer;
mod stdout;
mod terminal;

pub use cmd::hook::input as hook_input;

#[cfg(feature = "mcp")]
use cmd::mcp;
use cmd::{consult, decision, eval, hook, init, replay, review, summarize, trust};

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
    /// Review the last answer of a transcript (a session file of any host the hook knows, or OpenAI-style JSONL).
    Review(review::ReviewArgs),
    /// Measure a reviewer on a labelled set of stop points (confusion matrix, precision, recall).
    Eval(eval::EvalArgs),
    /// Stop hook for Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI, Qwen Code and droid: reads the hook JSON on stdin.
    Hook(hook::HookArgs),
    /// Opt this workspace in: write a commented .advisor/config.toml.
    Init(init::InitArgs),
    /// Trust this workspace's own model settings (.advisor/config.toml [reviewer]), or --revoke / --list.
    Trust(trust::TrustArgs),
    /// Re-run the emission guard over recorded reviews or a trace, with a reason per note.
    Replay(replay::ReplayArgs),
    /// Per-arm counts and rates over rollout-advisor traces.
    Summarize(summarize::SummarizeArgs),
    /// Rollout-advisor decisions.
    #[command(subcommand)]
    Decision(decision::DecisionCommand),
    /// Consultation: advisor-request.v1 in, validated advisor-response.v1 out.
    #[command(subcommand)]
    Consult(consult::ConsultCommand),
    /// Model Context Protocol server over stdio: advisor_consult and advisor_review tools.
    #[cfg(feature = "mcp")]
    Mcp(mcp::McpArgs),
}

/// Whether `e` is a usage error of `advisor hook` (not `--help`).
fn is_hook_usage_error(e: &clap::Error) -> bool {
    use clap::error::ErrorKind;
    std::env::args().nth(1).as_deref() == Some("hook")
        && !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
}

/// Runs the command line of this process and returns its exit code.
pub fn main() -> ExitCode {
    // the hook's deadline counts from here (stdin and the transcript included)
    deadline::mark_start();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ADVISOR_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("error")),
        )
        .with_ansi(false)
        .with_writer(|| terminal::CleanStderr)
        .init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // A hook must never block a stop: hosts read exit code 2 as "block", which is
        // clap's code for a usage error (say, a flag a repository's settings added).
        Err(e) if is_hook_usage_error(&e) => {
            let why = e.to_string();
            let first = why.lines().next().unwrap_or("invalid arguments");
            // the flag is the repository's text: through the one cleaner
            eprintln!(
                "{}",
                terminal::message(&format!("advisor hook: {first}; the stop goes through"))
            );
            return ExitCode::SUCCESS;
        }
        Err(e) => e.exit(),
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("advisor: cannot start the async runtime: {e}");
            // the hook must never block a stop
            return if matches!(cli.command, Command::Hook(_)) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            };
        }
    };
    // The hook and the MCP server answer by a deadline: the hook is ended by
    // its watchdog at the latest, and neither waits at exit for a blocking
    // thread, a pipe or a child a review left behind.
    let deadlined = matches!(cli.command, Command::Hook(_));
    #[cfg(feature = "mcp")]
    let deadlined = deadlined || matches!(cli.command, Command::Mcp(_));
    if matches!(cli.command, Command::Hook(_)) {
        deadline::arm_hook();
    }
    let exit: terminal::Exit = match cli.command {
        Command::Review(args) => runtime.block_on(review::run(&args)),
        Command::Eval(args) => runtime.block_on(eval::run(&args)),
        Command::Hook(args) => runtime.block_on(hook::run(&args)),
        Command::Init(args) => init::run(&args),
        Command::Trust(args) => trust::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Consult(cmd) => runtime.block_on(consult::run(&cmd)),
        #[cfg(feature = "mcp")]
        Command::Mcp(args) => runtime.block_on(mcp::run(&args)),
        Command::Summarize(args) => summarize::run(&args),
        Command::Decision(cmd) => decision::run(&cmd),
    };
    if deadlined {
        advisor::io::kill_process_groups();
        runtime.shutdown_background();
        if !deadline::disarm_hook() {
            // the watchdog fired meanwhile: it ends the process (exit 0)
            loop {
                std::thread::park();
            }
        }
    }
    exit.unwrap_or_else(|code| code)
}

/// The Rust examples of `docs/security.md` (they use [`config`]), compiled and
/// run as doctests.
#[cfg(doctest)]
mod doc_examples {
    #[doc = include_str!("../../../docs/security.md")]
    struct Security;
}
