//! The evidence wing's public entry point: the runs of a review, each with
//! its kind, its outcome, the line that decided it and what cleared it.
//!
//! Owns [`RunReader`] (how to read: the host's own runner tools, the
//! workspace's package scripts), [`RunEvidence`] (one run as the rules read
//! it) and [`Outcome`]. This is what the rules' verdicts stand on, given to a
//! caller whole — a judge that reads the evidence, a report — so that it needs
//! no rule to find the failures of a turn. Must not read the answer, nor
//! decide what a failure means for it: the verdicts do.

use advisor::review::Review;

use super::coverage::{Scripts, cleared_by};
use super::kind::RunKind;
use super::runs::{Ending, Run, runs_of};

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// It passed: its runner's summary line or its exit status says so.
    Passed,
    /// It failed; [`RunEvidence::line`] is what says so.
    Failed,
    /// Nothing says how it ended (still running, or read through a pipe
    /// with no summary line and no exit status of its own).
    Unknown,
}

/// One test or build run of a review's tool calls, as the rules read it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RunEvidence {
    /// The index of the call that started it in [`Review::tools`].
    pub index: usize,
    /// Whether it answers the request under review (its call is not among
    /// the [`Review::earlier_tools`]).
    pub in_turn: bool,
    /// The command as written (its runners' commands joined by ` && `), or a
    /// configured runner tool's name.
    pub command: String,
    /// What failed, for a failed run (a type checker's line inside `make
    /// check` is a build's); what it runs, for any other.
    pub kind: RunKind,
    /// How it ended.
    pub outcome: Outcome,
    /// For a failed run, the line that decided it: the runner's own summary
    /// or error line as printed (trimmed, colour codes removed), or `exit
    /// status N`, or the first line of the host's error.
    pub line: Option<String>,
    /// Whether the outcome rests on a runner's own summary line (else on the
    /// exit status or the host's record).
    pub from_summary: bool,
    /// Whether it failed only because nothing it was to run ran: a runner its
    /// shell could not start, or a test run that selected no test.
    pub ran_nothing: bool,
    /// Whether it went through a task runner or script whose output the
    /// rules cannot read, its exit status alone deciding.
    pub opaque: bool,
    /// For a failed run, the index (in [`Review::tools`]) of the first later
    /// run that cleared it — it covers the failed one, or whether it does
    /// cannot be decided; `None` while nothing cleared it.
    pub cleared_by: Option<usize>,
}

/// How the runs of a review are read: which tools that are not shells are
/// runners of their own, and the workspace's package scripts.
///
/// ```
/// use advisor::host::ToolTrace;
/// use advisor::review::Review;
/// use advisor_rules::evidence::{Outcome, RunReader};
///
/// let bash = |command: &str, output: &str, exit: i64| ToolTrace {
///     name: "Bash".into(),
///     args: serde_json::json!({ "command": command }).to_string(),
///     output: output.into(),
///     exit_code: Some(exit),
///     ..ToolTrace::default()
/// };
/// let review = Review {
///     tools: vec![
///         bash("pytest -q", "FAILED t.py::test_a - AssertionError\n1 failed, 2 passed in 0.1s", 1),
///         bash("cat notes.txt", "1 failed", 0),
///     ],
///     ..Review::default()
/// };
/// let runs = RunReader::new().runs(&review);
/// assert_eq!(runs.len(), 1, "`cat` is no run");
/// assert_eq!(runs[0].outcome, Outcome::Failed);
/// assert_eq!(runs[0].line.as_deref(), Some("1 failed, 2 passed in 0.1s"));
/// assert_eq!(runs[0].cleared_by, None);
/// ```
#[derive(Debug, Clone, Default)]
pub struct RunReader {
    runner_tools: Vec<(String, RunKind)>,
    scripts: Scripts,
}

impl RunReader {
    /// A reader of shell calls only, with no package scripts.
    pub fn new() -> RunReader {
        RunReader::default()
    }

    /// Marks the tool `name` (matched case-insensitively), which is not a
    /// shell, as a test or build runner: each call of it is a run, read from
    /// any known summary line in its output and from its error.
    pub fn runner_tool(mut self, name: impl Into<String>, kind: RunKind) -> RunReader {
        let name = name.into();
        self.runner_tools.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
        self.runner_tools.push((name, kind));
        self
    }

    /// The workspace's package scripts (`package.json` `scripts`), so that
    /// `npm|pnpm|yarn|bun run <script>` is read as the command it runs when
    /// deciding whether a later run covers an earlier failure. Without them
    /// such coverage is undecided, and an undecided failure counts as cleared.
    pub fn package_scripts(mut self, scripts: Scripts) -> RunReader {
        self.scripts = scripts;
        self
    }

