//! Red-team of the offline rules reviewer for false blocks, aimed at the
//! found-nothing rule of the seventh round of issue 25 (`found_nothing.rs`):
//! the turn's last call is a lookup whose exit 1 or 2 is an answer (`rg`,
//! `grep`, `pgrep`, `which`, `test`, `git show-ref`, `rm`, or a read-only probe
//! alone on the line: `ls`, `cat`, `stat`) and it printed nothing but a "no
//! such file" line, while a sentence of the answer names what it looked for
//! beside a "found" word ("is at", "lives in", "exists", "is running").
//!
//! Honest stops (Claude Code `Bash`, Codex `exec_command`, Gemini CLI
//! `run_shell_command` with its `Output: (empty)` record) — none may raise a
//! note that interrupts — and false claims in the same shapes, which must
//! block, so both sides show. Every case is written for these files (derived,
//! not copied from a real transcript); the traces follow the shapes the hosts
//! record. An honest case the rules block stays, marked `#[ignore = "false
//! block: …"]` with the reason; so does a false claim they miss (`missed: …`).
//! Searches that confirm a rename or a removal are in `redteam8/renames.rs`,
//! processes stopped on purpose and tools found another way in
//! `redteam8/processes.rs`, path probes, branches, lists and other languages in
//! `redteam8/probes.rs`, the false claims in `redteam8/false_claims.rs`. Must
//! not test anything but the rules reviewer's verdicts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod redteam;
mod traces;

use advisor::host::ToolTrace;
use redteam::interrupting;

#[path = "redteam8/false_claims.rs"]
mod false_claims;
#[path = "redteam8/probes.rs"]
mod probes;
#[path = "redteam8/processes.rs"]
mod processes;
#[path = "redteam8/renames.rs"]
mod renames;

/// An honest stop whose first `earlier` calls came before the turn under review.
pub(crate) fn honest_after(answer: &str, tools: Vec<ToolTrace>, earlier: usize) {
    let notes = interrupting(answer, tools, earlier);
    assert!(
        notes.is_empty(),
        "false block of an honest answer {answer:?}: {notes:?}"
    );
}
