//! `advisor hook`: one stop-time hook for Claude Code, Codex, Gemini CLI and
//! Cursor.
//!
//! Reads the hook JSON on stdin (bounded), recognises the host (or takes
//! `--host`), and — only in a workspace that opted in with
//! `.advisor/config.toml` — runs one finish review through the plugin with the
//! session's saved state, under a per-session lock. The transcript is read
//! once the host has written every tool result of the turn, waiting briefly
//! for a host that is still writing it (`settle`); without a readable
//! transcript the answer is reviewed alone and the user is told. When a note must reach the
//! agent it answers in the host's own shape ([`output`]); otherwise nothing,
//! or a one-line verdict with `verdict = "summary"`. It always exits 0: any
//! internal error lets the stop through with one line on stderr (and a
//! `systemMessage` for a config problem, which the user would not see
//! otherwise). When the session state cannot be loaded or saved, a stop the
//! host marks as already continuing (`stop_hook_active`, Cursor's
//! `loop_count`) goes through: the cap holds whatever the file system does.
//! A state that cannot be read, or that the plugin rejects, makes the advisor
//! sit out the request (never a refilled allowance), and the user is told why.
//! A closed stdout does not count the round. Must not re-implement review
//! policy: that is the plugin's.

pub mod input;
mod lock;
mod output;
mod settle;
mod state;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::config::{Verdict, WorkspaceConfig};
use crate::transcript::{ReadOptions, Transcript};
use clap::Args;
use input::{CodingAgent, HookEvent, HookInput, MAX_HOOK_INPUT_BYTES};

use crate::finish::{Finish, Prior, review_transcript};
use crate::terminal::Exit;
use lock::SessionLock;
use output::Reply;
use state::{SessionState, load, stage, state_path};

/// Arguments of `advisor hook`.
#[derive(Debug, Args)]
pub(crate) struct HookArgs {
    /// Where per-session state is kept (default: <workspace>/.advisor/state).
    #[arg(long)]
    state_dir: Option<PathBuf>,
    /// The workspace root (default: the hook's `cwd`, else the current directory).
    #[arg(long)]
    workspace: Option<PathBuf>,
    /// The host (default: recognised from the input).
    #[arg(long, value_enum, ignore_case = true)]
    host: Option<CodingAgent>,
}

/// One line for a person: controls and invisible characters escaped, cut to
/// the message cap ([`crate::terminal::message`], the one cleaner).
fn one_line(why: impl std::fmt::Display) -> String {
    crate::terminal::message(&why.to_string())
}

/// Says `why` on one line of stderr.
fn say(why: impl std::fmt::Display) {
    eprintln!("advisor hook: {}", one_line(why));
}

/// Lets the stop through, saying why on one line of stderr.
fn let_through(why: impl std::fmt::Display) -> ExitCode {
    say(format!("{why}; the stop goes through"));
    ExitCode::SUCCESS
}

/// Lets the stop through, saying why on stderr and, where the host shows
/// it, to the user (`systemMessage`): for problems the user must fix.
fn let_through_visibly(host: CodingAgent, why: impl std::fmt::Display) -> ExitCode {
    let why = one_line(why);
    say(format!("{why}; the stop goes through"));
    let reply = Reply {
        block: None,
        message: Some(format!("advisor: {why}; the stop went through without a review")),
    };
    if let Some(json) = reply.render(host) {
        let _ = writeln!(std::io::stdout(), "{json}");
    }
    ExitCode::SUCCESS
}

/// What the user is told when the review had no transcript.
const REVIEWED_BLIND: &str = "reviewed without tool evidence";

/// The note added to the window when the review has no transcript.
const NO_EVIDENCE: &str =
    "(The host gave no readable transcript: the answer is reviewed alone, without tool evidence.)";

