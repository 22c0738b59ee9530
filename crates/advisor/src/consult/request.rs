//! `advisor-request.v1`: what an executor sends when it asks for advice.
//!
//! Owns the request type and its lenient parsing: unknown fields are ignored
//! (a request is never validated against the strict response schema), but a
//! wrong `schema_version`, a missing required field or a key repeated in one
//! object (which would make the request mean two things) is a clear error
//! that names the field, never a value. Must not build prompts.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::ValidationError;

/// The request schema version.
pub const REQUEST_SCHEMA: &str = "advisor-request.v1";

/// Why advice is asked for. Unknown codes are kept, for forward compatibility.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RequestReason {
    /// The same failure repeated.
    RetryThreshold,
    /// The task needs a spike first.
    NeedsSpike,
    /// The task touches security.
    SecuritySensitive,
    /// The task migrates state.
    StateMigration,
    /// A pivot is about to be required.
    PivotRequired,
    /// The task demands a consultation.
    AdvisorRequired,
    /// A high-risk task before its first attempt.
    HighRiskPreflight,
    /// A plateau before escalating to the user.
    PlateauPreEscalation,
    /// Any other code.
    Other(String),
}

impl RequestReason {
    /// The code as written on the wire.
    pub fn as_str(&self) -> &str {
        match self {
            RequestReason::RetryThreshold => "retry-threshold",
            RequestReason::NeedsSpike => "needs-spike",
            RequestReason::SecuritySensitive => "security-sensitive",
            RequestReason::StateMigration => "state-migration",
            RequestReason::PivotRequired => "pivot-required",
            RequestReason::AdvisorRequired => "advisor-required",
            RequestReason::HighRiskPreflight => "high-risk-preflight",
            RequestReason::PlateauPreEscalation => "plateau-pre-escalation",
            RequestReason::Other(s) => s,
        }
    }

    /// Parses a code; anything unknown is [`RequestReason::Other`].
    pub fn parse(s: &str) -> RequestReason {
        match s {
            "retry-threshold" => RequestReason::RetryThreshold,
            "needs-spike" => RequestReason::NeedsSpike,
            "security-sensitive" => RequestReason::SecuritySensitive,
            "state-migration" => RequestReason::StateMigration,
            "pivot-required" => RequestReason::PivotRequired,
            "advisor-required" => RequestReason::AdvisorRequired,
            "high-risk-preflight" => RequestReason::HighRiskPreflight,
            "plateau-pre-escalation" => RequestReason::PlateauPreEscalation,
            other => RequestReason::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for RequestReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RequestReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for RequestReason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(RequestReason::parse(&String::deserialize(d)?))
    }
}

/// Untrusted historical evidence from a resume record.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ResumeEvidence {
    /// The producer's trust label.
    #[serde(default)]
    pub trust: Option<String>,
    /// The evidence items.
    #[serde(default)]
    pub items: Vec<Value>,
}

/// The loop's execution context: the selected plan and contracts, and notes
/// on scope and authorization. Observation data, never authorization.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ExecutionContext {
    /// The selected plan (`path`, `background`, `task_rows`).
    #[serde(default)]
    pub selected_plan: Option<Value>,
    /// Sprint contracts for the task.
    #[serde(default)]
    pub sprint_contracts: Vec<Value>,
    /// Declared scope is inferred, not proof of authorization.
    #[serde(default)]
    pub scope_note: Option<String>,
    /// The loop supplies no user authorization.
    #[serde(default)]
    pub authorization_note: Option<String>,
    /// Evidence recovered from earlier sessions.
    #[serde(default)]
    pub resume_evidence: Option<ResumeEvidence>,
}

/// Advice from an earlier consultation of the same run, restored.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PriorAdvice {
    /// The producer's trust label.
    #[serde(default)]
    pub trust: Option<String>,
    /// Where the pair was stored.
    #[serde(default)]
    pub path: Option<String>,
    /// The earlier `advisor-response.v1`, as it was stored.
    #[serde(default)]
    pub response: Value,
}

/// An `advisor-request.v1`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdvisorRequest {
    /// Always [`REQUEST_SCHEMA`].
    pub schema_version: String,
    /// The task asking.
    pub task_id: String,
    /// The loop run, when there is one; it scopes restore.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_id: Option<String>,
    /// Why advice is asked for.
    pub reason_code: RequestReason,
    /// `task_id:reason_code:signature`.
    pub trigger_hash: String,
    /// The question.
    pub question: String,
    /// Attempt number within the cycle.
    pub attempt: u32,
    /// The last failure, bounded by the producer.
    pub last_error: String,
    /// Goal, scope, references, what was tried, evidence, open points.
    pub context_summary: Vec<String>,
    /// The loop's plan, contracts and notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution_context: Option<ExecutionContext>,
    /// The same run's earlier advice, when restorable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior_advisor_response: Option<PriorAdvice>,
}

/// What a request is called in its [`ValidationError`].
const DOCUMENT: &str = "advisor-request.v1";

impl AdvisorRequest {
    /// Parses a request: unknown fields are ignored; a wrong or missing
    /// `schema_version`, a missing required field or a wrong type is an error.
    pub fn parse(text: &str) -> Result<AdvisorRequest, ValidationError> {
        let unreadable = |e: serde_json::Error| {
            ValidationError::single(DOCUMENT, "$", crate::json::describe_serde_error_of("the request", &e))
        };
        crate::json::check_no_duplicate_keys(text).map_err(unreadable)?;
        let value: Value = serde_json::from_str(text).map_err(unreadable)?;
        match value.get("schema_version").and_then(Value::as_str) {
            Some(REQUEST_SCHEMA) => {}
            Some(_) => {
                return Err(ValidationError::single(
                    DOCUMENT,
                    "schema_version",
                    format!("must be \"{REQUEST_SCHEMA}\""),
                ));
            }
            None => return Err(ValidationError::single(DOCUMENT, "schema_version", "is missing")),
        }
        serde_json::from_value(value).map_err(|e| {
            // serde's "missing field `x`" names only our own field; other
            // messages can quote a value, so they are described instead.
            let msg = e.to_string();
            match msg
                .strip_prefix("missing field `")
                .and_then(|rest| rest.split_once('`'))
            {
                Some((field, _)) => ValidationError::single(DOCUMENT, field, "is missing"),
                None => ValidationError::single(
                    DOCUMENT,
                    "$",
                    "a field has the wrong type (see the advisor-request.v1 schema)",
                ),
            }
        })
    }
}
