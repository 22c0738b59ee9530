//! Reviewers: whoever reads the bounded window and raises notes.
//!
//! Owns the [`Reviewer`] trait, the [`Review`] request, [`ReviewError`] and the
//! closure adapters. The plugin never learns whether a reviewer is a rule, a
//! model or a person; that keeps it testable without a provider and keeps
//! model, tier and credential choices with the host. This module must not
//! admit or render notes.

mod adapter;
mod command;
mod contest;
mod judge_prompt;
mod model_reviewer;
mod prompt;
mod tool_loop;
pub mod tools;
mod usage;

use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::evidence::EvidenceBounds;
use crate::host::{Message, ToolTrace};
use crate::kind::{ReviewErrorKind, ReviewKind};
use crate::model::ModelError;
use crate::note::Note;

pub use adapter::{FnReviewer, SyncFnReviewer, from_fn, from_sync_fn};
pub use command::{CommandReviewer, Envelope, MAX_COMMAND_STDERR, MAX_COMMAND_STDOUT};
pub use contest::{
    Contest, Failure, MAX_AFTER, MAX_FAILURES, MAX_QUOTE_BYTES, MAX_REMARKS, MAX_STEP_CHARS, MAX_WRITTEN,
};
pub use model_reviewer::{
    DEFAULT_MAX_PROMPT_TOKENS, MIN_PROMPT_TOKENS, ModelReviewer, parse_notes, prompt_tokens_for_context,
};
pub use prompt::FittedPrompt;
pub use usage::UsageMeter;

/// What a reviewer is shown: bounded evidence, never the whole run.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Review {
    /// Finish or periodic.
    pub kind: ReviewKind,
    /// The name of the reviewer being consulted (`advisor` for a single reviewer).
    pub reviewer: String,
    /// The answer under review (finish reviews only), bounded.
    pub final_answer: Option<String>,
    /// Finish: turns used by the run. Periodic: completed turns counted by the plugin.
    pub turns: u32,
    /// The user's latest request, bounded, even when the window no longer
    /// holds it (`None`: unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    /// The bounded transcript window, oldest first; shared by every reviewer
    /// of one consultation, never copied per reviewer.
    pub messages: Arc<[Message]>,
    /// How many older messages the window left out (unknown to the reviewer,
    /// never evidence that a step did not happen).
    pub omitted_messages: usize,
    /// The bounded tool trace (finish reviews only), oldest first.
    pub tools: Vec<ToolTrace>,
    /// How many older tool traces were left out.
    pub omitted_tools: usize,
    /// How many of the oldest [`tools`](Self::tools) were made before the
    /// current request (earlier turns); the rest answer the request under
    /// review. 0: all of them do.
    #[serde(default)]
    pub earlier_tools: usize,
    /// 0-based index of this review within its kind.
    pub round: u32,
    /// Notes already delivered to the agent, oldest first.
    pub delivered: Vec<Note>,
    /// The largest prompt, in estimated tokens, a reviewer that renders this
    /// review for a model may send (`None`: the reviewer's own default). A
    /// reviewer over budget shrinks the evidence oldest-first and keeps the
    /// task and the answer (see [`ModelReviewer`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_prompt_tokens: Option<u64>,
    /// How many notes the review may raise: the plugin's
    /// `max_notes_per_review` (`None`: the default,
    /// [`DEFAULT_MAX_NOTES_PER_REVIEW`](crate::guard::DEFAULT_MAX_NOTES_PER_REVIEW)).
    /// The guard caps breadth whatever a reviewer returns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_notes: Option<usize>,
    /// What an earlier stage found against the answer (`None`: a whole
    /// review). With one, a model-backed reviewer judges only it — does the
    /// answer state or imply a success these failures contradict, without
    /// disclosing them? — from a short prompt of the request, the failures,
    /// what the turn wrote and the answer ([`Contest`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contest: Option<Arc<Contest>>,
    /// Where the reviewer charges the tokens it uses (every attempt, failed
    /// ones included), so the run's cost includes its reviewer.
    #[serde(skip)]
    pub usage: UsageMeter,
}

/// A review failed. The run then ends exactly as it would without an advisor.
/// A model's failure is kept whole as the [`source`](std::error::Error::source).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewError {
    kind: ReviewErrorKind,
    message: String,
    source: Option<ModelError>,
}

impl ReviewError {
    /// A [`ReviewErrorKind::Failed`] error.
    pub fn new(message: impl Into<String>) -> ReviewError {
        ReviewError::with_kind(ReviewErrorKind::Failed, message)
    }

    /// An error of the given kind.
    pub fn with_kind(kind: ReviewErrorKind, message: impl Into<String>) -> ReviewError {
        ReviewError {
            kind,
            message: message.into(),
            source: None,
        }
    }

    /// A [`ReviewErrorKind::Failed`] error caused by the model's failure.
    pub fn model(message: impl Into<String>, source: ModelError) -> ReviewError {
        ReviewError {
            source: Some(source),
            ..ReviewError::new(message)
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ReviewErrorKind {
        self.kind
    }
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.source {
            Some(e) => write!(f, "{}: {e}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ReviewError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as _)
    }
}

/// Reads a [`Review`] and raises notes. Returning no notes is silence — the
/// expected outcome of a run that went fine. Returning an error accepts the
/// finish; notes cannot accompany an error.
#[async_trait]
pub trait Reviewer: Send + Sync {
    /// Reviews the evidence.
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError>;

    /// The bounds this reviewer reads a finish's tool calls with, given the
    /// plugin's. The default keeps them: a model's prompt is sized by them.
    /// A reviewer that reads without a model may widen them (the offline rules
    /// read more of each run's output, where a compile error sits above the
    /// tail a prompt keeps). Wrappers forward it to the reviewer they wrap.
    fn evidence_bounds(&self, configured: EvidenceBounds) -> EvidenceBounds {
        configured
    }
}

impl From<ReviewError> for crate::Error {
    /// An [`ErrorKind::Review`](crate::ErrorKind::Review) error with this one as its source.
    fn from(e: ReviewError) -> crate::Error {
        crate::Error::with_source(crate::ErrorKind::Review, "the review failed", e)
    }
}