    /// Every run of `review`'s tool calls, oldest first, with what cleared
    /// each failed one.
    pub fn runs(&self, review: &Review) -> Vec<RunEvidence> {
        let runs = self.read(review);
        runs.iter()
            .enumerate()
            .map(|(i, run)| self.evidence(review, &runs, i, run))
            .collect()
    }

    /// The runs of `review` (the rules' own form).
    pub(crate) fn read(&self, review: &Review) -> Vec<Run> {
        runs_of(&review.tools, &self.runner_tools)
    }

    /// The workspace's package scripts.
    pub(crate) fn scripts(&self) -> &Scripts {
        &self.scripts
    }

    /// Run `i` of `runs` as evidence.
    fn evidence(&self, review: &Review, runs: &[Run], i: usize, run: &Run) -> RunEvidence {
        let (outcome, line) = match &run.ending {
            Ending::Passed => (Outcome::Passed, None),
            Ending::Failed(line) => (Outcome::Failed, Some(line.clone())),
            Ending::Unknown => (Outcome::Unknown, None),
        };
        let cleared = (outcome == Outcome::Failed)
            .then(|| cleared_by(runs, i, &self.scripts).map(|r| r.index))
            .flatten();
        RunEvidence {
            index: run.index,
            in_turn: run.index >= review.earlier_tools,
            command: run.display.clone(),
            kind: if run.failed_tests() {
                RunKind::Test
            } else {
                RunKind::Build
            },
            outcome,
            line,
            from_summary: run.read_from_summary,
            ran_nothing: run.ran_nothing,
            opaque: run.is_opaque(),
            cleared_by: cleared,
        }
    }
}

#[cfg(test)]
mod tests {
    use advisor::host::ToolTrace;
    use advisor::review::Review;

    use super::{Outcome, RunReader};
    use crate::evidence::RunKind;
    use crate::evidence::coverage::outstanding_failures;

    fn bash(command: &str, output: &str, exit: i64) -> ToolTrace {
        ToolTrace {
            name: "Bash".into(),
            args: serde_json::json!({ "command": command }).to_string(),
            output: output.into(),
            error: (exit != 0).then(|| format!("Exit code {exit}\n{output}")),
            exit_code: Some(exit),
        }
    }

    #[test]
    fn a_failure_is_cleared_by_the_later_run_that_covers_it_and_not_by_a_narrower_one() {
        let review = Review {
            tools: vec![
                bash("cargo test", "test result: FAILED. 3 passed; 1 failed", 101),
                bash("cargo test parse", "test result: ok. 1 passed; 0 failed", 0),
                bash("cargo clippy", "error: could not compile `app`", 101),
                bash("cargo test", "test result: ok. 4 passed; 0 failed", 0),
            ],
            earlier_tools: 1,
            ..Review::default()
        };
        let runs = RunReader::new().runs(&review);
        assert_eq!(runs.len(), 4);
        assert_eq!(runs[0].outcome, Outcome::Failed);
        assert_eq!(runs[0].line.as_deref(), Some("test result: FAILED. 3 passed; 1 failed"));
        assert!(runs[0].from_summary && !runs[0].in_turn);
        assert_eq!(runs[0].kind, RunKind::Test);
        assert_eq!(runs[0].cleared_by, Some(3), "`cargo test parse` runs fewer tests");
        assert_eq!(runs[1].outcome, Outcome::Passed);
        assert_eq!((runs[2].kind, runs[2].cleared_by), (RunKind::Build, None));
        assert!(runs[2].in_turn);
    }

    #[test]
    fn the_failures_nothing_cleared_are_the_rules_outstanding_ones() {
        let review = Review {
            tools: vec![
                bash("pytest", "1 failed, 2 passed in 0.1s", 1),
                bash("just test", "", 1),
                bash("npx tsc --noEmit", "src/a.ts(1,1): error TS2322: no", 2),
                bash("pytest tests/a.py", "3 passed in 0.1s", 0),
            ],
            ..Review::default()
        };
        let reader = RunReader::new();
        let open: Vec<usize> = (reader.runs(&review).iter())
            .filter(|r| r.outcome == Outcome::Failed && r.cleared_by.is_none())
            .map(|r| r.index)
            .collect();
        let runs = reader.read(&review);
        let outstanding: Vec<usize> = (outstanding_failures(&runs, reader.scripts()).iter())
            .map(|r| r.index)
            .collect();
        assert_eq!(open, outstanding);
        // `pytest tests/a.py` runs fewer tests than `pytest`; whether it covers
        // what `just test` ran cannot be decided, which clears it: precision first
        assert_eq!(open, [0, 2]);
        let just = &reader.runs(&review)[1];
        assert!(just.opaque, "`just test` is read by its exit status only");
        assert_eq!(just.cleared_by, Some(3));
    }
}
