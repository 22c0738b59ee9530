//! `AdvisorPlugin`: the ejectable finish-review extension.
//!
//! Owns the plugin's configuration ([`AdvisorPlugin`], built by
//! [`AdvisorPluginBuilder`]) and its per-run extension, which implements
//! [`RunObserver`](crate::host::RunObserver) (keeping a bounded window of the
//! last request) and [`StopInterceptor`](crate::host::StopInterceptor) (the
//! finish review). The loop never names it: without it, the answer the agent
//! produces is the answer the run returns. It must not talk to a model itself;
//! the [`Reviewer`](crate::review::Reviewer) the host supplies does.
//!
//! Register it **after** the goal gate and the finish rules
//! ([`FinishRule`](crate::finish_rule::FinishRule)): interceptors are consulted
//! in registration order and the first to re-open wins, so an unmet goal or a
//! free rule is settled before a paid review runs.
//!
//! # What the model sees
//!
//! *The reviewer raises a concern or a blocker:* one user-role message with one
//! escaped `<advisory>` element per admitted note (see [`crate::render`]), and
//! the run continues instead of returning. The user sees only the progress line
//! [`PROGRESS_NOTE`].
//!
//! *Only nits, silence, an error, a timeout, or the cap is spent:* nothing. The
//! run returns the answer it produced; nits go to `on_notes` callbacks with
//! `delivered == false`.
//!
//! # Token effect
//!
//! One reviewer call per finish consultation (input: the bounded window of
//! [`EvidenceBounds`]; output: at most
//! `max_notes_per_review` notes of at most 2 000 characters), plus the
//! injection and the extra agent turn it buys. Bounded by `max_rounds`
//! (default 2) per user request.
//!
//! # Impact on the agent
//!
//! - Consulted only on a finish the run chose: a budget wrap-up, max turns, an
//!   abort, a terminal tool or a turn ending in tool calls never re-opens it.
//! - A failed reviewer accepts the finish: a provider outage, a timeout or
//!   unusable output leaves the run exactly as without an advisor.
//! - The cap counts finish consultations, so a reviewer that never runs out of
//!   objections is still bounded; a repeated note is dropped, so a review
//!   cannot buy another turn by re-raising the same point, but a real
//!   nit → concern → blocker escalation gets through.
//! - The injection lands after the rejected answer; nothing earlier moves, so
//!   the agent's prompt cache is kept.
//!
//! # Periodic review, groups, state
//!
//! - `interval_turns` > 0 adds reviews at turn boundaries (through
//!   [`StepInterceptor`](crate::host::StepInterceptor)) every N completed
//!   turns, at most `max_periodic_reviews` (8) per request; a failed review
//!   pushes the next one back `cooldown_turns` (3). Periodic injections are
//!   framed as a review of work in progress. Never on a wrap-up turn.
//! - Up to four named reviewers ([`NamedReviewer`]), each with its own
//!   cadence, caps, cooldown, guard and delivered list; all are consulted at a
//!   finish and their injections combined into one message. Every
//!   consultation is one [`Advice`]: a record per reviewer (its
//!   review's trace event) and the combined injection
//!   ([`AdvisorRun::finish_outbox`]).
//! - Checkpoints ([`Checkpoint`](crate::host::Checkpoint)) carry counters,
//!   delivered notes and dedupe history; restore validates every field. A fresh
//!   user request (new input at turn 0 after a finish review) resets
//!   allowances, delivered notes and dedupe; a rebase resets dedupe only. A
//!   rejected state is applied in no part: the advisor sits out the current
//!   request (its allowances count as spent until a fresh request, never
//!   refilled), and the report (`checkpoint_rejected`) and trace say so.
//! - `max_severity` downgrades a reviewer's notes ("advise, never interrupt");
//!   `shadow` reviews and records but never injects.
//! - A [`TraceSink`] receives one event per review and per reset;
//!   [`AdvisorPlugin::last_report`] counts what happened.
//! - Token budgets (`max_review_tokens` per user request,
//!   `max_session_review_tokens` over the checkpointed lifetime) are charged
//!   with every reviewer attempt; once one is spent, reviews stop, the stop
//!   goes through, and the report and a `budget_spent` trace event say why.

mod advice;
mod builder;
mod checkpoint;
mod invoke;
mod member;
mod named_reviewer;
mod report;
mod run;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::error::Error;
use crate::evidence::EvidenceBounds;
use crate::host::{Extension, ExtensionFactory};
use crate::kind::ReviewKind;
use crate::note::Note;
use crate::trace::TraceSink;
use crate::usage::Usage;

