//! Checkpoint/restore, fresh requests, rebases, severity clamps, shadow mode,
//! traces, the run report and similarity dedupe.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use advisor::guard::Reason;
use advisor::host::{Checkpoint, Message, ObservePhase, RunObserver, StopInfo, StopInterceptor};
use advisor::model::ScriptedModel;
use advisor::plugin::NamedReviewer;
use advisor::review::{self, Review};
use advisor::trace::{MemoryTrace, TraceEventKind};
use advisor::{AdvisorPlugin, Agent, ErrorKind, Note, Severity};
use proptest::prelude::*;
use serde_json::{Value, json};

fn stop(answer: &str) -> StopInfo {
    StopInfo {
        final_answer: answer.into(),
        turns: 1,
        ..StopInfo::default()
    }
}

fn always(note: Note) -> AdvisorPlugin {
    AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |_r: &Review| Ok(vec![note.clone()])))
        .build()
        .unwrap()
}

fn valid_state() -> Value {
    json!({"version": 1, "reviewers": {"advisor": {
        "finished": 1, "periodic": 0, "ticks": 4, "last_review": 2, "cooldown_until": 0,
        "delivered": [{"text": "check the join", "severity": "concern"}],
        "seen": [{"key": "check the join", "severity": "concern"}]
    }}})
}

fn with(path: &[&str], value: Value) -> Value {
    let mut state = valid_state();
    let mut at = &mut state;
    for p in &path[..path.len() - 1] {
        at = &mut at[*p];
    }
    at[path[path.len() - 1]] = value;
    state
}

#[test]
fn restore_rejects_each_invalid_field_by_name() {
    let plugin = always(Note::concern("x"));
    let cases: Vec<(Value, &str)> = vec![
        (
            with(&["reviewers", "advisor", "finished"], json!(-1)),
            "reviewers.advisor.finished",
        ),
        (
            with(&["reviewers", "advisor", "ticks"], json!(-3)),
            "reviewers.advisor.ticks",
        ),
        (
            with(&["reviewers", "advisor", "last_review"], json!(9)),
            "reviewers.advisor.last_review",
        ),
        (
            with(
                &["reviewers", "advisor", "delivered"],
                json!(vec![json!({"text": "n", "severity": "nit"}); 33]),
            ),
            "reviewers.advisor.delivered",
        ),
        (
            with(
                &["reviewers", "advisor", "seen"],
                Value::Array(
                    (0..4097)
                        .map(|i| json!({"key": format!("k{i}"), "severity": "nit"}))
                        .collect(),
                ),
            ),
            "reviewers.advisor.seen",
        ),
        (
            with(
                &["reviewers", "advisor", "delivered"],
                json!([{"text": "é".repeat(2001), "severity": "nit"}]),
            ),
            "reviewers.advisor.delivered[0].text",
        ),
        (
            json!({"version": 1, "reviewers": {"ghost": valid_state()["reviewers"]["advisor"]}}),
            "reviewers.ghost",
        ),
        (with(&["version"], json!(2)), "version"),
        (json!("not an object"), "state"),
        (with(&["reviewers", "advisor", "surprise"], json!(1)), "state"),
    ];
    for (state, field) in cases {
        let mut run = plugin.start_run();
        let err = Checkpoint::restore(&mut run, state).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Checkpoint);
        assert_eq!(err.field(), Some(field), "{err}");
    }
    let mut run = plugin.start_run();
    Checkpoint::restore(&mut run, valid_state()).unwrap();
    assert_eq!(run.finish_rounds_used("advisor"), 1);
}

#[test]
fn a_checkpoint_with_an_unknown_severity_is_rejected_not_restored_as_a_nit() {
    let plugin = always(Note::concern("x"));
    for (path, severity) in [
        (["delivered", "0", "severity"], "critical"),
        (["seen", "0", "severity"], "critical"),
        (["delivered", "0", "severity"], " Concern "),
    ] {
        let mut state = valid_state();
        state["reviewers"]["advisor"][path[0]][0][path[2]] = json!(severity);
        let mut run = plugin.start_run();
        let err = Checkpoint::restore(&mut run, state).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Checkpoint);
        assert_eq!(err.field(), Some("state"), "{err}");
        assert!(err.to_string().contains("unknown variant"), "{err}");
        // The rejected state's `finished: 1` is not restored; the advisor sits
        // out the request instead (its allowance of 2 counts as spent).
        assert_eq!(run.finish_rounds_used("advisor"), 2, "nothing was restored");
    }
}

