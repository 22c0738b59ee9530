//! From a tool trace to runs: which calls were test or build runs, and how each ended.
//!
//! Owns [`Run`], [`runs_of`] and [`outstanding_failures`]. A shell call
//! (Bash `command`, Codex `cmd`, a `["bash","-lc",…]` argv, or plain text
//! arguments of a tool named like a shell) is a run when one of its simple
//! commands is in the runner table; a tool the configuration names as a
//! runner is a run by itself. Output that arrives later — Codex unified exec
//! `write_stdin` polls of a session, Claude Code `TaskOutput`/`BashOutput` of a
//! background task — is attached to the run that started it. A rejected or
//! cancelled call is not a run and not a failure. Must not look at the answer.

use serde_json::Value;

use super::outcome::{Says, exit_code_of, summary_of};
use super::runners::{Invocation, RUNNERS, RunKind, recognise};
use super::shell::simple_commands;
use crate::host::ToolTrace;

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
];

/// Bytes of output kept per run (the tail: summaries come last).
const MAX_RUN_OUTPUT: usize = 256 * 1024;

/// Appends `more` to `out`, keeping at most [`MAX_RUN_OUTPUT`] bytes of the tail.
fn append_bounded(out: &mut String, more: &str) {
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(more);
    if out.len() > MAX_RUN_OUTPUT {
        let mut cut = out.len() - MAX_RUN_OUTPUT;
        while !out.is_char_boundary(cut) {
            cut += 1;
        }
        out.drain(..cut);
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ending {
    /// Passed.
    Passed,
    /// Failed; the decisive evidence (a summary line, or the exit status).
    Failed(String),
    /// Still running, or nothing says how it ended.
    Unknown,
}

/// One test or build run.
#[derive(Debug, Clone)]
pub(crate) struct Run {
    /// Index of the starting call in the trace.
    pub(crate) index: usize,
    /// What it ran: one invocation per runner in the command line.
    pub(crate) invocations: Vec<Invocation>,
    /// A configured runner tool: its name and arguments (instead of invocations).
    pub(crate) tool: Option<(String, String, RunKind)>,
    /// The command line (or tool name), for notes.
    pub(crate) display: String,
    /// All output seen for it.
    output: String,
    /// Whether the host flagged the call as failed (its `error`).
    host_error: Option<String>,
    /// A background session id its later output arrives under.
    session: Option<String>,
    /// Whether it finished (false while a unified-exec session or background task runs on).
    finished: bool,
    /// Whether its output went through a pipe (the exit status is then the pipe's).
    piped: bool,
    /// How it ended.
    pub(crate) ending: Ending,
}

impl Run {
    /// Whether any part of it is a test run.
    pub(crate) fn is_test(&self) -> bool {
        self.invocations.iter().any(|i| i.runner().kind == RunKind::Test)
            || self.tool.as_ref().is_some_and(|t| t.2 == RunKind::Test)
    }

    fn decide(&mut self) {
        let formats: Vec<_> = if self.tool.is_some() {
            RUNNERS.iter().flat_map(|r| r.formats.iter().copied()).collect()
        } else {
            self.invocations
                .iter()
                .flat_map(|i| i.runner().formats.iter().copied())
                .collect()
        };
        let summary = summary_of(&self.output, &formats);
        let code = exit_code_of(&self.output).or_else(|| self.host_error.as_deref().and_then(exit_code_of));
        self.ending = match (summary, code) {
            (Some((Says::Fail, line)), _) => Ending::Failed(line),
            (_, Some(c)) if c != 0 => Ending::Failed(format!("exit status {c}")),
            (Some((Says::Pass, _)), _) | (None, Some(_)) => Ending::Passed,
            (None, None) if !self.finished => Ending::Unknown,
            // no summary line and no exit status: the host's own verdict
            (None, None) => match &self.host_error {
                Some(e) if !self.piped => Ending::Failed(first_line(e)),
                Some(_) => Ending::Unknown,
                None => Ending::Passed,
            },
        };
    }
}

fn first_line(s: &str) -> String {
    let line = s.lines().find(|l| !l.trim().is_empty()).unwrap_or("failed").trim();
    crate::text::clamp_chars(line, 200).to_owned()
}

/// Whether a call was rejected by the user or cancelled by the host, so it
/// never ran. (When the transcript readers add a `rejected` flag to
/// [`ToolTrace`], it belongs here too.)
pub(crate) fn is_rejected(t: &ToolTrace) -> bool {
    let text = t.error.as_deref().unwrap_or(&t.output);
    let head = crate::text::clamp_chars(text.trim_start(), 400);
    head.contains("The user doesn't want to proceed with this tool use")
        || head.contains("The tool use was rejected")
        || head.contains("Sibling tool call errored")
        || head.contains("[Request interrupted by user")
        || head.starts_with("rejected by user")
        || head.starts_with("aborted by user")
}

/// The command line of a shell call, if it is one.
fn command_line(t: &ToolTrace) -> Option<String> {
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
        Err(_) => is_shell_name.then(|| t.args.clone()),
    }
}

/// The background session a call's output says continues elsewhere.
fn session_started(output: &str) -> Option<String> {
    ["Process running with session ID ", "running in background with ID: "]
        .iter()
        .find_map(|marker| {
            let i = output.find(marker)?;
            let id: String = output[i + marker.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            (!id.is_empty()).then_some(id)
        })
}

/// The session a polling call reads from (`write_stdin` `session_id`, `TaskOutput` `task_id`, `BashOutput` `bash_id`).
fn session_polled(t: &ToolTrace) -> Option<String> {
    let Ok(Value::Object(map)) = serde_json::from_str::<Value>(&t.args) else {
        return None;
    };
    ["session_id", "task_id", "bash_id", "shell_id"]
        .iter()
        .find_map(|k| map.get(*k))
        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
}

/// The runs in `tools`, oldest first. `runner_tools` are non-shell tools the
/// configuration marks as runners.
pub(crate) fn runs_of(tools: &[ToolTrace], runner_tools: &[(String, RunKind)]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (index, t) in tools.iter().enumerate() {
        if is_rejected(t) {
            continue;
        }
        // output of a background session started earlier
        if let Some(id) = session_polled(t) {
            if let Some(run) = runs
                .iter_mut()
                .rev()
                .find(|r| r.session.as_deref() == Some(id.as_str()))
            {
                append_bounded(&mut run.output, &t.output);
                run.finished = !t.output.contains("Process running with session ID")
                    && !t.output.contains("<status>running</status>");
                if t.error.is_some() && exit_code_of(&t.output).is_none() && run.finished {
                    run.host_error = t.error.clone();
                }
                run.decide();
                continue;
            }
        }
        let configured = runner_tools.iter().find(|(n, _)| n.eq_ignore_ascii_case(&t.name));
        let (invocations, tool, display, piped) = if let Some((name, kind)) = configured {
            let tool = (name.clone(), normalise_args(&t.args), *kind);
            (Vec::new(), Some(tool), name.clone(), false)
        } else {
            let Some(line) = command_line(t) else { continue };
            let cmds = simple_commands(&line);
            let invocations: Vec<Invocation> = cmds.iter().filter_map(recognise).collect();
            if invocations.is_empty() {
                continue;
            }
            let piped = cmds
                .iter()
                .zip(cmds.iter().skip(1))
                .any(|(a, _)| a.piped && recognise(a).is_some());
            let display = invocations
                .iter()
                .map(|i| i.display.as_str())
                .collect::<Vec<_>>()
                .join(" && ");
            (invocations, None, display, piped)
        };
        let session = session_started(&t.output);
        let mut run = Run {
            index,
            invocations,
            tool,
            display,
            output: String::new(),
            host_error: t.error.clone(),
            finished: session.is_none(),
            session,
            piped,
            ending: Ending::Unknown,
        };
        append_bounded(&mut run.output, &t.output);
        if let Some(e) = t.error.as_ref().filter(|e| !t.output.contains(e.as_str())) {
            append_bounded(&mut run.output, e);
        }
        run.decide();
        runs.push(run);
    }
    runs
}

/// Tool arguments with insignificant differences removed, for comparing runs.
fn normalise_args(args: &str) -> String {
    match serde_json::from_str::<Value>(args) {
        Ok(Value::Object(m)) if m.is_empty() => String::new(),
        Ok(Value::Null) => String::new(),
        Ok(v) => v.to_string(),
        Err(_) => args.trim().to_owned(),
    }
}

/// Whether passing run `later` ran at least the tests of `inv`: the same runner
/// with the same selection or with none.
fn covers_invocation(later: &Run, inv: &Invocation) -> bool {
    later.invocations.iter().any(|l| {
        // a passing test run of the same tool also builds: `cargo test` covers `cargo build`
        let same = l.row == inv.row
            || (l.runner().name.split(' ').next() == inv.runner().name.split(' ').next()
                && l.runner().kind == RunKind::Test
                && inv.runner().kind == RunKind::Build);
        same && (l.selection.is_empty() || l.selection == inv.selection)
    })
}

/// Whether passing run `later` clears failed run `failed`.
fn clears(later: &Run, failed: &Run) -> bool {
    if let (Some((n1, a1, _)), Some((n2, a2, _))) = (&later.tool, &failed.tool) {
        return n1 == n2 && (a1.is_empty() || a1 == a2);
    }
    if later.display == failed.display {
        return true;
    }
    let tests: Vec<&Invocation> = failed
        .invocations
        .iter()
        .filter(|i| i.runner().kind == RunKind::Test)
        .collect();
    let needed: Vec<&Invocation> = if tests.is_empty() {
        failed.invocations.iter().collect()
    } else {
        tests
    };
    !needed.is_empty() && needed.iter().all(|inv| covers_invocation(later, inv))
}

/// The failed runs no later passing run cleared, oldest first.
pub(crate) fn outstanding_failures(runs: &[Run]) -> Vec<&Run> {
    runs.iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.ending, Ending::Failed(_)))
        .filter(|(i, r)| {
            !runs[i + 1..]
                .iter()
                .any(|later| later.ending == Ending::Passed && clears(later, r))
        })
        .map(|(_, r)| r)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exec(cmd: &str, output: &str) -> ToolTrace {
        ToolTrace {
            name: "exec_command".into(),
            args: serde_json::json!({ "cmd": cmd }).to_string(),
            output: output.into(),
            ..ToolTrace::default()
        }
    }

    #[test]
    fn a_session_still_running_neither_fails_nor_clears() {
        let tools = vec![
            exec(
                "cargo test",
                "Process exited with code 101\nOutput:\ntest result: FAILED. 1 passed; 1 failed",
            ),
            exec(
                "cargo test",
                "Process running with session ID 7\nOutput:\n   Compiling app",
            ),
        ];
        let runs = runs_of(&tools, &[]);
        assert_eq!(runs[1].ending, Ending::Unknown);
        assert_eq!(outstanding_failures(&runs).len(), 1);
    }

    #[test]
    fn run_output_keeps_a_bounded_tail() {
        let mut out = String::new();
        append_bounded(&mut out, &"é".repeat(MAX_RUN_OUTPUT));
        append_bounded(&mut out, "test result: ok.");
        assert!(out.len() <= MAX_RUN_OUTPUT && out.ends_with("test result: ok."));
    }
}