/// Why no review ran, when a token budget (`max_review_tokens`,
/// `max_session_review_tokens`) is spent.
fn budget_message(finish: &Finish) -> Option<String> {
    let stop = finish.report.budget_stop.as_ref()?;
    Some(format!(
        "advisor: {}; the stop goes through without a review",
        one_line(stop.to_string())
    ))
}

/// Why the advisor sat out, when the saved state was rejected (and no fresh
/// request brought it back).
fn rejected_message(finish: &Finish) -> Option<String> {
    let why = finish.rejected.as_ref().filter(|_| finish.advice.records.is_empty())?;
    Some(format!(
        "advisor: the saved state was rejected ({}); the advisor sits out this request",
        one_line(why)
    ))
}

/// The one-line verdict for `verdict = "summary"`.
fn summary(finish: &Finish, blocked: bool) -> Option<String> {
    let Some(record) = finish.record() else {
        return Some("advisor: the review allowance for this request is spent; the stop goes through".into());
    };
    if record.error.is_some() {
        return None;
    }
    let n = record.decisions.len();
    let first = record
        .decisions
        .first()
        .and_then(|d| record.notes.get(d.note))
        .map(|note| format!(": {}", advisor::invisible::display_line(&note.text, 200)))
        .unwrap_or_default();
    match (blocked, record.shadow, n) {
        (true, _, _) => Some(format!("advisor: sent the agent back ({n} note(s){first})")),
        (false, true, 1..) => Some(format!("advisor (shadow mode): {n} note(s) recorded, none sent{first}")),
        (false, false, 1..) => Some(format!("advisor: passed; {n} note(s) not sent to the agent{first}")),
        (false, _, 0) => None,
    }
}

pub(crate) async fn run(args: &HookArgs) -> Exit {
    let stdin = std::io::stdin().lock();
    let raw = advisor::io::read_stream(stdin, std::path::Path::new("<stdin>"), MAX_HOOK_INPUT_BYTES)
        .map_err(|e| let_through(format!("cannot read the hook input: {e}")))?;
    let input = HookInput::parse_for(&String::from_utf8_lossy(&raw), args.host).map_err(let_through)?;
    if input.host == CodingAgent::Cursor && matches!(input.status.as_deref(), Some("aborted" | "error")) {
        return Ok(ExitCode::SUCCESS); // the run did not complete: nothing to review
    }
    if input.event == HookEvent::SubagentStop && input.agent_type.as_deref().is_none_or(|t| t.trim().is_empty()) {
        return Ok(ExitCode::SUCCESS); // the host's internal agents (compaction, summaries) are not reviewed
    }
    if let Some(w) = args.workspace.as_ref().filter(|w| !w.is_dir()) {
        return Err(let_through(format!(
            "--workspace {} is not a directory; not reviewed",
            w.display()
        )));
    }
    let workspace = args
        .workspace
        .clone()
        .or_else(|| input.cwd.clone())
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    match crate::reviewer::recursion::marker_lets_through(&workspace) {
        Some(true) => {
            eprintln!("advisor: this stop is inside an advisor review (the reviewer CLI's own hook); let through");
            return Ok(ExitCode::SUCCESS);
        }
        Some(false) => eprintln!("advisor: ignoring a recursion marker that names no live review of this user"),
        None => {}
    }
    let loaded = WorkspaceConfig::load_with_notice(&workspace);
    if let Ok((Some(_), Some(why))) = &loaded {
        say(why); // a user config the repository could have placed: the offline rules
    }
    let mut config = match loaded {
        Ok((Some(c), _)) if c.enabled => c,
        Ok(_) => return Ok(ExitCode::SUCCESS), // not opted in: inert, the transcript is never read
        Err(e) => return Err(let_through_visibly(input.host, e)),
    };
    config.rules.package_scripts = crate::package_scripts::read(&workspace);
    let builder = (config.plugin_builder()).map_err(|e| let_through_visibly(input.host, e))?;
    review(args, &input, &workspace, config.verdict, builder).await
}

