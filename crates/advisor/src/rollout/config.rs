//! The rollout advisor's inputs and settings: [`TaskMaterial`] and
//! [`AdvisorConfig`], built and validated by [`AdvisorConfigBuilder`].
//!
//! Owns the defaults (fail-open, no hint screening, no streak escalation,
//! self-check cues) and the one cross-setting rule: streak escalation pushes
//! the advisor toward answer-shaped hints, so it is refused without hint
//! screening. Must not run reviews.

use std::collections::BTreeMap;
use std::num::NonZeroU32;

use crate::error::Error;
use crate::evidence::EvidenceBounds;

/// What the task is and what only the advisor may see.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TaskMaterial {
    /// The public task, as the solver sees it.
    pub instruction: String,
    /// Privileged files (hidden tests, reference solution, notes), path → text.
    /// Never shown to the solver.
    pub files: BTreeMap<String, String>,
}

impl TaskMaterial {
    /// Task material with this public instruction and no privileged files.
    pub fn new(instruction: impl Into<String>) -> TaskMaterial {
        TaskMaterial {
            instruction: instruction.into(),
            files: BTreeMap::new(),
        }
    }

    /// Adds a privileged file.
    pub fn file(mut self, path: impl Into<String>, text: impl Into<String>) -> TaskMaterial {
        self.files.insert(path.into(), text.into());
        self
    }
}

/// How an intervention reaches the solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CuePath {
    /// A fixed, tested sentence per action; no advisor text reaches the solver.
    #[default]
    SelfCheck,
    /// The advisor's `hint`, as a first-person continuation of the solver's reasoning.
    ReasoningPrefill,
}

/// Settings of a rollout advisor, validated by [`AdvisorConfigBuilder::build`]
/// (so a zero interval or attempt count cannot reach the advisor); read them
/// through the getters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdvisorConfig {
    pub(super) max_interventions: u32,
    pub(super) periodic_review_interval: Option<NonZeroU32>,
    pub(super) max_advisor_attempts: NonZeroU32,
    pub(super) max_revision_attempts: NonZeroU32,
    pub(super) fail_open: bool,
    pub(super) screen_hints: bool,
    pub(super) repeat_streak_escalation: bool,
    pub(super) cue_path: CuePath,
    pub(super) history: EvidenceBounds,
    pub(super) finish_tool: String,
    pub(super) max_review_tokens: Option<u64>,
}

/// Builds an [`AdvisorConfig`]; see [`AdvisorConfig::builder`].
#[derive(Debug, Clone)]
pub struct AdvisorConfigBuilder {
    config: AdvisorConfig,
    periodic_review_interval: Option<u32>,
    max_advisor_attempts: u32,
    max_revision_attempts: u32,
}

impl AdvisorConfig {
    /// A builder with the defaults: B = 2, no periodic review, 3 advisor
    /// attempts, 2 revision attempts, fail-open, no screening, no streak
    /// escalation, self-check cues, finish tool `submit`.
    pub fn builder() -> AdvisorConfigBuilder {
        AdvisorConfigBuilder {
            config: AdvisorConfig {
                max_interventions: 2,
                periodic_review_interval: None,
                max_advisor_attempts: NonZeroU32::MIN,
                max_revision_attempts: NonZeroU32::MIN,
                fail_open: true,
                screen_hints: false,
                repeat_streak_escalation: false,
                cue_path: CuePath::SelfCheck,
                history: EvidenceBounds {
                    max_messages: 40,
                    max_bytes: 48_000,
                    ..EvidenceBounds::default()
                },
                finish_tool: "submit".to_owned(),
                max_review_tokens: None,
            },
            periodic_review_interval: None,
            max_advisor_attempts: 3,
            max_revision_attempts: 2,
        }
    }

    /// k: also review every k-th solver turn; `None` reviews proposed finishes only.
    pub fn periodic_review_interval(&self) -> Option<u32> {
        self.periodic_review_interval.map(NonZeroU32::get)
    }

