//! `advisor hook`: one stop-time hook for Claude Code, Codex, Gemini CLI and
//! Cursor.
//!
//! Reads the hook JSON on stdin (bounded), recognises the host (or takes
//! `--host`), and — only in a workspace that opted in with
//! `.advisor/config.toml` — runs one finish review through the plugin with the
//! session's saved state, under a per-session lock. [`stop`] is the whole hook
//! as a sequence: the input and the workspace, the session ([`session`]: its
//! lock and prior state), the evidence ([`evidence`]: the transcript, the
//! window, why it is blind), the review (the one finish path,
//! [`crate::finish`]), and the reply ([`verdict`], [`output`]) before the
//! session's state is committed. When a note must reach the agent it answers
//! in the host's own shape; otherwise nothing, or a one-line verdict with
//! `verdict = "summary"`.
//!
//! Every other way out is a [`LetThrough`], told once ([`LetThrough::tell`]):
//! it always exits 0, and any internal error lets the stop through with one
//! line on stderr (and a `systemMessage` for a problem the user must fix,
//! which the user would not see otherwise). A closed stdout does not count
//! the round. The hook's deadline counts from the process's start
//! ([`crate::deadline`]): the review gets what is left of `timeout_secs`,
//! and a watchdog lets the stop through and exits half a second after it,
//! whatever is still running. Must not re-implement review policy: that is the plugin's.

mod evidence;
pub mod input;
mod lock;
mod output;
mod session;
mod settle;
mod state;
mod told;
mod verdict;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::finish::review_transcript;
use crate::finish::workspace::Setup;
use crate::terminal::Exit;
use evidence::Evidence;
use input::{CodingAgent, HookEvent, HookInput, MAX_HOOK_INPUT_BYTES};
use output::Reply;
use session::SessionFiles;

/// Arguments of `advisor hook`.
#[derive(Debug, Args)]
pub(crate) struct HookArgs {
    /// Where per-session state is kept (default: <workspace>/.advisor/state).
    #[arg(long)]
    state_dir: Option<PathBuf>,
    /// The workspace root (default: the hook's `cwd`, else the current directory).
    #[arg(long)]
    workspace: Option<PathBuf>,
    /// The host (default: recognised from the input; copilot, qwen and droid
    /// are never recognised and must be named).
    #[arg(long, value_enum, ignore_case = true)]
    host: Option<CodingAgent>,
}

/// Why a stop goes through without the hook's reply: every way out of
/// [`stop`] but the reply itself, told to the host once.
#[derive(Debug)]
pub(crate) enum LetThrough {
    /// Nothing for this hook to review: nothing is said.
    Quietly,
    /// Said on one line of stderr.
    Said(String),
    /// Said on stderr and, where the host shows it, to the user: a problem
    /// the user must fix.
    Shown(String),
    /// `said` on stderr (the detail), `shown` to the user where the host
    /// shows it (one short line): a review that could not run.
    Told {
        /// The line for the user.
        shown: String,
        /// The line for stderr.
        said: String,
    },
}

impl LetThrough {
    /// A [`LetThrough::Said`] of `why`.
    pub(crate) fn said(why: impl std::fmt::Display) -> LetThrough {
        LetThrough::Said(why.to_string())
    }

    /// A [`LetThrough::Shown`] of `why`.
    pub(crate) fn shown(why: impl std::fmt::Display) -> LetThrough {
        LetThrough::Shown(why.to_string())
    }

    /// Shows `message` to the user through `host`'s reply, where it has a visible channel.
    fn show(host: CodingAgent, message: String) {
        let reply = Reply {
            block: None,
            message: Some(message),
        };
        if let Some(json) = reply.render(host) {
            let _ = writeln!(std::io::stdout(), "{json}");
        }
    }

    /// Tells `host` (when the input named one) and exits 0: the stop goes
    /// through.
    fn tell(self, host: Option<CodingAgent>) -> ExitCode {
        match (self, host) {
            (LetThrough::Quietly, _) => {}
            (LetThrough::Shown(why), Some(host)) => {
                let why = one_line(why);
                say(format!("{why}; the stop goes through"));
                Self::show(host, format!("advisor: {why}; the stop went through without a review"));
            }
            (LetThrough::Told { shown, said }, Some(host)) => {
                say(format!("{}; the stop goes through", one_line(said)));
                Self::show(host, format!("advisor: {}; the stop went through", one_line(shown)));
            }
            (LetThrough::Said(why) | LetThrough::Shown(why) | LetThrough::Told { said: why, .. }, _) => {
                say(format!("{why}; the stop goes through"))
            }
        }
        ExitCode::SUCCESS
    }
}

/// One line for a person: controls and invisible characters escaped, cut to
/// the message cap ([`crate::terminal::message`], the one cleaner).
pub(crate) fn one_line(why: impl std::fmt::Display) -> String {
    crate::terminal::message(&why.to_string())
}

/// Says `why` on one line of stderr.
pub(crate) fn say(why: impl std::fmt::Display) {
    eprintln!("advisor hook: {}", one_line(why));
}

pub(crate) async fn run(args: &HookArgs) -> Exit {
    let mut host = None;
    Ok(match stop(args, &mut host).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(through) => through.tell(host),
    })
}

