//! Periodic review and reviewer groups (docs/plugin.md).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use advisor::host::{
    Checkpoint, Message, ObservePhase, RunEnd, RunFinalizer, RunObserver, StepInfo, StepInterceptor, StopDecision,
    StopInfo, StopInterceptor, StopReason,
};
use advisor::kind::ReviewKind;
use advisor::model::ScriptedModel;
use advisor::plugin::NamedReviewer;
use advisor::review::{self, Review, ReviewError};
use advisor::{AdvisorPlugin, Agent, ErrorKind, Note};

fn counter() -> Arc<AtomicU32> {
    Arc::new(AtomicU32::new(0))
}

/// The reference P1 reviewer: the first call fails, every later one raises the same blocker.
fn p1_plugin(calls: Arc<AtomicU32>) -> AdvisorPlugin {
    AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |_r: &Review| {
            if calls.fetch_add(1, Ordering::SeqCst) == 0 {
                Err(ReviewError::new("quota"))
            } else {
                Ok(vec![Note::blocker("Verify the deployment result before advancing.")])
            }
        }))
        .interval_turns(2)
        .max_periodic_reviews(4)
        .cooldown_turns(3)
        .build()
        .unwrap()
}

#[tokio::test]
async fn p1_interval_cooldown_checkpoint_and_dedupe() {
    let calls = counter();
    let plugin = p1_plugin(calls.clone());
    let mut run = plugin.start_run();
    for turn in 1..=5 {
        assert!(run.before_step(&StepInfo::new(turn)).await.is_empty(), "turn {turn}");
    }
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "one review at turn 3, which failed and cooled down"
    );
    let added = run.before_step(&StepInfo::new(6)).await;
    assert_eq!(added.len(), 1);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    assert!(added[0].content.contains("work in progress"));

    let saved = Checkpoint::save(&run).unwrap();
    let mut resumed = plugin.start_run();
    Checkpoint::restore(&mut resumed, saved).unwrap();
    assert!(resumed.before_step(&StepInfo::new(1)).await.is_empty());
    assert!(
        resumed.before_step(&StepInfo::new(3)).await.is_empty(),
        "the same blocker is deduped after resume"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    for turn in 4..50 {
        resumed.before_step(&StepInfo::new(turn)).await;
    }
    assert_eq!(
        calls.load(Ordering::SeqCst),
        4,
        "the periodic cap holds across the resume"
    );
}

#[tokio::test]
async fn p2_multiple_periodic_reviewers_see_fresh_evidence() {
    let correctness_calls = counter();
    let scope_calls = counter();
    let (cc, sc) = (correctness_calls.clone(), scope_calls.clone());
    let plugin = AdvisorPlugin::builder()
        .add_reviewer(
            NamedReviewer::new(
                "correctness",
                review::from_sync_fn(move |r: &Review| {
                    assert!(r.messages.last().unwrap().content.contains("tool evidence"));
                    cc.fetch_add(1, Ordering::SeqCst);
                    Ok(vec![Note::concern("Check the tool evidence.")])
                }),
            )
            .interval_turns(1),
        )
        .add_reviewer(
            NamedReviewer::new(
                "scope",
                review::from_sync_fn(move |_r: &Review| {
                    sc.fetch_add(1, Ordering::SeqCst);
                    Ok(vec![])
                }),
            )
            .interval_turns(2),
        )
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    run.observe_messages(ObservePhase::Request, 1, &[Message::user("work")]);
    run.observe_messages(
        ObservePhase::Append,
        1,
        &[Message::new(advisor::host::Role::Tool, "tool evidence")],
    );
    assert_eq!(run.before_step(&StepInfo::new(2)).await.len(), 1);
    assert!(run.before_step(&StepInfo::new(3)).await.is_empty(), "deduped");
    assert_eq!(correctness_calls.load(Ordering::SeqCst), 2);
    assert_eq!(scope_calls.load(Ordering::SeqCst), 1);
    let saved = Checkpoint::save(&run).unwrap();
    let mut again = plugin.start_run();
    Checkpoint::restore(&mut again, saved).unwrap();
    assert_eq!(again.periodic_reviews_used("correctness"), 2);
    assert_eq!(again.periodic_reviews_used("scope"), 1);
}

