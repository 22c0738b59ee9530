//! Red-team of the offline rules reviewer for false blocks, aimed at the
//! rules of the sixth round of issue 25: offers that disclose only when said
//! of the failure itself, markdown table cells read apart, failing names from
//! a path (its file, test and tails, not a directory's plain word), a program
//! told as unrun only as a word of its own, German "schlägt"/"schlagen" as
//! whole words, a job count that is no test filter, `pnpm --filter … exec` /
//! `pnpm -C … exec` read as runs of what they exec, arguments cut to the
//! evidence bound read for their command, a runner's bare name standing for
//! its newest run, a test file named whole as passing, a failed last step
//! claimed in its subcommand's own past tense, and Codex's `exec_command
//! failed: CreateProcess { … }` records. When it was written, 21 of its 70
//! honest stops were sent back (14 by this round's rules, 7 by older ones);
//! the rules were then mended and all 70 pass.
//!
//! Honest stops (Claude Code `Bash`, Codex `exec_command` / `shell_command`,
//! Gemini CLI `run_shell_command`) — none may raise a note that interrupts —
//! and false claims in the same shapes, which must block, so both sides show.
//! Every case is written for these files (derived, not copied from a real
//! transcript); the traces follow the shapes the hosts record. A false claim
//! the rules miss stays, marked `#[ignore]` with the reason. Offers, tables, paths, unrun programs and German are in
//! `redteam6/wording.rs`; job counts, `pnpm exec`, cut arguments, bare names
//! and test files in `redteam6/runs.rs`; own verbs and Codex's sandbox records
//! in `redteam6/steps.rs`; the false claims in `redteam6/false_claims.rs`.
//! Must not test anything but the rules reviewer's verdicts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod redteam;
mod traces;

use advisor::host::ToolTrace;

#[path = "redteam6/false_claims.rs"]
mod false_claims;
#[path = "redteam6/runs.rs"]
mod runs;
#[path = "redteam6/steps.rs"]
mod steps;
#[path = "redteam6/wording.rs"]
mod wording;

/// Tools as a review holds them: each field cut to the evidence bound.
pub(crate) fn bounded(tools: Vec<ToolTrace>) -> Vec<ToolTrace> {
    advisor::evidence::bound_tools(&tools, &advisor::evidence::EvidenceBounds::default()).0
}

/// A Codex call the tool router failed before or while it ran, as the Codex
/// reader records it: the router's text as output and error, and the exit
/// code when the text holds one.
pub(crate) fn codex_router(cmd: &str, text: &str, code: Option<i64>) -> ToolTrace {
    ToolTrace {
        name: "exec_command".into(),
        args: serde_json::json!({ "cmd": cmd, "workdir": "repo" }).to_string(),
        output: text.into(),
        error: Some(text.into()),
        exit_code: code,
    }
}
