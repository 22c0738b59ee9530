//! What the subjects share: tool calls as the hosts record them (Claude Code's
//! `Bash`, Codex's `exec_command` and its rarer records, Gemini CLI's
//! `run_shell_command`, writes, edits, reads and patches; derived, written for
//! these tests), the rules' notes on an answer over them, and the two checks —
//! an honest answer raises nothing that interrupts, a false claim a blocker.
//! Must not hold cases.

mod long_outputs;
mod records;
mod traces;

pub(crate) use long_outputs::{
    JEST_FAIL, JEST_OK, PYTEST_FAIL, PYTEST_OK, blocks_b, cargo_ok_tests, compiling, go_ok, honest_after_b, honest_b,
    jest_pass_lines, numbered, pip_lines, pytest_passed, shell_command, sized, vite_assets,
};
pub(crate) use records::{bounded, cell, codex_router, codex_timeout, openai, patch_failed, polled, running};
pub(crate) use traces::{bash, rule_notes};

use advisor::host::ToolTrace;
use advisor::{Note, Severity};
use serde_json::json;

/// A Codex `exec_command` call as its reader records it: the exit code, and
/// for a non-zero code the error the reader writes.
pub(crate) fn codex(cmd: &str, output: &str, code: i64) -> ToolTrace {
    ToolTrace {
        name: "exec_command".into(),
        args: json!({ "cmd": cmd, "workdir": "repo" }).to_string(),
        output: format!(
            "Chunk ID: 3f2a\nWall time: 0.2 seconds\nProcess exited with code {code}\nOriginal token count: 40\nOutput:\n{output}"
        ),
        error: (code != 0).then(|| format!("Exit code {code}\n{output}")),
        exit_code: Some(code),
    }
}

/// A Gemini CLI `run_shell_command` call: the fields Gemini CLI writes after
/// the output, the exit code, and an error for a non-zero code.
pub(crate) fn gemini(cmd: &str, output: &str, code: i64) -> ToolTrace {
    let text = format!(
        "Command: {cmd}\nDirectory: (root)\nOutput: {output}\nError: (none)\nExit Code: {code}\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 4242"
    );
    ToolTrace {
        name: "run_shell_command".into(),
        args: json!({ "command": cmd, "description": "run" }).to_string(),
        error: (code != 0).then(|| text.clone()),
        output: text,
        exit_code: Some(code),
    }
}

/// A Claude Code `Write` that succeeded.
pub(crate) fn write(path: &str) -> ToolTrace {
    ToolTrace {
        name: "Write".into(),
        args: json!({ "file_path": path, "content": "x" }).to_string(),
        output: format!("File created successfully at: {path}"),
        ..ToolTrace::default()
    }
}

/// A Claude Code `Edit`, failed when `error` is given.
pub(crate) fn edit(path: &str, old: &str, error: Option<&str>) -> ToolTrace {
    ToolTrace {
        name: "Edit".into(),
        args: json!({ "file_path": path, "old_string": old, "new_string": "y" }).to_string(),
        output: if error.is_none() {
            format!("The file {path} has been updated.")
        } else {
            String::new()
        },
        error: error.map(|e| format!("<tool_use_error>{e}</tool_use_error>")),
        exit_code: None,
    }
}

/// A Claude Code `Read`, failed when `error` is given.
pub(crate) fn read(path: &str, error: Option<&str>) -> ToolTrace {
    ToolTrace {
        name: "Read".into(),
        args: json!({ "file_path": path }).to_string(),
        output: if error.is_none() { "1\tx".into() } else { String::new() },
        error: error.map(|e| format!("<tool_use_error>{e}</tool_use_error>")),
        exit_code: None,
    }
}

/// A Codex `apply_patch` that succeeded.
pub(crate) fn patch(body: &str) -> ToolTrace {
    ToolTrace {
        name: "apply_patch".into(),
        args: body.into(),
        output: "Success. Updated the following files:".into(),
        ..ToolTrace::default()
    }
}

pub(crate) const NOT_FOUND: &str = "String to replace not found in file.";

pub(crate) fn interrupting(answer: &str, tools: Vec<ToolTrace>, earlier: usize) -> Vec<Note> {
    rule_notes(answer, tools, earlier)
        .into_iter()
        .map(|r| r.note)
        .filter(|n| n.severity.interrupts())
        .collect()
}

/// An honest stop: nothing may interrupt.
pub(crate) fn honest(answer: &str, tools: Vec<ToolTrace>) {
    let notes = interrupting(answer, tools, 0);
    assert!(
        notes.is_empty(),
        "false block of an honest answer {answer:?}: {notes:?}"
    );
}

/// A false claim: a Blocker.
pub(crate) fn blocks(answer: &str, tools: Vec<ToolTrace>, earlier: usize) {
    let notes = interrupting(answer, tools, earlier);
    assert!(
        notes.iter().any(|n| n.severity == Severity::Blocker),
        "missed false claim {answer:?}: {notes:?}"
    );
}

/// An honest stop whose first `earlier` calls came before the turn under review.
pub(crate) fn honest_after(answer: &str, tools: Vec<ToolTrace>, earlier: usize) {
    let notes = interrupting(answer, tools, earlier);
    assert!(
        notes.is_empty(),
        "false block of an honest answer {answer:?}: {notes:?}"
    );
}

/// A passing pytest run.
pub(crate) const PYTEST_PASS: &str = "........................................ [100%]\n42 passed in 1.21s";
