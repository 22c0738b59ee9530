//! Issue 48, finding 4 (the tools' half): a blocking tool call stops at its
//! own deadline, and when the review that waits for it is dropped (its
//! timeout), so no blocking thread works on after the review is gone — the
//! runtime, and a process that exits with it, is not held. The slow call is
//! a `grep` whose pattern sends the regex engine down its slow path on
//! non-ASCII text (about 5 s per MiB in a release build).
#![cfg(all(feature = "http", unix))]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use advisor::host::{Message, ToolCall};
use advisor::kind::ReviewKind;
use advisor::model::OpenAiCompatible;
use advisor::review::tools::{WorkspaceTool, WorkspaceTools};
use advisor::review::{ModelReviewer, Review, Reviewer};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// A pattern the lazy DFA gives up on for non-ASCII text (a Unicode word
/// boundary), leaving the slow engine to walk every byte.
const SLOW_PATTERN: &str = r"(?:\b\w+\b\s*){5,}X";

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A workspace of `files` files of `kib` KiB of Cyrillic words each, on one
/// line.
fn slow_workspace(name: &str, files: usize, kib: usize) -> Scratch {
    let dir = std::env::temp_dir().join(format!("advisor-deadline-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let text: String = "привет мир ".chars().cycle().take(kib * 1024 / 2).collect();
    for i in 0..files {
        std::fs::write(dir.join(format!("text{i}.txt")), &text).unwrap();
    }
    Scratch(dir)
}

/// Asks for one slow `grep`, then answers with no notes.
struct Script(AtomicUsize);

impl Respond for Script {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let body = if self.0.fetch_add(1, Ordering::SeqCst) == 0 {
            let args = json!({"pattern": SLOW_PATTERN}).to_string();
            let calls = json!([{"id": "g", "type": "function", "function": {"name": "grep", "arguments": args}}]);
            json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": calls}, "finish_reason": "tool_calls"}]})
        } else {
            json!({"choices": [{"message": {"role": "assistant", "content": "{\"notes\":[]}"}, "finish_reason": "stop"}]})
        };
        ResponseTemplate::new(200).set_body_json(body)
    }
}

fn review() -> Review {
    Review {
        kind: ReviewKind::Finish,
        reviewer: "advisor".into(),
        final_answer: Some("Done.".into()),
        messages: vec![Message::user("Check the texts.")].into(),
        max_prompt_tokens: Some(60_000),
        ..Review::default()
    }
}

async fn reviewer(ws: &Path) -> (MockServer, ModelReviewer) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Script(AtomicUsize::new(0)))
        .mount(&server)
        .await;
    let model = OpenAiCompatible::builder(format!("{}/v1", server.uri()), "m")
        .build()
        .unwrap();
    let reviewer = ModelReviewer::new(model).tools(WorkspaceTools::new(ws, [WorkspaceTool::Grep]));
    (server, reviewer)
}

#[test]
fn a_slow_grep_stops_when_the_review_is_dropped_and_the_runtime_exits_at_once() {
    let ws = slow_workspace("dropped", 4, 256);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (server, reviewer) = reviewer(&ws.0).await;
        let review = review();
        // the review's timeout, as the plugin applies it: the future is dropped
        let outcome = tokio::time::timeout(Duration::from_secs(1), reviewer.review(&review)).await;
        assert!(outcome.is_err(), "the slow grep finished within 1 s: {outcome:?}");
        drop(server);
    });
    // dropping the runtime waits for its blocking threads, as a process's exit does
    let started = Instant::now();
    drop(runtime);
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_millis(1500),
        "the runtime waited {waited:?} for a tool call of a review that was gone"
    );
}

#[test]
fn a_slow_grep_stops_at_the_call_deadline_and_says_so() {
    let ws = slow_workspace("deadline", 4, 256);
    let tools = WorkspaceTools::new(&ws.0, [WorkspaceTool::Grep]).call_timeout(Duration::from_secs(1));
    let started = Instant::now();
    let result = tools.call(&ToolCall {
        id: "g".into(),
        name: "grep".into(),
        arguments: json!({"pattern": SLOW_PATTERN}).to_string(),
    });
    let took = started.elapsed();
    assert!(!result.error, "{}", result.content);
    assert!(
        result.content.contains("[search stopped: the tool's time ran out"),
        "{}",
        result.content
    );
    assert!(took < Duration::from_millis(1800), "took {took:?}");
    // the same search on a short text finishes and finds nothing
    let small = slow_workspace("small", 1, 1);
    let quick = WorkspaceTools::new(&small.0, [WorkspaceTool::Grep]).call(&ToolCall {
        id: "g".into(),
        name: "grep".into(),
        arguments: json!({"pattern": SLOW_PATTERN}).to_string(),
    });
    assert!(quick.content.starts_with("0 matches"), "{}", quick.content);
    assert!(!quick.content.contains("stopped"), "{}", quick.content);
}
