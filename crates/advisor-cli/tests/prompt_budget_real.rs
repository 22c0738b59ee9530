//! A prompt that fits the model, against the real local server (issue 18,
//! item 4): SmolLM2-135M served by llama-cpp-python with a 4 096-token
//! context, reviewing the last answer of a real 2.7 MB Claude Code session.
//! Asserts what the model cannot fake: the unfitted prompt is refused with a
//! context overflow, the fitted one is accepted (HTTP success, the server's
//! own prompt-token count under the context), the retry happens once, and a
//! spent token budget stops the next review. Only `ADVISOR_SKIP_REAL_LLM=1`
//! skips it, and the runner then reports it as ignored
//! (`advisor_testkit::trials`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use advisor_testkit::local_llm;

use std::path::Path;
use std::time::{Duration, Instant};

use advisor::AdvisorPlugin;
use advisor::budget::BudgetScope;
use advisor::host::{ObservePhase, RunObserver, StopInfo, StopInterceptor};
use advisor::kind::ReviewKind;
use advisor::model::{ChatModel, OpenAiCompatible, StructuredOutput};
use advisor::review::{ModelReviewer, Review};
use advisor_cli::transcript::{Transcript, read_transcript};
use advisor_testkit::trials;
use local_llm::{Recording, server};

const SESSION: &str = "../../tests/fixtures/real/claude-2.1.39-spotter-gqc-compact-reject-tasknotif.jsonl";
const CONTEXT: u64 = 4_096;

fn session() -> Transcript {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SESSION);
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 2_000_000, "the long real session ({size} bytes)");
    read_transcript(&path, None).unwrap()
}

fn stop_info(t: &Transcript) -> StopInfo {
    StopInfo {
        final_answer: t.last_answer().unwrap().to_owned(),
        turns: t.assistant_turns().max(1),
        tools: t.tools.clone(),
        ..StopInfo::default()
    }
}

/// The local server's model: `structured` output, answers of at most
/// `max_tokens`, no retry, 600 s per call.
fn model(server: &local_llm::Server, structured: StructuredOutput, max_tokens: u32) -> OpenAiCompatible {
    OpenAiCompatible::builder(&server.base_url, &server.model)
        .structured_output(structured)
        .timeout(Duration::from_secs(600))
        .max_tokens(Some(max_tokens))
        .max_retries(0)
        .build()
        .unwrap()
}

/// Reviews the session's last answer through the plugin, as the hook does.
async fn review_session(plugin: &AdvisorPlugin, t: &Transcript) -> advisor::plugin::AdvisorRun {
    let mut run = plugin.start_run();
    run.observe_messages(ObservePhase::Request, t.assistant_turns(), t.history_before_answer());
    run.turn_stopping(&stop_info(t)).await;
    run
}

