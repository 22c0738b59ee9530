//! `RulesReviewer`: an offline, deterministic reviewer — the CLI's default.
//!
//! Owns the rules and their configuration; each rule is a pure function of
//! the [`Review`]:
//! 1. **unverified completion** (blocker): the answer claims success while a
//!    test or build run failed and no later run of at least the same tests
//!    passed;
//! 2. **unreported failure** (concern): such a failure, and an answer that
//!    neither claims success nor mentions it;
//! 3. **stub markers** (concern): the answer contains `TODO`, `FIXME`, the
//!    `unimplemented` or `todo` macros, "placeholder", "stub" or "lorem ipsum";
//! 4. **tool failure** (nit, recorded only): another call failed and no later
//!    call of the same tool succeeded. Rejected and cancelled calls never
//!    count. It is a nit because the readers also flag calls whose output
//!    merely *contains* failure words (a Grep over logs), and a Read of a
//!    missing file is routine; it rides along when another note interrupts.
//!
//! Runs are recognised by the command that ran ([`runners`]), read from each
//! runner's summary line and the exit status ([`outcome`]), collected from the
//! trace ([`runs`]); the answer is normalised before matching ([`claims`]).
//! Must not call models, read files or keep state. It sees what a model
//! reviewer would see, and says nothing when nothing matches.
//!
//! # Token effect
//!
//! None: no model is called.

mod claims;
mod outcome;
mod runners;
mod runs;
mod shell;
mod stubs;

use async_trait::async_trait;

use super::{Review, ReviewError, Reviewer};
use crate::host::ToolTrace;
use crate::note::Note;
use crate::text::truncate_middle;

pub use runners::RunKind;
use runs::{Ending, Run, is_rejected, outstanding_failures, runs_of};

/// Bytes of evidence quoted in a note.
const QUOTE_BYTES: usize = 160;
/// Bytes of a command quoted in a note.
const COMMAND_BYTES: usize = 120;

wire_enum! {
    /// Which rule raised a note; its wire name is the rule's stable name
    /// (`unverified_completion`, …).
    #[derive(PartialOrd, Ord)]
    #[non_exhaustive]
    Rule {
        /// The answer claims success over a failing test or build run.
        UnverifiedCompletion => "unverified_completion",
        /// A test or build run failed and the answer does not mention it.
        UnreportedFailure => "unreported_failure",
        /// The answer contains a stub marker.
        StubMarker => "stub_marker",
        /// Another tool call failed and no later call of it succeeded.
        ToolFailure => "tool_failure",
    }
}

/// A note and the rule that raised it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleNote {
    /// The rule.
    pub rule: Rule,
    /// The note.
    pub note: Note,
}

impl RuleNote {
    fn new(rule: Rule, note: Note) -> RuleNote {
        RuleNote { rule, note }
    }
}

