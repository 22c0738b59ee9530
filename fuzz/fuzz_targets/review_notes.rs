//! The reviewer-notes parser never accepts an answer that breaks a rule: an
//! accepted answer is exactly one JSON object holding only `notes`, each note
//! only `text` and `severity`, no key repeated at any depth, with nothing but
//! one optional fence around it.
#![no_main]

mod strict_common;

use advisor::review::parse_notes;
use libfuzzer_sys::fuzz_target;
use strict_common::{repeats_a_key, unfenced};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(notes) = parse_notes(text) {
        let inner = unfenced(text);
        assert!(!repeats_a_key(inner), "a repeated key was accepted");
        let v: serde_json::Value = serde_json::from_str(inner).expect("accepted answers are JSON");
        let obj = v.as_object().expect("an object");
        assert_eq!(obj.len(), 1);
        let list = obj["notes"].as_array().expect("notes is a list");
        assert_eq!(list.len(), notes.len());
        for n in list {
            let n = n.as_object().expect("each note is an object");
            assert!(n.len() == 2 && n["text"].is_string() && n["severity"].is_string());
        }
    }
});
