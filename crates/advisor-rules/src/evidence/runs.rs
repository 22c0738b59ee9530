//! From a tool trace to runs: which calls were test or build runs, and how each ended.
//!
//! Owns [`Run`] and [`runs_of`]. A shell call (its
//! command line and host record: [`tool_calls`](super::tool_calls)) is a run
//! when one of its simple commands is in the runner table; a tool the configuration names as a
//! runner is a run by itself. Output that arrives later — Codex unified exec
//! `write_stdin` polls of a session, Claude Code `TaskOutput`/`BashOutput` of a
//! background task — is attached to the run that started it. A rejected or
//! cancelled call is not a run and not a failure.
//!
//! How a run ended comes from the host first: the exit status the host
//! recorded ([`ToolTrace::exit_code`]), else the host's header at the top of
//! the output (`Exit code 1`, `Process exited with code 1`, `<exit_code>`),
//! never a line further down that the tool itself printed; then the runner's
//! own summary line. Whether a later passing run clears an earlier failure is
//! [`coverage`](super::coverage)'s. Must not look at the answer.

use serde_json::Value;

use super::invocation::Invocation;
use super::kind::RunKind;
use super::outcome::{Summary, summary_of};
use super::run_line::RunLine;
use super::runners::RUNNERS;
use super::runners::{Format, Says};
use super::tool_calls::{command_line, host_exit_of, is_rejected};
use advisor::host::ToolTrace;

/// Lines of a failed run's output, from the end, searched for a compile error.
const COMPILE_LINES: usize = 400;

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
    /// The directory each invocation ran in, relative to where the call
    /// started (`cd svc && pytest` → `svc`; empty: where it started).
    pub(crate) dirs: Vec<String>,
    /// A configured runner tool: its name and arguments (instead of invocations).
    pub(crate) tool: Option<(String, String, RunKind)>,
    /// The command line (or tool name), for notes.
    pub(crate) display: String,
    /// All output seen for it.
    pub(crate) output: String,
    /// Whether the host flagged the call as failed (its `error`).
    host_error: Option<String>,
    /// The exit status the host recorded, in its fields or its header.
    host_exit: Option<i64>,
    /// A background session id its later output arrives under.
    session: Option<String>,
    /// Whether it finished (false while a unified-exec session or background task runs on).
    finished: bool,
    /// Whether its output went through a pipe (the exit status is then the pipe's).
    piped: bool,
    /// Whether its command line has a fallback (`a || b`): the exit status may
    /// then be the fallback's.
    or_else: bool,
    /// Whether its command line also formats (`cargo fmt` or `rustfmt`
    /// without `--check`): a check's diffs before it were fixed there.
    formats_in_line: bool,
    /// Whether the ending rests on a runner's own summary line.
    pub(crate) read_from_summary: bool,
    /// What kind of check the decisive failing line came from, where its
    /// format says (a pyright line inside `make check` is a build's).
    failed_kind: Option<RunKind>,
    /// Whether the decisive failing line was a linter's or formatter's.
    failed_lint_line: bool,
    /// Whether the decisive failing line was rustfmt's (`Diff in …`): a
    /// format check's failure, no build's.
    failed_format_line: bool,
    /// The one invocation the failure is known to be, when it is one of
    /// several: a runner its shell could not start (`go test ./... | tail &&
    /// node --test`, where `go` was not found). Only it needs covering.
    pub(crate) failed_only: Option<usize>,
    /// Whether it failed only because nothing it was to run ran: a runner
    /// of it could not be started, or a test run selected no test (`no tests
    /// ran in 0.01s`, `10 deselected in 0.50s`, every test skipped). Then it
    /// is held against claims about tests, builds or that runner, not against
    /// "Done": nothing it ran came out red.
    pub(crate) ran_nothing: bool,
    /// How it ended.
    pub(crate) ending: Ending,
}

