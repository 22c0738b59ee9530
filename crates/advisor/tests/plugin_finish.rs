//! Finish review through the public API and the reference loop
//! (reference catalogue A1–A11, plus ordering, severity order and timeouts).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use advisor::finish_rule::FinishRule;
use advisor::host::Role;
use advisor::model::{ChatResponse, ScriptedModel};
use advisor::review::{self, Review, ReviewError};
use advisor::{AdvisorPlugin, Agent, Note, Severity, StopReason};

/// Every `on_notes` call: the admitted notes and the delivered flag.
type Recorded = Arc<Mutex<Vec<(Vec<Note>, bool)>>>;

fn user_messages_of_request(model: &ScriptedModel, i: usize) -> Vec<String> {
    model.requests()[i]
        .messages
        .iter()
        .filter(|m| m.role == Role::User)
        .map(|m| m.content.clone())
        .collect()
}

#[tokio::test]
async fn a1_concern_reopens_the_run_and_the_agent_resolves_it() {
    let model = ScriptedModel::texts(["revenue was 4.2M", "revenue was 3.1M (corrected: one query)"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|r: &Review| {
            Ok(if r.round == 0 {
                vec![Note::concern(
                    "the revenue figure sums a filtered and an unfiltered query",
                )]
            } else {
                vec![]
            })
        }))
        .build()
        .unwrap();
    let out = Agent::new(model.clone())
        .extension(plugin)
        .run("what was revenue")
        .await
        .unwrap();
    assert!(out.final_answer.contains("3.1M"));
    assert_eq!(model.calls(), 2);
    assert_eq!(out.stop_reason, StopReason::Stop);
    assert_eq!(out.progress, vec!["reviewing the answer with the advisor".to_owned()]);
    let users = user_messages_of_request(&model, 1);
    let advisory = users
        .iter()
        .find(|m| m.contains("<advisory"))
        .expect("an advisory message");
    assert!(advisory.contains("severity=\"concern\""));
    assert!(advisory.contains("weigh, don&#x27;t blindly obey"));
    assert!(advisory.contains("filtered and an unfiltered query"));
    assert!(advisory.contains("COMPLETE answer"));
}

#[tokio::test]
async fn a2_a_nit_does_not_reopen_the_run_but_is_reported() {
    let seen: Recorded = Arc::default();
    let sink = seen.clone();
    let model = ScriptedModel::texts(["done"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|_r: &Review| {
            Ok(vec![Note::nit("the second query could reuse the CTE")])
        }))
        .on_notes(move |e| sink.lock().unwrap().push((e.notes.to_vec(), e.delivered)))
        .build()
        .unwrap();
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(out.final_answer, "done");
    assert_eq!(model.calls(), 1);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].0.len(), 1);
    assert_eq!(seen[0].0[0].severity, Severity::Nit);
    assert!(!seen[0].1, "a nit alone is not delivered");
}

#[tokio::test]
async fn a3_a_nit_riding_with_a_blocker_is_reported_as_delivered() {
    let seen: Recorded = Arc::default();
    let sink = seen.clone();
    let model = ScriptedModel::texts(["first", "second"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|r: &Review| {
            Ok(if r.round == 0 {
                vec![
                    Note::blocker("the total double-counts refunded orders"),
                    Note::nit("the second query could reuse the first CTE"),
                ]
            } else {
                vec![]
            })
        }))
        .on_notes(move |e| sink.lock().unwrap().push((e.notes.to_vec(), e.delivered)))
        .build()
        .unwrap();
    Agent::new(model).extension(plugin).run("task").await.unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert!(seen[0].1);
    assert_eq!(seen[0].0.len(), 2);
}

#[tokio::test]
async fn a4_a_silent_reviewer_accepts_the_finish() {
    let calls = Arc::new(AtomicU32::new(0));
    let c = calls.clone();
    let model = ScriptedModel::texts(["answer"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |_r: &Review| {
            c.fetch_add(1, Ordering::SeqCst);
            Ok(vec![])
        }))
        .build()
        .unwrap();
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(out.final_answer, "answer");
    assert_eq!(model.calls(), 1);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert!(out.progress.is_empty());
}

#[tokio::test]
async fn a5_a_reviewer_error_accepts_the_finish() {
    let model = ScriptedModel::texts(["answer"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|_r: &Review| {
            Err(ReviewError::new("provider down"))
        }))
        .build()
        .unwrap();
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(out.final_answer, "answer");
    assert_eq!(model.calls(), 1);
    assert_eq!(out.stop_reason, StopReason::Stop);
}

