//! `AdvisorDecision` parsing never accepts an answer that breaks a rule: no
//! repeated key at any depth, a confidence written as a plain decimal in
//! [0, 1], a hint that is blank (invisible characters count as nothing)
//! unless the decision intervenes.
#![no_main]

mod strict_common;

use advisor::rollout::{Action, parse_decision};
use libfuzzer_sys::fuzz_target;
use strict_common::{blank, literal, plain_unit_decimal, repeats_a_key, unfenced};

const FIELDS: [&str; 7] = ["intervene", "confidence", "reason_code", "action", "plan", "hint", "private_diagnosis"];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_decision(text) {
        Ok(d) => {
            let inner = unfenced(text);
            assert!(!repeats_a_key(inner), "a repeated key was accepted");
            let v: serde_json::Value = serde_json::from_str(inner).expect("JSON");
            let obj = v.as_object().expect("an object");
            assert!(obj.keys().all(|k| FIELDS.contains(&k.as_str())) && obj.len() == FIELDS.len());
            assert!(obj["action"].is_string() && obj["reason_code"].is_string() && obj["intervene"].is_boolean());
            assert!(plain_unit_decimal(literal(inner, "confidence").expect("confidence")));
            assert!((0.0..=1.0).contains(&d.confidence));
            assert!(!(d.action == Action::Continue && d.intervene));
            assert!(!(d.action == Action::ConfirmAndSubmit && !d.intervene));
            assert!(d.intervenes() || blank(&d.hint));
        }
        Err(e) => {
            assert!(!e.problems.is_empty());
            assert!(std::error::Error::source(&e).is_none());
        }
    }
});
