//! Red-team of the offline rules reviewer for false blocks, aimed at the
//! second batch of the eighth round of issue 25: a claim that a command of the
//! turn finished, passed or exited 0 while the host recorded it still running
//! (a Codex unified-exec session no later poll saw exit) or stopped at a
//! timeout (exit status 124) — dev servers and watchers left running, long
//! test runs cut off by a time limit, runs re-run with other flags or through
//! another launcher, files an unfinished command used that a later step wrote,
//! intended `timeout N` stops, French answers — and `a || b` as the sign that
//! rustfmt's `Diff in …` lines under exit 0 were handled, while a pipe or a
//! sequence keeps them as failures.
//!
//! Honest stops (Claude Code `Bash`, Codex `exec_command`, Gemini CLI
//! `run_shell_command` built as their readers build them) — none may raise a
//! note that interrupts — and false claims in the same shapes, which must
//! block, so both sides show. Every case is written for these files (derived,
//! not copied from a real transcript); the traces follow the shapes the hosts
//! record. An honest case the rules block stays, marked `#[ignore = "false
//! block: …"]` with the reason; so does a false claim they miss (`missed:
//! …`). Servers and watchers left running are in `redteam11/sessions.rs`,
//! timeouts and re-runs in `redteam11/timeouts.rs`, formatter runs with a
//! fallback, a pipe or a sequence in `redteam11/fmt.rs`, the false claims in
//! `redteam11/false_claims.rs`. The Codex reader's side (Codex CLI 0.115's
//! `Command:` first line) is in the CLI crate's `redteam11_codex_reader.rs`.
//! The batch was changed after this red-team: the unfinished rule skips
//! servers, watchers, followers and pagers, needs the name and the end word in
//! one clause, drops names another ended call of the turn shares, and knows a
//! test run polled or re-run through another launcher; a run the host stopped
//! at a timeout is disclosed by "timed out" or "cut off"; rustfmt's diffs
//! count after `|| true`, not after a `cargo fmt` in the same line; `cargo
//! test` no longer covers `cargo fmt --check` or `cargo clippy`. The fourteen
//! false blocks found pass now, and the three false claims missed block.
//! Must not test anything but the rules reviewer's verdicts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod redteam;
mod traces;

use advisor::host::ToolTrace;
use serde_json::json;

#[path = "redteam11/false_claims.rs"]
mod false_claims;
#[path = "redteam11/fmt.rs"]
mod fmt;
#[path = "redteam11/sessions.rs"]
mod sessions;
#[path = "redteam11/timeouts.rs"]
mod timeouts;

/// A Codex unified-exec call the host left running: its header names the
/// session, no poll saw it exit, so the reader records no exit code.
pub(crate) fn running(cmd: &str, output: &str, session: u32) -> ToolTrace {
    ToolTrace {
        name: "exec_command".into(),
        args: json!({ "cmd": cmd, "workdir": "repo", "yield_time_ms": 10000 }).to_string(),
        output: format!(
            "Chunk ID: 9c41e0\nWall time: 10.0021 seconds\nProcess running with session ID {session}\nOriginal token count: 120\nOutput:\n{output}"
        ),
        error: None,
        exit_code: None,
    }
}

/// A Codex unified-exec session the reader folded its `write_stdin` polls
/// into: the first chunk still running, the last poll's exit code recorded.
pub(crate) fn polled(cmd: &str, first: &str, last: &str, code: i64) -> ToolTrace {
    ToolTrace {
        name: "exec_command".into(),
        args: json!({ "cmd": cmd, "workdir": "repo" }).to_string(),
        output: format!(
            "Chunk ID: 1b20aa\nWall time: 10.0008 seconds\nProcess running with session ID 4\nOriginal token count: 300\nOutput:\n{first}\nChunk ID: 77d0c3\nWall time: 41.2210 seconds\nProcess exited with code {code}\nOriginal token count: 90\nOutput:\n{last}"
        ),
        error: (code != 0).then(|| format!("Exit code {code}\n{last}")),
        exit_code: Some(code),
    }
}

/// A Codex shell call its host stopped at a timeout: exit status 124 and the
/// host's `command timed out after …` line above what printed before.
pub(crate) fn codex_timeout(cmd: &str, printed: &str) -> ToolTrace {
    let output = format!("command timed out after 600000 milliseconds\n{printed}");
    ToolTrace {
        name: "exec_command".into(),
        args: json!({ "cmd": cmd, "workdir": "repo" }).to_string(),
        error: Some(format!("Exit code 124\n{output}")),
        output,
        exit_code: Some(124),
    }
}
