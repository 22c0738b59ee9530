//! `advisor consult ask|check` through the built binary, against a local mock
//! OpenAI-compatible server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

const SEED_REQUEST: &str = include_str!("../../../tests/fixtures/advisor-request.seed.json");
const SEED_RESPONSE: &str = include_str!("../../../tests/fixtures/advisor-response.seed.json");

fn completion(content: &str) -> Value {
    json!({"choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
           "usage": {"prompt_tokens": 10, "completion_tokens": 5}})
}

#[test]
fn check_accepts_a_valid_answer_and_lists_every_problem_of_an_invalid_one() {
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .args(["consult", "check", "-"])
        .write_stdin(SEED_RESPONSE)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["decision"], "PLAN");
    let bad = r#"{"schema_version":"advisor-response.v1","decision":"APPROVE","summary":"","executor_instructions":[],"confidence":2}"#;
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .args(["consult", "check", "-"])
        .write_stdin(bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    for f in [
        "decision:",
        "summary:",
        "executor_instructions:",
        "confidence:",
        "stop_reason:",
    ] {
        assert!(err.contains(f), "{f} in {err}");
    }
}

async fn ask(server: &MockServer, stdin: &str) -> std::process::Output {
    let uri = server.uri();
    let stdin = stdin.to_owned();
    tokio::task::spawn_blocking(move || {
        Command::cargo_bin("advisor")
            .unwrap()
            .args([
                "consult",
                "ask",
                "-",
                "--model",
                "m",
                "--base-url",
                &format!("{uri}/v1"),
            ])
            .write_stdin(stdin)
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ask_prints_the_response_and_exits_3_on_stop() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion(SEED_RESPONSE)))
        .mount(&server)
        .await;
    let out = ask(&server, SEED_REQUEST).await;
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema_version"], "advisor-response.v1");

    let stop = json!({"schema_version": "advisor-response.v1", "decision": "STOP", "summary": "needs approval",
        "executor_instructions": ["Ask the owner to approve the migration."], "confidence": 0.9,
        "stop_reason": "the schema migration needs the owner's approval"});
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion(&stop.to_string())))
        .mount(&server)
        .await;
    let out = ask(&server, SEED_REQUEST).await;
    assert_eq!(out.status.code(), Some(3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_request_is_exit_2() {
    let server = MockServer::start().await;
    let out = ask(&server, "{\"schema_version\":\"advisor-request.v0\"}").await;
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("schema_version"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_with_a_model_shows_progress_and_prints_the_models_notes() {
    let server = MockServer::start().await;
    // the model is the judge of what the rules contest (the default scope,
    // claims): its blocker quotes the failing line it was shown, so it stays
    // a blocker
    let notes = r#"{"notes":[{"text":"the last test run failed but the answer says all tests pass","severity":"blocker","evidence":"test result: FAILED. 41 passed; 1 failed"}]}"#;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(completion(notes))
                .set_delay(std::time::Duration::from_millis(1500)),
        )
        .mount(&server)
        .await;
    let uri = server.uri();
    let out = tokio::task::spawn_blocking(move || {
        Command::cargo_bin("advisor")
            .unwrap()
            .args(["review", "--json", "--model", "m", "--base-url", &format!("{uri}/v1")])
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../examples/transcripts/claude-failing-tests.jsonl"
            ))
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("waiting for claims: rules, then model m"),
        "progress after a second: {err}\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // stderr is a pipe here: one plain line, never a repaint
    assert!(!err.contains('\r') && !err.contains('\u{1b}'), "{err:?}");
    assert_eq!(err.matches("waiting for").count(), 1, "{err:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["reviewer"], "claims: rules, then model m");
    assert_eq!(v["notes"][0]["severity"], "blocker");
    assert_eq!(v["notes"][0]["evidence"], "test result: FAILED. 41 passed; 1 failed");
    assert_eq!(v["notes"][0]["anchored"], true);
    assert_eq!(v["interrupt"], true);
    // one call, with the judge's short prompt
    let asked: Vec<_> = (server.received_requests().await.unwrap())
        .into_iter()
        .filter(|r| r.url.path().ends_with("/chat/completions"))
        .collect();
    assert_eq!(asked.len(), 1);
    let body = String::from_utf8_lossy(&asked[0].body);
    assert!(body.contains("You judge one answer of an AI agent"), "{body}");
}
