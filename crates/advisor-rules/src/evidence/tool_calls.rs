//! Reading one tool call as the host recorded it: the command a shell call
//! ran and how the host says it ended.
//!
//! Owns [`command_line`] (Bash `command`, Codex `cmd`, a `["bash","-lc",…]`
//! argv, the `command` string of arguments cut to the evidence bound, or the
//! plain text arguments of a tool named like a shell), [`host_exit_of`] (the
//! exit status the host recorded, else its header at the top of the output),
//! [`unfinished`] (a call the host recorded as not ended: still running, or
//! stopped at a timeout) and [`is_rejected`] (a call the user or host
//! refused, which never ran).
//! Must not read a command's own output for its outcome, nor decide what is a
//! run — [`runs`](super::runs) does that.

use serde_json::Value;

use super::outcome::header_exit_code;
use advisor::host::ToolTrace;

/// Tool names that run a shell command given in their arguments.
const SHELL_TOOLS: &[&str] = &[
    "bash",
    "shell",
    "sh",
    "exec_command",
    "local_shell",
    "container.exec",
    "run_shell_command",
    "run_terminal_cmd",
    "execute_command",
    "terminal",
    // Codex CLI's and the Codex VS Code extension's `{"command": …, "workdir": …}`
    "shell_command",
];

/// The exit status the host recorded for `t`: its field, else its header.
pub(crate) fn host_exit_of(t: &ToolTrace) -> Option<i64> {
    t.exit_code
        .or_else(|| header_exit_code(&t.output))
        .or_else(|| t.error.as_deref().and_then(header_exit_code))
}

/// The host's marker texts for a call that never ran.
const NEVER_RAN: &[&str] = &[
    "The user doesn't want to proceed with this tool use",
    "The user doesn't want to take this action right now",
    "The tool use was rejected",
    "Sibling tool call errored",
    "[Request interrupted by user",
    "rejected by user",
    "aborted by user",
];

/// Whether a call was rejected by the user or cancelled by the host, so it
/// never ran: the host's marker is the whole start of what the call
/// returned (inside `<tool_use_error>` where Claude Code wraps it), and the
/// host recorded no exit status. A marker the tool printed after its own
/// output — or under an exit-status header — does not count.
pub(crate) fn is_rejected(t: &ToolTrace) -> bool {
    if host_exit_of(t).is_some() {
        return false;
    }
    let text = t.error.as_deref().unwrap_or(&t.output).trim_start();
    let text = text.strip_prefix("<tool_use_error>").unwrap_or(text).trim_start();
    NEVER_RAN.iter().any(|m| text.starts_with(m))
}

/// The command line of a shell call, if it is one.
pub(crate) fn command_line(t: &ToolTrace) -> Option<String> {
    let is_shell_name = SHELL_TOOLS.contains(&t.name.to_ascii_lowercase().as_str());
    match serde_json::from_str::<Value>(&t.args) {
        Ok(Value::Object(map)) => {
            let v = map.get("command").or_else(|| map.get("cmd"))?;
            match v {
                Value::String(s) => Some(s.clone()),
                // `["bash", "-lc", "pytest -q"]`: quote each word back into one line
                Value::Array(argv) => Some(
                    argv.iter()
                        .filter_map(Value::as_str)
                        .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                _ => None,
            }
        }
        Ok(_) => None,
        // arguments cut to the evidence bound are no JSON any more: the
        // command is the string that `"command"` or `"cmd"` begins
        Err(_) => lenient_command(&t.args).or_else(|| is_shell_name.then(|| t.args.clone())),
    }
}

/// The command of arguments that were JSON before they were cut
/// (`{"command":"cat <<'EOF' > notes.md\n…[truncated]…`): the string value
/// that `"command":` or `"cmd":` begins, unescaped up to its closing quote or
/// to the end of what is left.
fn lenient_command(args: &str) -> Option<String> {
    let start = ["\"command\":", "\"cmd\":"]
        .iter()
        .filter(|_| args.trim_start().starts_with('{'))
        .find_map(|k| args.find(k).map(|i| i + k.len()))?;
    let rest = args[start..].trim_start().strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.extend(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32));
                }
                Some(other) => out.push(other),
                None => break,
            },
            c => out.push(c),
        }
    }
    Some(out)
}

/// The host's header line of a unified-exec call that went on running.
const RUNNING: &str = "Process running with session ID ";

/// Whether the host recorded `t` as not ended: a session still running, or
/// stopped at a timeout (exit status 124).
pub(crate) fn unfinished(t: &ToolTrace) -> bool {
    match host_exit_of(t) {
        Some(code) => code == 124,
        // in the header, above `Output:` (a heredoc may make it long)
        None => {
            t.error.is_none()
                && t.output
                    .lines()
                    .take(200)
                    .take_while(|l| *l != "Output:")
                    .any(|l| l.starts_with(RUNNING))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_cut_to_the_bound_still_give_the_command() {
        let args = serde_json::json!({ "command": format!("cat <<'EOF' > notes.md\n{}\nEOF", "x".repeat(3000)), "workdir": "w" })
            .to_string();
        let cut = crate::text::truncate_middle(&args, 1000);
        assert!(serde_json::from_str::<Value>(&cut).is_err());
        let call = |name: &str| ToolTrace {
            name: name.into(),
            args: cut.clone(),
            ..ToolTrace::default()
        };
        for name in ["shell_command", "Bash", "mcp__any__tool"] {
            let line = command_line(&call(name)).expect("a command");
            assert!(line.starts_with("cat <<'EOF' > notes.md\nxxx"), "{name}: {line:?}");
        }
        // escapes are undone, and the value ends at its closing quote
        assert_eq!(
            lenient_command(r#"{"cmd":"echo \"a\tb\" \u00e9","workdir":"w"…[9 bytes truncated]…"#).as_deref(),
            Some("echo \"a\tb\" é")
        );
        assert_eq!(lenient_command("pytest -q"), None);
    }
}
