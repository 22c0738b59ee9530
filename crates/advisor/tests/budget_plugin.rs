//! The plugin's review-token budgets (issue 18, item 3): per user request,
//! per session (the checkpointed lifetime), charged from every reviewer
//! attempt, estimated when the server reports no usage; once spent, reviews
//! stop, the stop goes through, and the report and the trace say why.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use advisor::budget::BudgetScope;
use advisor::host::{Checkpoint, Message, ObservePhase, RunObserver, StopInfo, StopInterceptor};
use advisor::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
use advisor::review::ModelReviewer;
use advisor::trace::{MemoryTrace, TraceEventKind};
use advisor::{AdvisorPlugin, Agent, StopReason};
use async_trait::async_trait;

/// A reviewer model that never runs out of objections: every call raises a
/// new blocker, so without a cap or a budget the agent is sent back forever.
struct EndlessObjections {
    calls: Arc<AtomicU32>,
    usage: Option<(u64, u64)>,
}

#[async_trait]
impl ChatModel for EndlessObjections {
    async fn complete(&self, _request: ChatRequest) -> Result<ChatResponse, ModelError> {
        let n = self.calls.fetch_add(1, Ordering::SeqCst);
        let text = format!(
            r#"{{"notes":[{{"text":"objection number {n}: line {n} of the report contradicts the query output","severity":"blocker"}}]}}"#
        );
        let answer = ChatResponse::text(text);
        Ok(match self.usage {
            Some((i, o)) => answer.with_usage(i, o),
            None => answer,
        })
    }
}

/// An agent model that answers every turn with a new answer.
struct Answers(AtomicU32);

#[async_trait]
impl ChatModel for Answers {
    async fn complete(&self, _request: ChatRequest) -> Result<ChatResponse, ModelError> {
        let n = self.0.fetch_add(1, Ordering::SeqCst);
        Ok(ChatResponse::text(format!("answer {n}")))
    }
}

fn reviewer(calls: &Arc<AtomicU32>, usage: Option<(u64, u64)>) -> ModelReviewer {
    ModelReviewer::new(EndlessObjections {
        calls: calls.clone(),
        usage,
    })
}

fn stop(answer: &str) -> StopInfo {
    StopInfo {
        final_answer: answer.into(),
        turns: 1,
        ..StopInfo::default()
    }
}

