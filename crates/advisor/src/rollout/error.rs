//! Why the rollout advisor failed a review: [`RolloutError`] and its
//! [`RolloutErrorKind`].
//!
//! The shape of [`crate::Error`]: an opaque error with a kind. Only reached
//! with `fail_open` off; with it on, a failure lets the draft through and is
//! only traced. Must not decide anything: it only reports.

use std::fmt;

use crate::error::ValidationError;
use crate::model::ModelError;

/// What kind of failure a [`RolloutError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RolloutErrorKind {
    /// The advisor model failed on every attempt (the source is the
    /// [`ModelError`]).
    Model,
    /// The advisor's answers were invalid on every attempt, or its decision
    /// could not become a cue (the source is the [`ValidationError`]).
    Decision,
    /// The revision failed: regenerating errored, or every revision called
    /// the finish tool it was not offered.
    Revision,
}

#[derive(Debug)]
enum Detail {
    Model(ModelError),
    Decision(ValidationError),
    Revision(String),
}

/// A review of the rollout advisor failed and `fail_open` is off.
#[derive(Debug)]
pub struct RolloutError {
    detail: Detail,
}

impl RolloutError {
    pub(crate) fn model(e: ModelError) -> RolloutError {
        RolloutError {
            detail: Detail::Model(e),
        }
    }

    pub(crate) fn decision(e: ValidationError) -> RolloutError {
        RolloutError {
            detail: Detail::Decision(e),
        }
    }

    pub(crate) fn revision(why: String) -> RolloutError {
        RolloutError {
            detail: Detail::Revision(why),
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> RolloutErrorKind {
        match self.detail {
            Detail::Model(_) => RolloutErrorKind::Model,
            Detail::Decision(_) => RolloutErrorKind::Decision,
            Detail::Revision(_) => RolloutErrorKind::Revision,
        }
    }

    /// The model's failure, for a [`RolloutErrorKind::Model`] error.
    pub fn model_error(&self) -> Option<&ModelError> {
        match &self.detail {
            Detail::Model(e) => Some(e),
            _ => None,
        }
    }

    /// The problems of the decision, for a [`RolloutErrorKind::Decision`] error.
    pub fn validation(&self) -> Option<&ValidationError> {
        match &self.detail {
            Detail::Decision(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for RolloutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.detail {
            Detail::Model(e) => write!(f, "the advisor model failed: {e}"),
            Detail::Decision(e) => write!(f, "{e}"),
            Detail::Revision(e) => write!(f, "the revision failed: {e}"),
        }
    }
}

impl std::error::Error for RolloutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.detail {
            Detail::Model(e) => Some(e),
            Detail::Decision(e) => Some(e),
            Detail::Revision(_) => None,
        }
    }
}

impl From<RolloutError> for crate::Error {
    /// An [`ErrorKind::Rollout`](crate::ErrorKind::Rollout) error with this one as its source.
    fn from(e: RolloutError) -> crate::Error {
        crate::Error::with_source(crate::ErrorKind::Rollout, "the rollout advisor failed", e)
    }
}
