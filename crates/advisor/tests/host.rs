//! The kernel rules of the `Extensions` dispatcher and the reference loop.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use advisor::agent::tool_fn;
use advisor::finish_rule::FinishRule;
use advisor::host::{
    Checkpoint, Extension, ExtensionFactory, Extensions, Message, ObservePhase, RunObserver, StepInfo, StepInterceptor,
    StopDecision, StopInfo, StopInterceptor, ToolCall,
};
use advisor::model::{ChatResponse, ScriptedModel, ToolSpec};
use advisor::{Agent, Error, ErrorKind, StopReason};
use async_trait::async_trait;
use serde_json::json;

/// A configurable test extension that records what it is told.
#[derive(Clone, Default)]
struct Probe {
    name: String,
    decision: StopDecision,
    panic_on_stop: bool,
    panic_on_observe: bool,
    seen_attempts: Arc<Mutex<Vec<u32>>>,
    phases: Arc<Mutex<Vec<(ObservePhase, u32, usize)>>>,
    consulted: Arc<AtomicU32>,
    step_adds: Vec<Message>,
    state: Option<serde_json::Value>,
}

impl Probe {
    fn named(name: &str) -> Probe {
        Probe {
            name: name.into(),
            ..Probe::default()
        }
    }
}

impl RunObserver for Probe {
    fn observe_messages(&mut self, phase: ObservePhase, turn: u32, messages: &[Message]) {
        if self.panic_on_observe {
            panic!("observer bug");
        }
        self.phases.lock().unwrap().push((phase, turn, messages.len()));
    }
}

#[async_trait]
impl StopInterceptor for Probe {
    async fn turn_stopping(&mut self, info: &StopInfo) -> StopDecision {
        self.consulted.fetch_add(1, Ordering::SeqCst);
        self.seen_attempts.lock().unwrap().push(info.attempt);
        if self.panic_on_stop {
            panic!("stop hook bug");
        }
        self.decision.clone()
    }
}

#[async_trait]
impl StepInterceptor for Probe {
    async fn before_step(&mut self, _info: &StepInfo) -> Vec<Message> {
        self.step_adds.clone()
    }
}

impl Checkpoint for Probe {
    fn save(&self) -> Result<serde_json::Value, Error> {
        Ok(self.state.clone().unwrap_or(json!({"n": 1})))
    }
    fn restore(&mut self, state: serde_json::Value) -> Result<(), Error> {
        if state.get("n").and_then(|n| n.as_i64()).is_some_and(|n| n < 0) {
            return Err(Error::checkpoint("n", "must not be negative"));
        }
        self.state = Some(state);
        Ok(())
    }
}

impl Extension for Probe {
    fn name(&self) -> &str {
        &self.name
    }
    fn observer(&mut self) -> Option<&mut dyn RunObserver> {
        Some(self)
    }
    fn stop_interceptor(&mut self) -> Option<&mut dyn StopInterceptor> {
        Some(self)
    }
    fn step_interceptor(&mut self) -> Option<&mut dyn StepInterceptor> {
        Some(self)
    }
    fn checkpoint(&mut self) -> Option<&mut dyn Checkpoint> {
        Some(self)
    }
}

impl ExtensionFactory for Probe {
    fn name(&self) -> &str {
        &self.name
    }
    fn begin_run(&self) -> Result<Option<Box<dyn Extension>>, Error> {
        Ok(Some(Box::new(self.clone())))
    }
}

fn reopen(text: &str) -> StopDecision {
    StopDecision::reopen(vec![Message::user(text)], None)
}

/// The text of the first message a decision injects.
fn injected(d: &StopDecision) -> &str {
    match d {
        StopDecision::Reopen { inject, .. } => &inject[0].content,
        other => panic!("expected a re-open, got {other:?}"),
    }
}

fn set(exts: Vec<Probe>) -> Extensions {
    Extensions::from_extensions(exts.into_iter().map(|p| Box::new(p) as Box<dyn Extension>).collect()).unwrap()
}

#[tokio::test]
async fn the_first_interceptor_that_reopens_wins_and_later_ones_are_not_consulted() {
    let first = Probe {
        decision: reopen("one"),
        ..Probe::named("first")
    };
    let second = Probe {
        decision: reopen("two"),
        ..Probe::named("second")
    };
    let second_calls = second.consulted.clone();
    let mut exts = set(vec![first, second]);
    let d = exts.turn_stopping(&StopInfo::default()).await;
    assert_eq!(injected(&d), "one");
    assert_eq!(second_calls.load(Ordering::SeqCst), 0);
    assert_eq!(exts.attempts("first"), 1);
    assert_eq!(exts.attempts("second"), 0);
}

