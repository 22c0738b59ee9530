//! A run's consultations end to end: the ledger's check, the pending pair,
//! the consultant, and the ledger's record — the path `advisor consult ask`
//! and `advisor mcp` both take, so neither re-implements the rules.
//!
//! Owns [`ConsultSession`]. A suppressed trigger never
//! reaches the model; a failed consultation abandons its pending request and
//! is not recorded (it may be retried). Must not parse requests or build
//! models.

use super::consultant::{Consultant, Consultation};
use super::error::ConsultError;
use super::ledger::ConsultLedger;
use super::request::AdvisorRequest;
use super::store::ConsultStore;

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
    pub async fn ask(&mut self, request: &AdvisorRequest) -> Result<Consultation, ConsultError> {
        self.ledger
            .check(&request.task_id, &request.trigger_hash)
            .map_err(ConsultError::refused)?;
        let pending = self.store.as_ref().map(|s| s.begin(request)).transpose();
        let pending = pending.map_err(ConsultError::store)?;
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
                Err(e)
            }
        }
    }
}