#[tokio::test]
async fn a6_rounds_are_capped() {
    let calls = Arc::new(AtomicU32::new(0));
    let c = calls.clone();
    let model = ScriptedModel::texts(["try 1", "try 2", "try 3"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |r: &Review| {
            c.fetch_add(1, Ordering::SeqCst);
            Ok(vec![Note::blocker(format!("still wrong, round {}", r.round))])
        }))
        .build()
        .unwrap();
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), advisor::plugin::DEFAULT_MAX_ROUNDS);
    assert_eq!(out.final_answer, "try 3");
    assert_eq!(
        out.stop_reason,
        StopReason::Stop,
        "an exhausted advisor does not change how the run ended"
    );
    assert_eq!(model.calls(), 3);
}

#[tokio::test]
async fn a7_a_repeated_note_is_dropped_so_a_round_cannot_spin() {
    let model = ScriptedModel::texts(["try 1", "try 2"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|_r: &Review| {
            Ok(vec![Note::concern("verify the totals")])
        }))
        .build()
        .unwrap();
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(out.final_answer, "try 2");
    assert_eq!(model.calls(), 2);
}

#[tokio::test]
async fn a8_an_escalation_gets_a_second_turn() {
    let model = ScriptedModel::texts(["try 1", "try 2", "try 3"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|r: &Review| {
            let severity = if r.round == 0 {
                Severity::Concern
            } else {
                Severity::Blocker
            };
            Ok(vec![Note::new("the totals do not add up", severity)])
        }))
        .build()
        .unwrap();
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(model.calls(), 3);
    assert_eq!(out.final_answer, "try 3");
}

#[tokio::test]
async fn a9_the_reviewer_sees_the_conversation_and_prior_notes() {
    let captured: Arc<Mutex<Option<Review>>> = Arc::default();
    let cap = captured.clone();
    let model = ScriptedModel::texts(["first", "second"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |r: &Review| {
            if r.round == 0 {
                return Ok(vec![Note::concern("check the join")]);
            }
            *cap.lock().unwrap() = Some(r.clone());
            Ok(vec![])
        }))
        .build()
        .unwrap();
    Agent::new(model).extension(plugin).run("the task").await.unwrap();
    let r = captured.lock().unwrap().clone().expect("second review captured");
    assert_eq!(r.round, 1);
    assert_eq!(r.delivered, vec![Note::concern("check the join")]);
    assert_eq!(r.final_answer.as_deref(), Some("second"));
    assert!(
        r.messages
            .iter()
            .any(|m| m.role == Role::User && m.content.contains("the task"))
    );
    assert!(
        r.messages
            .iter()
            .any(|m| m.role == Role::Assistant && m.content == "first")
    );
}

#[tokio::test]
async fn a10_a_disabled_plugin_is_inert() {
    let calls = Arc::new(AtomicU32::new(0));
    let c = calls.clone();
    let model = ScriptedModel::texts(["answer"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |_r: &Review| {
            c.fetch_add(1, Ordering::SeqCst);
            Ok(vec![Note::blocker("wrong")])
        }))
        .enabled(false)
        .build()
        .unwrap();
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(out.final_answer, "answer");
    assert_eq!(model.calls(), 1);
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    assert!(out.checkpoint.is_empty());
}

#[tokio::test]
async fn a11_a_budget_wrap_up_is_not_reviewed() {
    let calls = Arc::new(AtomicU32::new(0));
    let c = calls.clone();
    let model = ScriptedModel::texts(["wrap-up"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |_r: &Review| {
            c.fetch_add(1, Ordering::SeqCst);
            Ok(vec![Note::blocker("wrong")])
        }))
        .build()
        .unwrap();
    let out = Agent::new(model.clone())
        .extension(plugin)
        .budget(|_turns, _usage| true)
        .run("task")
        .await
        .unwrap();
    assert_eq!(out.stop_reason, StopReason::BudgetExhausted);
    assert_eq!(out.final_answer, "wrap-up");
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

fn counting_blocker(calls: Arc<AtomicU32>) -> AdvisorPlugin {
    AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |r: &Review| {
            calls.fetch_add(1, Ordering::SeqCst);
            Ok(vec![Note::blocker(format!("wrong {}", r.round))])
        }))
        .build()
        .unwrap()
}

