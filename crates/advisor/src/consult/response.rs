//! `advisor-response.v1`: the advice, validated strictly in one place.
//!
//! Owns [`AdvisorResponse`] and [`validate_response`], which enforces every
//! rule at once — the union of what the original schema, wrapper and prompt
//! each checked only in part: schema version; decision PLAN | CORRECTION |
//! STOP (APPROVE / REQUEST_CHANGES and anything else rejected); a non-empty
//! summary; 1 to 4 executor instructions, each one non-empty line (VT, FF,
//! NEL, U+2028 and U+2029 break lines too); confidence a plain decimal in
//! 0..=1 judged on its literal text ([`crate::json::unit_interval`]);
//! `stop_reason` non-null and non-empty iff STOP; a text of only invisible
//! characters is empty; no unknown fields; no key repeated, at any depth; no
//! prose around the object (one code fence tolerated). Every problem is
//! listed with its field; no value from the answer is ever quoted.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Problems, ValidationError};
use crate::json::{extract_object, has_line_break, is_blank, parse_strict, top_level_literal, unit_interval};

/// The response schema version.
pub const RESPONSE_SCHEMA: &str = "advisor-response.v1";
/// Most executor instructions a response may carry.
pub const MAX_INSTRUCTIONS: usize = 4;

wire_enum! {
    /// What the advisor decided.
    Decision {
        /// Reorder implementation, isolation or verification steps.
        Plan => "PLAN",
        /// Keep the approach; change a local fix.
        Correction => "CORRECTION",
        /// The executor cannot continue alone.
        Stop => "STOP",
    }
}

/// A valid `advisor-response.v1`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AdvisorResponse {
    /// Always [`RESPONSE_SCHEMA`].
    pub schema_version: &'static str,
    /// The decision.
    pub decision: Decision,
    /// The reason and the observed evidence, briefly.
    pub summary: String,
    /// 1 to 4 one-line imperatives.
    pub executor_instructions: Vec<String>,
    /// 0.0 to 1.0.
    pub confidence: f64,
    /// Why the executor must stop (STOP only).
    pub stop_reason: Option<String>,
}

/// What a response is called in its [`ValidationError`].
const DOCUMENT: &str = "advisor-response.v1";

const KNOWN: [&str; 6] = [
    "schema_version",
    "decision",
    "summary",
    "executor_instructions",
    "confidence",
    "stop_reason",
];

fn decision(obj: &Map<String, Value>, p: &mut Problems) -> Option<Decision> {
    match obj.get("decision") {
        None => p.add("decision", "is missing"),
        Some(Value::String(s)) => match s.as_str() {
            "PLAN" => return Some(Decision::Plan),
            "CORRECTION" => return Some(Decision::Correction),
            "STOP" => return Some(Decision::Stop),
            "APPROVE" | "REQUEST_CHANGES" => p.add(
                "decision",
                "is a review verdict; an advisor gives direction: PLAN, CORRECTION or STOP",
            ),
            _ => p.add("decision", "must be exactly one of PLAN, CORRECTION, STOP"),
        },
        Some(_) => p.add("decision", "must be a string: PLAN, CORRECTION or STOP"),
    }
    None
}

fn instructions(obj: &Map<String, Value>, p: &mut Problems) -> Vec<String> {
    let items = match obj.get("executor_instructions") {
        None => Err("is missing"),
        Some(v) => v.as_array().ok_or("must be a list of 1 to 4 strings"),
    };
    let Ok(items) = items.map_err(|why| p.add("executor_instructions", why)) else {
        return Vec::new();
    };
    if items.is_empty() || items.len() > MAX_INSTRUCTIONS {
        p.add(
            "executor_instructions",
            format!("must hold 1 to {MAX_INSTRUCTIONS} instructions, holds {}", items.len()),
        );
    }
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("executor_instructions[{i}]");
        match item.as_str() {
            None => p.add(&at, "must be a string"),
            Some(s) if is_blank(s) => p.add(&at, "must not be empty"),
            Some(s) if has_line_break(s) => p.add(&at, "must be a single line"),
            Some(s) => out.push(s.trim().to_owned()),
        }
    }
    out
}