#[tokio::test]
async fn a_reopen_with_nothing_to_inject_is_accept_and_the_walk_goes_on() {
    assert_eq!(StopDecision::reopen(Vec::new(), None), StopDecision::Accept);
    let empty = Probe {
        decision: StopDecision::Reopen {
            inject: Vec::new(),
            progress: Some("working".into()),
        },
        ..Probe::named("empty")
    };
    let later = Probe::named("later");
    let later_calls = later.consulted.clone();
    let mut exts = set(vec![empty, later]);
    let d = exts.turn_stopping(&StopInfo::default()).await;
    assert!(!d.reopens());
    assert_eq!(later_calls.load(Ordering::SeqCst), 1);
    assert_eq!(exts.attempts("empty"), 0);
}

#[tokio::test]
async fn attempt_is_counted_per_extension_and_overwrites_the_callers_value() {
    let a = Probe {
        decision: reopen("a"),
        ..Probe::named("a")
    };
    let seen = a.seen_attempts.clone();
    let mut exts = set(vec![a]);
    for _ in 0..3 {
        exts.turn_stopping(&StopInfo {
            attempt: 99,
            ..StopInfo::default()
        })
        .await;
    }
    assert_eq!(*seen.lock().unwrap(), vec![0, 1, 2]);
}

#[tokio::test]
async fn a_panicking_hook_is_contained_and_counts_as_no_opinion() {
    let bad = Probe {
        panic_on_stop: true,
        panic_on_observe: true,
        decision: reopen("x"),
        ..Probe::named("bad")
    };
    let good = Probe {
        decision: reopen("good"),
        ..Probe::named("good")
    };
    let mut exts = set(vec![bad, good]);
    exts.observe(ObservePhase::Append, 1, &[Message::user("hi")]);
    let d = exts.turn_stopping(&StopInfo::default()).await;
    assert_eq!(injected(&d), "good");
    assert_eq!(exts.attempts("bad"), 0);
}

