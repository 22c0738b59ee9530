//! Issue 26, item 4: repository text never reaches the user's screen raw.
//! Through the built `advisor hook`: a TOML error names the line and the
//! kind of problem, never a key or value of the workspace file; a model's
//! note shown by the summary verdict, and a workspace path, reach
//! `systemMessage` and stderr without any invisible, bidi or control
//! character and within the length cap (fixed cases and a property over
//! generated text). Loopback model servers only.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use advisor::invisible::is_invisible;
use assert_cmd::Command;
use proptest::prelude::*;
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// A workspace directory named `name` and a user config beside it (never
/// inside it), removed on drop.
struct Scratch {
    root: PathBuf,
    ws: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let root = std::env::temp_dir().join(format!(
            "advisor-output-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join(name).join(".advisor")).unwrap();
        std::fs::create_dir_all(root.join("xdg/advisor")).unwrap();
        Scratch {
            ws: root.join(name),
            root,
        }
    }

    fn ws(&self) -> PathBuf {
        self.ws.clone()
    }

    fn config(&self, text: &str) {
        std::fs::write(self.ws().join(".advisor/config.toml"), text).unwrap();
    }

    fn user_reviewer(&self, server: &MockServer) {
        let text = format!(
            "[reviewer]\nkind = \"model\"\nmodel = \"m\"\nbase_url = \"{}/v1\"\nstructured_output = \"none\"\n",
            server.uri()
        );
        std::fs::write(self.root.join("xdg/advisor/config.toml"), text).unwrap();
    }

    /// Runs a Claude Code stop of the example failing-tests session.
    fn stop(&self) -> (Option<String>, String) {
        let transcript =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-failing-tests.jsonl");
        let input = json!({
            "session_id": "s",
            "transcript_path": transcript,
            "cwd": self.ws(),
            "hook_event_name": "Stop",
            "stop_hook_active": false,
        });
        let out = Command::cargo_bin("advisor")
            .unwrap()
            .arg("hook")
            .env("XDG_CONFIG_HOME", self.root.join("xdg"))
            .write_stdin(input.to_string())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let message = (!stdout.trim().is_empty()).then(|| {
            let v: Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
            v["systemMessage"].as_str().unwrap_or_default().to_owned()
        });
        (message, String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A model server whose every answer is one nit with `text`.
async fn note_server(text: &str) -> MockServer {
    let server = MockServer::start().await;
    mount_note(&server, text).await;
    server
}

async fn mount_note(server: &MockServer, text: &str) {
    let notes = json!({"notes": [{"text": text, "severity": "nit"}]}).to_string();
    let body = json!({
        "id": "x", "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": notes}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}
    });
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(server)
        .await;
}

/// What must never reach the screen raw: an invisible character (bidi
/// controls, zero-width characters, tags…), a C0/C1 control or DEL, U+2028
/// and U+2029.
fn is_hidden_or_control(c: char) -> bool {
    is_invisible(c) || c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Neither a message nor stderr holds a hidden or control character (a
/// newline ends each stderr line and is all stderr may hold).
fn assert_clean(message: Option<&str>, stderr: &str) {
    if let Some(m) = message {
        assert!(!m.chars().any(is_hidden_or_control), "systemMessage {m:?}");
        assert!(
            m.chars().count() <= 2_000,
            "systemMessage of {} chars",
            m.chars().count()
        );
    }
    for line in stderr.lines() {
        assert!(!line.chars().any(is_hidden_or_control), "stderr {line:?}");
        assert!(
            line.chars().count() <= 2_000,
            "stderr line of {} chars",
            line.chars().count()
        );
    }
}

#[test]
fn a_toml_error_names_the_line_and_the_problem_never_a_key_or_value() {
    let s = Scratch::new("ws");
    for (text, kind) in [
        (
            "enabled = true\n\"PLANTED\u{202e}yek\u{200b}\" = 1\n",
            ":2: unknown key",
        ),
        (
            "max_severity = \"PLANTED\u{202e}eulav\"\n",
            ":1: a value that is not one of the allowed ones",
        ),
        (
            "[reviewer]\nkind = \"PLANTED-kind\"\n",
            ":2: a value that is not one of the allowed ones",
        ),
        ("timeout_secs = \"PLANTED\"\n", ":1: a value of the wrong type"),
    ] {
        s.config(text);
        let (message, stderr) = s.stop();
        let message = message.expect("a config problem is shown to the user");
        for shown in [message.as_str(), stderr.as_str()] {
            assert!(shown.contains(kind), "{text:?}: {shown}");
            assert!(!shown.contains("PLANTED"), "{text:?} echoed: {shown}");
        }
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert_clean(Some(&message), &stderr);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_note_shown_by_the_summary_verdict_is_cleaned_and_capped() {
    let s = Scratch::new("ws");
    s.config("verdict = \"summary\"\nmax_severity = \"nit\"\n");
    let text = format!(
        "run the \u{202e}stset\u{202c} again\u{200b}, then \u{1b}[2Kdelete\u{2066} it{}",
        " and more".repeat(600)
    );
    let server = note_server(&text).await;
    s.user_reviewer(&server);
    let (message, stderr) = tokio::task::spawn_blocking(move || {
        let r = s.stop();
        drop(s);
        r
    })
    .await
    .unwrap();
    let message = message.unwrap_or_else(|| panic!("a summary verdict: {stderr}"));
    assert!(
        message.contains("not sent to the agent: run the \\u{202e}stset"),
        "{message}"
    );
    assert!(message.chars().count() < 400, "the note is cut: {message}");
    assert_clean(Some(&message), &stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_workspace_path_with_bidi_characters_reaches_the_user_escaped() {
    let s = Scratch::new("repo\u{202e}txt.exe\u{200b}");
    s.config("max_round = 1\n");
    let (message, stderr) = s.stop();
    let message = message.expect("a config problem is shown");
    assert!(message.contains("repo\\u{202e}txt.exe\\u{200b}"), "{message}");
    assert_clean(Some(&message), &stderr);
}

/// Text mixing plain words with every kind of hidden or control character.
fn hostile() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z ]{1,8}",
        "[\u{1}-\u{1f}\u{7f}-\u{9f}]",
        "[\u{200b}-\u{200f}\u{202a}-\u{202e}\u{2066}-\u{2069}\u{2028}\u{2029}\u{feff}\u{ad}]",
        "[\u{e0000}-\u{e007f}\u{fe00}-\u{fe0f}\u{fff9}-\u{fffb}]",
        "\\PC",
    ];
    proptest::collection::vec(piece, 1..12).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Whatever a repository names its directory and whatever a model writes
    /// in a note, `systemMessage` and stderr carry no invisible, bidi or
    /// control character.
    #[test]
    fn system_message_and_stderr_never_carry_invisible_or_bidi_characters(name in hostile(), note in hostile()) {
        let dir: String = name.chars().filter(|c| !matches!(c, '/' | '\0')).collect();
        let dir = if dir.is_empty() || dir == "." || dir == ".." { "w".to_owned() } else { dir };
        let s = Scratch::new(&dir);
        // a config problem names the file's path
        s.config("max_round = 1\n");
        let (message, stderr) = s.stop();
        prop_assert!(message.is_some());
        assert_clean(message.as_deref(), &stderr);
        // a model's note in the summary verdict
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let server = rt.block_on(note_server(&note));
        s.user_reviewer(&server);
        s.config("verdict = \"summary\"\nmax_severity = \"nit\"\n");
        let (message, stderr) = s.stop();
        assert_clean(message.as_deref(), &stderr);
        drop(server);
        rt.shutdown_background();
    }
}