#[tokio::test]
async fn the_advisor_is_not_consulted_when_the_goal_gate_or_a_finish_rule_reopens() {
    let calls = Arc::new(AtomicU32::new(0));
    let goal = FinishRule::new("goal", |info| {
        (!info.final_answer.contains("STATUS: DONE")).then(|| "End with STATUS: DONE when done.".to_owned())
    });
    let guard = FinishRule::new("finish_rule", |info| {
        info.tools
            .is_empty()
            .then(|| "Verify with a tool before finishing.".to_owned())
    })
    .max_nudges(1)
    .note("verifying before finishing");
    let model = ScriptedModel::texts([
        "draft",
        "draft STATUS: DONE",
        "final STATUS: DONE",
        "fixed STATUS: DONE",
        "fixed again STATUS: DONE",
    ]);
    let out = Agent::new(model.clone())
        .extension(goal)
        .extension(guard)
        .extension(counting_blocker(calls.clone()))
        .run("task")
        .await
        .unwrap();
    // turn 1: the goal gate re-opens; turn 2: the finish rule re-opens;
    // turns 3 and 4: the advisor is consulted and re-opens; turn 5: its cap
    // is spent and the finish is accepted.
    assert_eq!(out.final_answer, "fixed again STATUS: DONE");
    assert_eq!(model.calls(), 5);
    assert_eq!(
        out.progress,
        vec![
            "verifying before finishing",
            "reviewing the answer with the advisor",
            "reviewing the answer with the advisor"
        ]
    );
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    let has_advisory = |i: usize| {
        model.requests()[i]
            .messages
            .iter()
            .any(|m| m.content.contains("<advisory"))
    };
    assert!(!has_advisory(1) && !has_advisory(2), "no review while a gate re-opened");
    assert!(has_advisory(3));
}

