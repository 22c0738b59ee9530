//! Consultation: an executor asks with `advisor-request.v1` and gets a
//! strictly validated `advisor-response.v1` (PLAN / CORRECTION / STOP).
//!
//! Owns the request and response types ([`request`](AdvisorRequest),
//! [`response`](AdvisorResponse)), the [`Consultant`] that asks a model, the
//! [`ConsultLedger`] that suppresses repeated triggers and caps consultations
//! per task, the [`ConsultStore`] that keeps completed pairs, and the
//! [`ConsultSession`] that runs all three in order. Must not
//! execute advice: it only gives direction.

mod consultant;
mod error;
mod ledger;
mod request;
mod response;
mod session;
mod store;

pub use consultant::{
    CONSULT_SYSTEM_PROMPT, Consultant, Consultation, DEFAULT_MAX_ATTEMPTS, consult_prompt, response_schema,
};
pub use error::{ConsultError, ConsultErrorKind};
pub use ledger::{
    ConsultLedger, DEFAULT_MAX_CONSULTS_PER_TASK, MAX_SIGNATURE_CHARS, Refusal, normalize_signature, trigger_hash,
};
pub use request::{AdvisorRequest, ExecutionContext, PriorAdvice, REQUEST_SCHEMA, RequestReason, ResumeEvidence};
pub use response::{AdvisorResponse, Decision, MAX_INSTRUCTIONS, RESPONSE_SCHEMA, validate_response};
pub use session::ConsultSession;
pub use store::{ConsultStore, PendingConsult};
