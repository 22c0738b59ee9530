//! The policy gate for one review: the emission guard's decisions and, when
//! the review interrupts, the exact injection the agent would read.
//!
//! Owns the single path from raw notes to "what reaches the agent", shared by
//! [`AdvisorPlugin`](crate::AdvisorPlugin) and `advisor replay`, so a replay
//! can never disagree with a live run. It must not call reviewers or keep
//! state of its own (the guard does).

use crate::guard::{EmissionGuard, PreparedNote, ReviewOutcome};
use crate::note::Note;
use crate::render::render_injection;
use crate::review::ReviewKind;

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
}

/// Runs one review's `notes` through `guard` and renders the injection when an
/// admitted note interrupts.
///
/// ```
/// use advisor::{EmissionGuard, Note, gate::gate_review, review::ReviewKind};
/// let mut guard = EmissionGuard::new(3);
/// let result = gate_review(&mut guard, &[Note::concern("check the join")], ReviewKind::Finish);
/// assert!(result.injection.unwrap().contains("check the join"));
/// let again = gate_review(&mut guard, &[Note::concern("Check the join.")], ReviewKind::Finish);
/// assert!(again.injection.is_none()); // a repeat cannot buy another turn
/// ```
pub fn gate_review(guard: &mut EmissionGuard, notes: &[Note], kind: ReviewKind) -> GateResult {
    gate_outcome(guard.review(notes), kind)
}

/// [`gate_review`] of notes already prepared ([`PreparedNote`]).
pub fn gate_prepared(guard: &mut EmissionGuard, notes: Vec<PreparedNote>, kind: ReviewKind) -> GateResult {
    gate_outcome(guard.review_prepared(notes), kind)
}

fn gate_outcome(outcome: ReviewOutcome, kind: ReviewKind) -> GateResult {
    let injection = outcome.interrupts().then(|| {
        let accepted = outcome.admissions.iter().filter(|a| a.accepted()).map(|a| &a.note);
        render_injection(accepted, kind)
    });
    GateResult { outcome, injection }
}