#[tokio::test]
async fn a_goal_gate_reopening_on_every_turn_keeps_the_advisor_silent_that_turn() {
    let calls = Arc::new(AtomicU32::new(0));
    let goal = FinishRule::new("goal", |_info| Some("not done".to_owned())).max_nudges(1);
    let model = ScriptedModel::texts(["a", "b"]);
    Agent::new(model.clone())
        .extension(goal)
        .extension(counting_blocker(calls.clone()))
        .max_turns(2)
        .unwrap()
        .run("task")
        .await
        .unwrap();
    // turn 1: goal re-opens, advisor not consulted; turn 2: goal is spent,
    // advisor consulted once and re-opens, but max_turns ends the run.
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn three_nits_cannot_push_a_blocker_past_the_breadth_cap() {
    let model = ScriptedModel::texts(["draft", "fixed"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|r: &Review| {
            Ok(if r.round == 0 {
                vec![
                    Note::nit("name the CTE better"),
                    Note::nit("format the table"),
                    Note::nit("round to two places"),
                    Note::blocker("the join drops refunds"),
                ]
            } else {
                vec![]
            })
        }))
        .build()
        .unwrap();
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(model.calls(), 2, "the blocker re-opened the run");
    assert_eq!(out.final_answer, "fixed");
    let injected = user_messages_of_request(&model, 1)
        .into_iter()
        .find(|m| m.contains("<advisory"))
        .unwrap();
    assert!(injected.contains("the join drops refunds"));
    assert_eq!(injected.matches("<advisory ").count(), 3);
}

#[tokio::test]
async fn capitalised_and_padded_severities_interrupt() {
    for raw in ["Blocker", " concern "] {
        // a model's answer is read leniently; `Note`'s own serde is strict
        let answer = serde_json::json!({"notes": [{"text": "the sum is wrong", "severity": raw}]});
        let note: Note = review::parse_notes(&answer.to_string()).unwrap().remove(0);
        let model = ScriptedModel::texts(["draft", "fixed"]);
        let plugin = AdvisorPlugin::builder()
            .reviewer(review::from_sync_fn(move |r: &Review| {
                Ok(if r.round == 0 { vec![note.clone()] } else { vec![] })
            }))
            .build()
            .unwrap();
        let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
        assert_eq!(out.final_answer, "fixed", "severity {raw:?} must interrupt");
    }
}

#[tokio::test(start_paused = true)]
async fn a_reviewer_that_never_answers_and_ignores_cancellation_is_dropped_at_the_timeout() {
    let model = ScriptedModel::texts(["answer"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_fn(|_r: Review| async move {
            loop {
                // ignores any cancellation signal; only dropping the future stops it
                tokio::time::sleep(Duration::from_secs(3600)).await;
            }
        }))
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let started = tokio::time::Instant::now();
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(out.final_answer, "answer");
    assert_eq!(model.calls(), 1);
    assert!(started.elapsed() < Duration::from_secs(3600));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviewer_that_blocks_its_thread_cannot_hold_the_run() {
    // The reviewer blocks its thread until the test releases it, which happens only
    // after the run has returned: the assertion cannot depend on how fast the machine is.
    let (release, blocked) = std::sync::mpsc::channel::<()>();
    let blocked = Arc::new(std::sync::Mutex::new(blocked));
    let finished = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let f = finished.clone();
    let model = ScriptedModel::texts(["answer"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_fn(move |_r: Review| {
            let f = f.clone();
            let blocked = blocked.clone();
            async move {
                if let Ok(rx) = blocked.lock() {
                    let _ = rx.recv(); // never yields
                }
                f.store(true, Ordering::SeqCst);
                Ok(vec![Note::blocker("too late")])
            }
        }))
        .timeout(Duration::from_millis(50))
        .build()
        .unwrap();
    // 50 ms review timeout against a 60 s bound: a run held by the reviewer fails here
    // instead of hanging the suite, and no machine is slow enough to flake it.
    let agent = Agent::new(model.clone()).extension(plugin);
    let out = tokio::time::timeout(Duration::from_secs(60), agent.run("task")).await;
    // read before releasing the reviewer: after the release it may finish at any moment
    let reviewer_finished = finished.load(Ordering::SeqCst);
    let _ = release.send(());
    let out = out.expect("the blocking reviewer held the run").unwrap();
    assert!(!reviewer_finished, "the run ended before the blocking reviewer did");
    assert_eq!(out.final_answer, "answer");
    assert_eq!(model.calls(), 1);
}

#[tokio::test]
async fn a_panicking_reviewer_accepts_the_finish() {
    let model = ScriptedModel::texts(["answer"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|_r: &Review| -> Result<Vec<Note>, ReviewError> {
            panic!("reviewer bug")
        }))
        .build()
        .unwrap();
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(out.final_answer, "answer");
    assert_eq!(model.calls(), 1);
}

#[tokio::test]
async fn a_review_that_admits_nothing_accepts_and_content_free_notes_never_reach_the_agent() {
    let model = ScriptedModel::texts(["answer"]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|_r: &Review| {
            Ok(vec![Note::blocker("Stop."), Note::blocker("LGTM"), Note::concern("  ")])
        }))
        .build()
        .unwrap();
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(out.final_answer, "answer");
    assert_eq!(model.calls(), 1);
}

#[tokio::test]
async fn evidence_is_bounded_before_the_reviewer_sees_it() {
    let captured: Arc<Mutex<Option<Review>>> = Arc::default();
    let cap = captured.clone();
    let long_answer = "x".repeat(50_000);
    let model = ScriptedModel::new([ChatResponse::text(long_answer)]);
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |r: &Review| {
            *cap.lock().unwrap() = Some(r.clone());
            Ok(vec![])
        }))
        .build()
        .unwrap();
    Agent::new(model)
        .extension(plugin)
        .run("y".repeat(50_000))
        .await
        .unwrap();
    let r = captured.lock().unwrap().clone().unwrap();
    assert!(r.final_answer.unwrap().len() <= 8_000);
    assert!(r.messages.iter().all(|m| m.content.len() <= 4_000));
}

#[test]
fn the_builder_rejects_bad_settings_with_the_field_named() {
    let ok = || review::from_sync_fn(|_r: &Review| Ok(vec![]));
    let err = AdvisorPlugin::builder().build().unwrap_err();
    assert_eq!(err.field(), Some("reviewer"));
    let err = AdvisorPlugin::builder()
        .reviewer(ok())
        .max_rounds(0)
        .build()
        .unwrap_err();
    assert_eq!(err.field(), Some("max_rounds"));
    assert!(err.to_string().contains("enabled(false)"));
    let err = AdvisorPlugin::builder()
        .reviewer(ok())
        .max_notes_per_review(0)
        .build()
        .unwrap_err();
    assert_eq!(err.field(), Some("max_notes_per_review"));
    let err = AdvisorPlugin::builder()
        .reviewer(ok())
        .timeout(Duration::ZERO)
        .build()
        .unwrap_err();
    assert_eq!(err.field(), Some("timeout"));
    let bounds = advisor::evidence::EvidenceBounds {
        max_messages: 0,
        ..Default::default()
    };
    let err = AdvisorPlugin::builder()
        .reviewer(ok())
        .evidence(bounds)
        .build()
        .unwrap_err();
    assert_eq!(err.field(), Some("evidence.max_messages"));
}
