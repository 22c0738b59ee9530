//! `AdvisorDecision`: the privileged advisor's answer, parsed strictly.
//!
//! Owns the seven-field decision (docs/design.md §7), its enums, and
//! its [`ValidationError`]s: unknown fields rejected, enums only as plain
//! strings (a list-wrapped enum is rejected), one JSON code fence tolerated,
//! prose before or after rejected, no key repeated at any depth, confidence a
//! plain decimal in 0..=1 judged on its literal text
//! ([`crate::json::unit_interval`]), a hint of only invisible characters
//! counted as empty, and the consistency
//! the protocol requires (CONTINUE does not intervene, CONFIRM_AND_SUBMIT does, no
//! hint without an intervention). The error lists each problem with its field
//! location and a description, never contains any part of the advisor's
//! output (an unknown field appears as `<unknown field>`) and has no
//! `source()`. Must not compile cues.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Problems, ValidationError};
use crate::json::{extract_object, is_blank, parse_strict, top_level_literal, unit_interval};

wire_enum! {
    /// Why the advisor decided what it did.
    DecisionReason {
        /// The work is complete.
        Complete => "COMPLETE",
        /// Requirement coverage looks incomplete.
        IncompleteRequirementCoverage => "INCOMPLETE_REQUIREMENT_COVERAGE",
        /// Interacting state changes were not reasoned through.
        UnverifiedStateTransitions => "UNVERIFIED_STATE_TRANSITIONS",
        /// Validation was too narrow.
        InsufficientEndToEndValidation => "INSUFFICIENT_END_TO_END_VALIDATION",
        /// Submission looks premature.
        PrematureSubmission => "PREMATURE_SUBMISSION",
        /// Something else.
        Other => "OTHER",
    }
}

wire_enum! {
    /// What the cue asks of the solver.
    Action {
        /// The solver may submit; no intervention.
        Continue => "CONTINUE",
        /// Go back over every requirement.
        ReviewAllRequirements => "REVIEW_ALL_REQUIREMENTS",
        /// Trace the state changes end to end.
        TraceStateTransitions => "TRACE_STATE_TRANSITIONS",
        /// Validate more broadly.
        RunBroaderValidation => "RUN_BROADER_VALIDATION",
        /// Reconsider submitting.
        ReconsiderSubmission => "RECONSIDER_SUBMISSION",
        /// The work is correct and complete now: check once more and submit.
        ConfirmAndSubmit => "CONFIRM_AND_SUBMIT",
    }
}

/// The advisor's decision for one review.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdvisorDecision {
    /// Whether to interrupt the solver (with an action other than CONTINUE, the whole gate).
    pub intervene: bool,
    /// Recorded, never gated on.
    pub confidence: f64,
    /// Why.
    pub reason_code: DecisionReason,
    /// What the cue asks.
    pub action: Action,
    /// Private: the task's to-do list and the solver's progress, carried to the next review.
    pub plan: String,
    /// First-person continuation of the solver's reasoning (reasoning-prefill path only).
    pub hint: String,
    /// Private: never shown to the solver.
    pub private_diagnosis: String,
}

impl AdvisorDecision {
    /// Whether this decision interrupts the solver.
    pub fn intervenes(&self) -> bool {
        self.intervene && self.action != Action::Continue
    }
}

/// What a decision is called in its [`ValidationError`].
const DOCUMENT: &str = "advisor decision";

const FIELDS: [&str; 7] = [
    "intervene",
    "confidence",
    "reason_code",
    "action",
    "plan",
    "hint",
    "private_diagnosis",
];

/// The decision's field readers, each recording its problem.
trait Fields {
    fn string(&mut self, obj: &Map<String, Value>, field: &str) -> Option<String>;
    fn boolean(&mut self, obj: &Map<String, Value>, field: &str) -> Option<bool>;
    fn enumeration<T: Copy + fmt::Display>(&mut self, obj: &Map<String, Value>, field: &str, all: &[T]) -> Option<T>;
}