pub use advice::{Advice, FinishOutbox};
pub use builder::{
    AdvisorPluginBuilder, DEFAULT_MAX_ROUNDS, DEFAULT_REVIEW_TIMEOUT, MAX_NOTES_PER_REVIEW_LIMIT, MAX_REVIEWERS,
    PROGRESS_NOTE,
};
pub use checkpoint::{CHECKPOINT_VERSION, MAX_CHECKPOINT_BYTES};
pub use named_reviewer::{
    DEFAULT_COOLDOWN_TURNS, DEFAULT_MAX_PERIODIC_REVIEWS, MAX_REVIEWER_NAME_BYTES, NamedReviewer,
};
pub use report::{RunReport, Suppressed};
pub use run::AdvisorRun;

/// The extension name under which the advisor registers.
pub const PLUGIN_NAME: &str = "advisor";

/// Maximum number of delivered notes remembered and shown to the reviewer.
pub const DELIVERED_CAPACITY: usize = 32;

/// What an `on_notes` callback is told after a review admitted notes.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct NotesEvent<'a> {
    /// The reviewer's name.
    pub reviewer: &'a str,
    /// Finish or periodic.
    pub kind: ReviewKind,
    /// 0-based round of the review within its kind.
    pub round: u32,
    /// Every admitted note of the review, in the reviewer's order.
    pub notes: &'a [Note],
    /// Whether the review reached the agent (it held a concern or blocker and
    /// the reviewer is not in shadow mode). Describes the whole review: a nit
    /// sent alongside a blocker is delivered.
    pub delivered: bool,
    /// Whether the reviewer runs in shadow mode (nothing is ever delivered).
    pub shadow: bool,
}

pub(crate) type NotesCallback = Arc<dyn Fn(&NotesEvent<'_>) + Send + Sync>;
pub(crate) type UsageCallback = Arc<dyn Fn(&str, Usage) + Send + Sync>;

#[derive(Clone)]
pub(crate) struct Config {
    pub(crate) members: Vec<NamedReviewer>,
    pub(crate) enabled: bool,
    pub(crate) max_notes_per_review: usize,
    pub(crate) timeout: Duration,
    pub(crate) evidence: EvidenceBounds,
    pub(crate) on_notes: Vec<NotesCallback>,
    pub(crate) on_usage: Vec<UsageCallback>,
    pub(crate) trace: Option<Arc<dyn TraceSink>>,
    pub(crate) similarity: bool,
    pub(crate) max_review_tokens: Option<u64>,
    pub(crate) max_session_review_tokens: Option<u64>,
    pub(crate) max_prompt_tokens: Option<u64>,
    pub(crate) last_report: Arc<Mutex<Option<RunReport>>>,
}

/// The advisor plugin: an [`ExtensionFactory`] making one [`AdvisorRun`] per
/// run. Cheap to clone.
///
/// ```
/// use advisor::{AdvisorPlugin, Note, review};
/// let plugin = AdvisorPlugin::builder()
///     .reviewer(review::from_sync_fn(|_r: &review::Review| Ok(vec![Note::concern("check the join")])))
///     .max_rounds(2)
///     .build()?;
/// # let _ = plugin;
/// # Ok::<(), advisor::Error>(())
/// ```
#[derive(Clone)]
pub struct AdvisorPlugin {
    pub(crate) config: Arc<Config>,
}

impl std::fmt::Debug for AdvisorPlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdvisorPlugin")
            .field("reviewers", &self.config.members)
            .field("enabled", &self.config.enabled)
            .field("max_notes_per_review", &self.config.max_notes_per_review)
            .field("timeout", &self.config.timeout)
            .finish_non_exhaustive()
    }
}

impl AdvisorPlugin {
    /// A builder with the defaults listed in docs/design.md §4.
    pub fn builder() -> AdvisorPluginBuilder {
        AdvisorPluginBuilder::default()
    }

    /// A fresh per-run extension, whatever `enabled` says (for hosts that
    /// drive the extension directly rather than through a factory list).
    pub fn start_run(&self) -> AdvisorRun {
        AdvisorRun::new(self.config.clone())
    }

    /// Whether the plugin takes part in runs.
    pub fn is_enabled(&self) -> bool {
        self.config.enabled
    }

    /// The report of the most recent run that reviewed anything.
    pub fn last_report(&self) -> Option<RunReport> {
        self.config.last_report.lock().ok().and_then(|r| *r)
    }
}

impl ExtensionFactory for AdvisorPlugin {
    fn name(&self) -> &str {
        PLUGIN_NAME
    }

    fn begin_run(&self) -> Result<Option<Box<dyn Extension>>, Error> {
        if !self.config.enabled {
            return Ok(None);
        }
        Ok(Some(Box::new(self.start_run())))
    }
}