/// The hook, in order; `host` is set once the input names it.
async fn stop(args: &HookArgs, host: &mut Option<CodingAgent>) -> Result<(), LetThrough> {
    let input = read_input(args.host)?;
    *host = Some(input.host);
    reviewable(&input)?;
    let workspace = workspace(args, &input)?;
    outside_a_review(&workspace)?;
    let setup = configured(&workspace)?;
    let builder = setup.config.plugin_builder().map_err(LetThrough::shown)?;
    // the session: its lock, and the state saved at the last review
    let files = SessionFiles::locate(args.state_dir.as_deref(), &workspace, &input)?;
    let migration = verdict::migration(&setup.config).filter(|_| files.first_time_in_workspace("interrupt-v2"));
    let mut lock = files.lock();
    let held = files.hold(&mut lock)?; // held until the hook ends
    let mut session = files.load(held.as_ref().err().cloned());
    session.cap_holds(&input)?;
    // the evidence: the transcript, the window, why it is blind
    let evidence = Evidence::read(&input).await?;
    let answer = evidence.answer(&input)?;
    let blind = evidence.say_blind();
    let request = evidence.request(&input);
    // the review
    let finish = review_evidence(builder, &evidence, &answer, request.as_deref(), session.prior()).await?;
    let failed = verdict::failure(&finish, migration.as_deref(), &mut |k| session.first_time(k));
    let news = verdict::news(&finish, &mut |k| session.first_time(k));
    session.stage(&finish, request, evidence.transcript.last_compaction.as_deref());
    if let Some(failed) = failed {
        session.commit();
        return Err(failed);
    }
    // the reply, then the commit (a reply nobody could read does not count the round)
    let reopens = finish.advice.interrupts();
    session.before_reopening(reopens, &input)?;
    let news = [migration, news]
        .into_iter()
        .flatten()
        .reduce(|a, b| format!("{a}. {b}"));
    let reply = verdict::reply(&finish, setup.config.verdict, reopens, blind, news);
    if send(&reply, input.host) {
        session.commit();
    }
    Ok(())
}

/// The one finish review of the evidence (the path `advisor review` and
/// `advisor mcp` take too); the reviewer's warnings go to stderr.
async fn review_evidence(
    builder: advisor::plugin::AdvisorPluginBuilder,
    evidence: &Evidence,
    answer: &str,
    request: Option<&str>,
    prior: Option<&crate::finish::Prior>,
) -> Result<crate::finish::Finish, LetThrough> {
    let note = evidence.note.as_deref();
    // the review gets what is left of the hook's deadline (counted from its start)
    let builder = match crate::deadline::hook_remaining() {
        Some(left) => builder.timeout(left.max(std::time::Duration::from_millis(1))),
        None => builder,
    };
    review_transcript(builder, &evidence.transcript, answer, request, prior, note, &mut |w| {
        say(w)
    })
    .await
    .map_err(LetThrough::said)
}

/// Writes the reply `host` reads, if there is one; whether it was written
/// (or there was nothing to write).
fn send(reply: &Reply, host: CodingAgent) -> bool {
    let Some(json) = reply.render(host) else {
        return true;
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{json}").and_then(|()| out.flush()).is_ok()
}

/// The hook input on stdin (bounded), for `host` or the host it names.
fn read_input(host: Option<CodingAgent>) -> Result<HookInput, LetThrough> {
    let stdin = std::io::stdin().lock();
    let raw = advisor::io::read_stream(stdin, std::path::Path::new("<stdin>"), MAX_HOOK_INPUT_BYTES)
        .map_err(|e| LetThrough::said(format!("cannot read the hook input: {e}")))?;
    HookInput::parse_for(&String::from_utf8_lossy(&raw), host).map_err(LetThrough::Said)
}

/// Whether the stop is one to review: not a Cursor run that did not
/// complete, not one of the host's internal agents (compaction, summaries),
/// not a stop whose block the host would ignore ([`HookInput::cannot_block`]).
fn reviewable(input: &HookInput) -> Result<(), LetThrough> {
    let aborted = input.host == CodingAgent::Cursor && matches!(input.status.as_deref(), Some("aborted" | "error"));
    let internal =
        input.event == HookEvent::SubagentStop && input.agent_type.as_deref().is_none_or(|t| t.trim().is_empty());
    if aborted || internal || input.cannot_block {
        return Err(LetThrough::Quietly);
    }
    Ok(())
}

/// The workspace: `--workspace` (which must be a directory), else the hook's
/// `cwd`, else the current directory.
fn workspace(args: &HookArgs, input: &HookInput) -> Result<PathBuf, LetThrough> {
    if let Some(w) = args.workspace.as_ref().filter(|w| !w.is_dir()) {
        let why = format!("--workspace {} is not a directory; not reviewed", w.display());
        return Err(LetThrough::Said(why));
    }
    Ok((args.workspace.clone())
        .or_else(|| input.cwd.clone())
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from(".")))
}

/// Whether this stop is a review's own (the reviewer CLI fired its hooks):
/// only a live recursion marker of this user lets it through.
fn outside_a_review(workspace: &std::path::Path) -> Result<(), LetThrough> {
    match crate::reviewer::recursion::marker_lets_through(workspace) {
        Some(true) => {
            eprintln!("advisor: this stop is inside an advisor review (the reviewer CLI's own hook); let through");
            Err(LetThrough::Quietly)
        }
        Some(false) => {
            eprintln!("advisor: ignoring a recursion marker that names no live review of this user");
            Ok(())
        }
        None => Ok(()),
    }
}

/// The workspace's advisor, loaded as every finish command loads it; a
/// workspace that has not opted in is inert (its transcript is never read).
fn configured(workspace: &std::path::Path) -> Result<Setup, LetThrough> {
    let setup = crate::finish::workspace::load(workspace).map_err(|e| told::untrusted(workspace, e))?;
    if !setup.opted_in {
        return Err(LetThrough::Quietly);
    }
    // the hook's deadline: this workspace's timeout, counted from the hook's start
    crate::deadline::set_hook_budget(std::time::Duration::from_secs(setup.config.timeout_secs));
    if let Some(why) = &setup.notice {
        say(why); // a user config the repository could have placed: the offline rules
    }
    Ok(setup)
}