#[test]
fn a_rejected_restore_applies_nothing_and_sits_the_advisor_out() {
    let plugin = AdvisorPlugin::builder()
        .add_reviewer(NamedReviewer::new("a", review::from_sync_fn(|_r: &Review| Ok(vec![]))))
        .add_reviewer(NamedReviewer::new("b", review::from_sync_fn(|_r: &Review| Ok(vec![]))))
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    let member = valid_state()["reviewers"]["advisor"].clone();
    let mut bad = member.clone();
    bad["finished"] = json!(-1);
    let err = Checkpoint::restore(&mut run, json!({"version": 1, "reviewers": {"a": member, "b": bad}})).unwrap_err();
    assert_eq!(err.field(), Some("reviewers.b.finished"));
    assert!(
        run.delivered("a").is_empty(),
        "a was valid but nothing is applied when b is not"
    );
    for name in ["a", "b"] {
        assert_eq!(
            run.finish_rounds_used(name),
            2,
            "{name}'s allowance counts as spent, never refilled"
        );
    }
    assert!(run.report().checkpoint_rejected);
}

/// Item 9 of issue 16: a rejected state fails open without refilling the cap.
#[tokio::test]
async fn after_a_rejected_state_the_advisor_sits_out_until_a_fresh_request() {
    let trace = Arc::new(MemoryTrace::new());
    let calls = Arc::new(AtomicU32::new(0));
    let c = calls.clone();
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |_r: &Review| {
            c.fetch_add(1, Ordering::SeqCst);
            Ok(vec![Note::blocker("verify the totals")])
        }))
        .trace(trace.clone())
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    let err = Checkpoint::restore(&mut run, with(&["reviewers", "advisor", "finished"], json!(-1))).unwrap_err();
    assert_eq!(err.field(), Some("reviewers.advisor.finished"));
    assert!(!run.turn_stopping(&stop("a")).await.reopens(), "sits out the request");
    assert_eq!(calls.load(Ordering::SeqCst), 0, "no review ran");
    // a host that saves and restores keeps the spent allowance
    let saved = Checkpoint::save(&run).unwrap();
    let mut next = plugin.start_run();
    Checkpoint::restore(&mut next, saved).unwrap();
    assert!(
        !next.turn_stopping(&stop("b")).await.reopens(),
        "still the same request"
    );
    next.observe_messages(ObservePhase::ExternalInput, 0, &[Message::user("next question")]);
    assert!(
        next.turn_stopping(&stop("c")).await.reopens(),
        "a fresh request brings it back"
    );
    let rejected: Vec<_> = trace
        .events()
        .into_iter()
        .filter(|e| e.event == TraceEventKind::CheckpointRejected)
        .collect();
    assert_eq!(rejected.len(), 1);
    assert!(
        rejected[0]
            .rejected
            .as_deref()
            .unwrap()
            .contains("reviewers.advisor.finished"),
        "the trace says why: {:?}",
        rejected[0].rejected
    );
}

#[tokio::test]
async fn a_rejected_checkpoint_lets_the_agents_run_go_on() {
    let plugin = always(Note::concern("verify the totals"));
    let agent = Agent::new(ScriptedModel::texts(["one", "two", "three", "four", "five"]))
        .max_turns(8)
        .unwrap()
        .extension(plugin.clone());
    let mut first = agent.run("task").await.unwrap();
    first
        .checkpoint
        .insert("advisor".into(), json!({"version": 1, "reviewers": {"stranger": {}}}));
    let second = agent.resume(&first, "follow-up").await.unwrap();
    assert_eq!(second.stop_reason, advisor::StopReason::Stop);
    assert!(plugin.last_report().unwrap().checkpoint_rejected);
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "[a-z_]{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::btree_map(
                prop::sample::select(vec![
                    "version",
                    "reviewers",
                    "advisor",
                    "finished",
                    "periodic",
                    "ticks",
                    "last_review",
                    "cooldown_until",
                    "delivered",
                    "seen",
                    "text",
                    "severity",
                    "key",
                    "x",
                ])
                .prop_map(str::to_owned),
                inner,
                0..8
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn restore_never_panics_on_any_json(state in arb_json()) {
        let plugin = always(Note::concern("x"));
        let mut run = plugin.start_run();
        let _ = Checkpoint::restore(&mut run, state);
    }

    #[test]
    fn restore_never_panics_on_mutated_valid_states(
        field in prop::sample::select(vec!["finished", "periodic", "ticks", "last_review", "cooldown_until", "delivered", "seen"]),
        value in arb_json(),
    ) {
        let plugin = always(Note::concern("x"));
        let mut run = plugin.start_run();
        let _ = Checkpoint::restore(&mut run, with(&["reviewers", "advisor", field], value));
    }
}