impl Fields for Problems {
    fn string(&mut self, obj: &Map<String, Value>, field: &str) -> Option<String> {
        match obj.get(field) {
            None => self.add(field, "field required"),
            Some(Value::String(s)) => return Some(s.clone()),
            Some(_) => self.add(field, "input should be a valid string"),
        }
        None
    }

    fn boolean(&mut self, obj: &Map<String, Value>, field: &str) -> Option<bool> {
        match obj.get(field) {
            None => self.add(field, "field required"),
            Some(Value::Bool(b)) => return Some(*b),
            Some(_) => self.add(field, "input should be a valid boolean"),
        }
        None
    }

    fn enumeration<T: Copy + fmt::Display>(&mut self, obj: &Map<String, Value>, field: &str, all: &[T]) -> Option<T> {
        let allowed = all.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        match obj.get(field) {
            None => self.add(field, "field required"),
            Some(Value::String(s)) => match all.iter().find(|v| v.to_string() == *s) {
                Some(v) => return Some(*v),
                None => self.add(field, format!("input should be one of {allowed}")),
            },
            Some(Value::Array(_)) => self.add(
                field,
                format!("input should be a plain string, one of {allowed}, not a list"),
            ),
            Some(_) => self.add(field, format!("input should be a string, one of {allowed}")),
        }
        None
    }
}

/// Parses the advisor's answer strictly.
///
/// ```
/// use advisor::rollout::{Action, parse_decision};
/// let d = parse_decision(r#"{"intervene": false, "confidence": 0.8, "reason_code": "COMPLETE",
///   "action": "CONTINUE", "plan": "1. verify ties.", "hint": "", "private_diagnosis": "fine"}"#).unwrap();
/// assert_eq!(d.action, Action::Continue);
/// assert!(parse_decision(r#"{"action": ["CONTINUE"]}"#).is_err());
/// ```
pub fn parse_decision(answer: &str) -> Result<AdvisorDecision, ValidationError> {
    let text = extract_object(answer).map_err(|e| ValidationError::single(DOCUMENT, "$", e.to_string()))?;
    let value: Value = parse_strict(text).map_err(|e| ValidationError::single(DOCUMENT, "$", e))?;
    let Some(obj) = value.as_object() else {
        return Err(ValidationError::single(DOCUMENT, "$", "input should be a JSON object"));
    };
    let mut c = Problems::default();
    for key in obj.keys() {
        if !FIELDS.contains(&key.as_str()) {
            c.add("<unknown field>", "extra inputs are not permitted");
        }
    }
    let intervene = c.boolean(obj, "intervene");
    let confidence = match obj.get("confidence") {
        None => Err("field required"),
        Some(Value::Number(_)) => top_level_literal(text, "confidence")
            .and_then(unit_interval)
            .ok_or("input should be a plain decimal between 0.0 and 1.0 (no sign, no exponent)"),
        Some(_) => Err("input should be a valid number"),
    };
    let confidence = confidence.map_err(|why| c.add("confidence", why)).ok();
    let reason_code = c.enumeration(obj, "reason_code", DecisionReason::ALL);
    let action = c.enumeration(obj, "action", Action::ALL);
    let plan = c.string(obj, "plan");
    let hint = c.string(obj, "hint");
    let pd = c.string(obj, "private_diagnosis");
    if let (Some(intervene), Some(action)) = (intervene, action) {
        if action == Action::Continue && intervene {
            c.add("intervene", "must be false when the action is CONTINUE");
        }
        if action == Action::ConfirmAndSubmit && !intervene {
            c.add("intervene", "must be true when the action is CONFIRM_AND_SUBMIT");
        }
        if !(intervene && action != Action::Continue) && hint.as_deref().is_some_and(|h| !is_blank(h)) {
            c.add("hint", "must be empty when not intervening");
        }
    }
    match (intervene, confidence, reason_code, action, plan, hint, pd) {
        (Some(intervene), Some(confidence), Some(reason_code), Some(action), Some(plan), Some(hint), Some(pd))
            if c.is_empty() =>
        {
            Ok(AdvisorDecision {
                intervene,
                confidence,
                reason_code,
                action,
                plan,
                hint,
                private_diagnosis: pd,
            })
        }
        _ => Err(c.into_error(DOCUMENT)),
    }
}