impl Run {
    /// Whether it read a CI result (`gh run view`, its `--log`, `gh pr checks`)
    /// rather than running anything here.
    pub(crate) fn is_ci_read(&self) -> bool {
        !self.invocations.is_empty()
            && self
                .invocations
                .iter()
                .all(|i| matches!(i.runner().name, "gh run view" | "gh run log" | "gh pr checks"))
    }

    /// Whether any part of it is a test run.
    pub(crate) fn is_test(&self) -> bool {
        self.invocations.iter().any(|i| i.runner().kind == RunKind::Test)
            || self.tool.as_ref().is_some_and(|t| t.2 == RunKind::Test)
    }

    /// Whether what failed was tests: the kind of the decisive failing line
    /// where its format says (`bun run test && bun run lint` failing on the
    /// linter's line failed a build), else whether the run tests.
    pub(crate) fn failed_tests(&self) -> bool {
        self.failed_kind.map_or_else(|| self.is_test(), |k| k == RunKind::Test)
    }

    /// Whether what failed was a build: a build's or linter's run, or a test
    /// run whose code did not compile (`go test` stopping at
    /// `main.go:6:2: "os" imported and not used`) — that fails both.
    pub(crate) fn failed_build(&self) -> bool {
        // `cargo test --no-run` only compiles
        let compile_only = self
            .invocations
            .iter()
            .any(|i| i.selection.iter().any(|w| w == "--no-run"));
        // rustfmt's diffs break no build
        if self.failed_format_line {
            return false;
        }
        !self.failed_tests()
            || (compile_only && matches!(self.ending, Ending::Failed(_)))
            || (matches!(self.ending, Ending::Failed(_))
                && (self.output.lines().rev().take(COMPILE_LINES)).any(|l| super::outcome::is_compile_error(l.trim())))
    }

