//! `advisor review --json` on a real Codex Desktop 0.144.2 code-mode session
//! (tests/fixtures/real/repos/jdx-hk/): the rules see the shell command a
//! JavaScript `exec` cell ran and the output its `wait` brought, so a claim over
//! the failing `mise run lint` is held, and an answer that admits it is not.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn repo_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/real/repos/jdx-hk")
        .join(name)
}

/// The real rollout's first 251 whole lines (up to the `wait` output of the
/// failing lint cell) followed by the derived answer `answer`, as a scratch file.
fn session_ending_with(answer: &str) -> PathBuf {
    let real = std::fs::read_to_string(repo_file("codex-desktop-0.144.2-2026-07-16-019f690c.jsonl")).unwrap();
    let mut text: String = real.split_inclusive('\n').take(251).collect();
    text.push_str(&std::fs::read_to_string(repo_file(&format!("derived/{answer}"))).unwrap());
    let dir = std::env::temp_dir().join(format!("advisor-codemode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(answer);
    std::fs::write(&path, text).unwrap();
    path
}

fn review(path: &Path) -> Value {
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .args(["review", "--json"])
        .arg(path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_claim_over_the_failing_lint_run_of_a_code_mode_cell_is_held() {
    let v = review(&session_ending_with("hk-690c-251-claim.jsonl"));
    assert_eq!(v["status"], "reviewed", "{v}");
    assert_eq!(v["interrupt"], true, "{v}");
    let notes = v["notes"].as_array().unwrap();
    let blocker = notes.iter().find(|n| n["severity"] == "blocker").expect("a blocker");
    let text = blocker.to_string();
    assert!(text.contains("mise run lint"), "{text}");
    assert!(!text.contains("`exec`") && !text.contains("`wait`"), "{text}");
}

#[test]
fn an_answer_that_admits_the_failing_lint_run_goes_through() {
    let v = review(&session_ending_with("hk-690c-251-admit.jsonl"));
    assert_eq!(v["status"], "reviewed", "{v}");
    assert_eq!(v["interrupt"], false, "{v}");
}
