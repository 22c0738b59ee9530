//! A run's consultations end to end: the ledger's check, the pending pair,
//! the consultant, and the ledger's record — the path `advisor consult ask`
//! and `advisor mcp` both take, so neither re-implements the rules.
//!
//! Owns [`ConsultSession`] and [`SessionError`]. A suppressed trigger never
//! reaches the model; a failed consultation abandons its pending request and
//! is not recorded (it may be retried). Must not parse requests or build
//! models.

use std::fmt;
use std::io;

use super::consultant::{ConsultError, Consultant, Consultation};
use super::ledger::{ConsultLedger, Refusal};
use super::request::AdvisorRequest;
use super::store::ConsultStore;

/// Why a session's consultation did not produce advice.
#[derive(Debug)]
pub enum SessionError {
    /// The ledger refused: a repeated trigger, or the task's cap for this run.
    Refused(Refusal),
    /// The pair store could not write the pending request.
    Store(io::Error),
    /// The consultation failed (model, invalid answers, or the token budget).
    Consult(ConsultError),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Refused(s) => write!(f, "not consulted: {s}"),
            SessionError::Store(e) => write!(f, "the consultation store could not be written: {e}"),
            SessionError::Consult(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SessionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SessionError::Refused(_) => None,
            SessionError::Store(e) => Some(e),
            SessionError::Consult(e) => Some(e),
        }
    }
}

/// A consultant, the run's ledger and (optionally) the pair store.
#[derive(Debug)]
pub struct ConsultSession {
    consultant: Consultant,
    ledger: ConsultLedger,
    store: Option<ConsultStore>,
}

impl ConsultSession {
    /// A session asking `consultant`, with `ledger` for this run and no store.
    pub fn new(consultant: Consultant, ledger: ConsultLedger) -> ConsultSession {
        ConsultSession {
            consultant,
            ledger,
            store: None,
        }
    }

    /// Records every completed request/response pair in `store`.
    pub fn with_store(mut self, store: ConsultStore) -> ConsultSession {
        self.store = Some(store);
        self
    }

    /// The run's ledger.
    pub fn ledger(&self) -> &ConsultLedger {
        &self.ledger
    }

    /// The consultant (its token budget, for one).
    pub fn consultant(&self) -> &Consultant {
        &self.consultant
    }

    /// Checks the ledger, writes the pending request, consults, and on
    /// success completes the pair and records the trigger.
    pub async fn ask(&mut self, request: &AdvisorRequest) -> Result<Consultation, SessionError> {
        self.ledger
            .check(&request.task_id, &request.trigger_hash)
            .map_err(SessionError::Refused)?;
        let pending = self.store.as_ref().map(|s| s.begin(request)).transpose();
        let pending = pending.map_err(SessionError::Store)?;
        match self.consultant.consult(request).await {
            Ok(consultation) => {
                if let Some(Err(e)) = pending.map(|p| p.complete(&consultation.response)) {
                    tracing::warn!(error = %e, "could not store the consultation pair");
                }
                self.ledger.record(&request.task_id, &request.trigger_hash);
                Ok(consultation)
            }
            Err(e) => {
                let _ = pending.map(|p| p.abandon());
                Err(SessionError::Consult(e))
            }
        }
    }
}

impl From<SessionError> for crate::Error {
    /// An [`ErrorKind::Consult`](crate::ErrorKind::Consult) error with this one as its source.
    fn from(e: SessionError) -> crate::Error {
        crate::Error::with_source(crate::ErrorKind::Consult, "the consultation was not made", e)
    }
}
