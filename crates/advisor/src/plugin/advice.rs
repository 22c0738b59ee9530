//! The advice one finish or periodic review gives — the one review result
//! every host reads.
//!
//! Owns [`Advice`] and the [`FinishOutbox`] a run leaves its last
//! finish consultation in: one record per reviewer consulted — the review's
//! [`TraceEvent`], exactly what a trace sink receives: raw notes, each guard
//! decision with its reason, whether it interrupted — and the one combined
//! injection. The plugin's stop and step hooks, `advisor review` /
//! `advisor hook` and the rig adapter all read this; none reads its decisions
//! back out of a trace or joins injections itself. Must not decide anything:
//! the run fills it in.

use std::sync::{Arc, Mutex, PoisonError};

use crate::trace::TraceEvent;

/// Separates the injections of several reviewers in the combined one.
const JOIN: &str = "\n\n";

/// The advice of one finish or periodic review: a record per reviewer that
/// ran, and the one message the agent reads, if any review interrupted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Advice {
    /// One `review` event per review that ran, in reviewer order (a reviewer
    /// whose allowance or token budget was spent has none).
    pub records: Vec<TraceEvent>,
    /// The injections of every interrupting review, joined: the one message
    /// sent back to the agent.
    pub injection: Option<String>,
}

impl Advice {
    /// Adds a record, joining its injection into the combined one when it
    /// interrupted.
    pub(crate) fn push(&mut self, record: TraceEvent) {
        if let Some(text) = record.injection.as_deref().filter(|_| record.interrupted) {
            self.injection = Some(match self.injection.take() {
                Some(all) => all + JOIN + text,
                None => text.to_owned(),
            });
        }
        self.records.push(record);
    }

    /// Whether the consultation sends something back to the agent.
    pub fn interrupts(&self) -> bool {
        self.injection.is_some()
    }

    /// What the consultation tells the user instead of the agent: every
    /// record's [`to_user`](TraceEvent::to_user) notes, in reviewer order.
    pub fn to_user(&self) -> impl Iterator<Item = &crate::note::Note> {
        self.records.iter().flat_map(|r| r.to_user.iter())
    }
}

/// Where a run leaves its last finish consultation for its host: a shared
/// handle, taken before the run is handed to [`Extensions`](crate::Extensions),
/// so a host drives the run through the dispatcher like any other and still
/// reads its review result. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct FinishOutbox(Arc<Mutex<Option<Advice>>>);

impl FinishOutbox {
    /// The last finish consultation, taken once (`None`: no finish was
    /// consulted since, or the consultation panicked).
    pub fn take(&self) -> Option<Advice> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    pub(crate) fn put(&self, advice: Option<Advice>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = advice;
    }
}
