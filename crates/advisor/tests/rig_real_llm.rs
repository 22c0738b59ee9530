//! rig end to end on a real model (issue 18, item 2): a rig agent on rig's
//! OpenAI-compatible chat-completions client, pointed at the local SmolLM2
//! server (`scripts/local-llm.sh`) through a loopback recording proxy, with
//! the advisor registered as its hook and a reviewer that objects to every
//! answer under a cap of one round. Asserts what the model cannot fake: the
//! proxy saw exactly one extra model call, the second call's input carries the
//! `<advisory>`, and the cap held (no third call although the reviewer would
//! object again). Only `ADVISOR_SKIP_REAL_LLM=1` skips it, and the runner then
//! reports it as ignored (`advisor_testkit::trials`).
//!
//! rig sends message content as arrays of text parts; llama-cpp-python 0.3.36
//! accepts only strings for system and assistant content (its pydantic models
//! answer 500 "Input should be a valid string"). The proxy records rig's body
//! as sent and forwards a copy with text-part arrays joined into strings —
//! the only change it makes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use advisor_testkit::local_llm;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use advisor::adapters::rig::RigAdvisor;
use advisor::review::{self, Review};
use advisor::{AdvisorPlugin, Note};
use advisor_testkit::trials;
use local_llm::server;
use rig_agent::agent::AgentBuilder;
use rig_core::providers::openai::OpenAIConfig;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Request bodies the proxy forwarded, in order.
type Seen = Arc<Mutex<Vec<(String, Value)>>>;

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// `body` with every message's text-part array joined into one string.
fn flatten_text_parts(mut body: Value) -> Value {
    if let Some(messages) = body["messages"].as_array_mut() {
        for m in messages {
            if let Some(parts) = m["content"].as_array() {
                if parts.iter().all(|p| p["type"] == "text") {
                    let text: Vec<&str> = parts.iter().filter_map(|p| p["text"].as_str()).collect();
                    m["content"] = Value::String(text.join("\n"));
                }
            }
        }
    }
    body
}

/// A loopback HTTP proxy: records each request's path and JSON body, forwards
/// it to `upstream` (the same path, text-part arrays flattened), and answers
/// with the upstream's status and body. One request per connection
/// (`Connection: close`).
async fn recording_proxy(upstream: String) -> (String, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen: Seen = Arc::default();
    let log = seen.clone();
    let http = reqwest::Client::new();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let (log, http, upstream) = (log.clone(), http.clone(), upstream.clone());
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 16 * 1024];
                let head_end = loop {
                    let n = socket.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    if let Some(i) = find(&buf, b"\r\n\r\n") {
                        break i + 4;
                    }
                };
                let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
                let mut lines = head.lines();
                let request_line = lines.next().unwrap_or_default().to_owned();
                let mut parts = request_line.split_whitespace();
                let method = parts.next().unwrap_or("GET").to_owned();
                let path = parts.next().unwrap_or("/").to_owned();
                let length: usize = lines
                    .filter_map(|l| l.split_once(':'))
                    .find(|(k, _)| k.trim().eq_ignore_ascii_case("content-length"))
                    .and_then(|(_, v)| v.trim().parse().ok())
                    .unwrap_or(0);
                while buf.len() < head_end + length {
                    let n = socket.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                }
                let mut body = buf[head_end..].to_vec();
                if let Ok(v) = serde_json::from_slice::<Value>(&body) {
                    log.lock().unwrap().push((path.clone(), v.clone()));
                    body = serde_json::to_vec(&flatten_text_parts(v)).unwrap();
                }
                let url = format!("{upstream}{path}");
                let request = if method == "POST" {
                    http.post(&url).header("content-type", "application/json").body(body)
                } else {
                    http.get(&url)
                };
                let (status, reply) = match request.send().await {
                    Ok(r) => (r.status().as_u16(), r.bytes().await.unwrap_or_default().to_vec()),
                    Err(e) => (502, e.to_string().into_bytes()),
                };
                let head = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    reply.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(&reply).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    (format!("http://{addr}"), seen)
}

/// Every message text in a chat-completions request body.
fn texts(body: &Value) -> Vec<String> {
    body["messages"]
        .as_array()
        .map(|ms| {
            ms.iter()
                .map(|m| {
                    match flatten_text_parts(serde_json::json!({"messages": [m]}))["messages"][0]["content"].clone() {
                        Value::String(s) => s,
                        other => other.to_string(),
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

async fn a_rig_agent_on_a_real_model_is_sent_back_once_and_the_cap_holds() {
    let server = server();
    // The server's root (the proxy forwards paths as they come: /v1/chat/completions).
    let upstream = server.base_url.trim_end_matches('/').trim_end_matches("/v1").to_owned();
    let (proxy, seen) = recording_proxy(upstream).await;

    let reviews = Arc::new(AtomicU32::new(0));
    let counted = reviews.clone();
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |r: &Review| {
            counted.fetch_add(1, Ordering::SeqCst);
            // Objects to every answer, with a new point each time: only the cap stops it.
            Ok(vec![Note::concern(format!(
                "ADVISOR-MARK-{}: state the capital's population as well as its name",
                r.round
            ))])
        }))
        .max_rounds(1)
        .build()
        .unwrap();

    let model = OpenAIConfig::new("not-needed")
        .with_base_url(format!("{proxy}/v1"))
        .client()
        .chat(server.model.clone());
    let agent = AgentBuilder::new(model)
        .preamble("Answer in one short sentence.")
        .max_tokens(48)
        .add_hook(RigAdvisor::new(plugin.clone()))
        .build();
    let response = server.check(
        "the rig run on the local model",
        agent.prompt("What is the capital of France?").max_turns(6).run().await,
    );
    let output = response.output().to_owned();
    eprintln!("final answer: {output:?}");

    let calls: Vec<(String, Value)> = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|(path, _)| path.ends_with("/chat/completions"))
        .cloned()
        .collect();
    for (i, (_, body)) in calls.iter().enumerate() {
        eprintln!(
            "call {}: {} message(s)",
            i + 1,
            body["messages"].as_array().map_or(0, Vec::len)
        );
    }
    assert_eq!(calls.len(), 2, "exactly one extra model call");
    let first = texts(&calls[0].1);
    let second = texts(&calls[1].1);
    assert!(
        !first.iter().any(|t| t.contains("<advisory")),
        "no advisory before the review"
    );
    let advisory = second
        .iter()
        .find(|t| t.contains("<advisory"))
        .expect("the advisory reached the model's input");
    assert!(advisory.contains("ADVISOR-MARK-0"), "{advisory}");
    assert!(
        second.len() > first.len(),
        "the rejected answer and the advisory were appended"
    );
    assert_eq!(reviews.load(Ordering::SeqCst), 1, "the cap held: no second review");
    let report = plugin.last_report().unwrap();
    assert_eq!((report.finish_reviews, report.interruptions), (1, 1));
    assert!(!output.trim().is_empty());
}

/// The real-model tests, under the testkit's harness: ignored (never passed) with
/// `ADVISOR_SKIP_REAL_LLM=1`.
fn main() -> std::process::ExitCode {
    trials::run(vec![trials::trial(
        "a_rig_agent_on_a_real_model_is_sent_back_once_and_the_cap_holds",
        a_rig_agent_on_a_real_model_is_sent_back_once_and_the_cap_holds,
    )])
}
