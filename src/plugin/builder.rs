//! Building an [`AdvisorPlugin`]: every setting, validated once in `build()`.
//!
//! Owns the defaults of DESIGN §4 and the actionable errors for bad settings.
//! It must not hold per-run state.

use std::sync::Arc;
use std::time::Duration;

use super::{AdvisorPlugin, Config, NotesCallback, NotesEvent};
use crate::error::Error;
use crate::evidence::EvidenceBounds;
use crate::guard::DEFAULT_MAX_NOTES_PER_REVIEW;
use crate::review::Reviewer;

/// Default finish consultations per request.
pub const DEFAULT_MAX_ROUNDS: u32 = 2;
/// Default time a review may take.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The user-visible progress line shown when a review re-opens the run.
pub const PROGRESS_NOTE: &str = "reviewing the answer with the advisor";
/// Longest breadth cap the builder accepts.
pub const MAX_NOTES_PER_REVIEW_LIMIT: usize = 32;

/// Builds an [`AdvisorPlugin`]; see [`AdvisorPlugin::builder`].
#[derive(Clone)]
pub struct AdvisorPluginBuilder {
    reviewer: Option<Arc<dyn Reviewer>>,
    enabled: bool,
    max_rounds: u32,
    max_notes_per_review: usize,
    timeout: Duration,
    evidence: EvidenceBounds,
    on_notes: Vec<NotesCallback>,
}

impl std::fmt::Debug for AdvisorPluginBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdvisorPluginBuilder")
            .field("reviewer", &self.reviewer.is_some())
            .field("enabled", &self.enabled)
            .field("max_rounds", &self.max_rounds)
            .field("max_notes_per_review", &self.max_notes_per_review)
            .field("timeout", &self.timeout)
            .field("evidence", &self.evidence)
            .field("on_notes", &self.on_notes.len())
            .finish()
    }
}

impl Default for AdvisorPluginBuilder {
    fn default() -> Self {
        AdvisorPluginBuilder {
            reviewer: None,
            enabled: true,
            max_rounds: DEFAULT_MAX_ROUNDS,
            max_notes_per_review: DEFAULT_MAX_NOTES_PER_REVIEW,
            timeout: DEFAULT_TIMEOUT,
            evidence: EvidenceBounds::default(),
            on_notes: Vec::new(),
        }
    }
}

impl AdvisorPluginBuilder {
    /// The reviewer consulted at each finish (required).
    pub fn reviewer(mut self, reviewer: impl Reviewer + 'static) -> Self {
        self.reviewer = Some(Arc::new(reviewer));
        self
    }

    /// The reviewer, already shared.
    pub fn shared_reviewer(mut self, reviewer: Arc<dyn Reviewer>) -> Self {
        self.reviewer = Some(reviewer);
        self
    }

    /// Whether the plugin takes part in runs (default `true`). A disabled
    /// plugin declines every run, leaving it exactly as without an advisor.
    pub fn enabled(mut self, enabled: bool) -> Self {
        self.enabled = enabled;
        self
    }

    /// Finish consultations per user request (default 2, at least 1). Each
    /// finish review counts, whether or not it re-opened the run.
    pub fn max_rounds(mut self, rounds: u32) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// Notes admitted per review (default 3, 1..=32).
    pub fn max_notes_per_review(mut self, n: usize) -> Self {
        self.max_notes_per_review = n;
        self
    }

    /// How long a review may take (default 30 s, more than zero). Past it the
    /// review is dropped and the finish accepted.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Limits on the evidence a reviewer reads (defaults: [`EvidenceBounds::default`]).
    pub fn evidence(mut self, bounds: EvidenceBounds) -> Self {
        self.evidence = bounds;
        self
    }

    /// Called with every review's admitted notes, nits included, and whether
    /// the review was delivered to the agent. Must not block. May be called
    /// several times to register several callbacks.
    pub fn on_notes(mut self, callback: impl Fn(&NotesEvent<'_>) + Send + Sync + 'static) -> Self {
        self.on_notes.push(Arc::new(callback));
        self
    }

    /// Validates the settings and builds the plugin.
    pub fn build(self) -> Result<AdvisorPlugin, Error> {
        let Some(reviewer) = self.reviewer else {
            return Err(Error::config(
                "reviewer",
                "no reviewer is set; call .reviewer(...) with a Reviewer (for example review::from_fn)",
            ));
        };
        if self.max_rounds == 0 {
            return Err(Error::config(
                "max_rounds",
                "must be at least 1; to turn the advisor off, use .enabled(false) or do not register it",
            ));
        }
        if !(1..=MAX_NOTES_PER_REVIEW_LIMIT).contains(&self.max_notes_per_review) {
            return Err(Error::config(
                "max_notes_per_review",
                format!(
                    "must be between 1 and {MAX_NOTES_PER_REVIEW_LIMIT}, got {}",
                    self.max_notes_per_review
                ),
            ));
        }
        if self.timeout.is_zero() {
            return Err(Error::config("timeout", "must be more than zero"));
        }
        validate_evidence(&self.evidence)?;
        Ok(AdvisorPlugin {
            config: Arc::new(Config {
                reviewer,
                enabled: self.enabled,
                max_rounds: self.max_rounds,
                max_notes_per_review: self.max_notes_per_review,
                timeout: self.timeout,
                evidence: self.evidence,
                on_notes: self.on_notes,
            }),
        })
    }
}

fn validate_evidence(b: &EvidenceBounds) -> Result<(), Error> {
    let fields = [
        ("evidence.max_messages", b.max_messages),
        ("evidence.max_bytes", b.max_bytes),
        ("evidence.max_message_bytes", b.max_message_bytes),
        ("evidence.max_tools", b.max_tools),
        ("evidence.max_tool_field_bytes", b.max_tool_field_bytes),
        ("evidence.max_final_bytes", b.max_final_bytes),
    ];
    for (field, value) in fields {
        if value == 0 {
            return Err(Error::config(
                field,
                "must be more than zero: a reviewer with no evidence can only guess",
            ));
        }
    }
    Ok(())
}