/// Validates a model's answer (one JSON object, optionally in one code fence)
/// as an `advisor-response.v1`.
///
/// ```
/// use advisor::consult::{Decision, validate_response};
/// let ok = validate_response(r#"{"schema_version":"advisor-response.v1","decision":"PLAN",
///     "summary":"fix the order first","executor_instructions":["Pin the status fields."],
///     "confidence":0.8,"stop_reason":null}"#).unwrap();
/// assert_eq!(ok.decision, Decision::Plan);
/// let err = validate_response(r#"{"decision":"APPROVE"}"#).unwrap_err();
/// assert!(err.problems.len() > 1);
/// ```
pub fn validate_response(answer: &str) -> Result<AdvisorResponse, ValidationError> {
    let whole = |problem: String| ValidationError::single(DOCUMENT, "$", problem);
    let text = extract_object(answer).map_err(|e| whole(e.to_string()))?;
    let value: Value = parse_strict(text).map_err(whole)?;
    let Some(obj) = value.as_object() else {
        return Err(whole("must be a JSON object".to_owned()));
    };
    let mut p = Problems::default();
    match obj.get("schema_version") {
        None => p.add("schema_version", "is missing"),
        Some(Value::String(s)) if s == RESPONSE_SCHEMA => {}
        Some(_) => p.add("schema_version", format!("must be \"{RESPONSE_SCHEMA}\"")),
    }
    let decision = decision(obj, &mut p);
    let summary = match obj.get("summary") {
        None => Err("is missing"),
        Some(Value::String(s)) if !is_blank(s) => Ok(s.trim().to_owned()),
        Some(Value::String(_)) => Err("must not be empty"),
        Some(_) => Err("must be a string"),
    };
    let summary = summary.map_err(|why| p.add("summary", why)).unwrap_or_default();
    let executor_instructions = instructions(obj, &mut p);
    let confidence = match obj.get("confidence") {
        None => Err("is missing"),
        Some(Value::Number(_)) => top_level_literal(text, "confidence")
            .and_then(unit_interval)
            .ok_or("must be a plain decimal between 0 and 1 (no sign, no exponent, nothing above 1)"),
        Some(_) => Err("must be a number between 0.00 and 1.00"),
    };
    let confidence = confidence.map_err(|why| p.add("confidence", why)).unwrap_or_default();
    let stop_reason = match (obj.get("stop_reason"), decision) {
        (None, _) => Err("is missing (null unless the decision is STOP)"),
        (Some(Value::Null), Some(Decision::Stop)) => {
            Err("must say why the executor has to stop when the decision is STOP")
        }
        (Some(Value::String(s)), Some(Decision::Stop)) if is_blank(s) => {
            Err("must not be empty when the decision is STOP")
        }
        (Some(Value::String(s)), Some(Decision::Stop)) => Ok(Some(s.trim().to_owned())),
        // null is right unless the decision is STOP; with no valid decision, that is the problem
        (Some(Value::Null), _) | (Some(Value::String(_)), None) => Ok(None),
        (Some(Value::String(_)), Some(_)) => Err("must be null unless the decision is STOP"),
        (Some(_), _) => Err("must be a string or null"),
    };
    let stop_reason = stop_reason.map_err(|why| p.add("stop_reason", why)).unwrap_or_default();
    for key in obj.keys() {
        if !KNOWN.contains(&key.as_str()) {
            p.add("<unknown field>", "is not part of advisor-response.v1");
        }
    }
    match decision {
        Some(decision) if p.is_empty() => Ok(AdvisorResponse {
            schema_version: RESPONSE_SCHEMA,
            decision,
            summary,
            executor_instructions,
            confidence,
            stop_reason,
        }),
        _ => Err(p.into_error(DOCUMENT)),
    }
}
