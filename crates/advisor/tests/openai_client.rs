//! `OpenAiCompatible` against a real local HTTP server (wiremock on loopback).
#![cfg(feature = "http")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use advisor::host::Message;
use advisor::model::{Backoff, ChatModel, ChatRequest, ModelErrorKind, OpenAiCompatible, StructuredOutput};
use serde_json::{Value, json};
use wiremock::matchers::{body_partial_json, header, method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

fn ok_body(text: &str) -> Value {
    json!({
        "id": "x", "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}
    })
}

fn fast() -> Backoff {
    Backoff {
        base: Duration::from_millis(5),
        max: Duration::from_millis(50),
    }
}

fn client(server: &MockServer) -> advisor::model::OpenAiCompatibleBuilder {
    OpenAiCompatible::builder(format!("{}/v1/", server.uri()), "test-model").backoff(fast())
}

fn request() -> ChatRequest {
    ChatRequest {
        messages: vec![Message::system("be brief"), Message::user("hello")],
        response_schema: Some(json!({"type": "object"})),
        ..ChatRequest::default()
    }
}

#[tokio::test]
async fn success_returns_text_usage_and_sends_the_key_and_the_schema() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(header("authorization", "Bearer sk-test-123"))
        .and(body_partial_json(
            json!({"model": "test-model", "response_format": {"type": "json_schema"}}),
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(ok_body("{\"notes\":[]}")))
        .expect(1)
        .mount(&server)
        .await;
    let model = client(&server).api_key("sk-test-123").build().unwrap();
    let answer = model.complete(request()).await.unwrap();
    assert_eq!(answer.text, "{\"notes\":[]}");
    assert_eq!((answer.usage.input_tokens, answer.usage.output_tokens), (12, 5));
    let sent: Value = server.received_requests().await.unwrap()[0].body_json().unwrap();
    assert_eq!(sent["messages"][1], json!({"role": "user", "content": "hello"}));
}

#[tokio::test]
async fn a_429_then_success_is_retried_honouring_retry_after() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "0")
                .set_body_string("slow down"),
        )
        .up_to_n_times(1)
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(ok_body("fine")))
        .expect(1)
        .mount(&server)
        .await;
    let model = client(&server).build().unwrap();
    assert_eq!(model.complete(request()).await.unwrap().text, "fine");
}

#[tokio::test]
async fn a_500_is_retried_until_the_retries_run_out() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500).set_body_string("boom"))
        .expect(3)
        .mount(&server)
        .await;
    let model = client(&server).max_retries(2).build().unwrap();
    let err = model.complete(request()).await.unwrap_err();
    assert_eq!(err.kind(), ModelErrorKind::Status);
    assert_eq!(err.status(), Some(500));
    assert!(err.to_string().contains("500"));
}

#[tokio::test]
async fn a_server_that_never_answers_times_out_without_retrying() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(ok_body("late"))
                .set_delay(Duration::from_secs(30)),
        )
        .expect(1)
        .mount(&server)
        .await;
    let model = client(&server).timeout(Duration::from_millis(200)).build().unwrap();
    let err = model.complete(request()).await.unwrap_err();
    assert_eq!(err.kind(), ModelErrorKind::Timeout);
}

#[tokio::test]
async fn an_invalid_json_body_is_an_invalid_response_that_does_not_quote_it() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>secret page</html>"))
        .mount(&server)
        .await;
    let err = client(&server).build().unwrap().complete(request()).await.unwrap_err();
    assert_eq!(err.kind(), ModelErrorKind::InvalidResponse);
    assert!(!err.to_string().contains("secret page"));
}

#[tokio::test]
async fn a_missing_choices_field_is_an_invalid_response() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": "x", "usage": {"prompt_tokens": 3}})))
        .mount(&server)
        .await;
    let err = client(&server).build().unwrap().complete(request()).await.unwrap_err();
    assert_eq!(err.kind(), ModelErrorKind::InvalidResponse);
    assert!(err.to_string().contains("choices"));
    assert_eq!(err.usage().input_tokens, 3, "the tokens were still spent");
}

#[tokio::test]
async fn a_4xx_about_response_format_falls_back_and_remembers() {
    let server = MockServer::start().await;
    let llama_cpp = |req: &Request| {
        let body: Value = req.body_json().unwrap_or_default();
        match body["response_format"]["type"].as_str() {
            Some("json_schema") => ResponseTemplate::new(400).set_body_json(json!({
                "error": {"message": "response_format: Input should be 'text' or 'json_object'"}
            })),
            _ => ResponseTemplate::new(200).set_body_json(ok_body("{\"notes\":[]}")),
        }
    };
    Mock::given(method("POST"))
        .respond_with(llama_cpp)
        .expect(3)
        .mount(&server)
        .await;
    let model = client(&server).build().unwrap();
    assert_eq!(model.complete(request()).await.unwrap().text, "{\"notes\":[]}");
    assert_eq!(model.structured_output(), StructuredOutput::JsonObjectWithSchema);
    model.complete(request()).await.unwrap();
    let modes: Vec<Value> = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| r.body_json::<Value>().unwrap()["response_format"].clone())
        .collect();
    assert_eq!(modes[0]["type"], "json_schema");
    assert_eq!(modes[1], json!({"type": "json_object", "schema": {"type": "object"}}));
    assert_eq!(modes[2]["type"], "json_object", "the working mode is remembered");
}