    /// Whether what failed was a lint or format check: the decisive line was a
    /// linter's or formatter's, or the run was one (`ruff check`, `prettier
    /// --check`, `cargo fmt --check`, a task named for it: `npm run lint`).
    pub(crate) fn failed_lint(&self) -> bool {
        let lint_task = |d: &str| {
            d.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| matches!(w, "lint" | "format" | "fmt"))
        };
        let lints = |i: &Invocation| is_linter(i) || (i.opaque && lint_task(&i.display.to_lowercase()));
        matches!(self.ending, Ending::Failed(_))
            && match self.failed_only.and_then(|k| self.invocations.get(k)) {
                Some(only) => lints(only),
                None => self.failed_lint_line || self.invocations.iter().any(lints),
            }
    }

    /// Whether it failed before running anything: no summary line, and the
    /// program or its module was not there (exit status 127, "command not
    /// found", "No module named pytest", uv's "Failed to spawn").
    pub(crate) fn ran_nothing(&self) -> bool {
        const ABSENT: &[&str] = &[
            "command not found",
            "No module named",
            ": not found",
            "is not recognized as",
            "Failed to spawn",
        ];
        matches!(self.ending, Ending::Failed(_))
            && !self.read_from_summary
            && (self.host_exit == Some(127) || ABSENT.iter().any(|a| self.output.contains(a)))
    }

    /// The one invocation a name of it can mean: the only one, the one its
    /// failure is known to be ([`failed_only`](Self::failed_only): `ty` not
    /// found in `uv run ruff check … && uv run ty check …`), or, when its
    /// decisive failing line was a linter's, its only linter (the same run
    /// failing on ruff's `Found 1 error.`).
    pub(crate) fn named_invocation(&self) -> Option<&Invocation> {
        // the one invocation the failure is known to be (`ty` not found)
        if let Some(only) = self.failed_only.and_then(|k| self.invocations.get(k)) {
            return Some(only);
        }
        match self.invocations.as_slice() {
            [only] => Some(only),
            all if self.failed_lint_line => {
                let mut linters = all.iter().filter(|i| is_linter(i));
                linters.next().filter(|_| linters.next().is_none())
            }
            _ => None,
        }
    }

    /// Whether its ending rests only on an exit status of a task runner whose
    /// task the rules only guessed to be a test or build (`just check`)
    /// and whose output they could not read: such a failure is reported,
    /// never held against the answer as a blocker. A standard entry point
    /// (`npm test`, `make test`, `tox`) fails its tests when it exits non-zero.
    pub(crate) fn is_opaque(&self) -> bool {
        !self.read_from_summary && self.tool.is_none() && self.invocations.iter().all(|i| i.opaque)
    }

    /// The part of a failed run that passed, when its failure is known to be
    /// one invocation of several ([`failed_only`](Self::failed_only)): the
    /// others, as a passed run (`ruff check && ty check` where `ty` was not
    /// found still ran ruff to the end: `&&` ran it first).
    pub(crate) fn passed_part(&self) -> Option<Run> {
        let k = self.failed_only?;
        if self.invocations.len() < 2 || k >= self.invocations.len() {
            return None;
        }
        let mut part = self.clone();
        part.invocations.remove(k);
        if k < part.dirs.len() {
            part.dirs.remove(k);
        }
        part.display = part
            .invocations
            .iter()
            .map(|i| i.display.as_str())
            .collect::<Vec<_>>()
            .join(" && ");
        part.failed_only = None;
        part.ending = Ending::Passed;
        Some(part)
    }

    /// Whether the host stopped it at a timeout or by a signal (exit status
    /// 124, 130, 137, 143): it did not run to its end.
    pub(crate) fn stopped(&self) -> bool {
        matches!(self.host_exit, Some(124 | 130 | 137 | 143))
    }

    /// Whether the exit status may not be its runner's own: a pipe, a
    /// fallback (`|| true`), a sequence of commands, or none recorded.
    fn status_hidden(&self) -> bool {
        self.piped || self.or_else || self.host_exit.is_none() || self.invocations.len() > 1
    }

    /// Decides how it ended, from all output seen so far and the host's record.
    fn decide(&mut self) {
        let formats = self.formats();
        let summary = self.summary(&formats);
        self.note_summary(summary.as_ref());
        let only_fails = !formats.is_empty() && formats.iter().all(|f| f.only_fails());
        self.ending = self.ending_from(summary, only_fails);
        if !self.check_not_started() {
            self.check_tested_nothing();
        }
    }

    /// The formats its output is read with: its runners', or every runner's
    /// for a configured runner tool.
    fn formats(&self) -> Vec<Format> {
        if self.tool.is_some() {
            RUNNERS.iter().flat_map(|r| r.formats.iter().copied()).collect()
        } else {
            self.invocations
                .iter()
                .flat_map(|i| i.runner().formats.iter().copied())
                .collect()
        }
    }

    /// The decisive summary line of its output in `formats`.
    fn summary(&self, formats: &[Format]) -> Option<Summary> {
        // rustfmt's `Diff in …` lines under an exit status of 0 that is the
        // run's own were not rustfmt's (a test printing one), or were fixed by
        // the same line (`cargo fmt --check || cargo fmt`, `cargo fmt --check;
        // cargo fmt && cargo fmt --check`)
        let own_status = !self.status_hidden() || self.formats_in_line;
        summary_of(&self.output, formats)
            .filter(|s| !(s.format == Format::Rustfmt && self.host_exit == Some(0) && own_status))
    }

    /// Records what the decisive line says of the run: whether the ending
    /// rests on it, and what kind of check failed.
    fn note_summary(&mut self, summary: Option<&Summary>) {
        // a package manager's "the script failed" says no more than its exit
        // status: a wrapper's run stays unread (opaque) with it
        self.read_from_summary = summary.is_some_and(|s| s.format != Format::Script);
        self.failed_kind = summary.filter(|s| s.says == Says::Fail).and_then(|s| s.format.kind());
        self.failed_format_line = summary.is_some_and(|s| s.says == Says::Fail && s.format == Format::Rustfmt);
        self.failed_lint_line = summary.is_some_and(|s| {
            s.says == Says::Fail && matches!(s.format, Format::Lint | Format::PyLint | Format::Rustfmt)
        });
        // a linter's failing line in a run with one linter is that linter's
        // failure (`ruff check … && ty check …` stopping at ruff's `Found 1 error.`)
        self.failed_only = None;
        self.ran_nothing = false;
        if self.failed_lint_line && self.invocations.len() > 1 {
            let mut linters = self.invocations.iter().enumerate().filter(|(_, i)| is_linter(i));
            if let (Some((k, _)), None) = (linters.next(), linters.next()) {
                self.failed_only = Some(k);
            }
        }
    }

    /// How it ended: a failing summary line, then a non-zero exit status, then
    /// a passing line or a zero status, then the host's own verdict.
    fn ending_from(&self, summary: Option<Summary>, only_fails: bool) -> Ending {
        match (summary.map(|s| (s.says, s.line, s.format)), self.host_exit) {
            (None, _) if only_fails => Ending::Unknown,
            (Some((Says::Fail, line, _)), _) => Ending::Failed(line),
            (Some((Says::Pass, _, f)), _) if f.passes_despite_exit() => Ending::Passed,
            (_, Some(c)) if c != 0 => Ending::Failed(format!("exit status {c}")),
            (Some((Says::Pass, _, _)), _) | (None, Some(_)) => Ending::Passed,
            (None, None) if !self.finished => Ending::Unknown,
            // no summary line and no exit status: the host's own verdict
            (None, None) => match &self.host_error {
                Some(e) if !self.piped => Ending::Failed(first_line(e)),
                Some(_) => Ending::Unknown,
                None => Ending::Passed,
            },
        }
    }

    /// A runner its shell could not start ran nothing, whatever the pipe's
    /// exit status or another runner's summary says (`go test ./... | tail`
    /// printing `bash: line 1: go: command not found`) — only where the exit
    /// status is not the runner's own: a pipe, a sequence, or none recorded
    /// (a runner that exited 0 ran, whatever a child it started printed).
    /// Whether one was found.
    fn check_not_started(&mut self) -> bool {
        if self.ending != Ending::Passed || !self.status_hidden() {
            return false;
        }
        let started = self.invocations.iter().enumerate().find_map(|(k, i)| {
            super::not_started::not_started(&self.output, i.runner().programs)
                .map(|line| (k, line.to_owned(), i.runner().kind))
        });
        let Some((k, line, kind)) = started else {
            return false;
        };
        self.ending = Ending::Failed(line);
        self.failed_kind = Some(kind);
        self.failed_only = Some(k);
        self.ran_nothing = true;
        true
    }

    /// A test run whose every test was skipped tested nothing; one that
    /// selected no test failed on how it was called (an invalid `-k`
    /// expression, a filter nothing matched), not on the code (a run of one
    /// command: in `pytest -k x && npm test` the other may be red).
    fn check_tested_nothing(&mut self) {
        if self.ending == Ending::Passed && self.is_test() {
            if let Some(line) = super::outcome::all_skipped(&self.output) {
                self.ending = Ending::Failed(line);
                self.read_from_summary = true;
                self.failed_kind = Some(RunKind::Test);
            }
        }
        if matches!(self.ending, Ending::Failed(_)) && self.is_test() && self.invocations.len() <= 1 {
            self.ran_nothing |= super::outcome::ran_no_test(&self.output);
        }
    }
}