#[tokio::test]
async fn a_reviewer_that_would_loop_forever_is_stopped_by_the_request_budget() {
    let calls = Arc::new(AtomicU32::new(0));
    let trace = Arc::new(MemoryTrace::new());
    let plugin = AdvisorPlugin::builder()
        .reviewer(reviewer(&calls, Some((500, 100))))
        .max_rounds(u32::MAX)
        .max_review_tokens(2_000)
        .trace(trace.clone())
        .build()
        .unwrap();
    let agent_model = Arc::new(Answers(AtomicU32::new(0)));
    let out = Agent::with_shared_model(agent_model.clone())
        .max_turns(1_000)
        .unwrap()
        .extension(plugin.clone())
        .run("summarise the report")
        .await
        .unwrap();
    // 600 tokens a review: 0 → 600 → 1 200 → 1 800 → 2 400; the fifth is not started.
    assert_eq!(calls.load(Ordering::SeqCst), 4, "four reviews ran");
    assert_eq!(
        agent_model.0.load(Ordering::SeqCst),
        5,
        "one agent turn per review, plus the last"
    );
    assert_eq!(out.stop_reason, StopReason::Stop, "the stop went through");
    assert_eq!(out.final_answer, "answer 4");
    let report = plugin.last_report().unwrap();
    assert_eq!(report.finish_reviews, 4);
    assert_eq!(report.budget_skipped, 1);
    let stop = report.budget_stop.expect("the report says why");
    assert_eq!(
        (stop.scope, stop.spent, stop.limit),
        (BudgetScope::Request, 2_400, 2_000)
    );
    assert_eq!(report.usage.total(), 2_400);
    assert!(!report.usage.estimated);
    let events = trace.events();
    let spent: Vec<_> = events
        .iter()
        .filter(|e| e.event == TraceEventKind::BudgetSpent)
        .collect();
    assert_eq!(spent.len(), 1);
    assert_eq!(spent[0].budget, Some(stop));
    let line = serde_json::to_string(spent[0]).unwrap();
    assert!(
        line.contains(r#""event":"budget_spent""#) && line.contains(r#""scope":"request""#),
        "{line}"
    );
}

#[tokio::test]
async fn without_usage_from_the_server_the_charge_is_estimated_and_marked() {
    let calls = Arc::new(AtomicU32::new(0));
    let plugin = AdvisorPlugin::builder()
        .reviewer(reviewer(&calls, None))
        .max_rounds(u32::MAX)
        .max_review_tokens(3_000)
        .build()
        .unwrap();
    let out = Agent::new(Answers(AtomicU32::new(0)))
        .max_turns(1_000)
        .unwrap()
        .extension(plugin.clone())
        .run("q")
        .await
        .unwrap();
    assert_eq!(out.stop_reason, StopReason::Stop);
    let report = plugin.last_report().unwrap();
    assert!(report.usage.estimated, "{report:?}");
    assert!(
        report.usage.input_tokens > 500,
        "the system prompt alone is estimated at ~600 tokens"
    );
    let n = calls.load(Ordering::SeqCst);
    assert!((2..=5).contains(&n), "the estimate stopped the loop after {n} reviews");
    assert_eq!(report.budget_stop.map(|s| s.scope), Some(BudgetScope::Request));
}

#[tokio::test]
async fn a_fresh_request_gets_a_new_allowance_and_the_session_budget_survives_checkpoints() {
    let calls = Arc::new(AtomicU32::new(0));
    let plugin = AdvisorPlugin::builder()
        .reviewer(reviewer(&calls, Some((500, 100))))
        .max_rounds(u32::MAX)
        .max_review_tokens(1_000)
        .max_session_review_tokens(1_800)
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    run.observe_messages(ObservePhase::ExternalInput, 0, &[Message::user("first request")]);
    assert!(run.turn_stopping(&stop("a")).await.reopens());
    assert!(run.turn_stopping(&stop("b")).await.reopens());
    assert!(!run.turn_stopping(&stop("c")).await.reopens(), "request budget spent");
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    assert_eq!(run.review_tokens_spent(), (1_200, 1_200));
    assert_eq!(run.report().budget_stop.unwrap().scope, BudgetScope::Request);

    // The host saves and restores the state (a new process for the hook).
    let saved = Checkpoint::save(&run).unwrap();
    assert_eq!(
        saved["review_tokens"],
        serde_json::json!({"request": 1_200, "session": 1_200})
    );
    let mut run = plugin.start_run();
    Checkpoint::restore(&mut run, saved).unwrap();
    assert!(!run.turn_stopping(&stop("d")).await.reopens(), "still the same request");
    assert_eq!(calls.load(Ordering::SeqCst), 2);

    run.observe_messages(ObservePhase::ExternalInput, 0, &[Message::user("second request")]);
    assert_eq!(
        run.review_tokens_spent(),
        (0, 1_200),
        "a fresh request starts a new allowance"
    );
    assert!(run.turn_stopping(&stop("e")).await.reopens());
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    assert!(
        !run.turn_stopping(&stop("f")).await.reopens(),
        "the session budget is spent"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    let stop = run.report().budget_stop.unwrap();
    assert_eq!(
        (stop.scope, stop.spent, stop.limit),
        (BudgetScope::Session, 1_800, 1_800)
    );
    assert!(stop.to_string().contains("for this session is spent"), "{stop}");
}

#[tokio::test]
async fn periodic_reviews_stop_too_and_a_checkpoint_that_overspends_a_request_is_rejected() {
    let calls = Arc::new(AtomicU32::new(0));
    let plugin = AdvisorPlugin::builder()
        .reviewer(reviewer(&calls, Some((900, 100))))
        .interval_turns(1)
        .max_review_tokens(1_000)
        .build()
        .unwrap();
    let out = Agent::new(Answers(AtomicU32::new(0)))
        .max_turns(1_000)
        .unwrap()
        .extension(plugin.clone())
        .run("q")
        .await
        .unwrap();
    assert_eq!(out.stop_reason, StopReason::Stop);
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "one review spent the request's 1 000 tokens"
    );
    assert!(plugin.last_report().unwrap().budget_skipped >= 1);

    let mut run = plugin.start_run();
    let bad = serde_json::json!({"version": 1, "reviewers": {}, "review_tokens": {"request": 5, "session": 4}});
    let err = Checkpoint::restore(&mut run, bad).unwrap_err();
    assert!(err.to_string().contains("review_tokens.request"), "{err}");
}

#[test]
fn a_prompt_budget_below_the_minimum_is_a_named_error() {
    let err = AdvisorPlugin::builder()
        .reviewer(ModelReviewer::new(Answers(AtomicU32::new(0))))
        .max_prompt_tokens(10)
        .build()
        .unwrap_err();
    assert!(err.to_string().contains("max_prompt_tokens"), "{err}");
}