/// A reviewer whose notes depend only on the review it is shown, so two runs
/// fed the same evidence must decide the same way.
fn deterministic_plugin(calls: Arc<AtomicU32>, trace: Arc<MemoryTrace>) -> AdvisorPlugin {
    AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |r: &Review| {
            calls.fetch_add(1, Ordering::SeqCst);
            Ok(vec![Note::new(
                format!("point {}", r.turns % 3),
                if r.turns % 2 == 0 {
                    Severity::Blocker
                } else {
                    Severity::Concern
                },
            )])
        }))
        .interval_turns(1)
        .max_periodic_reviews(6)
        .trace(trace)
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_checkpoint_taken_mid_run_continues_with_identical_decisions() {
    use advisor::host::{StepInfo, StepInterceptor};
    let (calls_a, trace_a) = (Arc::new(AtomicU32::new(0)), Arc::new(MemoryTrace::new()));
    let uninterrupted = deterministic_plugin(calls_a.clone(), trace_a.clone());
    let mut a = uninterrupted.start_run();
    let mut decisions_a = Vec::new();
    for turn in 1..=10 {
        a.observe_messages(ObservePhase::Request, turn, &[Message::user(format!("turn {turn}"))]);
        decisions_a.push(a.before_step(&StepInfo::new(turn)).await);
    }

    let (calls_b, trace_b) = (Arc::new(AtomicU32::new(0)), Arc::new(MemoryTrace::new()));
    let interrupted = deterministic_plugin(calls_b.clone(), trace_b.clone());
    let mut b = interrupted.start_run();
    let mut decisions_b = Vec::new();
    for turn in 1..=5 {
        b.observe_messages(ObservePhase::Request, turn, &[Message::user(format!("turn {turn}"))]);
        decisions_b.push(b.before_step(&StepInfo::new(turn)).await);
    }
    let saved = serde_json::to_string(&Checkpoint::save(&b).unwrap()).unwrap();
    drop(b);
    let mut c = interrupted.start_run();
    Checkpoint::restore(&mut c, serde_json::from_str(&saved).unwrap()).unwrap();
    // The restored run is a new run: the host numbers its turns from 1 again,
    // but the schedule is in completed-turn ticks, which survived. Its first
    // step (nothing completed yet in this run) is not due.
    assert!(c.before_step(&StepInfo::new(1)).await.is_empty());
    for turn in 6..=10 {
        c.observe_messages(
            ObservePhase::Request,
            turn - 4,
            &[Message::user(format!("turn {turn}"))],
        );
        decisions_b.push(c.before_step(&StepInfo::new(turn - 4)).await);
    }
    assert_eq!(decisions_a, decisions_b);
    assert_eq!(calls_a.load(Ordering::SeqCst), calls_b.load(Ordering::SeqCst));
    let reasons = |t: &MemoryTrace| -> Vec<Vec<Reason>> {
        t.events()
            .iter()
            .map(|e| e.decisions.iter().map(|d| d.reason).collect())
            .collect()
    };
    assert_eq!(reasons(&trace_a), reasons(&trace_b));
    assert!(
        reasons(&trace_a).iter().flatten().any(|r| *r == Reason::Duplicate),
        "the dedupe history was exercised"
    );
}

