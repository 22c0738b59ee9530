//! Tool calls as the hosts record the rarer shapes: Codex's tool-router
//! failures, a failed `apply_patch` verification, code-mode cells, OpenAI-style
//! `shell` messages, unified-exec sessions left running, folded or stopped at a
//! timeout; and tools cut to the evidence bound as a review holds them.
//! Derived, written for these tests. Must not hold cases.

use advisor::host::ToolTrace;
use serde_json::json;

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
