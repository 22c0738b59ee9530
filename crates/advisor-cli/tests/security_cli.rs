//! Issue 14, findings 4–6 through the built binary: `summarize` over a
//! directory with a `-> ..` link ends and counts each file once, special
//! files are refused; `init` never writes through a symbolic link; and
//! human-readable output escapes control, bidi and invisible characters.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use advisor::model::ScriptedModel;
use advisor::rollout::{Advisor, AdvisorConfig, Arm, Draft, Outcome, RolloutTrace, TaskMaterial};
use assert_cmd::Command;
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "advisor-sec-cli-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn p(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn advisor() -> Command {
    let mut c = Command::cargo_bin("advisor").unwrap();
    c.timeout(Duration::from_secs(60));
    c
}

async fn write_attempt(path: PathBuf, id: &str) {
    let trace = RolloutTrace::start(std::fs::File::create(path).unwrap(), id, "t", Arm::Advised);
    let answer = r#"{"intervene":true,"confidence":0.5,"reason_code":"PREMATURE_SUBMISSION","action":"RECONSIDER_SUBMISSION","plan":"p","hint":"","private_diagnosis":"d"}"#;
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
    trace.end(Outcome::Passed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn summarize_survives_a_symlink_loop_and_counts_each_file_once() {
    let s = Scratch::new();
    std::fs::create_dir_all(s.p("traces/sub")).unwrap();
    write_attempt(s.p("traces/sub/a1.jsonl"), "a1").await;
    symlink("..", s.p("traces/sub/loop")).unwrap();
    symlink("..", s.p("traces/sub/up.jsonl")).unwrap();
    symlink("a1.jsonl", s.p("traces/sub/alias.jsonl")).unwrap();
    symlink("sub", s.p("traces/sub-link")).unwrap();
    let dir = s.p("traces");
    let out = tokio::task::spawn_blocking(move || advisor().args(["summarize", "--json"]).arg(&dir).output().unwrap())
        .await
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["arms"]["advised"]["attempts"], 1);
    assert_eq!(
        v["arms"]["advised"]["reviews"], 1,
        "a file was counted more than once: {v}"
    );
    assert_eq!(v["arms"]["advised"]["interventions"], 1);
    // the same file named twice on the command line is also counted once
    let a = s.p("traces/sub/a1.jsonl");
    let b = s.p("traces/sub/alias.jsonl");
    let out = tokio::task::spawn_blocking(move || {
        advisor()
            .args(["summarize", "--json"])
            .arg(&a)
            .arg(&b)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["arms"]["advised"]["reviews"], 1);
}

#[test]
fn summarize_refuses_special_files_at_once() {
    let s = Scratch::new();
    symlink("/dev/zero", s.p("zero.jsonl")).unwrap();
    let out = advisor().arg("summarize").arg(s.p("zero.jsonl")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
    let fifo = s.p("pipe.jsonl");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|st| st.success())
    {
        let out = advisor().arg("summarize").arg(&s.0).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "a FIFO in a directory must be refused, not waited on"
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
    }
}

#[test]
fn summarize_reports_an_over_long_line_by_number() {
    let s = Scratch::new();
    let text = format!("\n{}\n", "x".repeat(5 * 1024 * 1024));
    std::fs::write(s.p("big.jsonl"), text).unwrap();
    let out = advisor().arg("summarize").arg(s.p("big.jsonl")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("big.jsonl:2") && err.contains("cap"), "{err}");
}

#[test]
fn init_never_writes_through_a_symlink() {
    // a dangling link at the config: nothing is created outside the workspace
    let s = Scratch::new();
    std::fs::create_dir_all(s.p("ws/.advisor")).unwrap();
    symlink(s.p("outside-config"), s.p("ws/.advisor/config.toml")).unwrap();
    let out = advisor().args(["init", "--dir"]).arg(s.p("ws")).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!s.p("outside-config").exists());

    // --force replaces the link itself, never its target
    std::fs::write(s.p("target.txt"), "precious").unwrap();
    std::fs::remove_file(s.p("ws/.advisor/config.toml")).unwrap();
    symlink(s.p("target.txt"), s.p("ws/.advisor/config.toml")).unwrap();
    let out = advisor()
        .args(["init", "--force", "--dir"])
        .arg(s.p("ws"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(s.p("target.txt")).unwrap(), "precious");
    let meta = std::fs::symlink_metadata(s.p("ws/.advisor/config.toml")).unwrap();
    assert!(meta.is_file() && !meta.file_type().is_symlink());
    // a dangling --force target is not created either
    std::fs::remove_file(s.p("ws/.advisor/config.toml")).unwrap();
    symlink(s.p("outside-forced"), s.p("ws/.advisor/config.toml")).unwrap();
    advisor()
        .args(["init", "--force", "--dir"])
        .arg(s.p("ws"))
        .assert()
        .success();
    assert!(!s.p("outside-forced").exists());

    // a dangling link at .gitignore: left alone, nothing created outside
    let s = Scratch::new();
    std::fs::create_dir_all(s.p("ws/.advisor")).unwrap();
    symlink(s.p("outside-ignore"), s.p("ws/.advisor/.gitignore")).unwrap();
    let out = advisor().args(["init", "--dir"]).arg(s.p("ws")).output().unwrap();
    assert!(out.status.success());
    assert!(!s.p("outside-ignore").exists());
    assert!(String::from_utf8_lossy(&out.stderr).contains("symbolic link"));

    // .advisor itself a link to a directory elsewhere: refused
    let s = Scratch::new();
    std::fs::create_dir_all(s.p("ws")).unwrap();
    std::fs::create_dir_all(s.p("elsewhere")).unwrap();
    symlink(s.p("elsewhere"), s.p("ws/.advisor")).unwrap();
    let out = advisor().args(["init", "--dir"]).arg(s.p("ws")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_dir(s.p("elsewhere")).unwrap().count(), 0);
}

fn assert_no_raw_controls(what: &str, text: &str) {
    for bad in ['\r', '\u{1b}', '\u{9b}', '\u{202e}', '\u{e0041}'] {
        assert!(!text.contains(bad), "{what} printed {bad:?} raw: {text:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_output_escapes_terminal_control_sequences_in_notes() {
    let s = Scratch::new();
    let transcript = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-failing-tests.jsonl"),
    )
    .unwrap();
    std::fs::write(s.p("t.jsonl"), transcript).unwrap();
    // the model's note repaints the line into a harmless nit and hides the rest
    let note = "the join drops refunds\r\u{1b}[2K  note 1 [nit] accepted     looks fine\u{1b}[8m hidden \u{9b}2K \u{202e}txet\u{e0041}";
    let content = json!({"notes": [{"text": note, "severity": "blocker"}]}).to_string();
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "x", "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        })))
        .mount(&server)
        .await;
    let base = format!("{}/v1", server.uri());
    let t = s.p("t.jsonl");
    let (text, js) = tokio::task::spawn_blocking(move || {
        let text = advisor()
            .args(["review", "--model", "m", "--base-url", &base])
            .arg(&t)
            .output()
            .unwrap();
        let js = advisor()
            .args(["review", "--json", "--model", "m", "--base-url", &base])
            .arg(&t)
            .output()
            .unwrap();
        (text, js)
    })
    .await
    .unwrap();
    let out = String::from_utf8_lossy(&text.stdout);
    assert_no_raw_controls("review", &out);
    assert!(out.contains("\\r\\u{1b}[2K") && out.contains("\\u{1b}[8m"), "{out}");
    let out = String::from_utf8_lossy(&js.stdout);
    assert_no_raw_controls("review --json", &out);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["notes"][0]["text"].as_str().unwrap().contains("\r\u{1b}[2K"),
        "the JSON keeps the value"
    );
}

#[test]
fn consult_and_decision_check_escape_what_they_print() {
    let s = Scratch::new();
    let response = json!({"schema_version":"advisor-response.v1","decision":"PLAN",
        "summary":"fine\u{9b}2K\u{202e}", "executor_instructions":["Pin \u{1b}[8m it."],
        "confidence":0.5,"stop_reason":null});
    std::fs::write(s.p("r.json"), response.to_string()).unwrap();
    let out = advisor()
        .args(["consult", "check"])
        .arg(s.p("r.json"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_no_raw_controls("consult check", &text);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["summary"], "fine\u{9b}2K\u{202e}");
    let decision = json!({"intervene":false,"confidence":0.5,"reason_code":"COMPLETE","action":"CONTINUE",
        "plan":"p\u{9b}2K","hint":"","private_diagnosis":"\u{1b}[2Kd"});
    std::fs::write(s.p("d.json"), decision.to_string()).unwrap();
    let out = advisor()
        .args(["decision", "check"])
        .arg(s.p("d.json"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_no_raw_controls("decision check", &String::from_utf8_lossy(&out.stdout));
}

#[cfg(unix)]
#[test]
fn decision_check_and_consult_check_refuse_devices_and_cap_stdin() {
    for args in [["decision", "check", "/dev/zero"], ["consult", "check", "/dev/zero"]] {
        let out = assert_cmd::Command::cargo_bin("advisor")
            .unwrap()
            .args(args)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("not a regular file"),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
