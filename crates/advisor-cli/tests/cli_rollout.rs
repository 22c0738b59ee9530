//! `advisor summarize` and `advisor decision check` through the built binary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use advisor::model::ScriptedModel;
use advisor::rollout::{Advisor, AdvisorConfig, Arm, Draft, Outcome, RolloutTrace, TaskMaterial};
use assert_cmd::Command;
use serde_json::Value;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("advisor-cli-rollout-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("nested")).unwrap();
    d
}

async fn write_attempt(path: PathBuf, id: &str, arm: Arm, answer: Option<&str>, outcome: Outcome) {
    let trace = RolloutTrace::start(std::fs::File::create(path).unwrap(), id, "t", arm);
    if let Some(answer) = answer {
        let mut a = Advisor::new(
            AdvisorConfig::builder().max_advisor_attempts(1).build().unwrap(),
            TaskMaterial::new("task"),
            ScriptedModel::texts([answer]),
        )
        .with_trace(trace.clone());
        a.review(&[], Draft::calling("done", "submit"), |_| async {
            Ok(Draft::text("revised"))
        })
        .await
        .unwrap();
    }
    trace.end(outcome);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn summarize_reads_files_and_directories() {
    let dir = scratch("sum");
    let intervene = r#"{"intervene":true,"confidence":0.5,"reason_code":"PREMATURE_SUBMISSION","action":"RECONSIDER_SUBMISSION","plan":"p","hint":"","private_diagnosis":"d"}"#;
    write_attempt(
        dir.join("a1.jsonl"),
        "a1",
        Arm::Advised,
        Some(intervene),
        Outcome::Passed,
    )
    .await;
    write_attempt(
        dir.join("nested/a2.jsonl"),
        "a2",
        Arm::Advised,
        Some("garbage"),
        Outcome::Failed,
    )
    .await;
    write_attempt(dir.join("u1.jsonl"), "u1", Arm::Unadvised, None, Outcome::Failed).await;
    let d = dir.clone();
    let out = tokio::task::spawn_blocking(move || {
        Command::cargo_bin("advisor")
            .unwrap()
            .args(["summarize", "--json"])
            .arg(&d)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["arms"]["advised"]["attempts"], 2);
    assert_eq!(v["arms"]["advised"]["interventions"], 1);
    assert_eq!(v["arms"]["advised"]["effectively_unadvised"], 1);
    assert_eq!(v["arms"]["unadvised"]["attempts"], 1);
    let d = dir.clone();
    let out = tokio::task::spawn_blocking(move || {
        Command::cargo_bin("advisor")
            .unwrap()
            .arg("summarize")
            .arg(&d)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("effectively_unadvised") && table.contains("advised"),
        "{table}"
    );
    std::fs::write(dir.join("broken.jsonl"), "{\"schema\":\"advisor.rollout.v1\"}\n").unwrap();
    let d = dir.clone();
    let out = tokio::task::spawn_blocking(move || {
        Command::cargo_bin("advisor")
            .unwrap()
            .arg("summarize")
            .arg(&d)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.jsonl:1:"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn decision_check_prints_the_decision_or_the_problems() {
    let good = r#"```json
{"intervene": false, "confidence": 0.8, "reason_code": "COMPLETE", "action": "CONTINUE", "plan": "x", "hint": "", "private_diagnosis": "y"}
```"#;
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .args(["decision", "check", "-"])
        .write_stdin(good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["action"], "CONTINUE");
    let bad = r#"{"intervene": "no", "action": ["CONTINUE"], "secret_field": "TOPSECRET"}"#;
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .args(["decision", "check", "-"])
        .write_stdin(bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("intervene:") && err.contains("action:") && err.contains("<unknown field>"),
        "{err}"
    );
    assert!(!err.contains("TOPSECRET") && !err.contains("secret_field"));
}
