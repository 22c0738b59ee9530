//! One named reviewer of the plugin: the reviewer with its name, cadence,
//! caps, cooldown, severity clamp and shadow mode (which reviewer to build
//! from a config file is the `advisor` command's business, not this).
//!
//! Owns [`NamedReviewer`] and its validation. In a group each member has its
//! own; a single reviewer is a group of one named `advisor`. Must not hold
//! run state.

use std::sync::Arc;

use crate::error::Error;
use crate::note::Severity;
use crate::review::Reviewer;

/// Default periodic reviews per user request.
pub const DEFAULT_MAX_PERIODIC_REVIEWS: u32 = 8;
/// Default completed turns a failed review pushes periodic reviews back.
pub const DEFAULT_COOLDOWN_TURNS: u32 = 3;
/// Longest reviewer name, in bytes.
pub const MAX_REVIEWER_NAME_BYTES: usize = 64;

/// One named reviewer and its settings (cadence, caps, clamp, shadow mode).
///
/// ```
/// use advisor::plugin::NamedReviewer;
/// use advisor::{Severity, review};
/// let scope = NamedReviewer::new("scope", review::from_sync_fn(|_r: &review::Review| Ok(vec![])))
///     .interval_turns(2)
///     .max_severity(Severity::Nit); // advise, never interrupt
/// # let _ = scope;
/// ```
#[derive(Clone)]
pub struct NamedReviewer {
    pub(crate) name: String,
    pub(crate) reviewer: Arc<dyn Reviewer>,
    pub(crate) interval_turns: u32,
    pub(crate) max_rounds: u32,
    pub(crate) max_periodic_reviews: u32,
    pub(crate) cooldown_turns: u32,
    pub(crate) max_severity: Severity,
    pub(crate) interrupt: Severity,
    pub(crate) shadow: bool,
}

impl std::fmt::Debug for NamedReviewer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NamedReviewer")
            .field("name", &self.name)
            .field("interval_turns", &self.interval_turns)
            .field("max_rounds", &self.max_rounds)
            .field("max_periodic_reviews", &self.max_periodic_reviews)
            .field("cooldown_turns", &self.cooldown_turns)
            .field("max_severity", &self.max_severity)
            .field("interrupt", &self.interrupt)
            .field("shadow", &self.shadow)
            .finish_non_exhaustive()
    }
}

impl NamedReviewer {
    /// A reviewer named `name` with the defaults: finish reviews only
    /// (`interval_turns` 0), 2 rounds, 8 periodic reviews, cooldown 3, no
    /// severity clamp, a concern or a blocker re-opens the run, not in
    /// shadow mode.
    pub fn new(name: impl Into<String>, reviewer: impl Reviewer + 'static) -> NamedReviewer {
        NamedReviewer::shared(name, Arc::new(reviewer))
    }

    /// Like [`new`](Self::new) with an already shared reviewer.
    pub fn shared(name: impl Into<String>, reviewer: Arc<dyn Reviewer>) -> NamedReviewer {
        NamedReviewer {
            name: name.into(),
            reviewer,
            interval_turns: 0,
            max_rounds: super::DEFAULT_MAX_ROUNDS,
            max_periodic_reviews: DEFAULT_MAX_PERIODIC_REVIEWS,
            cooldown_turns: DEFAULT_COOLDOWN_TURNS,
            max_severity: Severity::Blocker,
            interrupt: Severity::Concern,
            shadow: false,
        }
    }

    setters! {
        /// Review every `n` completed turns (0: never periodically).
        interval_turns(n: u32) => interval_turns = n;

        /// Finish consultations per user request (at least 1).
        max_rounds(n: u32) => max_rounds = n;

        /// Periodic reviews per user request.
        max_periodic_reviews(n: u32) => max_periodic_reviews = n;

        /// Completed turns a failed review pushes the next periodic review back (0: none).
        cooldown_turns(n: u32) => cooldown_turns = n;

        /// Highest severity this reviewer may raise; notes above it are downgraded
        /// before the guard. `Severity::Nit` means "advise, never interrupt".
        max_severity(s: Severity) => max_severity = s;

        /// The lowest severity that sends the agent back (default
        /// `Severity::Concern`, the seed's rule). With `Severity::Blocker`, an
        /// admitted concern goes to the user instead
        /// ([`Admitted::to_user`](crate::gate::Admitted::to_user), the trace's
        /// `to_user`); a nit never re-opens, so `Severity::Nit` reads as
        /// `Severity::Concern`.
        interrupt(s: Severity) => interrupt = s;

        /// Shadow mode: review, record, call `on_notes`, never inject and never
        /// re-open — for measuring a reviewer before trusting it.
        shadow(on: bool) => shadow = on;
    }

    /// The reviewer's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn validate(&self, at: &str) -> Result<(), Error> {
        if self.name.trim().is_empty() {
            return Err(Error::config(format!("{at}.name"), "must not be empty"));
        }
        if self.name.len() > MAX_REVIEWER_NAME_BYTES {
            return Err(Error::config(
                format!("{at}.name"),
                format!(
                    "must be at most {MAX_REVIEWER_NAME_BYTES} bytes, got {}",
                    self.name.len()
                ),
            ));
        }
        if self.max_rounds == 0 {
            return Err(Error::config(
                format!("{at}.max_rounds"),
                "must be at least 1; to turn finish reviews off, remove the reviewer or use shadow mode",
            ));
        }
        Ok(())
    }
}