async fn a_long_real_session_is_fitted_to_a_4k_local_model() {
    let server = server();
    // No grammar-constrained output: llama-cpp-python's JSON grammar makes a
    // 3 000-token review take minutes on a loaded 2-core machine, and this test
    // is about the prompt, not the parse (tests/real_llm.rs covers that).
    let model = model(&server, StructuredOutput::None, 160);
    let t = session();
    eprintln!("session: {} messages, {} tool calls", t.messages.len(), t.tools.len());

    // 0. The server does not report its context (llama-cpp-python has no /props).
    assert_eq!(model.context_tokens().await, None);

    // 1. The unfitted prompt (the old behaviour) is refused for its size.
    let plugin = AdvisorPlugin::builder()
        .reviewer(ModelReviewer::new(model.clone()))
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    run.observe_messages(ObservePhase::Request, t.assistant_turns(), t.history_before_answer());
    let review = Review {
        kind: ReviewKind::Finish,
        final_answer: Some(advisor::evidence::bound_final(
            t.last_answer().unwrap(),
            &Default::default(),
        )),
        messages: run.window().messages().into(),
        omitted_messages: run.window().omitted(),
        tools: advisor::evidence::bound_tools(&t.tools, &Default::default()).0,
        ..Review::default()
    };
    let unfitted = ModelReviewer::new(model.clone()).request(&review);
    let unfitted_bytes: usize = unfitted.messages.iter().map(|m| m.content.len()).sum();
    let refused = model
        .complete(unfitted)
        .await
        .expect_err("the unfitted prompt overflows");
    assert!(refused.is_context_overflow(), "{refused}");
    assert_eq!(refused.stated_context_tokens(), Some(CONTEXT));
    eprintln!("unfitted prompt: {unfitted_bytes} bytes, refused: {refused}");

    // 2. Default budget (8 000 estimated tokens, the server reports none):
    //    refused once, retried once at min(half, the stated context's share).
    let recording = Recording::new(model.clone());
    let plugin = AdvisorPlugin::builder()
        .reviewer(ModelReviewer::new(recording.clone()))
        .timeout(Duration::from_secs(600))
        .build()
        .unwrap();
    let started = Instant::now();
    let run = review_session(&plugin, &t).await;
    let calls = recording.calls();
    eprintln!("default budget: {:?} in {:?}", calls, started.elapsed());
    assert_eq!(
        calls.len(),
        2,
        "one refusal, one retry{}",
        server.died().map(|d| format!("; {d}")).unwrap_or_default()
    );
    assert!(calls[0].result.as_ref().unwrap_err().is_context_overflow());
    let usage = server.check("the retried prompt", calls[1].result.as_ref());
    assert!(usage.input_tokens > 0 && usage.input_tokens < CONTEXT, "{usage:?}");
    assert!(calls[1].prompt_bytes < calls[0].prompt_bytes);
    let report = run.report();
    eprintln!("report: {report:?}");
    assert_eq!(
        report.usage.input_tokens, usage.input_tokens,
        "the server's usage is charged"
    );

    // 3. An explicit budget: accepted the first time; then a spent token
    //    budget stops the next review and the stop goes through.
    let recording = Recording::new(model.clone());
    let plugin = AdvisorPlugin::builder()
        .reviewer(ModelReviewer::new(recording.clone()))
        .max_prompt_tokens(3_000)
        .max_rounds(3)
        .max_review_tokens(1)
        .timeout(Duration::from_secs(600))
        .build()
        .unwrap();
    let started = Instant::now();
    let mut run = review_session(&plugin, &t).await;
    let calls = recording.calls();
    assert_eq!(calls.len(), 1, "fitted the first time: {calls:?}");
    let usage = *server.check("the fitted prompt", calls[0].result.as_ref());
    assert!(usage.input_tokens < CONTEXT);
    #[allow(clippy::cast_precision_loss)]
    let bytes_per_token = calls[0].prompt_bytes as f64 / usage.input_tokens as f64;
    eprintln!(
        "max_prompt_tokens 3000: {} prompt bytes, the server counted {} prompt + {} completion tokens \
         ({bytes_per_token:.2} bytes/token) in {:?}",
        calls[0].prompt_bytes,
        usage.input_tokens,
        usage.output_tokens,
        started.elapsed()
    );
    assert!(
        !run.turn_stopping(&stop_info(&t)).await.reopens(),
        "the stop goes through"
    );
    assert_eq!(recording.calls().len(), 1, "no model call once the budget is spent");
    let stop = run.report().budget_stop.expect("the report says why");
    assert_eq!(stop.scope, BudgetScope::Request);
    assert_eq!(stop.spent, usage.total());
}

/// Issue 44, item 9: with its output constrained by the notes schema (as the
/// model reviewer asks by default), the small model writes raw newlines and
/// a Markdown code fence inside a note's JSON string on this session; the
/// notes parser reads both as text, so the review of the 2.7 MB session
/// completes — its answer is parsed, not an error — instead of failing open.
async fn a_grammar_constrained_review_of_a_long_real_session_completes() {
    let server = server();
    let model = model(&server, StructuredOutput::default(), 400);
    let t = session();
    let recording = Recording::new(model);
    let plugin = AdvisorPlugin::builder()
        .reviewer(ModelReviewer::new(recording.clone()))
        .max_prompt_tokens(3_000)
        .timeout(Duration::from_secs(600))
        .build()
        .unwrap();
    let started = Instant::now();
    let run = review_session(&plugin, &t).await;
    let calls = recording.calls();
    let report = run.report();
    eprintln!(
        "grammar-constrained review: {calls:?}, {report:?} in {:?}",
        started.elapsed()
    );
    assert_eq!(calls.len(), 1, "fitted the first time: {calls:?}");
    server.check("the constrained review", calls[0].result.as_ref());
    assert_eq!(report.finish_reviews, 1);
    assert_eq!(
        (report.errors, report.timeouts),
        (0, 0),
        "the answer was read as notes{}",
        server.died().map(|d| format!("; {d}")).unwrap_or_default()
    );
}

/// The real-model tests, under the testkit's harness: ignored (never passed) with
/// `ADVISOR_SKIP_REAL_LLM=1`.
fn main() -> std::process::ExitCode {
    trials::run(vec![
        trials::trial(
            "a_long_real_session_is_fitted_to_a_4k_local_model",
            a_long_real_session_is_fitted_to_a_4k_local_model,
        ),
        trials::trial(
            "a_grammar_constrained_review_of_a_long_real_session_completes",
            a_grammar_constrained_review_of_a_long_real_session_completes,
        ),
    ])
}
