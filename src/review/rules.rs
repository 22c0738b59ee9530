//! `RulesReviewer`: an offline, deterministic reviewer — the CLI's default.
//!
//! Owns three rules, each a pure function of the [`Review`]:
//! 1. **unverified completion** (blocker): the answer claims success while the
//!    latest test/build run in the tool trace failed;
//! 2. **unrecovered failure** (concern): a tool call failed and no later call
//!    of the same tool succeeded;
//! 3. **stub markers** (concern): the answer contains `TODO`, `FIXME`,
//!    the `unimplemented` or `todo` macros, "placeholder", "mock", "stub" or "lorem ipsum".
//!
//! Must not call models, read files or keep state. It sees what a model
//! reviewer would see, and says nothing when nothing matches.
//!
//! # Token effect
//!
//! None: no model is called.

use async_trait::async_trait;

use super::{Review, ReviewError, Reviewer};
use crate::host::ToolTrace;
use crate::note::Note;
use crate::text::truncate_middle;

/// Words in a tool's name or arguments that mark it as a test or build run.
const VERIFICATION_MARKERS: &[&str] = &[
    "test", "pytest", "jest", "vitest", "build", "compile", "check", "clippy", "lint", "make", "tsc", "mvn", "gradle",
    "go vet", "ctest",
];

/// Phrases that claim the work is done or verified.
const CLAIMS: &[&str] = &[
    "all tests pass",
    "tests pass",
    "tests are passing",
    "tests now pass",
    "test suite passes",
    "builds successfully",
    "build succeeds",
    "build passes",
    "compiles successfully",
    "successfully",
    "is fixed",
    "fixed the",
    "has been fixed",
    "is done",
    "all done",
    "completed",
    "is complete",
    "implemented",
    "works now",
    "now works",
    "everything works",
    "ready to merge",
    "ready for review",
];

/// Phrases that admit the work is not done; an answer with one claims nothing.
const ADMISSIONS: &[&str] = &[
    "fail",
    "still broken",
    "does not pass",
    "doesn't pass",
    "not passing",
    "not yet",
    "could not",
    "couldn't",
    "unable to",
    "error remains",
];

/// Case-sensitive stub markers (code tokens).
/// (The macro names are assembled so that this file is not itself flagged as a stub.)
const CODE_STUBS: &[&str] = &["TODO", "FIXME", concat!("unimplemented", "!"), concat!("todo", "!(")];
/// Case-insensitive whole-word stub markers.
const WORD_STUBS: &[&str] = &["placeholder", "mock", "stub", "lorem ipsum"];

/// Bytes of a tool error quoted in a note.
const QUOTE_BYTES: usize = 160;

fn is_verification(t: &ToolTrace) -> bool {
    let hay = format!("{} {}", t.name, t.args).to_lowercase();
    VERIFICATION_MARKERS.iter().any(|m| hay.contains(m))
}

fn claims_completion(answer: &str) -> bool {
    let a = answer.to_lowercase();
    CLAIMS.iter().any(|c| a.contains(c)) && !ADMISSIONS.iter().any(|x| a.contains(x))
}

fn contains_word(hay: &str, word: &str) -> bool {
    let hay = hay.to_lowercase();
    hay.match_indices(word).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

fn quote(error: &str) -> String {
    let flat: String = error.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    truncate_middle(flat.trim(), QUOTE_BYTES)
}

/// Which rule raised a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Rule {
    /// The answer claims success over a failing test or build run.
    UnverifiedCompletion,
    /// A failed call was never followed by a success.
    UnrecoveredFailure,
    /// The answer contains a stub marker.
    StubMarker,
}

impl Rule {
    /// The rule's stable name (`unverified_completion`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::UnverifiedCompletion => "unverified_completion",
            Rule::UnrecoveredFailure => "unrecovered_failure",
            Rule::StubMarker => "stub_marker",
        }
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

/// The offline rules reviewer.
///
/// ```
/// use advisor::host::ToolTrace;
/// use advisor::review::{Review, RulesReviewer};
/// let review = Review {
///     final_answer: Some("All tests pass now.".into()),
///     tools: vec![ToolTrace { name: "run_tests".into(), error: Some("2 failed".into()), ..Default::default() }],
///     ..Review::default()
/// };
/// let notes = RulesReviewer::new().check(&review);
/// assert_eq!(notes[0].severity, advisor::Severity::Blocker);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct RulesReviewer;

impl RulesReviewer {
    /// The rules reviewer.
    pub fn new() -> RulesReviewer {
        RulesReviewer
    }

    /// Applies every rule to `review`, most severe first.
    pub fn check(&self, review: &Review) -> Vec<Note> {
        self.check_rules(review).into_iter().map(|r| r.note).collect()
    }

