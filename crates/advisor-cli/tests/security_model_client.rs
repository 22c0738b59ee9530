//! Issue 14, finding 8 (the model client's part): a `base_url` with a query,
//! fragment or credentials is refused at build time without quoting it; a
//! server's `Retry-After: 999999` cannot hold a call past its timeout; the
//! timeout has an upper bound (rejected, not clamped) in the builder and the
//! workspace config; an echo of the key in any ASCII case is redacted.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use advisor::host::Message;
use advisor::model::{Backoff, ChatModel, ChatRequest, MAX_CALL_TIMEOUT, OpenAiCompatible};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

const KEY: &str = "sk-Planted-Key-4242abcd";

#[test]
fn a_base_url_with_a_query_fragment_or_credentials_is_refused_without_quoting_it() {
    let hostile = [
        format!("https://api.example.test/v1?api_key={KEY}"),
        format!("https://api.example.test/v1?key={KEY}#x"),
        format!("https://api.example.test/v1#{KEY}"),
        "https://api.example.test/v1?".to_owned(),
        format!("https://user:{KEY}@api.example.test/v1"),
        format!("https://{KEY}@api.example.test/v1"),
    ];
    for url in &hostile {
        let err = OpenAiCompatible::builder(url.as_str(), "m").build().unwrap_err();
        assert_eq!(err.field(), Some("base_url"), "{url}: {err}");
        assert!(!err.to_string().contains(KEY), "the key leaked: {err}");
        assert!(!format!("{err:?}").contains(KEY));
    }
    assert!(
        OpenAiCompatible::builder("http://127.0.0.1:8080/v1/", "m")
            .build()
            .is_ok()
    );
}

#[test]
fn the_timeout_has_an_upper_bound_rejected_not_clamped() {
    for bad in [
        Duration::ZERO,
        MAX_CALL_TIMEOUT + Duration::from_secs(1),
        Duration::from_secs(u64::MAX),
    ] {
        let err = OpenAiCompatible::builder("http://127.0.0.1:8080/v1", "m")
            .timeout(bad)
            .build()
            .unwrap_err();
        assert_eq!(err.field(), Some("timeout"), "{bad:?}");
    }
    assert!(
        OpenAiCompatible::builder("http://127.0.0.1:8080/v1", "m")
            .timeout(MAX_CALL_TIMEOUT)
            .build()
            .is_ok()
    );
    let err = advisor_cli::config::WorkspaceConfig::parse("c", "timeout_secs = 100000\n")
        .unwrap()
        .plugin_builder()
        .unwrap_err();
    assert_eq!(err.field(), Some("timeout_secs"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_999999_does_not_outlive_the_timeout() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "999999")
                .set_body_string("slow down"),
        )
        .mount(&server)
        .await;
    let model = OpenAiCompatible::builder(format!("{}/v1", server.uri()), "m")
        .timeout(Duration::from_secs(2))
        .max_retries(5)
        // a backoff whose own cap is far beyond the timeout
        .backoff(Backoff {
            base: Duration::from_millis(10),
            max: Duration::from_secs(3600),
        })
        .build()
        .unwrap();
    let started = Instant::now();
    let err = model
        .complete(ChatRequest::new(vec![Message::user("hi")]))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(429));
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the call waited {:?} on Retry-After",
        started.elapsed()
    );
    assert_eq!(server.received_requests().await.unwrap().len(), 1, "no wait, no retry");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_echo_of_the_key_in_any_case_is_redacted() {
    for echo in [KEY.to_owned(), KEY.to_lowercase(), KEY.to_uppercase()] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(401).set_body_string(format!("bad key: {echo} (Bearer {echo})")))
            .mount(&server)
            .await;
        let model = OpenAiCompatible::builder(format!("{}/v1", server.uri()), "m")
            .api_key(KEY)
            .build()
            .unwrap();
        let err = model
            .complete(ChatRequest::new(vec![Message::user("hi")]))
            .await
            .unwrap_err();
        let msg = err.to_string();
        assert!(!msg.to_lowercase().contains(&KEY.to_lowercase()), "{msg}");
        assert!(msg.contains("[redacted]"), "{msg}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configured_headers_are_sent() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}]
        })))
        .mount(&server)
        .await;
    let model = OpenAiCompatible::builder(format!("{}/v1", server.uri()), "m")
        .header("x-team", "blue")
        .build()
        .unwrap();
    model
        .complete(ChatRequest::new(vec![Message::user("hi")]))
        .await
        .unwrap();
    let got = server.received_requests().await.unwrap();
    assert_eq!(got[0].headers.get("x-team").unwrap(), "blue");
    let err = OpenAiCompatible::builder("http://127.0.0.1:1/v1", "m")
        .header("bad header", "v")
        .build()
        .unwrap_err();
    assert_eq!(err.field(), Some("headers"));
}
