//! Red-team of the offline rules reviewer for false blocks, aimed at the first
//! batch of the eighth round of issue 25: `cargo fmt --check`'s `Diff in …`
//! lines fail a Cargo run; a runner its shell could not start (`bash: line 1:
//! go: command not found`, `zsh: command not found: pnpm`, `/bin/sh: 1: jest:
//! not found`, uv's `error: Failed to spawn: `ty``, Windows' `'go' is not
//! recognized as …`) fails its run whatever the pipe says, and only that
//! invocation needs covering; "everything checks out" and its kin judged by the
//! turn's outstanding failures whatever else the answer claims; a checker named
//! for its verdict ("clippy is clean", "ruff is clean") and "it compiles" as
//! build or lint claims; and a shell's or curl's own error line marking a call
//! failed where the host recorded no outcome (Codex code-mode cells,
//! OpenAI-style tool messages).
//!
//! Honest stops (Claude Code `Bash`, Codex `exec_command`, Gemini CLI
//! `run_shell_command`, Codex code-mode cells and OpenAI-style `shell` calls
//! built as their readers build them) — none may raise a note that interrupts —
//! and false claims in the same shapes, which must block, so both sides show.
//! Every case is written for these files (derived, not copied from a real
//! transcript); the traces follow the shapes the hosts record. An honest case
//! the rules block stays, marked `#[ignore = "false block: …"]` with the reason;
//! so does a false claim they miss (`missed: …`). Formatter runs are in
//! `redteam10/fmt.rs`, runners not started in `redteam10/not_started.rs`,
//! "everything checks out" in `redteam10/every.rs`, checkers named for their
//! verdict in `redteam10/checkers.rs`, calls with no recorded outcome in
//! `redteam10/no_outcome.rs`, the false claims in `redteam10/false_claims.rs`.
//! The batch was changed after this red-team: rustfmt's lines are a format of
//! their own, counted only where the exit status is not the run's own; a
//! runner not started counts only where its exit status is hidden; a checker
//! named for its verdict is held against that checker's runs alone; a shell's
//! error line no longer fails a call with no recorded outcome. The nine false
//! blocks found pass now; three false claims stay missed.
//! Must not test anything but the rules reviewer's verdicts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod redteam;
mod traces;

use advisor::host::ToolTrace;
use redteam::interrupting;
use serde_json::json;

#[path = "redteam10/checkers.rs"]
mod checkers;
#[path = "redteam10/every.rs"]
mod every;
#[path = "redteam10/false_claims.rs"]
mod false_claims;
#[path = "redteam10/fmt.rs"]
mod fmt;
#[path = "redteam10/no_outcome.rs"]
mod no_outcome;
#[path = "redteam10/not_started.rs"]
mod not_started;

/// An honest stop whose first `earlier` calls came before the turn under review.
pub(crate) fn honest_after(answer: &str, tools: Vec<ToolTrace>, earlier: usize) {
    let notes = interrupting(answer, tools, earlier);
    assert!(
        notes.is_empty(),
        "false block of an honest answer {answer:?}: {notes:?}"
    );
}

/// A Codex code-mode cell that ran one shell command, as its reader records
/// it: the host's `Output:` line above what the cell printed, no exit code,
/// and an error only when the printed text reads as failed.
pub(crate) fn cell(cmd: &str, printed: &str) -> ToolTrace {
    let output = format!("Output:\n{printed}");
    ToolTrace {
        name: "exec_command".into(),
        args: json!({ "cmd": cmd }).to_string(),
        error: advisor_rules::looks_failed(&output).then(|| "the cell's output reads as failed".to_owned()),
        output,
        exit_code: None,
    }
}

/// An OpenAI-style `shell` tool message: the output only, failed when it
/// reads as failed.
pub(crate) fn openai(cmd: &str, output: &str) -> ToolTrace {
    ToolTrace {
        name: "shell".into(),
        args: json!({ "command": ["bash", "-lc", cmd] }).to_string(),
        error: advisor_rules::looks_failed(output).then(|| output.to_owned()),
        output: output.into(),
        exit_code: None,
    }
}
