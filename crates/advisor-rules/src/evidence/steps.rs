//! What one tool call of the turn was, as a step: a shell call's command
//! line, or the files a write targeted.
//!
//! Owns [`Step`] and [`step_kind`] — a write tool (`Write`, `Edit`,
//! `write_file`, `apply_patch`, …) with the path its arguments name, Codex's
//! `apply_patch` through a shell (`{"command": ["apply_patch", "*** Begin
//! Patch …"]}`, `applypatch << 'PATCH'`), else the command line of a shell
//! call — read by the failed-step rule and by the contest a judge weighs.
//! Must not read the answer or decide whether a step failed.

use serde_json::Value;

use super::shell::simple_commands;
use super::tool_calls::command_line;
use advisor::host::ToolTrace;

/// Tools that write or edit a file named in their arguments (lower case).
pub(crate) const WRITE_TOOLS: &[&str] = &[
    "write",
    "edit",
    "multiedit",
    "notebookedit",
    "write_file",
    "replace",
    "edit_file",
    "create_file",
    "apply_patch",
    "str_replace_based_edit_tool",
];

/// A step: a shell call's command line, or the path a write targeted.
pub(crate) enum Step {
    /// A shell call and its command line.
    Shell(String),
    /// A write of these files.
    Write(Vec<String>),
}

/// The step `t` was, if it was a shell call or a write.
pub(crate) fn step_kind(t: &ToolTrace) -> Option<Step> {
    if WRITE_TOOLS.contains(&t.name.to_ascii_lowercase().as_str()) {
        let path = match serde_json::from_str::<Value>(&t.args) {
            Ok(Value::Object(map)) => ["file_path", "path", "notebook_path", "absolute_path", "filePath"]
                .iter()
                .find_map(|k| map.get(*k).and_then(Value::as_str).map(str::to_owned)),
            _ => None,
        };
        return Some(Step::Write(path.map_or_else(|| patch_paths(&t.args), |p| vec![p])));
    }
    // Codex's `shell` call of `apply_patch` (`{"command": ["apply_patch", "*** Begin Patch …"]}`)
    // writes, and so does its here-document form under either name Codex
    // intercepts (`applypatch << 'PATCH'` … `*** Update File: app/main.py`)
    command_line(t).map(|line| {
        let commands = simple_commands(&line);
        match commands.first().map(|c| c.words.as_slice()) {
            Some([program, patch, ..]) if program == "apply_patch" && patch.contains("*** ") => {
                Step::Write(patch_paths(patch))
            }
            Some([program, ..]) if matches!(program.as_str(), "apply_patch" | "applypatch") => {
                Step::Write(patch_paths(&line))
            }
            _ => Step::Shell(line),
        }
    })
}

/// The files a patch (`apply_patch`: `*** Add File: path`) names.
fn patch_paths(patch: &str) -> Vec<String> {
    patch
        .lines()
        .take(10_000)
        .filter_map(|l| {
            ["*** Add File: ", "*** Update File: ", "*** Delete File: "]
                .iter()
                .find_map(|h| l.strip_prefix(h))
        })
        .map(|p| p.trim().to_owned())
        .take(64)
        .collect()
}
