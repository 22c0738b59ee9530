//! A prompt that fits the model (issue 18, item 4), offline: the fitting
//! rules as properties, the budget read from a server's reported context, and
//! one retry at half the budget when a server (wiremock on loopback, answering
//! like llama-cpp-python does) still reports a context overflow.
#![cfg(feature = "http")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use advisor::host::{Message, Role, ToolTrace};
use advisor::kind::ReviewKind;
use advisor::model::{OpenAiCompatible, ScriptedModel, estimate_tokens};
use advisor::review::{DEFAULT_MAX_PROMPT_TOKENS, FittedPrompt, ModelReviewer, Review, Reviewer};
use proptest::prelude::*;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const TASK: &str = "TASK-HEAD Migrate the billing tables to the new schema and keep every invoice. TASK-TAIL";
const ANSWER: &str = "ANSWER-HEAD Migration done: 42 tables moved, 0 invoices lost. ANSWER-TAIL";

fn tool(name: &str, text: String) -> Message {
    Message {
        name: Some(name.into()),
        ..Message::new(Role::Tool, text)
    }
}

/// A long session: the task, then `n` rounds of agent text and tool output.
fn long_review(n: usize, tool_bytes: usize) -> Review {
    let mut messages = vec![Message::user(TASK)];
    for i in 0..n {
        messages.push(Message::assistant(format!(
            "step {i}: running the migration for table {i}"
        )));
        messages.push(tool(
            "bash",
            format!(
                "OUT-HEAD-{i} {} OUT-TAIL-{i}",
                "row migrated ok; ".repeat(tool_bytes / 17)
            ),
        ));
    }
    Review {
        kind: ReviewKind::Finish,
        reviewer: "advisor".into(),
        final_answer: Some(ANSWER.into()),
        turns: u32::try_from(n).unwrap(),
        messages: messages.into(),
        tools: (0..n)
            .map(|i| ToolTrace {
                name: "bash".into(),
                error: (i % 3 == 0).then(|| format!("exit 1 on table {i}")),
                ..ToolTrace::default()
            })
            .collect(),
        ..Review::default()
    }
}

/// The user message a model reviewer sends for `review` within `budget`
/// prompt tokens, checked against the request it is part of: the system
/// message and the fitted user message together stay within the budget.
fn fit_user_prompt(review: &Review, budget: u64) -> FittedPrompt {
    let (request, fitted) = ModelReviewer::new(ScriptedModel::texts([""])).request_within(review, budget);
    assert_eq!(request.messages[1].content, fitted.text);
    let system = estimate_tokens(&request.messages[0].content);
    assert!(
        system + fitted.estimated_tokens <= budget,
        "{system} + {} > {budget}",
        fitted.estimated_tokens
    );
    fitted
}

#[test]
fn long_tool_outputs_keep_head_and_tail_and_the_oldest_steps_leave_first() {
    let review = long_review(30, 6_000);
    let fitted = fit_user_prompt(&review, 3_000);
    assert!(fitted.estimated_tokens <= 3_000, "{}", fitted.estimated_tokens);
    assert!(
        fitted.clamped_tool_outputs > 0 && fitted.dropped_messages > 0,
        "{fitted:?}"
    );
    let text = &fitted.text;
    assert!(
        text.contains(TASK) && text.contains(ANSWER),
        "the task and the answer stay whole"
    );
    assert!(
        text.contains("OUT-HEAD-29") && text.contains("OUT-TAIL-29"),
        "the newest output keeps head and tail"
    );
    assert!(text.contains("bytes truncated"), "with an elision marker");
    assert!(!text.contains("step 0:"), "the oldest step left first");
    assert!(text.contains("step 29:"), "the newest step stays");
    assert!(text.contains("earlier elided"));
}

#[test]
fn a_task_and_answer_that_alone_exceed_the_budget_are_cut_to_head_and_tail() {
    let mut review = long_review(3, 500);
    let mut messages = review.messages.to_vec();
    messages[0].content = format!("TASK-HEAD {} TASK-TAIL", "spec ".repeat(20_000));
    review.messages = messages.into();
    review.final_answer = Some(format!("ANSWER-HEAD {} ANSWER-TAIL", "done ".repeat(20_000)));
    let fitted = fit_user_prompt(&review, 2_000);
    assert!(fitted.clamped_task_or_answer);
    assert!(fitted.estimated_tokens <= 2_000, "{}", fitted.estimated_tokens);
    for mark in [
        "TASK-HEAD",
        "TASK-TAIL",
        "ANSWER-HEAD",
        "ANSWER-TAIL",
        "bytes truncated",
    ] {
        assert!(fitted.text.contains(mark), "{mark} missing");
    }
}

#[test]
fn a_review_that_fits_is_rendered_unchanged() {
    let review = long_review(2, 100);
    let fitted = fit_user_prompt(&review, 100_000);
    assert!(!fitted.shrunk());
    assert_eq!(
        fitted.text,
        fit_user_prompt(&review, u64::MAX).text,
        "the same as without a limit"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_fitted_prompt_fits_and_keeps_the_task_and_the_answer(
        steps in 0usize..40,
        tool_bytes in 0usize..8_000,
        budget in 1_000u64..12_000,
    ) {
        let review = long_review(steps, tool_bytes);
        let fitted = fit_user_prompt(&review, budget);
        prop_assert!(fitted.estimated_tokens <= budget, "{} > {budget}", fitted.estimated_tokens);
        prop_assert_eq!(fitted.estimated_tokens, estimate_tokens(&fitted.text));
        prop_assert!(fitted.text.contains(TASK));
        prop_assert!(fitted.text.contains(ANSWER));
    }
}

fn notes_body() -> Value {
    json!({
        "id": "x", "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant",
            "content": "{\"notes\":[{\"text\":\"table 0 failed and was never re-run\",\"severity\":\"concern\"}]}"},
            "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 900, "completion_tokens": 20, "total_tokens": 920}
    })
}

