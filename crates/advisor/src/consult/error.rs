//! Why a consultation produced no advice: [`ConsultError`] and its
//! [`ConsultErrorKind`].
//!
//! One opaque error for the consultant and the session alike (the shape of
//! [`crate::Error`]): the ledger refused, the pair store could not be
//! written, the model failed, every answer was invalid, or the token budget
//! was spent. Every error knows what the consultation's attempts cost
//! ([`ConsultError::usage`]). Must not decide anything: it only reports.

use std::fmt;
use std::io;

use super::ledger::Refusal;
use crate::budget::BudgetStop;
use crate::error::ValidationError;
use crate::model::ModelError;
use crate::usage::Usage;

/// What kind of failure a [`ConsultError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ConsultErrorKind {
    /// The ledger refused: a repeated trigger, or the task's cap for this
    /// run ([`ConsultError::refusal`] says which). No model was asked.
    Refused,
    /// The pair store could not write the pending request (the source is
    /// the I/O error). No model was asked.
    Store,
    /// The model could not be reached or failed (the source is the
    /// [`ModelError`], whose usage is that of every attempt).
    Model,
    /// Every answer broke the response rules (the source is the last
    /// answer's [`ValidationError`]).
    Invalid,
    /// The run's token budget is spent ([`ConsultError::budget_stop`]); no
    /// further model call was made.
    Budget,
}

#[derive(Debug)]
enum Detail {
    Refused(Refusal),
    Store(io::Error),
    Model(ModelError),
    Invalid(ValidationError),
    Budget(BudgetStop),
}

/// A consultation failed: the ledger refused, the store could not be
/// written, or the consultant gave up ([`kind`](Self::kind) says which).
#[derive(Debug)]
pub struct ConsultError {
    detail: Detail,
    attempts: u32,
    usage: Usage,
}

impl ConsultError {
    pub(crate) fn refused(why: Refusal) -> ConsultError {
        ConsultError::of(Detail::Refused(why), 0, Usage::default())
    }

    pub(crate) fn store(e: io::Error) -> ConsultError {
        ConsultError::of(Detail::Store(e), 0, Usage::default())
    }

    pub(crate) fn model(e: ModelError, attempts: u32) -> ConsultError {
        let usage = e.usage();
        ConsultError::of(Detail::Model(e), attempts, usage)
    }

    pub(crate) fn invalid(e: ValidationError, attempts: u32, usage: Usage) -> ConsultError {
        ConsultError::of(Detail::Invalid(e), attempts, usage)
    }

    pub(crate) fn budget(stop: BudgetStop, attempts: u32, usage: Usage) -> ConsultError {
        ConsultError::of(Detail::Budget(stop), attempts, usage)
    }

    fn of(detail: Detail, attempts: u32, usage: Usage) -> ConsultError {
        ConsultError {
            detail,
            attempts,
            usage,
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ConsultErrorKind {
        match self.detail {
            Detail::Refused(_) => ConsultErrorKind::Refused,
            Detail::Store(_) => ConsultErrorKind::Store,
            Detail::Model(_) => ConsultErrorKind::Model,
            Detail::Invalid(_) => ConsultErrorKind::Invalid,
            Detail::Budget(_) => ConsultErrorKind::Budget,
        }
    }

    /// Tokens the consultation spent before it failed, every attempt counted
    /// (zero when no model was asked).
    pub fn usage(&self) -> Usage {
        self.usage
    }

    /// Answers the model gave before the consultation gave up (zero when no
    /// model was asked).
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Why the ledger refused, for a [`ConsultErrorKind::Refused`] error.
    pub fn refusal(&self) -> Option<Refusal> {
        match &self.detail {
            Detail::Refused(r) => Some(*r),
            _ => None,
        }
    }

    /// The spent budget, for a [`ConsultErrorKind::Budget`] error.
    pub fn budget_stop(&self) -> Option<BudgetStop> {
        match &self.detail {
            Detail::Budget(stop) => Some(*stop),
            _ => None,
        }
    }

    /// The last answer's problems, for a [`ConsultErrorKind::Invalid`] error.
    pub fn validation(&self) -> Option<&ValidationError> {
        match &self.detail {
            Detail::Invalid(e) => Some(e),
            _ => None,
        }
    }

    /// The model's failure, for a [`ConsultErrorKind::Model`] error.
    pub fn model_error(&self) -> Option<&ModelError> {
        match &self.detail {
            Detail::Model(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for ConsultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.detail {
            Detail::Refused(why) => write!(f, "not consulted: {why}"),
            Detail::Store(e) => write!(f, "the consultation store could not be written: {e}"),
            Detail::Model(e) => write!(f, "the advisor model failed: {e}"),
            Detail::Invalid(e) => write!(
                f,
                "no valid advisor-response.v1 after {} answer(s):\n{e}",
                self.attempts
            ),
            Detail::Budget(stop) => write!(
                f,
                "the consultant's token budget for this run is spent ({} of {} tokens); no model call was made",
                stop.spent, stop.limit
            ),
        }
    }
}

impl std::error::Error for ConsultError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.detail {
            Detail::Store(e) => Some(e),
            Detail::Model(e) => Some(e),
            Detail::Invalid(e) => Some(e),
            Detail::Refused(_) | Detail::Budget(_) => None,
        }
    }
}

impl From<ConsultError> for crate::Error {
    /// An [`ErrorKind::Consult`](crate::ErrorKind::Consult) error with this one as its source.
    fn from(e: ConsultError) -> crate::Error {
        let what = match e.kind() {
            ConsultErrorKind::Refused | ConsultErrorKind::Store => "the consultation was not made",
            _ => "the consultation failed",
        };
        crate::Error::with_source(crate::ErrorKind::Consult, what, e)
    }
}