#[tokio::test]
async fn periodic_reviews_run_in_the_reference_loop_and_share_the_guard_with_finish_reviews() {
    let kinds: Arc<Mutex<Vec<(ReviewKind, u32)>>> = Arc::default();
    let k = kinds.clone();
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |r: &Review| {
            k.lock().unwrap().push((r.kind, r.turns));
            Ok(vec![Note::concern("check the join")])
        }))
        .interval_turns(1)
        .build()
        .unwrap();
    let call = advisor::host::ToolCall {
        id: "1".into(),
        name: "t".into(),
        arguments: "{}".into(),
    };
    let model = ScriptedModel::new([
        advisor::model::ChatResponse::tool_calls(vec![call]),
        advisor::model::ChatResponse::text("working"),
        advisor::model::ChatResponse::text("answer"),
    ]);
    let spec = advisor::model::ToolSpec {
        name: "t".into(),
        description: "".into(),
        parameters: serde_json::json!({}),
    };
    let out = Agent::new(model.clone())
        .tool(spec, advisor::agent::tool_fn(|_| Ok("ok".into())), false)
        .extension(plugin)
        .run("task")
        .await
        .unwrap();
    let kinds = kinds.lock().unwrap().clone();
    // turn 2: a periodic review after one completed turn delivers the concern;
    // the finish review at turn 2 repeats it and is deduped (shared guard) …
    assert_eq!(kinds[0], (ReviewKind::Periodic, 1));
    assert_eq!(kinds[1].0, ReviewKind::Finish);
    assert_eq!(out.final_answer, "working");
    assert_eq!(model.calls(), 2);
    let periodic_msg = model.requests()[1]
        .messages
        .iter()
        .find(|m| m.content.contains("<advisory"))
        .cloned()
        .unwrap();
    assert!(periodic_msg.content.contains("work in progress"));
    assert!(!periodic_msg.content.contains("about to give"));
}

#[tokio::test]
async fn a_periodic_review_never_runs_on_a_wrap_up_turn() {
    let calls = counter();
    let c = calls.clone();
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |_r: &Review| {
            c.fetch_add(1, Ordering::SeqCst);
            Ok(vec![Note::blocker("stop and verify the totals")])
        }))
        .interval_turns(1)
        .build()
        .unwrap();
    let out = Agent::new(ScriptedModel::texts(["wrap"]))
        .extension(plugin)
        .budget(|_, _| true)
        .run("task")
        .await
        .unwrap();
    assert_eq!(out.final_answer, "wrap");
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn the_last_settled_turn_counts_as_a_tick() {
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|_r: &Review| Ok(vec![])))
        .interval_turns(3)
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    run.before_step(&StepInfo::new(1)).await;
    run.before_step(&StepInfo::new(2)).await;
    run.finalize_run(&RunEnd::new(2, StopReason::Stop));
    let saved = Checkpoint::save(&run).unwrap();
    assert_eq!(saved["reviewers"]["advisor"]["ticks"], 2);
}

#[tokio::test(start_paused = true)]
async fn a_timeout_accepts_the_finish_and_starts_the_cooldown() {
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_fn(|_r: Review| async move {
            tokio::time::sleep(Duration::from_secs(60)).await;
            Ok(vec![Note::blocker("late")])
        }))
        .timeout(Duration::from_secs(1))
        .interval_turns(1)
        .cooldown_turns(3)
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    run.before_step(&StepInfo::new(3)).await; // ticks 2: a periodic review times out
    let d = run
        .turn_stopping(&StopInfo {
            final_answer: "a".into(),
            turns: 3,
            ..StopInfo::default()
        })
        .await;
    assert!(!d.reopens());
    let saved = Checkpoint::save(&run).unwrap();
    assert_eq!(saved["reviewers"]["advisor"]["cooldown_until"], 5);
    let report = run.report();
    assert_eq!(report.timeouts, 2);
    assert_eq!(report.errors, 2);
}