    /// Like [`check`](Self::check), with the rule that raised each note.
    pub fn check_rules(&self, review: &Review) -> Vec<RuleNote> {
        let mut notes = Vec::new();
        let answer = review.final_answer.as_deref().unwrap_or("");
        let mut flagged_tool: Option<&str> = None;

        if !answer.is_empty() && claims_completion(answer) {
            if let Some(last) = review.tools.iter().rev().find(|t| is_verification(t)) {
                if let Some(error) = &last.error {
                    flagged_tool = Some(&last.name);
                    notes.push(RuleNote::new(
                        Rule::UnverifiedCompletion,
                        Note::blocker(format!(
                            "The answer claims success, but the latest `{}` run failed ({}). Re-run it and fix the \
failure, or say plainly that it still fails.",
                            last.name,
                            quote(error)
                        )),
                    ));
                }
            }
        }

        let mut names: Vec<&str> = Vec::new();
        for t in &review.tools {
            if !names.contains(&t.name.as_str()) {
                names.push(&t.name);
            }
        }
        for name in names {
            if Some(name) == flagged_tool {
                continue;
            }
            let last = review.tools.iter().rev().find(|t| t.name == name);
            if let Some(ToolTrace { error: Some(error), .. }) = last {
                notes.push(RuleNote::new(Rule::UnrecoveredFailure, Note::concern(format!(
                    "The last `{name}` call failed ({}) and no later `{name}` call succeeded; check that the answer \
does not rest on a step that did not happen.",
                    quote(error)
                ))));
            }
        }

        let marker = CODE_STUBS
            .iter()
            .find(|m| answer.contains(*m))
            .or_else(|| WORD_STUBS.iter().find(|w| contains_word(answer, w)));
        if let Some(m) = marker {
            notes.push(RuleNote::new(
                Rule::StubMarker,
                Note::concern(format!(
                    "The answer contains \"{m}\", which suggests a stub or placeholder stands in for the real result."
                )),
            ));
        }
        notes
    }
}

#[async_trait]
impl Reviewer for RulesReviewer {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        Ok(self.check(review))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::note::Severity;

    fn ok(name: &str, args: &str) -> ToolTrace {
        ToolTrace {
            name: name.into(),
            args: args.into(),
            output: "ok".into(),
            error: None,
        }
    }

    fn failed(name: &str, args: &str, error: &str) -> ToolTrace {
        ToolTrace {
            name: name.into(),
            args: args.into(),
            output: String::new(),
            error: Some(error.into()),
        }
    }

    fn review(answer: &str, tools: Vec<ToolTrace>) -> Review {
        Review {
            final_answer: Some(answer.into()),
            tools,
            ..Review::default()
        }
    }

    fn check(answer: &str, tools: Vec<ToolTrace>) -> Vec<Note> {
        RulesReviewer::new().check(&review(answer, tools))
    }

    #[test]
    fn a_success_claim_over_a_failing_test_run_is_a_blocker() {
        let notes = check(
            "Fixed the bug; all tests pass.",
            vec![failed("bash", "cargo test", "exit status 101: 1 failed")],
        );
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(notes[0].severity, Severity::Blocker);
        assert!(notes[0].text.contains("`bash`") && notes[0].text.contains("1 failed"));
    }

    #[test]
    fn a_claim_after_a_passing_rerun_is_not_flagged() {
        let tools = vec![failed("bash", "cargo test", "1 failed"), ok("bash", "cargo test")];
        assert!(check("Fixed the bug; all tests pass.", tools).is_empty());
    }

    #[test]
    fn an_answer_that_admits_the_failure_is_not_a_false_claim() {
        let notes = check(
            "I could not get the tests to pass; 1 still fails.",
            vec![failed("run_tests", "", "1 failed")],
        );
        assert!(notes.iter().all(|n| n.severity != Severity::Blocker));
        assert_eq!(notes.len(), 1, "the unrecovered failure is still worth a concern");
    }

    #[test]
    fn a_claim_with_no_test_run_at_all_is_not_flagged_by_this_rule() {
        assert!(
            check(
                "Implemented the feature successfully.",
                vec![ok("read_file", "src/lib.rs")]
            )
            .is_empty()
        );
    }

    #[test]
    fn a_failed_call_never_followed_by_a_success_is_a_concern() {
        let notes = check(
            "Here is the summary.",
            vec![failed("fetch_page", "{\"url\":1}", "HTTP 503"), ok("read_file", "x")],
        );
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].severity, Severity::Concern);
        assert!(notes[0].text.contains("fetch_page") && notes[0].text.contains("HTTP 503"));
    }

    #[test]
    fn a_failure_recovered_by_a_later_success_is_not_flagged() {
        let tools = vec![failed("fetch_page", "a", "HTTP 503"), ok("fetch_page", "a")];
        assert!(check("Here is the summary.", tools).is_empty());
    }

    #[test]
    fn stub_markers_in_the_answer_are_a_concern() {
        for answer in [
            concat!("fn f() { todo", "!() }"),
            "// TODO: handle errors",
            "I used a mock client for now",
            "A placeholder value",
        ] {
            let notes = check(answer, vec![]);
            assert_eq!(notes.len(), 1, "{answer}");
            assert_eq!(notes[0].severity, Severity::Concern);
        }
    }

    #[test]
    fn words_that_merely_contain_a_marker_are_not_stubs() {
        for answer in [
            "The tests were mocked in the fixture module.",
            "Updated the stubborn cache.",
            "todo list app",
        ] {
            assert!(check(answer, vec![]).is_empty(), "{answer}");
        }
    }

    #[test]
    fn the_blocker_and_a_different_tool_failure_are_both_raised_without_double_counting() {
        let tools = vec![failed("fetch", "x", "timeout"), failed("run_tests", "", "3 failed")];
        let notes = check("All tests pass.", tools);
        assert_eq!(notes.len(), 2);
        assert_eq!(notes[0].severity, Severity::Blocker);
        assert!(notes[1].text.contains("fetch"));
    }

    #[test]
    fn a_periodic_review_without_an_answer_only_checks_tools() {
        let r = Review {
            tools: vec![failed("deploy", "", "denied")],
            ..Review::default()
        };
        assert_eq!(RulesReviewer::new().check(&r).len(), 1);
    }
}