/// Answers like llama-cpp-python with `--n_ctx {context}`: a prompt over the
/// context (estimated as the server would, from its bytes) is refused with
/// the server's own `context_length_exceeded` error.
struct ContextLimitedServer {
    context_bytes: usize,
}

fn prompt_bytes(request: &Request) -> usize {
    let body: Value = request.body_json().unwrap();
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap_or_default().len())
        .sum()
}

impl Respond for ContextLimitedServer {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let bytes = prompt_bytes(request);
        if bytes > self.context_bytes {
            return ResponseTemplate::new(400).set_body_json(json!({"error": {
                "message": format!("This model's maximum context length is 4096 tokens. However, you requested {} tokens ({} in the messages, 1024 in the completion). Please reduce the length of the messages or completion.", bytes / 3 + 1024, bytes / 3),
                "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}));
        }
        ResponseTemplate::new(200).set_body_json(notes_body())
    }
}

/// A client for `server`, whose chat endpoint answers like a server with a
/// `context_bytes` context (mounted here).
async fn context_limited_model(server: &MockServer, context_bytes: usize) -> OpenAiCompatible {
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ContextLimitedServer { context_bytes })
        .mount(server)
        .await;
    OpenAiCompatible::builder(format!("{}/v1", server.uri()), "m")
        .build()
        .unwrap()
}

fn chat_requests(requests: &[Request]) -> Vec<&Request> {
    requests
        .iter()
        .filter(|r| r.url.path().ends_with("/chat/completions"))
        .collect()
}

#[tokio::test]
async fn a_context_overflow_gets_one_retry_at_half_the_budget_and_the_next_review_starts_there() {
    let server = MockServer::start().await;
    // 4 096 tokens of context, but the server does not say so up front.
    let model = context_limited_model(&server, 4_096 * 3).await;
    let reviewer = ModelReviewer::new(model);
    let review = long_review(40, 4_000);
    assert_eq!(reviewer.prompt_budget(&review).await, DEFAULT_MAX_PROMPT_TOKENS);
    let notes = reviewer.review(&review).await.unwrap();
    assert_eq!(notes.len(), 1);
    let received = server.received_requests().await.unwrap();
    let chats = chat_requests(&received);
    assert_eq!(chats.len(), 2, "one refused request, one retry");
    let (first, retry) = (prompt_bytes(chats[0]), prompt_bytes(chats[1]));
    assert!(first > 4_096 * 3, "the default budget overflowed: {first} bytes");
    assert!(
        retry <= 3_072 * 3,
        "the retry fits half the budget and the stated context: {retry} bytes"
    );
    assert_eq!(review.usage.total().input_tokens, 900, "the server's usage is charged");
    // The next review starts at the learned budget: one call.
    reviewer.review(&long_review(40, 4_000)).await.unwrap();
    assert_eq!(chat_requests(&server.received_requests().await.unwrap()).len(), 3);
}

#[tokio::test]
async fn an_overflow_that_persists_fails_open_after_exactly_one_retry() {
    let server = MockServer::start().await;
    let model = context_limited_model(&server, 10).await;
    let err = ModelReviewer::new(model)
        .review(&long_review(10, 1_000))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("maximum context length"), "{err}");
    assert_eq!(chat_requests(&server.received_requests().await.unwrap()).len(), 2);
}

#[tokio::test]
async fn a_context_the_server_reports_sets_the_default_budget() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"data": [{"id": "m", "object": "model"}]})))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/props"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"default_generation_settings": {"n_ctx": 2048}})))
        .mount(&server)
        .await;
    let model = context_limited_model(&server, 2_048 * 3).await;
    let reviewer = ModelReviewer::new(model);
    let review = long_review(40, 4_000);
    assert_eq!(
        reviewer.prompt_budget(&review).await,
        1_536,
        "2 048 less the answer's quarter"
    );
    reviewer.review(&review).await.unwrap();
    let received = server.received_requests().await.unwrap();
    assert_eq!(chat_requests(&received).len(), 1, "fitted the first time");
    let probes = received.iter().filter(|r| r.method.as_str() == "GET").count();
    reviewer.review(&review).await.unwrap();
    let again = server.received_requests().await.unwrap();
    assert_eq!(
        again.iter().filter(|r| r.method.as_str() == "GET").count(),
        probes,
        "the context is asked once"
    );
}

#[tokio::test]
async fn the_plugins_max_prompt_tokens_reaches_the_reviewer() {
    let server = MockServer::start().await;
    let model = context_limited_model(&server, usize::MAX).await;
    let plugin = advisor::AdvisorPlugin::builder()
        .reviewer(ModelReviewer::new(model))
        .max_prompt_tokens(2_000)
        .build()
        .unwrap();
    let review = long_review(40, 4_000);
    let mut run = plugin.start_run();
    use advisor::host::{ObservePhase, RunObserver, StopInfo, StopInterceptor};
    run.observe_messages(ObservePhase::Request, 40, &review.messages);
    run.turn_stopping(&StopInfo {
        final_answer: ANSWER.into(),
        turns: 40,
        ..StopInfo::default()
    })
    .await;
    let received = server.received_requests().await.unwrap();
    let chats = chat_requests(&received);
    assert_eq!(chats.len(), 1);
    assert!(prompt_bytes(chats[0]) <= 2_000 * 3, "{}", prompt_bytes(chats[0]));
}
