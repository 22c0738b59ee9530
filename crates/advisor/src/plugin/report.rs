//! The per-run report: what the advisor did, in counts.
//!
//! Owns [`RunReport`]; it must not influence decisions.

use serde::{Deserialize, Serialize};

use crate::budget::BudgetStop;
use crate::guard::Reason;
use crate::kind::{ReviewErrorKind, ReviewKind};
use crate::usage::Usage;

/// Notes the guard suppressed, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suppressed {
    /// Nothing left after normalization.
    pub empty: u32,
    /// A content-free phrase.
    pub content_free: u32,
    /// Already delivered at this severity or higher.
    pub duplicate: u32,
    /// Over the breadth cap.
    pub over_budget: u32,
}

impl Suppressed {
    pub(crate) fn count(&mut self, reason: Reason) {
        match reason {
            Reason::Accepted => {}
            Reason::Empty => self.empty += 1,
            Reason::ContentFree => self.content_free += 1,
            Reason::Duplicate => self.duplicate += 1,
            Reason::OverBudget => self.over_budget += 1,
        }
    }

    /// All suppressed notes.
    pub fn total(&self) -> u32 {
        self.empty + self.content_free + self.duplicate + self.over_budget
    }
}

/// What the advisor did during one run (all reviewers together).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunReport {
    /// Finish reviews that ran.
    pub finish_reviews: u32,
    /// Periodic reviews that ran.
    pub periodic_reviews: u32,
    /// Reviews that sent the agent back (or added context mid-run).
    pub interruptions: u32,
    /// Reviews that would have interrupted but ran in shadow mode.
    pub shadow_interruptions: u32,
    /// Notes admitted by the guard (nits included).
    pub notes_admitted: u32,
    /// Notes that reached the agent.
    pub notes_delivered: u32,
    /// Notes suppressed, by reason.
    pub suppressed: Suppressed,
    /// Reviews that failed (timeouts included).
    pub errors: u32,
    /// Reviews that timed out.
    pub timeouts: u32,
    /// Tokens the reviewers used (failed attempts included; marked estimated
    /// when a server reported none).
    pub usage: Usage,
    /// Reviews that did not run because a token budget was spent.
    #[serde(default)]
    pub budget_skipped: u32,
    /// The budget that stopped reviews, when one did: the stop went through
    /// without a review for this reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_stop: Option<BudgetStop>,
    /// A saved state was rejected: the advisor sat out the current request
    /// (the trace's `checkpoint_rejected` event and the host's log say why).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub checkpoint_rejected: bool,
}

impl RunReport {
    pub(crate) fn reviewed(&mut self, kind: ReviewKind) {
        match kind {
            ReviewKind::Finish => self.finish_reviews += 1,
            ReviewKind::Periodic => self.periodic_reviews += 1,
        }
    }

    pub(crate) fn failed(&mut self, kind: ReviewErrorKind) {
        self.errors += 1;
        self.timeouts += u32::from(kind == ReviewErrorKind::Timeout);
    }
}
