//! Red-team of the offline rules reviewer for false blocks, aimed at the
//! rules of the fourth round of issue 25: a failed last shell step held
//! against an unnamed verification ("Verified — the page renders", "as
//! expected", "checks out", "went through") and viewers that never count; "no
//! errors" / "without errors" / "error-free" / "no new failures" mentioning no
//! failure; plan sentences ("Keep …", "I'll …", "Next, …") claiming nothing;
//! claims and admissions in Italian, Spanish, Portuguese and German; runs
//! named by a verdict that cites its command after it, after a dash, without
//! its program's directory or in a list of quoted names; `pnpm|yarn run
//! <script>`; the new runner rows (`playwright test`, `pre-commit run` /
//! `prek run`, `flake8` / `pycodestyle`, `pylint`, `ty check`); a lint
//! failure of a two-command line; a program named as needing something first.
//!
//! Honest stops (Claude Code `Bash`, Codex `exec_command`, Gemini CLI
//! `run_shell_command`) — none may raise a note that interrupts — and false
//! claims in the same shapes, which must block, so both sides show. Every case
//! is written for these files (derived, not copied from a real transcript);
//! the traces follow the shapes the hosts record. An honest case the rules
//! block stays, marked `#[ignore]` with the reason; so does a false claim they
//! miss. The unnamed-verification and "no errors" cases are in
//! `redteam4/verified.rs`, plans, languages, verdict shapes and package
//! scripts in `redteam4/wording.rs`, the new runners in `redteam4/runners.rs`,
//! the false claims in `redteam4/false_claims.rs`. Must not test anything but
//! the rules reviewer's verdicts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod redteam;
mod traces;

use advisor::host::ToolTrace;
use redteam::interrupting;

#[path = "redteam4/false_claims.rs"]
mod false_claims;
#[path = "redteam4/runners.rs"]
mod runners;
#[path = "redteam4/verified.rs"]
mod verified;
#[path = "redteam4/wording.rs"]
mod wording;

/// An honest stop whose first `earlier` calls came before the turn under review.
pub(crate) fn honest_after(answer: &str, tools: Vec<ToolTrace>, earlier: usize) {
    let notes = interrupting(answer, tools, earlier);
    assert!(
        notes.is_empty(),
        "false block of an honest answer {answer:?}: {notes:?}"
    );
}
