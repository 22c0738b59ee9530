//! Building an [`AdvisorPlugin`]: every setting, validated once in `build()`.
//!
//! Owns the defaults (docs/design.md §4), single-reviewer versus group configuration,
//! and the actionable errors for bad settings. It must not hold per-run state.

use std::sync::Arc;
use std::time::Duration;

use super::named_reviewer::NamedReviewer;
use super::{AdvisorPlugin, Config, NotesEvent, PLUGIN_NAME};
use crate::error::Error;
use crate::evidence::EvidenceBounds;
use crate::guard::DEFAULT_MAX_NOTES_PER_REVIEW;
use crate::note::Severity;
use crate::review::Reviewer;
use crate::trace::TraceSink;
use crate::usage::Usage;

/// Default finish consultations per request.
pub const DEFAULT_MAX_ROUNDS: u32 = 2;
/// Default time one review may take before the stop goes through without it.
pub const DEFAULT_REVIEW_TIMEOUT: Duration = Duration::from_secs(30);
/// The user-visible progress line shown when a review re-opens the run.
pub const PROGRESS_NOTE: &str = "reviewing the answer with the advisor";
/// Longest breadth cap the builder accepts.
pub const MAX_NOTES_PER_REVIEW_LIMIT: usize = 32;
/// Most reviewers a group may have.
pub const MAX_REVIEWERS: usize = 4;

/// A setting that belongs to one reviewer, by name: set on the builder it
/// configures the single reviewer, and is an error in group mode.
type SingleSetting = (&'static str, Arc<dyn Fn(NamedReviewer) -> NamedReviewer + Send + Sync>);

/// Builds an [`AdvisorPlugin`]; see [`AdvisorPlugin::builder`].
///
/// Either one reviewer ([`reviewer`](Self::reviewer), with the per-reviewer
/// settings on this builder) or a group of 1..=4 named reviewers
/// ([`add_reviewer`](Self::add_reviewer), each with its own settings) — not both.
#[derive(Clone)]
pub struct AdvisorPluginBuilder {
    reviewer: Option<Arc<dyn Reviewer>>,
    single: Vec<SingleSetting>,
    group: Vec<NamedReviewer>,
    /// The plugin-wide settings; `members` and `last_report` are set by `build`.
    config: Config,
}

impl std::fmt::Debug for AdvisorPluginBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdvisorPluginBuilder")
            .field("reviewer", &self.reviewer.is_some())
            .field("group", &self.group)
            .field("enabled", &self.config.enabled)
            .field("max_notes_per_review", &self.config.max_notes_per_review)
            .field("timeout", &self.config.timeout)
            .field("evidence", &self.config.evidence)
            .field("on_notes", &self.config.on_notes.len())
            .field("trace", &self.config.trace.is_some())
            .field("similarity", &self.config.similarity)
            .field("max_review_tokens", &self.config.max_review_tokens)
            .field("max_session_review_tokens", &self.config.max_session_review_tokens)
            .field("max_prompt_tokens", &self.config.max_prompt_tokens)
            .finish()
    }
}

impl Default for AdvisorPluginBuilder {
    fn default() -> Self {
        AdvisorPluginBuilder {
            reviewer: None,
            single: Vec::new(),
            group: Vec::new(),
            config: Config {
                members: Vec::new(),
                enabled: true,
                max_notes_per_review: DEFAULT_MAX_NOTES_PER_REVIEW,
                timeout: DEFAULT_REVIEW_TIMEOUT,
                evidence: EvidenceBounds::default(),
                on_notes: Vec::new(),
                on_usage: Vec::new(),
                trace: None,
                similarity: false,
                max_review_tokens: None,
                max_session_review_tokens: None,
                max_prompt_tokens: None,
                last_report: Arc::default(),
            },
        }
    }
}

impl AdvisorPluginBuilder {
    fn single(
        mut self,
        name: &'static str,
        apply: impl Fn(NamedReviewer) -> NamedReviewer + Send + Sync + 'static,
    ) -> Self {
        self.single.push((name, Arc::new(apply)));
        self
    }

    /// The single reviewer, consulted at each finish (and periodically when
    /// [`interval_turns`](Self::interval_turns) is set). Named `advisor`.
    pub fn reviewer(self, reviewer: impl Reviewer + 'static) -> Self {
        self.shared_reviewer(Arc::new(reviewer))
    }

