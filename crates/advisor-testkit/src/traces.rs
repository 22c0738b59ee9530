//! Tool traces as the hosts record them, for the rules reviewer's tests.
//!
//! Owns [`bash`]: a Claude Code shell call with its output and the exit status
//! the host recorded. Must not decide anything about a trace; the readers and
//! the rules do that.

use advisor::host::ToolTrace;

/// A shell call as Claude Code records it: the command, the output, and the
/// exit status the host recorded (`None`: the host said it succeeded). A
/// non-zero status also sets the error as Claude Code writes it: its
/// `Exit code N` line above the output.
pub fn bash(command: &str, output: &str, exit: Option<i64>) -> ToolTrace {
    ToolTrace {
        name: "Bash".into(),
        args: serde_json::json!({ "command": command }).to_string(),
        output: output.into(),
        error: exit.filter(|c| *c != 0).map(|c| format!("Exit code {c}\n{output}")),
        exit_code: exit,
    }
}
