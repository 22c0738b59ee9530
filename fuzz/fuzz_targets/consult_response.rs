//! `advisor-response.v1` validation never accepts an answer that breaks a rule.
#![no_main]

use advisor::consult::{Decision, validate_response};
use advisor::json::extract_object;
use libfuzzer_sys::fuzz_target;

const KNOWN: [&str; 6] = ["schema_version", "decision", "summary", "executor_instructions", "confidence", "stop_reason"];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(r) = validate_response(text) {
        let v: serde_json::Value = serde_json::from_str(extract_object(text).expect("one object")).expect("JSON");
        let obj = v.as_object().expect("an object");
        assert!(obj.keys().all(|k| KNOWN.contains(&k.as_str())) && obj.len() == KNOWN.len());
        assert_eq!(obj["schema_version"], "advisor-response.v1");
        assert!(!r.summary.trim().is_empty());
        assert!((1..=4).contains(&r.executor_instructions.len()));
        assert!(r.executor_instructions.iter().all(|i| !i.is_empty() && !i.contains(['\n', '\r'])));
        assert!((0.0..=1.0).contains(&r.confidence));
        assert_eq!(r.decision == Decision::Stop, r.stop_reason.as_deref().is_some_and(|s| !s.trim().is_empty()));
        assert_eq!(obj["stop_reason"].is_null(), r.decision != Decision::Stop);
    }
});