#[tokio::test]
async fn a_fresh_request_resets_allowances_delivered_notes_and_dedupe() {
    let plugin = always(Note::concern("verify the totals"));
    let mut run = plugin.start_run();
    assert!(run.turn_stopping(&stop("a")).await.reopens());
    assert!(!run.turn_stopping(&stop("b")).await.reopens(), "deduped");
    assert!(!run.turn_stopping(&stop("c")).await.reopens(), "cap spent");
    // external input past turn 0 is a steer, not a new request
    run.observe_messages(ObservePhase::ExternalInput, 3, &[Message::user("steer")]);
    assert_eq!(run.finish_rounds_used("advisor"), 2);
    run.observe_messages(ObservePhase::ExternalInput, 0, &[Message::user("next question")]);
    assert_eq!(run.finish_rounds_used("advisor"), 0);
    assert!(run.delivered("advisor").is_empty());
    assert!(
        run.turn_stopping(&stop("d")).await.reopens(),
        "allowance and dedupe were reset"
    );
}

#[tokio::test]
async fn no_reset_without_a_finish_review_and_a_rebase_resets_dedupe_only() {
    let plugin = always(Note::concern("verify the totals"));
    let mut run = plugin.start_run();
    run.observe_messages(ObservePhase::ExternalInput, 0, &[Message::user("q")]);
    assert!(run.turn_stopping(&stop("a")).await.reopens());
    run.observe_messages(ObservePhase::Rebase, 2, &[Message::user("compacted")]);
    assert_eq!(
        run.finish_rounds_used("advisor"),
        1,
        "a rebase never replenishes quotas"
    );
    assert_eq!(run.delivered("advisor").len(), 1);
    assert!(
        run.turn_stopping(&stop("b")).await.reopens(),
        "dedupe was reset by the rebase"
    );
    assert!(
        !run.turn_stopping(&stop("c")).await.reopens(),
        "and the cap still holds"
    );
}

#[tokio::test]
async fn the_delivered_list_keeps_the_last_32() {
    let n = Arc::new(AtomicU32::new(0));
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(move |_r: &Review| {
            let i = n.fetch_add(1, Ordering::SeqCst);
            Ok((0..3).map(|j| Note::concern(format!("point {i} {j}"))).collect())
        }))
        .max_rounds(20)
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    for _ in 0..20 {
        run.turn_stopping(&stop("a")).await;
    }
    let delivered = run.delivered("advisor");
    assert_eq!(delivered.len(), 32);
    assert_eq!(delivered.last().unwrap().text, "point 19 2");
}

#[tokio::test]
async fn max_severity_downgrades_before_the_guard() {
    let seen: Arc<Mutex<Vec<(Severity, bool)>>> = Arc::default();
    let s = seen.clone();
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|_r: &Review| {
            Ok(vec![Note::blocker("the sum is wrong")])
        }))
        .max_severity(Severity::Nit)
        .on_notes(move |e| s.lock().unwrap().push((e.notes[0].severity, e.delivered)))
        .build()
        .unwrap();
    let model = ScriptedModel::texts(["answer"]);
    let out = Agent::new(model.clone()).extension(plugin).run("task").await.unwrap();
    assert_eq!(model.calls(), 1, "advise, never interrupt");
    assert_eq!(out.final_answer, "answer");
    assert_eq!(*seen.lock().unwrap(), vec![(Severity::Nit, false)]);
}

/// Where a shadow run records: its trace and each `on_notes` delivered flag.
type ShadowProbe = (Arc<MemoryTrace>, Arc<Mutex<Vec<bool>>>);

#[tokio::test]
async fn shadow_mode_never_changes_the_run_but_still_records() {
    let run_with = |shadow: Option<ShadowProbe>| async move {
        let model = ScriptedModel::texts(["draft", "fixed"]);
        let mut agent = Agent::new(model.clone());
        if let Some((trace, notes)) = shadow {
            let plugin = AdvisorPlugin::builder()
                .reviewer(review::from_sync_fn(|_r: &Review| {
                    Ok(vec![Note::blocker("the join drops refunds")])
                }))
                .shadow(true)
                .trace(trace)
                .on_notes(move |e| notes.lock().unwrap().push(e.delivered && !e.shadow))
                .build()
                .unwrap();
            agent = agent.extension(plugin);
        }
        let out = agent.run("task").await.unwrap();
        (out.final_answer, model.calls())
    };
    let trace = Arc::new(MemoryTrace::new());
    let notes: Arc<Mutex<Vec<bool>>> = Arc::default();
    let without = run_with(None).await;
    let shadowed = run_with(Some((trace.clone(), notes.clone()))).await;
    assert_eq!(without, shadowed);
    assert_eq!(*notes.lock().unwrap(), vec![false]);
    let events = trace.events();
    assert_eq!(events.len(), 1);
    assert!(events[0].shadow && !events[0].interrupted);
    assert!(
        events[0]
            .injection
            .as_deref()
            .unwrap()
            .contains("the join drops refunds"),
        "the would-be injection"
    );
}