/// The first of the workspace's `.advisor`, the state directory, and the
/// session's state and lock files that is a symbolic link, if any.
fn linked(workspace: &std::path::Path, dir: &std::path::Path, state: Option<&PathBuf>) -> Option<PathBuf> {
    let mut candidates = vec![workspace.join(".advisor"), dir.to_path_buf()];
    if let Some(s) = state {
        candidates.push(s.clone());
        candidates.push(s.with_extension("lock"));
    }
    crate::no_links::first_link(candidates)
}

async fn review(
    args: &HookArgs,
    input: &HookInput,
    workspace: &std::path::Path,
    verdict: Verdict,
    builder: advisor::plugin::AdvisorPluginBuilder,
) -> Exit {
    let host = input.host;
    let dir = args
        .state_dir
        .clone()
        .unwrap_or_else(|| workspace.join(".advisor").join("state"));
    let agent = match input.event {
        HookEvent::SubagentStop => Some(input.agent_id.as_deref().unwrap_or("agent")),
        HookEvent::Stop => None,
    };
    // state problems: the cap then rests on the host's own loop flag
    let locking = |e: std::io::Error| format!("cannot lock the session state in {}: {e}", dir.display());
    let path = state_path(&dir, &input.session_id, agent);
    // a committed `.advisor/state` link would send the state and lock files wherever it points
    if let Some(link) = linked(workspace, &dir, path.as_ref().ok()) {
        let why = crate::no_links::refusal(&link, "its state");
        return Err(let_through(format!("{why}; not reviewed")));
    }
    let mut lock = path.clone().and_then(|p| SessionLock::open(&p).map_err(locking));
    let held = match lock.as_mut() {
        Ok(l) => match l.hold_within(lock::LOCK_WAIT) {
            // someone holds the session's lock: this stop is not reviewed at all
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                return Err(let_through(format!("{}; not reviewed", locking(e))));
            }
            other => other.map_err(locking),
        },
        Err(e) => Err(e.clone()),
    };
    let mut state_problem = held.as_ref().err().cloned();
    let path = path.ok();
    let prior = match path.as_deref().map(|p| (p, load(p))) {
        Some((_, Ok(s))) => s.map(SessionState::into_prior),
        // a saved state that is there but cannot be trusted: sit the request out
        Some((p, Err(why))) if p.is_file() => {
            say(format!("{why}; the advisor sits out this request"));
            state_problem = Some(why.clone());
            Some(Prior {
                rejected: Some(why),
                ..Prior::default()
            })
        }
        Some((_, Err(why))) => {
            say(format!("{why}; treating the session as fresh"));
            state_problem = Some(why);
            None
        }
        None => None,
    };
    if let Some(why) = state_problem.as_ref().filter(|_| input.continuing()) {
        return Err(let_through(format!(
            "{why}, and a stop hook already sent the agent back"
        )));
    }
    let options = ReadOptions {
        allow_partial_last_line: input.last_assistant_message.is_some() || input.joined_response.is_some(),
        ..ReadOptions::default()
    };
    // every host's transcript format has a reader; a host that sends no
    // readable path gets its answer reviewed alone
    let (transcript, note, blind) = match &input.transcript_path {
        Some(p) => {
            // a host that hands over the answer may still be writing the
            // turn's last lines: wait for every tool call's result, briefly,
            // then take what there is (without an answer from the host, the
            // transcript is the answer's only source and is read as it is)
            let budget = if options.allow_partial_last_line {
                settle::SETTLE_BUDGET
            } else {
                std::time::Duration::ZERO
            };
            let subagent = input.event == HookEvent::SubagentStop;
            let settled = settle::read_settled(p, &options, budget, subagent).await;
            if let Some(lag) = settled.lag() {
                say(lag);
            }
            let lag_note = settled.window_note();
            match settled.read {
                Ok((t, _)) if t.truncated => {
                    let cap = options.max_bytes;
                    let why = format!(
                        "the last turn of {} is longer than the {cap}-byte read cap",
                        p.display()
                    );
                    return Err(let_through_visibly(host, why));
                }
                Ok((t, _)) => (t, lag_note, None),
                Err(e) => (Transcript::default(), Some(NO_EVIDENCE.to_owned()), Some(e.to_string())),
            }
        }
        None => (
            Transcript::default(),
            Some(NO_EVIDENCE.to_owned()),
            Some(format!("{host} sent no transcript (transcript_path is null or empty)")),
        ),
    };
    let Some(answer) = input.answer(transcript.last_answer()) else {
        return match blind {
            // no transcript and no answer (Cursor sends none): say so, never silence
            Some(why) => Err(let_through_visibly(host, format!("{why}, and no answer"))),
            None => Ok(ExitCode::SUCCESS), // nothing answered in this turn: nothing to review
        };
    };
    // reviewed without the transcript: always said (stderr, and systemMessage where the host shows it)
    let blind = blind.map(|why| {
        let line = format!("{why}; the answer was {REVIEWED_BLIND}");
        say(&line);
        format!("advisor: {line}")
    });
    // the request the answer is for: the transcript's last prompt, else what the host says
    let request = transcript
        .last_prompt
        .clone()
        .or_else(|| input.turn_id.as_ref().map(|t| format!("turn:{t}")))
        .or_else(|| {
            input
                .prompt
                .as_ref()
                .map(|p| format!("prompt:{}", advisor::trace::short_hash(p)))
        });
    let finish = review_transcript(
        builder,
        &transcript,
        &answer,
        request.as_deref(),
        prior.as_ref(),
        note.as_deref(),
        &mut |w| say(w),
    )
    .await
    .map_err(let_through)?;
    let last_prompt = request.or_else(|| prior.as_ref().and_then(|p| p.last_prompt.clone()));
    let state = SessionState::new(
        finish.checkpoint.clone(),
        last_prompt.as_deref(),
        transcript.last_compaction.as_deref(),
    );
    let staged = path.as_deref().and_then(|p| {
        (stage(p, &state).inspect_err(|e| {
            state_problem = Some(format!("cannot save the session state to {}: {e}", p.display()));
        }))
        .ok()
    });
    if let Some(err) = finish.record().and_then(|r| r.error.as_ref()) {
        commit(staged);
        return Err(let_through(format!("the review failed ({})", err.message)));
    }
    let reopens = finish.advice.interrupts();
    if let Some(why) = state_problem.as_ref().filter(|_| reopens) {
        if input.continuing() {
            return Err(let_through(format!(
                "{why}, and a stop hook already sent the agent back"
            )));
        }
        say(why);
    }
    // a spent token budget and a rejected state are always said: reviews
    // stopped until the budget resets or a fresh request
    let said = budget_message(&finish)
        .or_else(|| rejected_message(&finish))
        .or_else(|| {
            (verdict == Verdict::Summary)
                .then(|| summary(&finish, reopens))
                .flatten()
        });
    let reply = Reply {
        block: finish.injection().map(str::to_owned),
        message: match (blind, said) {
            (Some(b), Some(s)) => Some(format!("{b}. {s}")),
            (b, s) => b.or(s),
        },
    };
    if let Some(json) = reply.render(host) {
        let mut out = std::io::stdout().lock();
        if writeln!(out, "{json}").and_then(|()| out.flush()).is_err() {
            // nobody reads the answer: the round does not count (the staged state is dropped)
            return Ok(ExitCode::SUCCESS);
        }
    }
    commit(staged);
    Ok(ExitCode::SUCCESS)
}

fn commit(staged: Option<advisor::io::Staged>) {
    if let Some(s) = staged {
        if let Err(e) = s.commit() {
            say(format!("cannot save the session state: {e}"));
        }
    }
}