    /// Advisor calls per review to get a valid decision.
    pub fn max_advisor_attempts(&self) -> u32 {
        self.max_advisor_attempts.get()
    }

    /// Revisions per intervention (a revision that calls finish without the tool is resampled).
    pub fn max_revision_attempts(&self) -> u32 {
        self.max_revision_attempts.get()
    }

    getters! {
        /// B: interventions per attempt.
        max_interventions: u32;

        /// On advisor or revision failure keep the draft (true) or return the error.
        fail_open: bool;

        /// Whether a hint that leaks privileged material is replaced by the fixed self-check sentence.
        screen_hints: bool;

        /// Whether the advisor is shown its streak of the same reason code.
        repeat_streak_escalation: bool;

        /// Self-check or reasoning-prefill cues.
        cue_path: CuePath;

        /// Bounds of the public history the advisor reads.
        history: EvidenceBounds;

        /// Tokens the advisor model may spend in this attempt, every advisor call
        /// counted (failed and invalid answers included; estimated from text
        /// length when the server reports no usage). `None`: no limit. Once
        /// spent, no further advisor call starts: the draft is kept and the trace
        /// records `budget_spent`.
        max_review_tokens: Option<u64>;
    }

    /// The name of the finish tool.
    pub fn finish_tool(&self) -> &str {
        &self.finish_tool
    }
}

impl AdvisorConfigBuilder {
    setters! {
        /// B, interventions per attempt (0 turns the advisor into an observer that never reviews).
        max_interventions(n: u32) => config.max_interventions = n;

        /// k, the periodic review interval (`None`: finishes only; `Some(0)` is
        /// rejected by [`build`](Self::build)).
        periodic_review_interval(k: Option<u32>) => periodic_review_interval = k;

        /// Advisor calls per review (at least 1).
        max_advisor_attempts(n: u32) => max_advisor_attempts = n;

        /// Revision attempts per intervention (at least 1).
        max_revision_attempts(n: u32) => max_revision_attempts = n;

        /// Keep the draft on failures (default true).
        fail_open(on: bool) => config.fail_open = on;

        /// Screen hints for privileged material (default false).
        screen_hints(on: bool) => config.screen_hints = on;

        /// Show the advisor its reason-code streak (default false; needs `screen_hints`).
        repeat_streak_escalation(on: bool) => config.repeat_streak_escalation = on;

        /// The cue path (default self-check).
        cue_path(path: CuePath) => config.cue_path = path;

        /// Bounds of the history the advisor reads.
        history(bounds: EvidenceBounds) => config.history = bounds;

        /// The finish tool's name (default `submit`).
        finish_tool(name: impl Into<String>) => config.finish_tool = name.into();

        /// Tokens the advisor model may spend per attempt (default: no limit).
        max_review_tokens(tokens: Option<u64>) => config.max_review_tokens = tokens;
    }

    /// Validates and builds; each error names the field and what it accepts.
    pub fn build(self) -> Result<AdvisorConfig, Error> {
        let at_least_one = |field: &str, n: u32, why: &str| {
            NonZeroU32::new(n).ok_or_else(|| Error::config(field, format!("must be at least 1, got 0{why}")))
        };
        let mut c = self.config;
        c.periodic_review_interval = match self.periodic_review_interval {
            None => None,
            Some(k) => Some(at_least_one(
                "periodic_review_interval",
                k,
                " (leave it unset to review proposed finishes only)",
            )?),
        };
        c.max_advisor_attempts = at_least_one("max_advisor_attempts", self.max_advisor_attempts, "")?;
        c.max_revision_attempts = at_least_one("max_revision_attempts", self.max_revision_attempts, "")?;
        if c.repeat_streak_escalation && !c.screen_hints {
            return Err(Error::config(
                "repeat_streak_escalation",
                "pushes the advisor toward answer-shaped hints; turn on screen_hints with it",
            ));
        }
        if c.finish_tool.trim().is_empty() {
            return Err(Error::config("finish_tool", "must name the solver's finish tool"));
        }
        c.history.validate("history")?;
        Ok(c)
    }
}