#[tokio::test]
async fn the_trace_records_every_decision_with_its_reason_and_the_report_counts() {
    let trace = Arc::new(MemoryTrace::new());
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|r: &Review| {
            Ok(if r.round == 0 {
                vec![Note::blocker("Stop."), Note::concern("check the join"), Note::nit("")]
            } else {
                vec![Note::concern("Check the join!")]
            })
        }))
        .trace(trace.clone())
        .build()
        .unwrap();
    let model = ScriptedModel::texts(["a", "b"]);
    Agent::new(model).extension(plugin.clone()).run("task").await.unwrap();
    let events = trace.events();
    assert_eq!(events.len(), 2);
    let first = &events[0];
    assert_eq!(first.schema, "advisor.trace.v1");
    assert_eq!(first.event, TraceEventKind::Review);
    assert_eq!(first.reviewer, "advisor");
    assert_eq!(first.notes.len(), 3, "raw notes as the reviewer sent them");
    let reasons: Vec<Reason> = first.decisions.iter().map(|d| d.reason).collect();
    assert_eq!(reasons, [Reason::ContentFree, Reason::Accepted, Reason::Empty]);
    assert!(first.interrupted);
    assert!(first.injection.as_deref().unwrap().contains("check the join"));
    assert!(first.window.unwrap().messages >= 2);
    assert!(first.latency_ms.is_some());
    assert_eq!(events[1].decisions[0].reason, Reason::Duplicate);
    let line = serde_json::to_string(first).unwrap();
    assert!(line.contains("\"schema\":\"advisor.trace.v1\""));

    let report = plugin.last_report().unwrap();
    assert_eq!(report.finish_reviews, 2);
    assert_eq!(report.interruptions, 1);
    assert_eq!(report.notes_delivered, 1);
    assert_eq!(report.suppressed.content_free, 1);
    assert_eq!(report.suppressed.empty, 1);
    assert_eq!(report.suppressed.duplicate, 1);
    assert_eq!(report.errors, 0);
}

#[tokio::test]
async fn similarity_dedupe_collapses_counter_floods_but_keeps_distinct_concerns() {
    let n = Arc::new(AtomicU32::new(0));
    let flood = move |_r: &Review| {
        let i = n.fetch_add(1, Ordering::SeqCst);
        let ordinal = ["Seventh", "Eighth", "Ninth", "Tenth"][i as usize % 4];
        Ok(vec![Note::concern(format!(
            "{ordinal} repeat: verify the deployment result before advancing."
        ))])
    };
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(flood))
        .similarity_dedupe(true)
        .max_rounds(4)
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    let reopened: Vec<bool> = {
        let mut v = Vec::new();
        for _ in 0..4 {
            v.push(run.turn_stopping(&stop("a")).await.reopens());
        }
        v
    };
    assert_eq!(reopened, [true, false, false, false]);

    let m = Arc::new(AtomicU32::new(0));
    let distinct = move |_r: &Review| {
        let i = m.fetch_add(1, Ordering::SeqCst);
        let what = ["orders", "refunds"][i as usize % 2];
        Ok(vec![Note::concern(format!("check the join on {what}"))])
    };
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(distinct))
        .similarity_dedupe(true)
        .build()
        .unwrap();
    let mut run = plugin.start_run();
    assert!(run.turn_stopping(&stop("a")).await.reopens());
    assert!(
        run.turn_stopping(&stop("b")).await.reopens(),
        "a distinct concern that shares words is kept"
    );
}
