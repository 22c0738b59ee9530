//! `advisor hook`: a `Stop` hook for Claude Code and Codex.
//!
//! Reads the hook JSON on stdin (`session_id`, `transcript_path`,
//! `stop_hook_active`, `last_assistant_message`, `cwd`), and — only in a
//! workspace that opted in with `.advisor/config.toml` — runs one finish review
//! through the plugin with the session's saved state. When a note must reach
//! the agent it prints `{"decision":"block","reason":<injection>}`; otherwise
//! nothing. It always exits 0: any internal error lets the stop through, with
//! one line on stderr.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use advisor::config::AdvisorConfig;
use advisor::transcript::{HookInput, read_transcript};
use clap::Args;
use serde_json::json;

use crate::finish::review_transcript;
use crate::state::{SessionState, load, save, state_path};

/// Arguments of `advisor hook`.
#[derive(Debug, Args)]
pub(crate) struct HookArgs {
    /// Where per-session state is kept (default: <workspace>/.advisor/state).
    #[arg(long)]
    state_dir: Option<PathBuf>,
    /// The workspace root (default: the hook's `cwd`, else the current directory).
    #[arg(long)]
    workspace: Option<PathBuf>,
}

/// Lets the stop through, saying why on one line of stderr.
fn let_through(why: impl std::fmt::Display) -> ExitCode {
    let line: String = why
        .to_string()
        .chars()
        .map(|c| if c == '\n' { ' ' } else { c })
        .collect();
    eprintln!("advisor hook: {line}; the stop goes through");
    ExitCode::SUCCESS
}

pub(crate) async fn run(args: &HookArgs) -> ExitCode {
    let mut raw = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut raw) {
        return let_through(format!("cannot read the hook input: {e}"));
    }
    let input = match HookInput::parse(&raw) {
        Ok(i) => i,
        Err(e) => return let_through(e),
    };
    let workspace = args
        .workspace
        .clone()
        .or_else(|| input.cwd.clone())
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    let config = match AdvisorConfig::load(&workspace) {
        Ok(Some(c)) if c.enabled => c,
        Ok(_) => return ExitCode::SUCCESS, // not opted in: inert, the transcript is never read
        Err(e) => return let_through(e),
    };
    let builder = match config.plugin_builder() {
        Ok(b) => b,
        Err(e) => return let_through(e),
    };
    let Some(transcript_path) = &input.transcript_path else {
        return let_through("the hook input has no transcript_path");
    };
    let transcript = match read_transcript(transcript_path, None) {
        Ok(t) => t,
        Err(e) => return let_through(e),
    };
    let answer = input
        .last_assistant_message
        .clone()
        .filter(|a| !a.trim().is_empty())
        .or_else(|| transcript.last_answer().map(str::to_owned));
    let Some(answer) = answer else {
        return ExitCode::SUCCESS; // nothing answered yet: nothing to review
    };
    let dir = args
        .state_dir
        .clone()
        .unwrap_or_else(|| workspace.join(".advisor").join("state"));
    let path = state_path(&dir, &input.session_id);
    let prior = match load(&path) {
        Ok(s) => s.map(SessionState::into_prior),
        Err(why) => {
            eprintln!("advisor hook: {why}; treating the session as fresh");
            None
        }
    };
    let mut warn = |w: String| eprintln!("advisor hook: {w}");
    let finish = match review_transcript(builder, &transcript, &answer, prior.as_ref(), &mut warn).await {
        Ok(f) => f,
        Err(e) => return let_through(e),
    };
    let state = SessionState::new(finish.checkpoint, transcript.user_prompts, transcript.compactions);
    if let Err(e) = save(&path, &state) {
        eprintln!("advisor hook: cannot save the session state to {}: {e}", path.display());
    }
    if let Some(err) = finish.event.as_ref().and_then(|e| e.error.as_ref()) {
        return let_through(format!("the review failed ({})", err.message));
    }
    if finish.decision.reopens() {
        let reason = finish
            .decision
            .inject
            .iter()
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>()
            .join("\n\n");
        println!("{}", json!({"decision": "block", "reason": reason}));
    }
    ExitCode::SUCCESS
}
