//! Load and fault tests of the HTTP model client, bounded in time: a local
//! server on loopback that answers slowly, drops connections, answers 429 with
//! `Retry-After`, or sends garbage. No call hangs past the configured timeout,
//! retries stay bounded, and a run always ends as fail-open says.
#![cfg(feature = "http")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use advisor::model::{Backoff, ChatModel, ChatRequest, ModelErrorKind, OpenAiCompatible, ScriptedModel};
use advisor::review::ModelReviewer;
use advisor::rollout::{Advisor, AdvisorConfig, Draft, RolloutErrorKind, TaskMaterial};
use advisor::{AdvisorPlugin, Agent, host::Message};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

#[derive(Clone, Copy)]
enum Mode {
    Slow(Duration),
    Drop,
    TooMany,
    Garbage,
}

/// A loopback server answering every request the same faulty way; counts requests.
async fn server(mode: Mode) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let h = h.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 * 1024];
                let _ = sock.read(&mut buf).await;
                h.fetch_add(1, Ordering::SeqCst);
                let reply: Option<String> = match mode {
                    Mode::Drop => None,
                    Mode::Slow(d) => {
                        tokio::time::sleep(d).await;
                        let body = r#"{"choices":[{"message":{"content":"{\"notes\":[]}"}}]}"#;
                        Some(format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                            body.len()
                        ))
                    }
                    Mode::TooMany => {
                        Some("HTTP/1.1 429 Too Many Requests\r\nretry-after: 1\r\ncontent-length: 4\r\n\r\nslow".into())
                    }
                    Mode::Garbage => Some("HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\n\u{0}garbage!".into()),
                };
                if let Some(r) = reply {
                    let _ = sock.write_all(r.as_bytes()).await;
                }
                let _ = sock.shutdown().await;
            });
        }
    });
    (format!("http://{addr}/v1"), hits)
}

fn client(base: &str, timeout: Duration, retries: u32) -> OpenAiCompatible {
    OpenAiCompatible::builder(base, "m")
        .timeout(timeout)
        .max_retries(retries)
        .backoff(Backoff {
            base: Duration::from_millis(20),
            max: Duration::from_secs(2),
        })
        .build()
        .unwrap()
}

fn request() -> ChatRequest {
    ChatRequest::new(vec![Message::user("hi")])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_server_cannot_hold_a_call_past_the_timeout() {
    let (base, hits) = server(Mode::Slow(Duration::from_secs(30))).await;
    let started = Instant::now();
    let err = client(&base, Duration::from_millis(300), 3)
        .complete(request())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ModelErrorKind::Timeout);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "bounded by the timeout, not the server"
    );
    assert_eq!(hits.load(Ordering::SeqCst), 1, "a timeout is not retried");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_connections_are_retried_a_bounded_number_of_times() {
    let (base, hits) = server(Mode::Drop).await;
    let err = client(&base, Duration::from_secs(5), 3)
        .complete(request())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ModelErrorKind::Transport);
    assert_eq!(hits.load(Ordering::SeqCst), 4, "one try and three retries");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_is_honoured_and_retries_are_bounded() {
    let (base, hits) = server(Mode::TooMany).await;
    let started = Instant::now();
    let err = client(&base, Duration::from_secs(5), 2)
        .complete(request())
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(429));
    assert_eq!(hits.load(Ordering::SeqCst), 3);
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "two waits of Retry-After: 1"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_is_an_invalid_response_at_once() {
    let (base, hits) = server(Mode::Garbage).await;
    let err = client(&base, Duration::from_secs(5), 3)
        .complete(request())
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ModelErrorKind::InvalidResponse);
    assert_eq!(hits.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_ends_the_plugin_run_as_fail_open_says() {
    for mode in [
        Mode::Slow(Duration::from_secs(30)),
        Mode::Drop,
        Mode::TooMany,
        Mode::Garbage,
    ] {
        let (base, _) = server(mode).await;
        let plugin = AdvisorPlugin::builder()
            .reviewer(ModelReviewer::new(client(&base, Duration::from_millis(500), 1)))
            .timeout(Duration::from_secs(5))
            .build()
            .unwrap();
        let model = ScriptedModel::texts(["answer"]);
        let out = Agent::new(model.clone())
            .extension(plugin.clone())
            .run("task")
            .await
            .unwrap();
        assert_eq!(out.final_answer, "answer", "the run ends exactly as without an advisor");
        assert_eq!(model.calls(), 1);
        assert_eq!(plugin.last_report().unwrap().errors, 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rollout_advisor_keeps_the_draft_or_returns_the_error() {
    let (base, _) = server(Mode::Drop).await;
    for fail_open in [true, false] {
        let cfg = AdvisorConfig::builder()
            .fail_open(fail_open)
            .max_advisor_attempts(2)
            .build()
            .unwrap();
        let mut a = Advisor::new(
            cfg,
            TaskMaterial::new("task"),
            client(&base, Duration::from_millis(500), 1),
        );
        let draft = Draft::calling("done", "submit");
        let out = a
            .review(&[], draft.clone(), |_| async { Ok(Draft::text("revised")) })
            .await;
        match (fail_open, out) {
            (true, Ok(d)) => assert_eq!(d, draft),
            (false, Err(e)) if e.kind() == RolloutErrorKind::Model => {}
            (f, other) => panic!("fail_open={f}: {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_concurrent_calls_through_one_client_all_end() {
    let (base, hits) = server(Mode::Slow(Duration::from_millis(20))).await;
    let c = OpenAiCompatible::builder(&base, "m")
        .max_concurrency(8)
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let handles: Vec<_> = (0..200)
        .map(|_| {
            let c = c.clone();
            tokio::spawn(async move { c.complete(request()).await })
        })
        .collect();
    for h in handles {
        assert_eq!(h.await.unwrap().unwrap().text, "{\"notes\":[]}");
    }
    assert_eq!(hits.load(Ordering::SeqCst), 200);
}
