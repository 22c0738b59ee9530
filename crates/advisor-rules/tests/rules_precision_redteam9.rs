//! Red-team of the offline rules reviewer for false blocks, aimed at the last
//! batch of the seventh round of issue 25: runs through `rtk` (the Rust Token
//! Killer output proxy: `rtk cargo test`, `rtk proxy …`, `rtk test <cmd>`)
//! read as the runs they proxy; a non-zero exit told ("exited 128") as a
//! disclosure; "nothing is / was …" as an admission; a script's name read as
//! its subcommands for own-verb claims (`./scripts/pull-and-build.sh`
//! "Pulled …"); the Chinese, Japanese and Korean "verified/confirmed" words;
//! Russian ё and the French failure words; and the narrowed found-nothing rule
//! (`find`, `fd`, `ls` of a deep path, `pip list | grep`, Chinese and Russian).
//!
//! Honest stops (Claude Code `Bash`, Codex `exec_command`, Gemini CLI
//! `run_shell_command`) — none may raise a note that interrupts — and false
//! claims in the same shapes, which must block, so both sides show. Every case
//! is written for these files (derived, not copied from a real transcript);
//! the traces follow the shapes the hosts record. An honest case the rules
//! block stays, marked `#[ignore = "false block: …"]` with the reason; so does
//! a false claim they miss (`missed: …`). rtk and exit statuses are in
//! `redteam9/proxies.rs`, scripts named for an action in `redteam9/scripts.rs`,
//! other languages in `redteam9/languages.rs`, lookups in
//! `redteam9/lookups.rs`, the false claims in `redteam9/false_claims.rs`. Must
//! not test anything but the rules reviewer's verdicts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod redteam;
mod traces;

use advisor::host::ToolTrace;
use redteam::interrupting;

#[path = "redteam9/false_claims.rs"]
mod false_claims;
#[path = "redteam9/languages.rs"]
mod languages;
#[path = "redteam9/lookups.rs"]
mod lookups;
#[path = "redteam9/proxies.rs"]
mod proxies;
#[path = "redteam9/scripts.rs"]
mod scripts;

/// An honest stop whose first `earlier` calls came before the turn under review.
pub(crate) fn honest_after(answer: &str, tools: Vec<ToolTrace>, earlier: usize) {
    let notes = interrupting(answer, tools, earlier);
    assert!(
        notes.is_empty(),
        "false block of an honest answer {answer:?}: {notes:?}"
    );
}