#[tokio::test]
async fn an_end_decision_ends_the_walk() {
    let quits = Probe {
        decision: StopDecision::End(StopReason::Extension("goal_stalled".into())),
        ..Probe::named("goal")
    };
    let later = Probe {
        decision: reopen("later"),
        ..Probe::named("later")
    };
    let later_calls = later.consulted.clone();
    let mut exts = set(vec![quits, later]);
    let d = exts.turn_stopping(&StopInfo::default()).await;
    assert_eq!(d, StopDecision::End(StopReason::Extension("goal_stalled".into())));
    assert!(!d.reopens());
    assert_eq!(later_calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn an_extension_that_ends_the_run_sets_its_stop_reason() {
    let quits = Probe {
        decision: StopDecision::End(StopReason::Extension("goal_stalled".into())),
        ..Probe::named("goal")
    };
    let out = Agent::new(ScriptedModel::texts(["done"]))
        .extension(quits)
        .run("task")
        .await
        .unwrap();
    assert_eq!(out.stop_reason, StopReason::Extension("goal_stalled".into()));
    assert_eq!(out.stop_reason.as_str(), "goal_stalled");
}

#[tokio::test]
async fn step_additions_are_concatenated_in_registration_order() {
    let a = Probe {
        step_adds: vec![Message::user("a")],
        ..Probe::named("a")
    };
    let b = Probe {
        step_adds: vec![Message::user("b1"), Message::user("b2")],
        ..Probe::named("b")
    };
    let mut exts = set(vec![a, b]);
    let added = exts.before_step(&StepInfo::new(1)).await;
    let texts: Vec<&str> = added.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(texts, ["a", "b1", "b2"]);
}

#[test]
fn duplicate_names_and_failing_factories_are_errors() {
    let err = Extensions::from_extensions(vec![Box::new(Probe::named("x")), Box::new(Probe::named("x"))]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Extension);
    struct Failing;
    impl ExtensionFactory for Failing {
        fn name(&self) -> &str {
            "failing"
        }
        fn begin_run(&self) -> Result<Option<Box<dyn Extension>>, Error> {
            Err(Error::config("api_key", "missing"))
        }
    }
    let factories: Vec<Arc<dyn ExtensionFactory>> = vec![Arc::new(Failing)];
    let err = Extensions::begin_run(&factories).unwrap_err();
    assert!(err.to_string().contains("failing"));
}

#[test]
fn checkpoints_are_keyed_by_name_and_a_rejection_names_the_field() {
    let mut exts = set(vec![Probe::named("a")]);
    let saved = exts.save().unwrap();
    assert_eq!(saved["a"], json!({"n": 1}));
    let mut bad = serde_json::Map::new();
    bad.insert("a".into(), json!({"n": -1}));
    let rejected = exts.restore(&bad);
    assert_eq!(rejected.len(), 1);
    assert_eq!(rejected[0].kind(), ErrorKind::Checkpoint);
    assert_eq!(rejected[0].field(), Some("a.n"));
}

#[tokio::test]
async fn a_rejected_checkpoint_does_not_stop_the_hosts_run() {
    let probe = Probe::named("probe");
    let agent = Agent::new(ScriptedModel::texts(["one", "two"])).extension(probe);
    let mut first = agent.run("task").await.unwrap();
    first.checkpoint.insert("probe".into(), json!({"n": -1}));
    let second = agent.resume(&first, "follow-up").await.unwrap();
    assert_eq!(second.final_answer, "two");
    assert_eq!(second.stop_reason, StopReason::Stop);
}

fn finish_spec() -> ToolSpec {
    ToolSpec {
        name: "lookup".into(),
        description: "look something up".into(),
        parameters: json!({"type":"object"}),
    }
}

fn call(name: &str) -> ToolCall {
    ToolCall {
        id: "c1".into(),
        name: name.into(),
        arguments: "{}".into(),
    }
}

#[tokio::test]
async fn the_loop_never_consults_stop_interceptors_on_a_turn_ending_in_tool_calls() {
    let probe = Probe::named("probe");
    let consulted = probe.consulted.clone();
    let model = ScriptedModel::new([
        ChatResponse::tool_calls(vec![call("lookup")]),
        ChatResponse::text("done"),
    ]);
    let out = Agent::new(model)
        .tool(finish_spec(), tool_fn(|_| Ok("42".into())), false)
        .extension(probe)
        .run("task")
        .await
        .unwrap();
    assert_eq!(out.final_answer, "done");
    assert_eq!(consulted.load(Ordering::SeqCst), 1, "only the real finish");
    assert_eq!(out.tools.len(), 1);
}

#[tokio::test]
async fn the_loop_never_consults_stop_interceptors_on_max_turns_terminal_tools_or_abort() {
    // max turns: the only turn ends in a tool call
    let probe = Probe {
        decision: reopen("again"),
        ..Probe::named("probe")
    };
    let consulted = probe.consulted.clone();
    let model = ScriptedModel::new([ChatResponse::tool_calls(vec![call("lookup")])]);
    let out = Agent::new(model)
        .tool(finish_spec(), tool_fn(|_| Ok("42".into())), false)
        .extension(probe.clone())
        .max_turns(1)
        .unwrap()
        .run("task")
        .await
        .unwrap();
    assert_eq!(out.stop_reason, StopReason::MaxTurns);
    assert_eq!(consulted.load(Ordering::SeqCst), 0);

    // terminal tool
    let model = ScriptedModel::new([ChatResponse::tool_calls(vec![call("lookup")])]);
    let out = Agent::new(model)
        .tool(finish_spec(), tool_fn(|_| Ok("submitted".into())), true)
        .extension(probe.clone())
        .run("task")
        .await
        .unwrap();
    assert_eq!(out.stop_reason, StopReason::TerminalTool);
    assert_eq!(consulted.load(Ordering::SeqCst), 0);

    // abort
    let model = ScriptedModel::texts(["never"]);
    let agent = Agent::new(model.clone()).extension(probe);
    agent.abort_handle().abort();
    let out = agent.run("task").await.unwrap();
    assert_eq!(out.stop_reason, StopReason::Aborted);
    assert_eq!(model.calls(), 0);
    assert_eq!(consulted.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_reopen_on_the_last_turn_ends_with_max_turns_and_the_rejected_answer() {
    let guard = FinishRule::new("guard", |_| Some("try again".into()));
    let out = Agent::new(ScriptedModel::texts(["only"]))
        .extension(guard)
        .max_turns(1)
        .unwrap()
        .run("task")
        .await
        .unwrap();
    assert_eq!(out.stop_reason, StopReason::MaxTurns);
    assert_eq!(out.final_answer, "only");
}

#[tokio::test]
async fn observers_see_external_input_request_and_append_in_order() {
    let probe = Probe::named("probe");
    let phases = probe.phases.clone();
    Agent::new(ScriptedModel::texts(["answer"]))
        .system("sys")
        .extension(probe)
        .run("task")
        .await
        .unwrap();
    let phases = phases.lock().unwrap().clone();
    assert_eq!(
        phases,
        vec![
            (ObservePhase::ExternalInput, 0, 1),
            (ObservePhase::Append, 0, 1),
            (ObservePhase::Request, 1, 2),
            (ObservePhase::Append, 1, 1),
        ]
    );
}

#[tokio::test]
async fn a_resumed_run_restores_history_and_checkpoints_before_new_input() {
    let probe = Probe::named("probe");
    let phases = probe.phases.clone();
    let agent = Agent::new(ScriptedModel::texts(["one", "two"])).extension(probe);
    let first = agent.run("task").await.unwrap();
    assert!(first.checkpoint.contains_key("probe"));
    phases.lock().unwrap().clear();
    let second = agent.resume(&first, "follow-up").await.unwrap();
    assert_eq!(second.final_answer, "two");
    let phases = phases.lock().unwrap().clone();
    assert_eq!(phases[0], (ObservePhase::Restore, 0, 2));
    assert_eq!(phases[1], (ObservePhase::ExternalInput, 0, 1));
}
