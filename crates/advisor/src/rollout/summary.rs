//! `advisor summarize`: per-arm counts and rates over rollout traces.
//!
//! Owns [`summarize`] and its result. Attempts are grouped by `rollout_id`.
//! Besides reviews and interventions (by action and reason code) it reports
//! the two ways an advised attempt can silently run as a baseline:
//! `effectively_unadvised` (the advisor failed and never intervened) and
//! `advised_without_reviews` (never reviewed at all), and the pass rate per arm
//! when outcomes were recorded. A malformed line is reported with its source
//! and line, never skipped silently. [`Summarizer`] takes lines one at a time
//! so a caller can stream files of any length. Must not write traces or read
//! files.

use std::collections::BTreeMap;

use serde::Serialize;

use super::trace::{Arm, EventKind, Outcome, ROLLOUT_TRACE_SCHEMA, RolloutEvent};

/// Counts for one arm.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ArmSummary {
    /// Attempts.
    pub attempts: u32,
    /// Reviews that produced a decision.
    pub reviews: u32,
    /// Cues delivered.
    pub interventions: u32,
    /// Cues by action.
    pub interventions_by_action: BTreeMap<String, u32>,
    /// Cues by reason code.
    pub interventions_by_reason: BTreeMap<String, u32>,
    /// Revisions rejected for calling finish without the tool.
    pub revisions_resampled: u32,
    /// Advisor or revision failures where the draft was kept.
    pub fail_open_events: u32,
    /// Attempts whose advisor failed and that never received a cue.
    pub effectively_unadvised: u32,
    /// Attempts never reviewed at all.
    pub advised_without_reviews: u32,
    /// `effectively_unadvised / attempts`.
    pub effectively_unadvised_rate: Option<f64>,
    /// `advised_without_reviews / attempts`.
    pub advised_without_reviews_rate: Option<f64>,
    /// Attempts with a passed/failed outcome.
    pub graded: u32,
    /// Attempts that passed.
    pub passed: u32,
    /// `passed / graded`.
    pub pass_rate: Option<f64>,
}

/// The summary of a set of traces.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Per arm.
    pub arms: BTreeMap<Arm, ArmSummary>,
    /// `source:line: why` for every line that could not be read.
    pub malformed: Vec<String>,
}

#[derive(Default)]
struct Attempt {
    arm: Option<Arm>,
    gated: u32,
    decisions: u32,
    cues: Vec<(String, String)>,
    resampled: u32,
    fail_open: u32,
    outcome: Option<Outcome>,
}

fn rate(n: u32, d: u32) -> Option<f64> {
    (d > 0).then(|| f64::from(n) / f64::from(d))
}

/// Summarizes trace lines from `(source name, text)` inputs.
pub fn summarize<'a>(inputs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Summary {
    let mut s = Summarizer::new();
    for (source, text) in inputs {
        for (i, line) in text.lines().enumerate() {
            s.line(source, i + 1, line);
        }
    }
    s.finish()
}

/// Builds a [`Summary`] one trace line at a time.
#[derive(Default)]
pub struct Summarizer {
    attempts: BTreeMap<String, Attempt>,
    malformed: Vec<String>,
}

impl std::fmt::Debug for Summarizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Summarizer")
            .field("attempts", &self.attempts.len())
            .field("malformed", &self.malformed.len())
            .finish()
    }
}

impl Summarizer {
    /// An empty summary.
    pub fn new() -> Summarizer {
        Summarizer::default()
    }

    /// Records that line `number` of `source` could not be read, and why.
    pub fn malformed(&mut self, source: &str, number: usize, why: &str) {
        self.malformed.push(format!("{source}:{number}: {why}"));
    }

    /// Counts line `number` of `source` (blank lines are ignored).
    pub fn line(&mut self, source: &str, number: usize, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        let event: RolloutEvent = match serde_json::from_str(line) {
            Ok(e) => e,
            Err(e) => {
                let why = crate::json::describe_serde_error_of("the line", &e);
                self.malformed(source, number, &format!("not a rollout trace event ({why})"));
                return;
            }
        };
        if event.schema != ROLLOUT_TRACE_SCHEMA {
            self.malformed(source, number, &format!("schema is not {ROLLOUT_TRACE_SCHEMA}"));
            return;
        }
        let a = self.attempts.entry(event.rollout_id.clone()).or_default();
        a.arm = Some(event.arm);
        match event.kind {
            EventKind::ReviewGated { .. } => a.gated += 1,
            EventKind::Decision { .. } => a.decisions += 1,
            EventKind::CueDelivered { cue, .. } => a
                .cues
                .push((cue.action.as_str().to_owned(), cue.reason_code.as_str().to_owned())),
            EventKind::RevisionResampled { .. } => a.resampled += 1,
            EventKind::FailOpen { .. } | EventKind::Failed { .. } => a.fail_open += 1,
            EventKind::AttemptEnd { outcome, .. } => a.outcome = Some(outcome),
            _ => {}
        }
    }

    /// The summary of every line counted so far.
    pub fn finish(self) -> Summary {
        summarize_attempts(&self.attempts, self.malformed)
    }
}

fn summarize_attempts(attempts: &BTreeMap<String, Attempt>, malformed: Vec<String>) -> Summary {
    let mut arms: BTreeMap<Arm, ArmSummary> = BTreeMap::new();
    for a in attempts.values() {
        let Some(arm) = a.arm else { continue };
        let s = arms.entry(arm).or_default();
        s.attempts += 1;
        s.reviews += a.decisions;
        s.interventions += u32::try_from(a.cues.len()).unwrap_or(u32::MAX);
        for (action, reason) in &a.cues {
            *s.interventions_by_action.entry(action.clone()).or_default() += 1;
            *s.interventions_by_reason.entry(reason.clone()).or_default() += 1;
        }
        s.revisions_resampled += a.resampled;
        s.fail_open_events += a.fail_open;
        let advised = arm == Arm::Advised;
        s.effectively_unadvised += u32::from(advised && a.fail_open > 0 && a.cues.is_empty());
        s.advised_without_reviews += u32::from(advised && a.gated == 0);
        s.graded += u32::from(matches!(a.outcome, Some(Outcome::Passed | Outcome::Failed)));
        s.passed += u32::from(a.outcome == Some(Outcome::Passed));
    }
    for s in arms.values_mut() {
        s.pass_rate = rate(s.passed, s.graded);
        s.effectively_unadvised_rate = rate(s.effectively_unadvised, s.attempts);
        s.advised_without_reviews_rate = rate(s.advised_without_reviews, s.attempts);
    }
    Summary { arms, malformed }
}