#[tokio::test]
async fn a_group_finish_consults_every_member_and_combines_their_injections() {
    let a = NamedReviewer::new(
        "correctness",
        review::from_sync_fn(|_r: &Review| Ok(vec![Note::blocker("wrong sum")])),
    );
    let b = NamedReviewer::new(
        "scope",
        review::from_sync_fn(|_r: &Review| Ok(vec![Note::concern("missed Q2")])),
    );
    let plugin = AdvisorPlugin::builder()
        .add_reviewer(a)
        .add_reviewer(b)
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    let d = run
        .turn_stopping(&StopInfo {
            final_answer: "x".into(),
            turns: 1,
            ..StopInfo::default()
        })
        .await;
    let StopDecision::Reopen { inject, progress } = d else {
        panic!("the group re-opens the run: {d:?}");
    };
    assert_eq!(inject.len(), 1, "one combined injection");
    let (wrong, missed) = (
        inject[0].content.find("wrong sum").unwrap(),
        inject[0].content.find("missed Q2").unwrap(),
    );
    assert!(wrong < missed, "in reviewer order");
    assert_eq!(progress.as_deref(), Some("reviewing the answer with the advisor"));
    let consultation = run.finish_outbox().take().unwrap();
    assert_eq!(consultation.records.len(), 2);
    assert!(consultation.records.iter().all(|r| r.interrupted));
    assert_eq!(consultation.injection.as_deref(), Some(inject[0].content.as_str()));
    assert_eq!(run.finish_rounds_used("correctness"), 1);
    assert_eq!(run.finish_rounds_used("scope"), 1);
}

#[tokio::test]
async fn group_members_keep_their_own_caps_and_dedupe() {
    let a = NamedReviewer::new(
        "a",
        review::from_sync_fn(|_r: &Review| Ok(vec![Note::concern("same words")])),
    )
    .max_rounds(1);
    let b = NamedReviewer::new(
        "b",
        review::from_sync_fn(|_r: &Review| Ok(vec![Note::concern("same words")])),
    )
    .max_rounds(3);
    let plugin = AdvisorPlugin::builder()
        .add_reviewer(a)
        .add_reviewer(b)
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    let info = StopInfo {
        final_answer: "x".into(),
        turns: 1,
        ..StopInfo::default()
    };
    run.turn_stopping(&info).await;
    assert_eq!(
        run.finish_outbox()
            .take()
            .unwrap()
            .records
            .iter()
            .filter(|r| r.interrupted)
            .count(),
        2,
        "no guard is shared between members"
    );
    assert!(!run.turn_stopping(&info).await.reopens());
    assert_eq!(run.finish_rounds_used("a"), 1);
    assert_eq!(run.finish_rounds_used("b"), 2);
}

