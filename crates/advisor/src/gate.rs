//! The policy gate for one review: the severity clamp, the emission guard's
//! decisions and, when the review interrupts, the exact injection the agent
//! would read.
//!
//! Owns the single path from raw notes to "what reaches the agent" and the
//! settings it runs with ([`GuardSettings`]), shared by
//! [`AdvisorPlugin`](crate::AdvisorPlugin) and `advisor replay`, so a replay
//! can never disagree with a live run. It must not call reviewers or keep
//! state of its own (the guard does).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::guard::{EmissionGuard, PreparedNote, Reason, ReviewOutcome};
use crate::note::{Note, Severity};
use crate::render::render_admitted;
use crate::review::ReviewKind;

/// The settings one reviewer's notes are gated with; recorded in every
/// traced review so a replay runs with exactly these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuardSettings {
    /// Notes admitted per review (the breadth cap).
    pub max_notes_per_review: usize,
    /// Whether paraphrases count as repeats (similarity dedupe).
    pub similarity: bool,
    /// The highest severity the reviewer may raise; higher notes are
    /// downgraded before the guard.
    pub max_severity: Severity,
}

impl GuardSettings {
    /// A fresh guard with these settings.
    pub fn guard(&self) -> EmissionGuard {
        EmissionGuard::new(self.max_notes_per_review).with_similarity(self.similarity)
    }
}

/// The guard's decision on one raw note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// Position in the reviewer's list (0-based).
    pub note: usize,
    /// The severity the guard saw (after the `max_severity` clamp).
    pub severity: Severity,
    /// Why it was admitted or suppressed.
    pub reason: Reason,
    /// The dedupe key.
    pub key: String,
}

/// What one review amounts to after the guard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateResult {
    /// The guard's decision on every note, in the reviewer's order.
    pub outcome: ReviewOutcome,
    /// The message the agent would read, when the review interrupts.
    pub injection: Option<String>,
}

impl GateResult {
    /// The admitted notes, in the reviewer's order.
    pub fn accepted(&self) -> Vec<Note> {
        self.outcome.accepted()
    }

    /// Whether the review sends the agent back.
    pub fn interrupts(&self) -> bool {
        self.injection.is_some()
    }

    /// The decision on every note, in the reviewer's order.
    pub fn decisions(&self) -> Vec<Decision> {
        self.outcome
            .admissions
            .iter()
            .map(|a| Decision {
                note: a.index,
                severity: a.note.severity,
                reason: a.reason,
                key: a.key.clone(),
            })
            .collect()
    }
}

/// Runs one review's `notes`, clamped to `max_severity`, through `guard` and
/// renders the injection when an admitted note interrupts.
///
/// ```
/// use advisor::{EmissionGuard, Note, Severity, gate::gate_review, review::ReviewKind};
/// let mut guard = EmissionGuard::new(3);
/// let result = gate_review(&mut guard, &[Note::concern("check the join")], ReviewKind::Finish, Severity::Blocker);
/// assert!(result.injection.unwrap().contains("check the join"));
/// let again = gate_review(&mut guard, &[Note::concern("Check the join.")], ReviewKind::Finish, Severity::Blocker);
/// assert!(again.injection.is_none()); // a repeat cannot buy another turn
/// let advice = gate_review(&mut guard, &[Note::blocker("a new point")], ReviewKind::Finish, Severity::Nit);
/// assert!(advice.injection.is_none()); // clamped to a nit: advise, never interrupt
/// ```
pub fn gate_review(guard: &mut EmissionGuard, notes: &[Note], kind: ReviewKind, max_severity: Severity) -> GateResult {
    let notes: Cow<'_, [Note]> = if notes.iter().any(|n| n.severity > max_severity) {
        Cow::Owned(
            notes
                .iter()
                .map(|n| Note {
                    severity: n.severity.min(max_severity),
                    ..n.clone()
                })
                .collect(),
        )
    } else {
        Cow::Borrowed(notes)
    };
    gate_outcome(guard.review(&notes), kind)
}

/// [`gate_review`] of notes already prepared ([`PreparedNote`]), clamped to
/// `max_severity` the same way.
pub fn gate_prepared(
    guard: &mut EmissionGuard,
    mut notes: Vec<PreparedNote>,
    kind: ReviewKind,
    max_severity: Severity,
) -> GateResult {
    for n in &mut notes {
        n.clamp_severity(max_severity);
    }
    gate_outcome(guard.review_prepared(notes), kind)
}

fn gate_outcome(outcome: ReviewOutcome, kind: ReviewKind) -> GateResult {
    let injection = outcome.interrupts().then(|| render_admitted(&outcome, kind));
    GateResult { outcome, injection }
}
