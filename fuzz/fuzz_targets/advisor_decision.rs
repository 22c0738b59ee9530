//! `AdvisorDecision` parsing never accepts an answer that breaks a rule.
#![no_main]

use advisor::json::extract_object;
use advisor::rollout::{Action, parse_decision};
use libfuzzer_sys::fuzz_target;

const FIELDS: [&str; 7] = ["intervene", "confidence", "reason_code", "action", "plan", "hint", "private_diagnosis"];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_decision(text) {
        Ok(d) => {
            let inner = extract_object(text).expect("one object");
            let v: serde_json::Value = serde_json::from_str(inner).expect("JSON");
            let obj = v.as_object().expect("an object");
            assert!(obj.keys().all(|k| FIELDS.contains(&k.as_str())) && obj.len() == FIELDS.len());
            assert!(obj["action"].is_string() && obj["reason_code"].is_string() && obj["intervene"].is_boolean());
            assert!((0.0..=1.0).contains(&d.confidence));
            assert!(!(d.action == Action::Continue && d.intervene));
            assert!(!(d.action == Action::ConfirmAndSubmit && !d.intervene));
            assert!(d.intervenes() || d.hint.trim().is_empty());
        }
        Err(e) => {
            assert!(!e.problems.is_empty());
            assert!(std::error::Error::source(&e).is_none());
        }
    }
});
