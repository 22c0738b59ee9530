//! The rig adapter, offline, with rig's own scripted mock model.
#![cfg(feature = "rig")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use advisor::adapters::rig::RigAdvisor;
use advisor::review::{self, Review};
use advisor::{AdvisorPlugin, Note};
use rig_agent::agent::AgentBuilder;
use rig_core::completion::message::{Message as RigMessage, UserContent};
use rig_core::test_utils::{MockCompletionModel, MockTurn};

fn user_texts(m: &RigMessage) -> Vec<String> {
    match m {
        RigMessage::User { content } => content
            .iter()
            .filter_map(|c| match c {
                UserContent::Text(t) => Some(t.text.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn plugin(reviewer: impl review::Reviewer + 'static) -> AdvisorPlugin {
    AdvisorPlugin::builder().reviewer(reviewer).build().unwrap()
}

#[tokio::test]
async fn the_advisory_reaches_the_model_as_a_user_message_and_the_corrected_answer_is_final() {
    let model =
        MockCompletionModel::from_turns([MockTurn::text("revenue was 4.2M"), MockTurn::text("revenue was 3.1M")]);
    let advisor = RigAdvisor::new(plugin(review::from_sync_fn(|r: &Review| {
        Ok(if r.round == 0 {
            vec![Note::concern("refunds were added instead of subtracted")]
        } else {
            vec![]
        })
    })));
    let response = AgentBuilder::new(model.clone())
        .add_hook(advisor)
        .build()
        .prompt("what was revenue?")
        .max_turns(4)
        .run()
        .await
        .unwrap();
    assert_eq!(response.output(), "revenue was 3.1M");
    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    let second: Vec<String> = requests[1].chat_history.iter().flat_map(user_texts).collect();
    assert!(
        second
            .iter()
            .any(|t| t.contains("<advisory severity=\"concern\"") && t.contains("refunds were added"))
    );
}

#[tokio::test]
async fn the_reopen_cap_holds_per_run() {
    let calls = Arc::new(AtomicU32::new(0));
    let c = calls.clone();
    let model = MockCompletionModel::from_turns((1..=5).map(|i| MockTurn::text(format!("try {i}"))));
    let advisor = RigAdvisor::new(plugin(review::from_sync_fn(move |r: &Review| {
        c.fetch_add(1, Ordering::SeqCst);
        Ok(vec![Note::blocker(format!("still wrong, round {}", r.round))])
    })));
    let response = AgentBuilder::new(model.clone())
        .add_hook(advisor)
        .build()
        .prompt("task")
        .max_turns(10)
        .run()
        .await
        .unwrap();
    assert_eq!(
        response.output(),
        "try 3",
        "two re-opens (MaxRounds 2), then the answer stands"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    assert_eq!(model.requests().len(), 3);
}

#[tokio::test]
async fn a_silent_reviewer_changes_nothing() {
    let model = MockCompletionModel::from_turns([MockTurn::text("answer")]);
    let advisor = RigAdvisor::new(plugin(review::from_sync_fn(|_r: &Review| Ok(vec![]))));
    let response = AgentBuilder::new(model.clone())
        .add_hook(advisor)
        .build()
        .prompt("task")
        .run()
        .await
        .unwrap();
    assert_eq!(response.output(), "answer");
    assert_eq!(model.requests().len(), 1);
}

#[tokio::test]
async fn the_reviewer_sees_the_history_of_the_run() {
    let seen = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let s = seen.clone();
    let model = MockCompletionModel::from_turns([MockTurn::text("final")]);
    let advisor = RigAdvisor::new(plugin(review::from_sync_fn(move |r: &Review| {
        s.lock().unwrap().extend(r.messages.iter().map(|m| m.content.clone()));
        Ok(vec![])
    })));
    AgentBuilder::new(model)
        .add_hook(advisor)
        .build()
        .prompt("the task text")
        .max_turns(3)
        .run()
        .await
        .unwrap();
    assert!(seen.lock().unwrap().iter().any(|m| m.contains("the task text")));
}
