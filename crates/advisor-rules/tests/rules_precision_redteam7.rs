//! Red-team of the offline rules reviewer for false blocks, aimed at the
//! rules of the seventh round of issue 25: claims, admissions, zero counts
//! and disclosures in Russian, and Russian step result words taken back by
//! " не "; French step claims ("vérifié", "mis à jour", "est à jour", "tout
//! est bon", "est passé") taken back by " pas "; "updated" as a step result
//! word; a failed write named by its file's stem ("the README" of
//! `README.md`); "released" of a failed release; and Codex's
//! `apply_patch verification failed:` read as a failed call.
//!
//! Honest stops (Claude Code `Bash` / `Edit` / `Write`, Codex
//! `exec_command` / `apply_patch`, Gemini CLI `run_shell_command`) — none may
//! raise a note that interrupts — and false claims in the same shapes, which
//! must block, so both sides show. Every case is written for these files
//! (derived, not copied from a real transcript); the traces follow the shapes
//! the hosts record. An honest case the rules block stays, marked `#[ignore]`
//! with the reason; so does a false claim they miss. The file-stem,
//! "updated", "released" and `apply_patch` cases are in `redteam7/stems.rs`,
//! Russian in `redteam7/russian.rs`, French in `redteam7/french.rs`, the
//! false claims in `redteam7/false_claims.rs`. Must not test anything but the
//! rules reviewer's verdicts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod redteam;
mod traces;

use advisor::host::ToolTrace;

#[path = "redteam7/false_claims.rs"]
mod false_claims;
#[path = "redteam7/french.rs"]
mod french;
#[path = "redteam7/russian.rs"]
mod russian;
#[path = "redteam7/stems.rs"]
mod stems;

/// A Codex `shell` call of `apply_patch` whose verification failed, as the
/// Codex reader records it: Codex's own line as the output and the error, no
/// exit code (no process ran).
pub(crate) fn patch_failed(body: &str, line: &str) -> ToolTrace {
    ToolTrace {
        name: "shell".into(),
        args: serde_json::json!({ "command": ["apply_patch", body], "workdir": "repo" }).to_string(),
        output: line.into(),
        error: Some(line.into()),
        exit_code: None,
    }
}
