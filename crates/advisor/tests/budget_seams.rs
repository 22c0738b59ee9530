//! Token budgets of the rollout advisor (per attempt) and the consultant (per
//! run), issue 18 item 3: every model attempt is charged (invalid answers
//! included, estimated when the server reports no usage); once spent, no
//! model call starts — the rollout keeps its draft, the consultant answers
//! with a typed error — and the trace says why.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use advisor::budget::BudgetScope;
use advisor::consult::{AdvisorRequest, ConsultErrorKind, Consultant};
use advisor::model::{ChatResponse, ScriptedModel};
use std::sync::{Arc, Mutex};

use advisor::rollout::{Advisor, AdvisorConfig, Arm, Draft, RolloutTrace, TaskMaterial};
use serde_json::json;

#[derive(Clone, Default)]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for SharedBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const SEED_REQUEST: &str = include_str!("../../../tests/fixtures/advisor-request.seed.json");

fn intervene() -> String {
    json!({"intervene": true, "confidence": 0.6, "reason_code": "INSUFFICIENT_END_TO_END_VALIDATION", "action": "RUN_BROADER_VALIDATION",
           "plan": "run the tests", "hint": "", "private_diagnosis": "tests never ran"})
    .to_string()
}

#[tokio::test]
async fn the_rollout_advisor_stops_asking_once_the_attempts_budget_is_spent() {
    // An advisor that would intervene on every turn, 700 tokens a call.
    let model = ScriptedModel::new(std::iter::repeat_n(
        ChatResponse::text(intervene()).with_usage(600, 100),
        50,
    ));
    let buf = SharedBuf::default();
    let trace = RolloutTrace::start(buf.clone(), "run-1", "task-1", Arm::Advised);
    let config = AdvisorConfig::builder()
        .periodic_review_interval(Some(1))
        .max_interventions(1_000)
        .max_review_tokens(Some(1_500))
        .build()
        .unwrap();
    let mut advisor =
        Advisor::new(config, TaskMaterial::new("make the tests pass"), model.clone()).with_trace(trace.clone());
    let mut kept = 0;
    for turn in 0..10 {
        let draft = Draft::text(format!("turn {turn}"));
        let committed = advisor
            .review(&[], draft, |_r| std::future::ready(Ok(Draft::text("revised"))))
            .await
            .unwrap();
        if committed.text.starts_with("turn") {
            kept += 1;
        }
    }
    // 0 → 700 → 1 400 → 2 100: three calls, then every draft is kept as is.
    assert_eq!(model.calls(), 3);
    assert_eq!(advisor.tokens_spent(), 2_100);
    assert_eq!(kept, 7);
    trace.flush().unwrap(); // the trace is written off the rollout's thread
    let lines = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    let spent: Vec<&str> = lines
        .lines()
        .filter(|l| l.contains(r#""event":"budget_spent""#))
        .collect();
    assert_eq!(spent.len(), 7, "{lines}");
    assert!(
        spent[0].contains(r#""scope":"attempt""#) && spent[0].contains(r#""limit":1500"#),
        "{}",
        spent[0]
    );
}

#[tokio::test]
async fn invalid_answers_are_charged_and_the_budget_ends_the_retries() {
    let model = ScriptedModel::new(std::iter::repeat_n(ChatResponse::text("not json at all"), 10));
    let config = AdvisorConfig::builder()
        .max_advisor_attempts(10)
        .max_review_tokens(Some(2_000))
        .build()
        .unwrap();
    let mut advisor = Advisor::new(config, TaskMaterial::new("t"), model.clone());
    let draft = Draft::calling("done", "submit");
    let committed = advisor
        .review(&[], draft, |_r| std::future::ready(Ok(Draft::text("revised"))))
        .await
        .unwrap();
    assert_eq!(committed.text, "done", "the draft is kept");
    let calls = model.calls();
    assert!(
        (1..10).contains(&calls),
        "estimated usage ended the retries after {calls} calls"
    );
    assert!(advisor.tokens_spent() >= 2_000);
}

#[tokio::test]
async fn the_consultant_refuses_once_its_runs_budget_is_spent() {
    let answer = json!({
        "schema_version": "advisor-response.v1", "decision": "CORRECTION",
        "summary": "the fixture path is wrong", "executor_instructions": ["Point the fixture at tests/data."],
        "confidence": 0.7, "stop_reason": null
    })
    .to_string();
    let model = ScriptedModel::new(std::iter::repeat_n(ChatResponse::text(answer).with_usage(800, 200), 5));
    let consultant = Consultant::new(model.clone()).max_tokens(1_500);
    let request = AdvisorRequest::parse(SEED_REQUEST).unwrap();
    consultant.consult(&request).await.unwrap();
    consultant.clone().consult(&request).await.unwrap();
    assert_eq!(consultant.tokens_spent(), 2_000, "clones share the run's budget");
    match consultant.consult(&request).await {
        Err(e) if e.kind() == ConsultErrorKind::Budget => {
            let (stop, usage) = (e.budget_stop().unwrap(), e.usage());
            assert!(usage.is_zero(), "this consultation made no call");
            assert_eq!((stop.scope, stop.spent, stop.limit), (BudgetScope::Run, 2_000, 1_500));
        }
        other => panic!("expected a budget error, got {other:?}"),
    }
    assert_eq!(model.calls(), 2, "no model call after the budget was spent");
}

#[tokio::test]
async fn a_consultation_without_server_usage_is_estimated_and_marked() {
    let model = ScriptedModel::texts(["prose, not JSON", "still prose"]);
    let consultant = Consultant::new(model).max_attempts(2).unwrap();
    let request = AdvisorRequest::parse(SEED_REQUEST).unwrap();
    let err = consultant.consult(&request).await.unwrap_err();
    assert_eq!(err.kind(), ConsultErrorKind::Invalid);
    assert!(consultant.tokens_spent() > 0, "invalid answers still cost tokens");
    assert_eq!(
        err.usage().total(),
        consultant.tokens_spent(),
        "the error counts both attempts"
    );
    assert!(err.usage().estimated);
}
