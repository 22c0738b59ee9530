//! Severities: strict serde for what the crate writes, one lenient reading
//! for what models write.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use advisor::{Note, Severity};
use serde::Deserialize;

#[test]
fn severity_parsing_is_case_insensitive_and_trimmed() {
    assert_eq!(Severity::parse("Blocker"), Severity::Blocker);
    assert_eq!(Severity::parse(" concern "), Severity::Concern);
    assert_eq!(Severity::parse("CONCERN"), Severity::Concern);
    assert_eq!(Severity::parse("nit"), Severity::Nit);
    assert_eq!(Severity::parse(""), Severity::Nit);
    assert_eq!(Severity::parse("critical\" onload=\""), Severity::Nit);
    assert!(Severity::parse("Blocker").interrupts());
    assert!(Severity::parse(" concern ").interrupts());
    assert!(!Severity::parse("critical").interrupts());
}

#[test]
fn notes_deserialize_strictly() {
    let n: Note = serde_json::from_str(r#"{"text":"x","severity":"blocker"}"#).unwrap();
    assert_eq!(n.severity, Severity::Blocker);
    for bad in [
        r#"{"text":"x","severity":" Blocker"}"#,
        r#"{"text":"x","severity":"critical"}"#,
        r#"{"text":"x","severity":null}"#,
        r#"{"text":"x"}"#,
        r#"{"text":"x","severity":"nit","why":"y"}"#,
    ] {
        assert!(serde_json::from_str::<Note>(bad).is_err(), "{bad}");
    }
}

#[test]
fn lenient_severity_reads_what_models_write() {
    #[derive(Deserialize)]
    struct Answer {
        #[serde(deserialize_with = "advisor::note::lenient_severity")]
        severity: Severity,
    }
    let read = |s: &str| serde_json::from_str::<Answer>(s).map(|a| a.severity).ok();
    assert_eq!(read(r#"{"severity":" Blocker"}"#), Some(Severity::Blocker));
    assert_eq!(read(r#"{"severity":"critical"}"#), Some(Severity::Nit));
    assert_eq!(read(r#"{"severity":null}"#), None);
}
