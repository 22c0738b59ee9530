//! The rules reviewer: its configuration, and every rule applied to a review.
//!
//! Owns [`RulesReviewer`] (how it reads the runs — the runner tools a host
//! names, the workspace's package scripts: a [`RunReader`] — and the stub
//! markers' severity), its [`Reviewer`]
//! implementation and the order of the rules: the completion rules first, a
//! claimed failed step only when they raised no blocker, then stub markers
//! and tool failures. Must not decide a rule itself: each rule's module does.

use advisor::evidence::EvidenceBounds;
use advisor::note::Note;
use advisor::review::{Review, ReviewError, Reviewer};
use async_trait::async_trait;

use super::rule::{Rule, RuleNote};
use super::{completion, failed_step, tool_failure};
use crate::answer::{claims, stubs};
use crate::evidence::coverage::outstanding_failures;
use crate::evidence::{RunKind, RunReader, Scripts};

/// The offline rules reviewer.
///
/// Shell calls are read by their command; a tool that is not a shell (a
/// host's own `run_tests`) counts as a test or build run only when it is
/// named with [`runner_tool`](Self::runner_tool).
///
/// ```
/// use advisor::host::ToolTrace;
/// use advisor::review::Review;
/// use advisor_rules::{RulesReviewer, RunKind};
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
    runs: RunReader,
    stub_severity: advisor::Severity,
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
        self.runs = self.runs.runner_tool(name, kind);
        self
    }

    /// The workspace's package scripts (`package.json` `scripts`), so that
    /// `npm|pnpm|yarn|bun run <script>` is read as the command it runs when
    /// deciding whether a later run covers an earlier failure. Without them
    /// such coverage is undecided, and an undecided failure never blocks.
    pub fn package_scripts(mut self, scripts: Scripts) -> RulesReviewer {
        self.runs = self.runs.package_scripts(scripts);
        self
    }

    /// How this reviewer reads the runs of a review: the evidence its rules
    /// stand on, for a caller that wants it whole
    /// ([`RunReader::runs`](crate::evidence::RunReader::runs)).
    pub fn run_reader(&self) -> &RunReader {
        &self.runs
    }

    /// The severity of a stub-marker note: [`Nit`](advisor::Severity::Nit) by
    /// default (the answer told the user itself), or `Concern`/`Blocker` for a
    /// workspace that wants an answer mentioning a `TODO` or a placeholder sent
    /// back.
    pub fn stub_markers(mut self, severity: advisor::Severity) -> RulesReviewer {
        self.stub_severity = severity;
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
        let runs = self.runs.read(review);
        let failures = outstanding_failures(&runs, self.runs.scripts());
        if !answer.is_empty() {
            let note = completion::failure_note(review, &normalised, &runs, &failures);
            let blocks = note
                .as_ref()
                .is_some_and(|n| n.note.severity == advisor::Severity::Blocker);
            notes.extend(note);
            if !blocks {
                notes.extend(failed_step::claimed_failed_step(review, &normalised, &runs));
            }
        }
        if let Some(marker) = stubs::stub_marker(answer) {
            notes.push(RuleNote::new(
                Rule::StubMarker,
                Note::new(
                    format!(
                        "The answer says it contains \"{marker}\": a stub or placeholder may stand in for the real result."
                    ),
                    self.stub_severity,
                ),
            ));
        }
        notes.extend(tool_failure::tool_failures(&review.tools, &runs));
        notes
    }
}

#[async_trait]
impl Reviewer for RulesReviewer {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        Ok(self.check(review))
    }

    /// Each tool call's fields up to 16 000 bytes (or the plugin's bound, if
    /// wider): no prompt is built, and a runner's failing line can sit above
    /// the last kilobyte of its output.
    fn evidence_bounds(&self, configured: EvidenceBounds) -> EvidenceBounds {
        EvidenceBounds {
            max_tool_field_bytes: configured.max_tool_field_bytes.max(RULES_TOOL_FIELD_BYTES),
            ..configured
        }
    }
}

/// Bytes of each tool call's arguments, output and error the rules read in a
/// plugin's finish review (its bounds keep 1 000 for a model's prompt).
const RULES_TOOL_FIELD_BYTES: usize = 16_000;
