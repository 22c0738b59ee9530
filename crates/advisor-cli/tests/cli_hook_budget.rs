//! `advisor hook` with a spent token budget (issue 18, item 3): once the
//! session's review tokens are spent, no review runs, the stop goes through
//! and the user is told why in a `systemMessage`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod hook_support;

use assert_cmd::Command;
use hook_support::{Workspace, fixture};
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spent_session_budget_stops_reviews_and_says_why() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "x", "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"notes\":[]}"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 450, "completion_tokens": 50, "total_tokens": 500}
        })))
        .mount(&server)
        .await;
    let ws = Workspace::with_config("enabled = true\nmax_rounds = 5\nmax_session_review_tokens = 100\n");
    // the model comes from the user's own config (never from the workspace file)
    // outside the workspace: a user config inside it is refused
    let home = ws.path().with_extension("user-config");
    std::fs::create_dir_all(home.join("advisor")).unwrap();
    std::fs::write(
        home.join("advisor/config.toml"),
        format!(
            "[reviewer]\nkind = \"model\"\nmodel = \"m\"\nbase_url = \"{}/v1\"\nstructured_output = \"none\"\n",
            server.uri()
        ),
    )
    .unwrap();
    let transcript = ws.fixture("claude-2.1.4-codemie-reject-interrupt.jsonl");
    let input = json!({"session_id": "budget", "transcript_path": transcript, "cwd": ws.path(),
        "hook_event_name": "Stop", "stop_hook_active": false,
        "last_assistant_message": "Done: the function now returns the parsed value."})
    .to_string();
    // reviews sent to the model (the client may also ask the server for its context size)
    let reviews = || async {
        server
            .received_requests()
            .await
            .unwrap()
            .iter()
            .filter(|r| r.url.path().ends_with("/chat/completions"))
            .count()
    };
    let stop = || {
        let out = Command::cargo_bin("advisor")
            .unwrap()
            .arg("hook")
            .env("XDG_CONFIG_HOME", &home)
            .write_stdin(input.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // the first review runs and spends 500 tokens, over the 100-token session budget
    let first = stop();
    assert!(!first.contains("\"decision\""), "{first}");
    assert_eq!(reviews().await, 1);
    // the second stop: no request, the stop goes through, the user is told why
    let second = stop();
    assert_eq!(reviews().await, 1, "a spent budget sent nothing");
    let shown: Value = serde_json::from_str(&second).expect("a systemMessage");
    assert!(shown.get("decision").is_none(), "{second}");
    let message = shown["systemMessage"].as_str().unwrap_or_default();
    assert!(message.contains("budget") || message.contains("tokens"), "{message}");
    let _ = std::fs::remove_dir_all(&home);
    let _ = fixture; // shared helper module
}