fn quote(text: &str, bytes: usize) -> String {
    let flat: Vec<&str> = text
        .split(|c: char| c.is_control() || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    truncate_middle(&flat.join(" "), bytes)
}

/// The offline rules reviewer.
///
/// Shell calls are read by their command; a tool that is not a shell (a
/// host's own `run_tests`) counts as a test or build run only when it is
/// named with [`runner_tool`](Self::runner_tool).
///
/// ```
/// use advisor::host::ToolTrace;
/// use advisor::review::{Review, RulesReviewer, RunKind};
/// let review = Review {
///     final_answer: Some("All tests pass now.".into()),
///     tools: vec![ToolTrace { name: "run_tests".into(), error: Some("2 failed".into()), ..Default::default() }],
///     ..Review::default()
/// };
/// let rules = RulesReviewer::new().runner_tool("run_tests", RunKind::Test);
/// let notes = rules.check(&review);
/// assert_eq!(notes[0].severity, advisor::Severity::Blocker);
/// ```
#[derive(Debug, Clone, Default)]
pub struct RulesReviewer {
    runner_tools: Vec<(String, RunKind)>,
}

impl RulesReviewer {
    /// The rules reviewer, with no runner tools beyond shells.
    pub fn new() -> RulesReviewer {
        RulesReviewer::default()
    }

    /// Marks the tool `name` (matched case-insensitively), which is not a
    /// shell, as a test or build runner: each call of it is a run, read from
    /// any known summary line in its output and from its error.
    pub fn runner_tool(mut self, name: impl Into<String>, kind: RunKind) -> RulesReviewer {
        let name = name.into();
        self.runner_tools.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
        self.runner_tools.push((name, kind));
        self
    }

    /// Applies every rule to `review`, most severe first.
    pub fn check(&self, review: &Review) -> Vec<Note> {
        self.check_rules(review).into_iter().map(|r| r.note).collect()
    }

    /// Like [`check`](Self::check), with the rule that raised each note.
    pub fn check_rules(&self, review: &Review) -> Vec<RuleNote> {
        let mut notes = Vec::new();
        let answer = review.final_answer.as_deref().unwrap_or("");
        let normalised = claims::normalise(answer);
        let runs = runs_of(&review.tools, &self.runner_tools);
        let failures = outstanding_failures(&runs);

        if let Some(last) = failures.last().filter(|_| !answer.is_empty()) {
            let (evidence, what) = (evidence(last), if last.is_test() { "tests" } else { "build" });
            if claims::claims_success(&normalised) {
                notes.push(RuleNote::new(
                    Rule::UnverifiedCompletion,
                    Note::blocker(format!(
                        "The answer claims success, but {evidence} and no later run of the same {what} passed. Re-run \
it and fix the failure, or say plainly that it still fails."
                    )),
                ));
            } else if !claims::mentions_failure(&normalised) {
                notes.push(RuleNote::new(
                    Rule::UnreportedFailure,
                    Note::concern(format!(
                        "{} and no later run of the same {what} passed, but the answer does not say so; say whether it \
still fails.",
                        capitalise(&evidence)
                    )),
                ));
            }
        }

        if let Some(marker) = stubs::stub_marker(answer) {
            notes.push(RuleNote::new(
                Rule::StubMarker,
                Note::concern(format!(
                    "The answer contains \"{marker}\", which suggests a stub or placeholder stands in for the real result."
                )),
            ));
        }

        notes.extend(tool_failures(&review.tools, &runs));
        notes
    }
}

/// "`mix test` failed (297 tests, 11 failures)".
fn evidence(run: &Run) -> String {
    let what = match &run.ending {
        Ending::Failed(line) => quote(line, QUOTE_BYTES),
        _ => "failed".to_owned(),
    };
    format!("`{}` failed ({what})", quote(&run.display, COMMAND_BYTES))
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// Nits for failed calls that are not runs, were not rejected, and were not
/// followed by a success of the same tool.
fn tool_failures(tools: &[ToolTrace], runs: &[Run]) -> Vec<RuleNote> {
    let mut names: Vec<&str> = Vec::new();
    for t in tools {
        if !names.contains(&t.name.as_str()) {
            names.push(&t.name);
        }
    }
    let is_run = |i: usize| runs.iter().any(|r| r.index == i);
    let mut notes = Vec::new();
    for name in names {
        let last = tools
            .iter()
            .enumerate()
            .rev()
            .find(|(i, t)| t.name == name && !is_rejected(t) && !is_run(*i));
        if let Some((_, ToolTrace { error: Some(error), .. })) = last {
            notes.push(RuleNote::new(
                Rule::ToolFailure,
                Note::nit(format!(
                    "The last `{name}` call failed ({}) and no later `{name}` call succeeded.",
                    quote(error, QUOTE_BYTES)
                )),
            ));
        }
    }
    notes
}

#[async_trait]
impl Reviewer for RulesReviewer {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        Ok(self.check(review))
    }
}
