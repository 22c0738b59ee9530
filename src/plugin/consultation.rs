//! What one consultation of the advisor amounts to — the one review result
//! every host reads.
//!
//! Owns [`ReviewRecord`] (one reviewer's review: raw notes, each guard
//! decision with its reason, whether it interrupted) and [`Consultation`]
//! (the records of every reviewer consulted and the one combined injection).
//! The plugin's stop and step hooks, `advisor review` / `advisor hook` and the
//! rig adapter all read this; none reads its decisions back out of a trace or
//! joins injections itself. Must not decide anything: the run fills it in.

use crate::gate::Decision;
use crate::note::Note;
use crate::review::{ReviewError, ReviewKind};

/// Separates the injections of several reviewers in the combined one.
const JOIN: &str = "\n\n";

/// One reviewer's review.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReviewRecord {
    /// The reviewer's name.
    pub reviewer: String,
    /// Finish or periodic.
    pub kind: ReviewKind,
    /// 0-based round within the kind.
    pub round: u32,
    /// Whether the reviewer runs in shadow mode (never injects).
    pub shadow: bool,
    /// The notes exactly as the reviewer returned them.
    pub notes: Vec<Note>,
    /// The guard's decision on every raw note, in the reviewer's order.
    pub decisions: Vec<Decision>,
    /// The injection this review rendered (in shadow mode, the one that would
    /// have been sent).
    pub injection: Option<String>,
    /// Whether the review reached the agent (re-opened the run or added
    /// context mid-run).
    pub interrupted: bool,
    /// The review's failure, if any (the run then goes on as without an advisor).
    pub error: Option<ReviewError>,
}

impl ReviewRecord {
    pub(crate) fn new(reviewer: &str, kind: ReviewKind, round: u32, shadow: bool) -> ReviewRecord {
        ReviewRecord {
            reviewer: reviewer.to_owned(),
            kind,
            round,
            shadow,
            notes: Vec::new(),
            decisions: Vec::new(),
            injection: None,
            interrupted: false,
            error: None,
        }
    }

    /// The raw note a decision is about.
    pub fn note_of(&self, decision: &Decision) -> Option<&Note> {
        self.notes.get(decision.note)
    }
}

/// One consultation: a record per reviewer that ran, and the one message the
/// agent reads, if any review interrupted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Consultation {
    /// One record per review that ran, in reviewer order (a reviewer whose
    /// allowance or token budget was spent has none).
    pub records: Vec<ReviewRecord>,
    /// The injections of every interrupting review, joined: the one message
    /// sent back to the agent.
    pub injection: Option<String>,
}

impl Consultation {
    /// Adds a record, joining its injection into the combined one when it
    /// interrupted.
    pub(crate) fn push(&mut self, record: ReviewRecord) {
        if record.interrupted {
            if let Some(text) = &record.injection {
                match &mut self.injection {
                    Some(all) => {
                        all.push_str(JOIN);
                        all.push_str(text);
                    }
                    None => self.injection = Some(text.clone()),
                }
            }
        }
        self.records.push(record);
    }

    /// Whether the consultation sends something back to the agent.
    pub fn interrupts(&self) -> bool {
        self.injection.is_some()
    }
}