fn first_line(s: &str) -> String {
    let line = s.lines().find(|l| !l.trim().is_empty()).unwrap_or("failed").trim();
    crate::text::clamp_chars(line, 200).to_owned()
}

/// Whether an invocation runs a linter or formatter: a runner read with the
/// linters' format alone (`eslint`, `ruff`, `prettier`, …), or `cargo fmt` / `rustfmt`.
fn is_linter(i: &Invocation) -> bool {
    let runner = i.runner();
    use Format::{Lint, PyLint};
    runner.formats == [Lint] || runner.formats == [PyLint] || matches!(runner.name, "cargo fmt" | "rustfmt")
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
                if run.finished {
                    run.host_exit = host_exit_of(t).or(run.host_exit);
                    if t.error.is_some() && run.host_exit.is_none() {
                        run.host_error = t.error.clone();
                    }
                }
                run.decide();
                continue;
            }
        }
        let configured = runner_tools.iter().find(|(n, _)| n.eq_ignore_ascii_case(&t.name));
        let (line, tool, display) = if let Some((name, kind)) = configured {
            let tool = (name.clone(), normalise_args(&t.args), *kind);
            (RunLine::default(), Some(tool), name.clone())
        } else {
            let Some(command) = command_line(t) else { continue };
            let line = RunLine::read(&command);
            if line.invocations.is_empty() {
                continue;
            }
            let display = line
                .invocations
                .iter()
                .map(|i| i.display.as_str())
                .collect::<Vec<_>>()
                .join(" && ");
            (line, None, display)
        };
        let session = session_started(&t.output);
        // a reader that folded a session's later output into this call records its end
        let finished = session.is_none() || t.exit_code.is_some();
        let mut run = Run {
            index,
            tool,
            display,
            output: String::new(),
            host_error: t.error.clone(),
            // a session still running has no exit status yet, whatever its header says;
            // `… | grep` exiting 1 found no line, which says nothing of the run
            host_exit: if finished {
                host_exit_of(t).filter(|c| !(line.grep_last && *c == 1))
            } else {
                None
            },
            finished,
            session,
            piped: line.piped,
            or_else: line.or_else,
            formats_in_line: line.formats,
            invocations: line.invocations,
            dirs: line.dirs,
            read_from_summary: false,
            failed_kind: None,
            failed_lint_line: false,
            failed_format_line: false,
            failed_only: None,
            ran_nothing: false,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::coverage::outstanding_failures;

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
        assert_eq!(outstanding_failures(&runs, &Default::default()).len(), 1);
    }

    #[test]
    fn run_output_keeps_a_bounded_tail() {
        let mut out = String::new();
        append_bounded(&mut out, &"é".repeat(MAX_RUN_OUTPUT));
        append_bounded(&mut out, "test result: ok.");
        assert!(out.len() <= MAX_RUN_OUTPUT && out.ends_with("test result: ok."));
    }

    #[test]
    fn a_printed_marker_neither_silences_nor_invents_a_failure() {
        // Claude Code's header says 1; the tool printed "exit code 0" last
        let faked = ToolTrace {
            name: "Bash".into(),
            args: serde_json::json!({"command": "pytest"}).to_string(),
            output: "Exit code 1\n1 failed, 2 passed\nexit code 0".into(),
            error: Some("Exit code 1".into()),
            ..ToolTrace::default()
        };
        let runs = runs_of(std::slice::from_ref(&faked), &[]);
        assert!(matches!(runs[0].ending, Ending::Failed(_)), "{:?}", runs[0].ending);
        // a cancellation marker under a Codex exit header is no cancellation
        let codex = exec(
            "pytest",
            "Process exited with code 1\nOutput:\nSibling tool call errored\n1 failed in 0.1s",
        );
        assert!(!is_rejected(&codex));
        assert_eq!(runs_of(&[codex], &[]).len(), 1);
        // the host's own rejection is one
        let rejected = ToolTrace {
            name: "Bash".into(),
            args: serde_json::json!({"command": "pytest"}).to_string(),
            error: Some("<tool_use_error>Sibling tool call errored</tool_use_error>".into()),
            ..ToolTrace::default()
        };
        assert!(is_rejected(&rejected));
    }
}
