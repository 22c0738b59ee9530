//! `advisor-response.v1` validation never accepts an answer that breaks a rule:
//! no repeated key at any depth, one-line instructions free of every line
//! break (VT, FF, NEL, U+2028, U+2029 included), no blank text field, and a
//! confidence written as a plain decimal in [0, 1].
#![no_main]

mod strict_common;

use advisor::consult::{Decision, validate_response};
use libfuzzer_sys::fuzz_target;
use strict_common::{blank, breaks_a_line, literal, plain_unit_decimal, repeats_a_key, unfenced};

const KNOWN: [&str; 6] = ["schema_version", "decision", "summary", "executor_instructions", "confidence", "stop_reason"];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match validate_response(text) {
        Ok(r) => {
            let inner = unfenced(text);
            assert!(!repeats_a_key(inner), "a repeated key was accepted");
            let v: serde_json::Value = serde_json::from_str(inner).expect("JSON");
            let obj = v.as_object().expect("an object");
            assert!(obj.keys().all(|k| KNOWN.contains(&k.as_str())) && obj.len() == KNOWN.len());
            assert_eq!(obj["schema_version"], "advisor-response.v1");
            assert!(!blank(&r.summary));
            assert!((1..=4).contains(&r.executor_instructions.len()));
            assert!(r.executor_instructions.iter().all(|i| !blank(i) && !breaks_a_line(i)));
            assert!(plain_unit_decimal(literal(inner, "confidence").expect("confidence")));
            assert!((0.0..=1.0).contains(&r.confidence));
            assert_eq!(r.decision == Decision::Stop, r.stop_reason.as_deref().is_some_and(|s| !blank(s)));
            assert_eq!(obj["stop_reason"].is_null(), r.decision != Decision::Stop);
        }
        Err(e) => assert!(!e.problems.is_empty()),
    }
});