    /// The single reviewer, already shared.
    pub fn shared_reviewer(mut self, reviewer: Arc<dyn Reviewer>) -> Self {
        self.reviewer = Some(reviewer);
        self
    }

    /// Adds a named reviewer to the group (1..=4 uniquely named reviewers, each
    /// with its own cadence, caps, cooldown, guard and delivered list).
    pub fn add_reviewer(mut self, reviewer: NamedReviewer) -> Self {
        self.group.push(reviewer);
        self
    }

    /// Single reviewer: finish consultations per user request (default 2, at
    /// least 1). Each finish review counts, whether or not it re-opened the run.
    pub fn max_rounds(self, rounds: u32) -> Self {
        self.single("max_rounds", move |cfg| cfg.max_rounds(rounds))
    }

    /// Single reviewer: review every `n` completed turns (default 0: finish only).
    pub fn interval_turns(self, n: u32) -> Self {
        self.single("interval_turns", move |cfg| cfg.interval_turns(n))
    }

    /// Single reviewer: periodic reviews per user request (default 8).
    pub fn max_periodic_reviews(self, n: u32) -> Self {
        self.single("max_periodic_reviews", move |cfg| cfg.max_periodic_reviews(n))
    }

    /// Single reviewer: completed turns a failed review pushes the next
    /// periodic review back (default 3).
    pub fn cooldown_turns(self, n: u32) -> Self {
        self.single("cooldown_turns", move |cfg| cfg.cooldown_turns(n))
    }

    /// Single reviewer: highest severity it may raise (default blocker);
    /// `Severity::Nit` means "advise, never interrupt".
    pub fn max_severity(self, s: Severity) -> Self {
        self.single("max_severity", move |cfg| cfg.max_severity(s))
    }

    /// Single reviewer: the lowest severity that sends the agent back
    /// (default `Severity::Concern`; `Severity::Blocker` re-opens only on a
    /// blocker and leaves concerns to the user). See
    /// [`NamedReviewer::interrupt`](crate::plugin::NamedReviewer::interrupt).
    pub fn interrupt(self, s: Severity) -> Self {
        self.single("interrupt", move |cfg| cfg.interrupt(s))
    }

    /// Single reviewer: shadow mode — review, record, call `on_notes`, never
    /// inject, never re-open.
    pub fn shadow(self, on: bool) -> Self {
        self.single("shadow", move |cfg| cfg.shadow(on))
    }

