//! `advisor decision check <file|->`: validates a rollout advisor's answer.
//!
//! Prints the decision as JSON (exit 0) or one problem per line on stderr
//! (exit 1), through [`crate::terminal`]. Must not decide anything itself:
//! [`advisor::rollout::parse_decision`] is the one strict parser.

use std::process::ExitCode;

use advisor::rollout::parse_decision;
use clap::Subcommand;

use crate::input::read_all;
use crate::stdout::outln;
use crate::terminal::{Exit, fail, json as safe_json, line};

/// `advisor decision` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum DecisionCommand {
    /// Validate an advisor answer (a file, or - for stdin).
    Check {
        /// The answer.
        file: String,
    },
}

/// Runs `advisor decision`.
pub(crate) fn run(cmd: &DecisionCommand) -> Exit {
    let DecisionCommand::Check { file } = cmd;
    let text = read_all(file).map_err(|e| fail("decision check", 2, e))?;
    let e = match parse_decision(&text) {
        Ok(d) => {
            outln!("{}", safe_json(&serde_json::to_string_pretty(&d).unwrap_or_default()));
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => e,
    };
    for p in &e.problems {
        eprintln!("{}: {}", line(&p.field), line(&p.problem));
    }
    Err(ExitCode::from(1))
}
