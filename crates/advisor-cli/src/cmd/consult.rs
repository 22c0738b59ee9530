//! `advisor consult ask|check`: run a consultation, or validate an answer.
//!
//! `ask <request.json>` reads an `advisor-request.v1`, asks the model
//! (`--model NAME --base-url URL`, key from `ADVISOR_API_KEY`) and prints the
//! validated `advisor-response.v1`: exit 0, or 3 for STOP so scripts can
//! branch; an invalid request is exit 2, a failed consultation exit 1.
//! `check <file|->` validates a response: the JSON on stdout (exit 0) or one
//! problem per line on stderr (exit 1). Output goes through
//! [`crate::terminal`].

use crate::stdout::outln;
use std::process::ExitCode;

use advisor::consult::{AdvisorRequest, ConsultLedger, ConsultSession, Consultant, Decision, validate_response};
use clap::{Args, Subcommand};

use crate::input::read_all as read;
use crate::model_args::ModelArgs;
use crate::terminal::{Exit, fail, json as safe_json, line};

fn pretty(r: &advisor::consult::AdvisorResponse) -> String {
    safe_json(&serde_json::to_string_pretty(r).unwrap_or_default()).into_owned()
}

/// `advisor consult` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum ConsultCommand {
    /// Ask for advice on an advisor-request.v1 file.
    Ask(AskArgs),
    /// Validate an advisor-response.v1 answer (a file, or - for stdin).
    Check(CheckArgs),
}

/// Arguments of `advisor consult ask`.
#[derive(Debug, Args)]
pub(crate) struct AskArgs {
    /// The advisor-request.v1 JSON file (- for stdin).
    request: String,
    /// The model to ask (required).
    #[command(flatten)]
    model: ModelArgs,
    /// Answers to try before giving up.
    #[arg(long, default_value_t = advisor::consult::DEFAULT_MAX_ATTEMPTS)]
    max_attempts: u32,
}

/// Arguments of `advisor consult check`.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// The answer to validate (- for stdin).
    file: String,
}

pub(crate) async fn run(cmd: &ConsultCommand) -> Exit {
    match cmd {
        ConsultCommand::Check(args) => check(args),
        ConsultCommand::Ask(args) => ask(args).await,
    }
}

fn check(args: &CheckArgs) -> Exit {
    let text = read(&args.file).map_err(|e| fail("consult check", 2, e))?;
    let e = match validate_response(&text) {
        Ok(r) => {
            outln!("{}", pretty(&r));
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => e,
    };
    for p in &e.problems {
        eprintln!("{}: {}", line(&p.field), line(&p.problem));
    }
    Err(ExitCode::from(1))
}

/// The request and a session to ask it in; the error is a usage problem.
fn prepare(args: &AskArgs) -> Result<(AdvisorRequest, ConsultSession), String> {
    let text = read(&args.request)?;
    let request = AdvisorRequest::parse(&text).map_err(|e| format!("{}: {e}", args.request))?;
    let model = (args.model.client()?).ok_or("needs --model NAME --base-url URL")?;
    let consultant = Consultant::new(model)
        .max_attempts(args.max_attempts)
        .map_err(|e| e.to_string())?;
    Ok((request, ConsultSession::new(consultant, ConsultLedger::default())))
}

/// Prints the consultation's response (exit 0, or 3 for STOP) or its error
/// (exit 1; 2 for an unusable request or model).
async fn ask(args: &AskArgs) -> Exit {
    let (request, mut session) = prepare(args).map_err(|e| fail("consult ask", 2, e))?;
    let c = (session.ask(&request).await).map_err(|e| fail("consult ask", 1, e))?;
    outln!("{}", pretty(&c.response));
    Ok(if c.response.decision == Decision::Stop {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}
