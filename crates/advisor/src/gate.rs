//! The policy gate for one review: the severity clamp, the emission guard's
//! decisions and, when the review interrupts, the exact injection the agent
//! would read.
//!
//! Owns the single path from raw notes to "what reaches the agent" and what
//! the user is told instead
//! ([`admit`], run with a reviewer's [`GuardSettings`](crate::guard::GuardSettings)), shared by
//! [`AdvisorPlugin`](crate::AdvisorPlugin) and `advisor replay`, so a replay
//! can never disagree with a live run. It must not call reviewers or keep
//! state of its own (the guard does).

use crate::guard::{EmissionGuard, PreparedNote, ReviewOutcome};
use crate::kind::ReviewKind;
use crate::note::{Note, Severity};
use crate::render::render_admitted;
use crate::trace::NoteDecision;

/// What one review amounts to after the gate: the guard's decisions, the
/// injection when the review interrupts, and otherwise what the user should
/// see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admitted {
    /// The guard's decision on every note, in the reviewer's order.
    pub outcome: ReviewOutcome,
    /// The message the agent would read, when the review interrupts.
    pub injection: Option<String>,
    /// Admitted concerns and blockers that do not send the agent back (below
    /// the gate's `interrupt` severity), in the reviewer's order: for the
    /// user, never the agent. Empty when the review interrupts — its
    /// concerns then go to the agent with the injection.
    pub to_user: Vec<Note>,
}

impl Admitted {
    /// The admitted notes, in the reviewer's order.
    pub fn accepted(&self) -> Vec<Note> {
        self.outcome.accepted()
    }

    /// Whether the review sends the agent back.
    pub fn interrupts(&self) -> bool {
        self.injection.is_some()
    }

    /// The decision on every note as a trace records it, in the reviewer's order.
    pub fn decisions(&self) -> Vec<NoteDecision> {
        self.outcome
            .admissions
            .iter()
            .map(|a| NoteDecision {
                note: a.index,
                severity: a.note.severity,
                reason: a.reason,
                key: a.key.clone(),
            })
            .collect()
    }
}

/// Runs one review's `notes` (`&Note`, `Note` or [`PreparedNote`]), clamped to
/// `max_severity`, through `guard` and renders the injection when an admitted
/// note of `interrupt` or above is among them; otherwise the admitted
/// concerns and blockers are [`Admitted::to_user`].
///
/// ```
/// use advisor::{EmissionGuard, Note, Severity, gate::admit, kind::ReviewKind};
/// let (finish, blocker, concern) = (ReviewKind::Finish, Severity::Blocker, Severity::Concern);
/// let mut guard = EmissionGuard::new(3);
/// let result = admit(&mut guard, &[Note::concern("check the join")], finish, blocker, concern);
/// assert!(result.injection.unwrap().contains("check the join"));
/// let again = admit(&mut guard, &[Note::concern("Check the join.")], finish, blocker, concern);
/// assert!(again.injection.is_none()); // a repeat cannot buy another turn
/// let advice = admit(&mut guard, &[Note::blocker("a new point")], finish, Severity::Nit, concern);
/// assert!(advice.injection.is_none()); // clamped to a nit: advise, never interrupt
/// let shown = admit(&mut guard, &[Note::concern("the cache is never invalidated")], finish, blocker, blocker);
/// assert!(shown.injection.is_none()); // only a blocker re-opens: the concern is the user's
/// assert_eq!(shown.to_user[0].text, "the cache is never invalidated");
/// ```
pub fn admit<N: Into<PreparedNote>>(
    guard: &mut EmissionGuard,
    notes: impl IntoIterator<Item = N>,
    kind: ReviewKind,
    max_severity: Severity,
    interrupt: Severity,
) -> Admitted {
    let outcome = guard.screen(notes.into_iter().map(|n| {
        let mut p = n.into();
        p.clamp_severity(max_severity);
        p
    }));
    // a nit never interrupts, whatever the threshold
    let interrupt = interrupt.max(Severity::Concern);
    let injection = outcome
        .interrupts_at(interrupt)
        .then(|| render_admitted(&outcome, kind));
    let to_user = match injection {
        Some(_) => Vec::new(),
        None => (outcome.admissions.iter())
            .filter(|a| a.accepted() && a.note.severity.interrupts())
            .map(|a| a.note.clone())
            .collect(),
    };
    Admitted {
        outcome,
        injection,
        to_user,
    }
}