#[test]
fn bad_group_configuration_is_a_clear_error_before_any_run() {
    let r = || review::from_sync_fn(|_r: &Review| Ok(vec![]));
    let five = (0..5).fold(AdvisorPlugin::builder(), |b, i| {
        b.add_reviewer(NamedReviewer::new(format!("r{i}"), r()))
    });
    let err = five.build().unwrap_err();
    assert_eq!((err.kind(), err.field()), (ErrorKind::Config, Some("reviewers")));

    let both = AdvisorPlugin::builder()
        .reviewer(r())
        .add_reviewer(NamedReviewer::new("a", r()))
        .build()
        .unwrap_err();
    assert_eq!(both.field(), Some("reviewers"));
    assert!(both.to_string().contains("either"));

    let empty = AdvisorPlugin::builder()
        .add_reviewer(NamedReviewer::new(" ", r()))
        .build()
        .unwrap_err();
    assert_eq!(empty.field(), Some("reviewers[0].name"));

    let long = AdvisorPlugin::builder()
        .add_reviewer(NamedReviewer::new("n".repeat(65), r()))
        .build()
        .unwrap_err();
    assert_eq!(long.field(), Some("reviewers[0].name"));

    let dup = AdvisorPlugin::builder()
        .add_reviewer(NamedReviewer::new("a", r()))
        .add_reviewer(NamedReviewer::new("a", r()))
        .build()
        .unwrap_err();
    assert_eq!(dup.field(), Some("reviewers[1].name"));

    let missing = AdvisorPlugin::builder().build().unwrap_err();
    assert_eq!(missing.field(), Some("reviewer"));

    let mixed = AdvisorPlugin::builder()
        .add_reviewer(NamedReviewer::new("a", r()))
        .interval_turns(2)
        .build();
    assert_eq!(mixed.unwrap_err().field(), Some("interval_turns"));

    let zero = AdvisorPlugin::builder()
        .add_reviewer(NamedReviewer::new("a", r()).max_rounds(0))
        .build();
    assert_eq!(zero.unwrap_err().field(), Some("reviewers[0].max_rounds"));
}

#[tokio::test]
async fn a_nit_only_review_still_uses_up_a_finish_round() {
    let calls = counter();
    let c = calls.clone();
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |_r: &Review| {
            let i = c.fetch_add(1, Ordering::SeqCst);
            Ok(vec![Note::nit(format!("style point {i}"))])
        }))
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    for _ in 0..3 {
        run.turn_stopping(&StopInfo {
            final_answer: "x".into(),
            turns: 1,
            ..StopInfo::default()
        })
        .await;
    }
    assert_eq!(
        calls.load(Ordering::SeqCst),
        2,
        "consultations are capped, not only re-opens"
    );
}

#[tokio::test]
async fn p1_end_to_end_a_resumed_agent_keeps_the_schedule_and_the_dedupe() {
    let calls = counter();
    let plugin = p1_plugin(calls.clone());
    let call = advisor::host::ToolCall {
        id: "1".into(),
        name: "t".into(),
        arguments: "{}".into(),
    };
    let tool_turn = || advisor::model::ChatResponse::tool_calls(vec![call.clone()]);
    let spec = advisor::model::ToolSpec {
        name: "t".into(),
        description: "".into(),
        parameters: serde_json::json!({}),
    };
    // run 1: six tool turns and the turn limit — no finish review, so the next
    // input continues the same request. Periodic reviews at ticks 2 (fails,
    // cooldown to 5) and 5 (delivers the blocker).
    let model = ScriptedModel::new((0..6).map(|_| tool_turn()));
    let agent = Agent::new(model.clone())
        .tool(spec, advisor::agent::tool_fn(|_| Ok("ok".into())), false)
        .extension(plugin)
        .max_turns(6)
        .unwrap();
    let first = agent.run("deploy").await.unwrap();
    assert_eq!(first.stop_reason, advisor::StopReason::MaxTurns);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    assert_eq!(
        first.checkpoint["advisor"]["reviewers"]["advisor"]["ticks"], 6,
        "the last settled turn counts"
    );

    // run 2 resumes: turn numbers restart, the schedule does not. At its turn 2
    // (tick 7) a periodic review runs and its blocker is deduped; the finish
    // review repeats it and is deduped too.
    model.push(Ok(tool_turn()));
    model.push(Ok(tool_turn()));
    model.push(Ok(advisor::model::ChatResponse::text("done")));
    let second = agent.resume(&first, "go on").await.unwrap();
    assert_eq!(second.final_answer, "done");
    assert_eq!(
        calls.load(Ordering::SeqCst),
        4,
        "periodic review #3 and one finish review"
    );
    let advisories = second
        .history
        .iter()
        .filter(|m| m.content.contains("<advisory"))
        .count();
    assert_eq!(
        advisories, 1,
        "only run 1's delivery; nothing repeated after the resume"
    );
    assert_eq!(second.checkpoint["advisor"]["reviewers"]["advisor"]["periodic"], 3);
}