    setters! {
        /// Whether the plugin takes part in runs (default `true`). A disabled
        /// plugin declines every run, leaving it exactly as without an advisor.
        enabled(enabled: bool) => config.enabled = enabled;

        /// Notes admitted per review (default 3, 1..=32).
        max_notes_per_review(n: usize) => config.max_notes_per_review = n;

        /// How long a review may take (default 30 s, more than zero). Past it the
        /// review is dropped and the run goes on as without an advisor.
        timeout(timeout: Duration) => config.timeout = timeout;

        /// Limits on the evidence a reviewer reads (defaults: [`EvidenceBounds::default`]).
        evidence(bounds: EvidenceBounds) => config.evidence = bounds;

        /// Where to record one event per review (and per reset); see [`crate::trace`].
        trace(sink: impl TraceSink + 'static) => config.trace = Some(Arc::new(sink));

        /// Similarity dedupe (default off): paraphrases with ≥ 0.8 content-word
        /// overlap count as repeats. See [`EmissionGuard::with_similarity`](crate::EmissionGuard::with_similarity).
        similarity_dedupe(on: bool) => config.similarity = on;

        /// Tokens all reviewers together may spend per user request (default:
        /// no limit). Every reviewer attempt is charged — failed ones included,
        /// estimated from text length when the server reports no usage. Once
        /// spent, no further review runs for the request: the stop goes through,
        /// and the report ([`RunReport::budget_stop`](crate::plugin::RunReport))
        /// and the trace say why. A fresh user request starts a new allowance.
        max_review_tokens(tokens: u64) => config.max_review_tokens = Some(tokens);

        /// Tokens all reviewers together may spend over the plugin's checkpointed
        /// lifetime — a session (default: no limit). Counted like
        /// [`max_review_tokens`](Self::max_review_tokens) but never reset by a
        /// fresh request; carried in the checkpoint.
        max_session_review_tokens(tokens: u64) => config.max_session_review_tokens = Some(tokens);

        /// The largest prompt, in estimated tokens, a model reviewer may send
        /// (default: the model's context when the server reports it, else
        /// [`DEFAULT_MAX_PROMPT_TOKENS`](crate::review::DEFAULT_MAX_PROMPT_TOKENS);
        /// at least [`MIN_PROMPT_TOKENS`](crate::review::MIN_PROMPT_TOKENS)). Over
        /// it the window shrinks oldest-first, long tool outputs keep their head
        /// and tail, and the task and the answer always stay.
        max_prompt_tokens(tokens: u64) => config.max_prompt_tokens = Some(tokens);
    }

    /// Called with every review's admitted notes, nits included, and whether
    /// the review was delivered to the agent. Must not block. May be called
    /// several times to register several callbacks.
    pub fn on_notes(mut self, callback: impl Fn(&NotesEvent<'_>) + Send + Sync + 'static) -> Self {
        self.config.on_notes.push(Arc::new(callback));
        self
    }

    /// Called after every review that used tokens, with the reviewer's name
    /// and the usage of all its model attempts (failed ones included), so a
    /// host can charge the run for its reviewer. Must not block.
    pub fn on_usage(mut self, callback: impl Fn(&str, Usage) + Send + Sync + 'static) -> Self {
        self.config.on_usage.push(Arc::new(callback));
        self
    }

    fn members(&self) -> Result<Vec<NamedReviewer>, Error> {
        match (&self.reviewer, self.group.is_empty()) {
            (Some(_), false) => Err(Error::config(
                "reviewers",
                "both a single reviewer and a group are set; use either .reviewer(...) or .add_reviewer(...)",
            )),
            (None, true) => Err(Error::config(
                "reviewer",
                "no reviewer is set; call .reviewer(...) with a Reviewer (for example review::from_fn) \
                 or .add_reviewer(NamedReviewer::new(name, reviewer))",
            )),
            (Some(r), true) => {
                let cfg = self
                    .single
                    .iter()
                    .fold(NamedReviewer::shared(PLUGIN_NAME, r.clone()), |cfg, (_, apply)| {
                        apply(cfg)
                    });
                if cfg.max_rounds == 0 {
                    return Err(Error::config(
                        "max_rounds",
                        "must be at least 1; to turn the advisor off, use .enabled(false) or do not register it",
                    ));
                }
                Ok(vec![cfg])
            }
            (None, false) => {
                if let Some(&(setting, _)) = self.single.first() {
                    return Err(Error::config(
                        setting,
                        "is a per-reviewer setting; in group mode set it on each NamedReviewer",
                    ));
                }
                if self.group.len() > MAX_REVIEWERS {
                    return Err(Error::config(
                        "reviewers",
                        format!(
                            "{} reviewers configured; a group holds 1 to {MAX_REVIEWERS}",
                            self.group.len()
                        ),
                    ));
                }
                for (i, cfg) in self.group.iter().enumerate() {
                    cfg.validate(&format!("reviewers[{i}]"))?;
                    if self.group[..i].iter().any(|other| other.name == cfg.name) {
                        return Err(Error::config(
                            format!("reviewers[{i}].name"),
                            format!("{:?} is used twice; each reviewer needs a unique name", cfg.name),
                        ));
                    }
                }
                Ok(self.group.clone())
            }
        }
    }

    /// Validates the settings and builds the plugin.
    pub fn build(self) -> Result<AdvisorPlugin, Error> {
        let members = self.members()?;
        if !(1..=MAX_NOTES_PER_REVIEW_LIMIT).contains(&self.config.max_notes_per_review) {
            return Err(Error::config(
                "max_notes_per_review",
                format!(
                    "must be between 1 and {MAX_NOTES_PER_REVIEW_LIMIT}, got {}",
                    self.config.max_notes_per_review
                ),
            ));
        }
        if self.config.timeout.is_zero() {
            return Err(Error::config("timeout", "must be more than zero"));
        }
        self.config.evidence.validate("evidence")?;
        if let Some(n) = self
            .config
            .max_prompt_tokens
            .filter(|n| *n < crate::review::MIN_PROMPT_TOKENS)
        {
            return Err(Error::config(
                "max_prompt_tokens",
                format!(
                    "must be at least {}, got {n}: a smaller prompt cannot hold the reviewer's instructions",
                    crate::review::MIN_PROMPT_TOKENS
                ),
            ));
        }
        Ok(AdvisorPlugin {
            config: Arc::new(Config {
                members,
                last_report: Arc::default(),
                ..self.config
            }),
        })
    }
}