#[tokio::test]
async fn a_500_about_response_format_falls_back_instead_of_retrying() {
    // llama-cpp-python 0.3.36 answers an unsupported response_format with 500
    let server = MockServer::start().await;
    let llama_cpp_python = |req: &Request| {
        let body: Value = req.body_json().unwrap_or_default();
        match body["response_format"]["type"].as_str() {
            Some("json_schema") => ResponseTemplate::new(500).set_body_json(json!({
                "error": {"message": "1 validation error: ('body', 'response_format', 'type') Input should be 'text' or 'json_object'"}
            })),
            _ => ResponseTemplate::new(200).set_body_json(ok_body("{\"notes\":[]}")),
        }
    };
    Mock::given(method("POST"))
        .respond_with(llama_cpp_python)
        .expect(2)
        .mount(&server)
        .await;
    let model = client(&server).build().unwrap();
    model.complete(request()).await.unwrap();
    assert_eq!(model.structured_output(), StructuredOutput::JsonObjectWithSchema);
}

#[tokio::test]
async fn other_4xx_errors_fail_at_once_and_never_echo_the_api_key() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(401).set_body_string("Incorrect API key provided: sk-live-SECRET42"))
        .expect(1)
        .mount(&server)
        .await;
    let model = client(&server).api_key("sk-live-SECRET42").build().unwrap();
    let err = model.complete(request()).await.unwrap_err();
    assert_eq!(err.status(), Some(401));
    assert!(!err.to_string().contains("SECRET42"), "{err}");
    assert!(err.to_string().contains("[redacted]"));
    assert!(!format!("{model:?}").contains("SECRET42"));
}

#[tokio::test]
async fn a_refused_connection_is_retried_then_reported() {
    // bind and drop a listener so the port refuses connections
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let model = OpenAiCompatible::builder(format!("http://127.0.0.1:{port}/v1"), "m")
        .backoff(fast())
        .max_retries(1)
        .build()
        .unwrap();
    let err = model.complete(request()).await.unwrap_err();
    assert_eq!(err.kind(), ModelErrorKind::Transport);
}

/// A loopback HTTP/1.1 server that answers every request with `body` after
/// holding it a moment, and records the most requests it held at once.
async fn counting_server(body: Value) -> (String, Arc<AtomicUsize>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let in_flight = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let peak_out = peak.clone();
    let body = body.to_string();
    tokio::spawn(async move {
        while let Ok((mut conn, _)) = listener.accept().await {
            let (in_flight, peak, body) = (in_flight.clone(), peak.clone(), body.clone());
            tokio::spawn(async move {
                let mut buf = Vec::new();
                loop {
                    // read one request: headers, then Content-Length bytes of body
                    let head_end = loop {
                        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                            break i + 4;
                        }
                        let mut chunk = [0u8; 4096];
                        match conn.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    };
                    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
                    let len: usize = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse().ok())
                        .unwrap_or(0);
                    while buf.len() < head_end + len {
                        let mut chunk = [0u8; 4096];
                        match conn.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    }
                    buf.drain(..head_end + len);
                    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(150)).await;
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                    let reply = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                        body.len()
                    );
                    if conn.write_all(reply.as_bytes()).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    (format!("http://{addr}/v1/"), peak_out)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_concurrency_limit_bounds_requests_in_flight() {
    for limit in [1, 2, 3] {
        let (url, peak) = counting_server(ok_body("x")).await;
        let model = OpenAiCompatible::builder(url, "m")
            .backoff(fast())
            .max_concurrency(limit)
            .build()
            .unwrap();
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let m = model.clone();
                tokio::spawn(async move { m.complete(request()).await })
            })
            .collect();
        for h in handles {
            h.await.unwrap().unwrap();
        }
        // never more than the limit in flight, and the limit is actually used
        assert_eq!(peak.load(Ordering::SeqCst), limit, "max_concurrency({limit})");
    }
}

#[test]
fn the_builder_rejects_bad_settings() {
    assert_eq!(
        OpenAiCompatible::builder("not a url", "m").build().unwrap_err().field(),
        Some("base_url")
    );
    assert_eq!(
        OpenAiCompatible::builder("ftp://x", "m").build().unwrap_err().field(),
        Some("base_url")
    );
    assert_eq!(
        OpenAiCompatible::builder("http://x", " ").build().unwrap_err().field(),
        Some("model")
    );
    let err = OpenAiCompatible::builder("http://x", "m")
        .api_key_from_env("ADVISOR_TEST_SURELY_UNSET_VAR")
        .build();
    assert_eq!(err.unwrap_err().field(), Some("api_key"));
    let err = OpenAiCompatible::builder("http://x", "m").max_concurrency(0).build();
    assert_eq!(err.unwrap_err().field(), Some("max_concurrency"));
}

// security, second round, item 1: a redirect is never followed, and its target is never quoted
#[tokio::test]
async fn a_redirect_is_not_followed_and_its_target_is_not_quoted() {
    let server = MockServer::start().await;
    let elsewhere = MockServer::start().await;
    let target = format!("{}/v1/chat/completions?key=sk-stolen", elsewhere.uri());
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(
            ResponseTemplate::new(307)
                .insert_header("location", target.as_str())
                .set_body_string(target.clone()),
        )
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", target.as_str()))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(ok_body("notes from elsewhere")))
        .mount(&elsewhere)
        .await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"data": [{"id": "m", "meta": {"n_ctx_train": 9}}]})),
        )
        .mount(&elsewhere)
        .await;
    let model = client(&server).header("x-api-key", "secret-header").build().unwrap();
    let err = model.complete(request()).await.expect_err("a redirect is an error");
    let text = err.to_string();
    assert_eq!(err.kind(), ModelErrorKind::Status);
    assert!(text.contains("307") && text.contains("not followed"), "{text}");
    assert!(
        !text.contains("sk-stolen") && !text.contains(&elsewhere.uri()),
        "{text}"
    );
    // the context probe does not follow either
    let _ = model.context_tokens().await;
    assert!(
        elsewhere.received_requests().await.unwrap_or_default().is_empty(),
        "nothing reached the other origin"
    );
}
