//! The rollout advisor's inputs and settings: [`TaskMaterial`] and
//! [`AdvisorConfig`], built and validated by [`AdvisorConfigBuilder`].
//!
//! Owns the defaults (fail-open, no hint screening, no streak escalation,
//! self-check cues) and the one cross-setting rule: streak escalation pushes
//! the advisor toward answer-shaped hints, so it is refused without hint
//! screening. Must not run reviews.

use std::collections::BTreeMap;

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

/// Settings of a rollout advisor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdvisorConfig {
    /// B: interventions per attempt.
    pub max_interventions: u32,
    /// k: also review every k-th solver turn; `None` reviews proposed finishes only.
    pub periodic_review_interval: Option<u32>,
    /// Advisor calls per review to get a valid decision.
    pub max_advisor_attempts: u32,
    /// Revisions per intervention (a revision that calls finish without the tool is resampled).
    pub max_revision_attempts: u32,
    /// On advisor or revision failure keep the draft (true) or return the error.
    pub fail_open: bool,
    /// Replace a hint that leaks privileged material by the fixed self-check sentence.
    pub screen_hints: bool,
    /// Show the advisor its streak of the same reason code.
    pub repeat_streak_escalation: bool,
    /// Self-check or reasoning-prefill cues.
    pub cue_path: CuePath,
    /// Bounds of the public history the advisor reads.
    pub history: EvidenceBounds,
    /// The name of the finish tool.
    pub finish_tool: String,
    /// Tokens the advisor model may spend in this attempt, every advisor
    /// call counted (failed and invalid answers included; estimated from text
    /// length when the server reports no usage). `None` (default): no limit.
    /// Once spent, no further advisor call starts: the draft is kept and the
    /// trace records `budget_spent`.
    pub max_review_tokens: Option<u64>,
}

/// Builds an [`AdvisorConfig`]; see [`AdvisorConfig::builder`].
#[derive(Debug, Clone)]
pub struct AdvisorConfigBuilder(AdvisorConfig);

impl AdvisorConfig {
    /// A builder with the defaults: B = 2, no periodic review, 3 advisor
    /// attempts, 2 revision attempts, fail-open, no screening, no streak
    /// escalation, self-check cues, finish tool `submit`.
    pub fn builder() -> AdvisorConfigBuilder {
        AdvisorConfigBuilder(AdvisorConfig {
            max_interventions: 2,
            periodic_review_interval: None,
            max_advisor_attempts: 3,
            max_revision_attempts: 2,
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
        })
    }
}

impl AdvisorConfigBuilder {
    /// B, interventions per attempt (0 turns the advisor into an observer that never reviews).
    pub fn max_interventions(mut self, n: u32) -> Self {
        self.0.max_interventions = n;
        self
    }

    /// k, the periodic review interval (`None` or `Some(0)`: finishes only).
    pub fn periodic_review_interval(mut self, k: Option<u32>) -> Self {
        self.0.periodic_review_interval = k.filter(|k| *k > 0);
        self
    }

    /// Advisor calls per review (at least 1).
    pub fn max_advisor_attempts(mut self, n: u32) -> Self {
        self.0.max_advisor_attempts = n;
        self
    }

    /// Revision attempts per intervention (at least 1).
    pub fn max_revision_attempts(mut self, n: u32) -> Self {
        self.0.max_revision_attempts = n;
        self
    }

    /// Keep the draft on failures (default true).
    pub fn fail_open(mut self, on: bool) -> Self {
        self.0.fail_open = on;
        self
    }

    /// Screen hints for privileged material (default false).
    pub fn screen_hints(mut self, on: bool) -> Self {
        self.0.screen_hints = on;
        self
    }

    /// Show the advisor its reason-code streak (default false; needs `screen_hints`).
    pub fn repeat_streak_escalation(mut self, on: bool) -> Self {
        self.0.repeat_streak_escalation = on;
        self
    }

    /// The cue path (default self-check).
    pub fn cue_path(mut self, path: CuePath) -> Self {
        self.0.cue_path = path;
        self
    }

    /// Bounds of the history the advisor reads.
    pub fn history(mut self, bounds: EvidenceBounds) -> Self {
        self.0.history = bounds;
        self
    }

    /// The finish tool's name (default `submit`).
    pub fn finish_tool(mut self, name: impl Into<String>) -> Self {
        self.0.finish_tool = name.into();
        self
    }

    /// Tokens the advisor model may spend per attempt (default: no limit).
    pub fn max_review_tokens(mut self, tokens: Option<u64>) -> Self {
        self.0.max_review_tokens = tokens;
        self
    }

    /// Validates and builds.
    pub fn build(self) -> Result<AdvisorConfig, Error> {
        let c = self.0;
        if c.max_advisor_attempts == 0 {
            return Err(Error::config("max_advisor_attempts", "must be at least 1"));
        }
        if c.max_revision_attempts == 0 {
            return Err(Error::config("max_revision_attempts", "must be at least 1"));
        }
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
