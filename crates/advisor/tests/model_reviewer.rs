//! The model reviewer through a scripted model: prompt, strict parsing,
//! fail-open and usage charging.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};

use advisor::host::{Message, Role, ToolTrace};
use advisor::kind::{ReviewErrorKind, ReviewKind};
use advisor::model::{ChatResponse, ModelError, ModelErrorKind, ScriptedModel};
use advisor::review::{ModelReviewer, Review, Reviewer, parse_notes};
use advisor::usage::Usage;
use advisor::{AdvisorPlugin, Agent, Note, Severity};
use proptest::prelude::*;

fn window_review() -> Review {
    let mut messages = vec![
        Message::system("host prompt, never shown"),
        Message::user("Sum March revenue."),
    ];
    for i in 0..15 {
        messages.push(Message::assistant(format!("Running query {i}.")));
        messages.push(Message {
            name: Some("run_sql".into()),
            ..Message::new(Role::Tool, format!("{i} rows"))
        });
    }
    Review {
        kind: ReviewKind::Finish,
        reviewer: "advisor".into(),
        final_answer: Some("Revenue was 4.2M.".into()),
        turns: 16,
        messages: messages.into(),
        omitted_messages: 12,
        tools: vec![
            ToolTrace {
                name: "run_sql".into(),
                args: "select".into(),
                output: "3 rows".into(),
                error: None,
                exit_code: None,
            },
            ToolTrace {
                name: "run_sql".into(),
                args: "select".into(),
                output: String::new(),
                error: Some("syntax error\nat line 3".into()),
                exit_code: None,
            },
        ],
        omitted_tools: 1,
        round: 1,
        delivered: vec![Note::concern("the filter drops refunds")],
        ..Review::default()
    }
}

#[test]
fn the_prompt_for_a_32_message_window() {
    let reviewer = ModelReviewer::new(ScriptedModel::default()).attention("revenue must exclude refunds");
    let req = reviewer.request(&window_review());
    assert_eq!(req.messages.len(), 2);
    let system = &req.messages[0].content;
    assert!(system.contains("Silence is the default"));
    assert!(system.contains("untrusted evidence"));
    assert!(system.contains("At most 3 notes"));
    assert!(system.contains("<attention>\nrevenue must exclude refunds\n</attention>"));
    let user = &req.messages[1].content;
    assert!(user.contains("## Review round 2"));
    assert!(user.contains("12 earlier message(s) elided"));
    assert!(!user.contains("host prompt"), "system messages are not evidence");
    assert!(user.contains("- run_sql: FAILED syntax error at line 3"));
    assert!(user.contains("- [concern] the filter drops refunds"));
    assert!(user.contains("## The answer under review (turn 16)\nRevenue was 4.2M."));
    assert!(req.response_schema.is_some());
    insta::assert_snapshot!("model_reviewer_system_prompt", system);
    insta::assert_snapshot!("model_reviewer_user_prompt", user);
}

#[test]
fn a_periodic_review_asks_about_work_in_progress() {
    let review = Review {
        kind: ReviewKind::Periodic,
        turns: 4,
        ..Review::default()
    };
    let user = ModelReviewer::new(ScriptedModel::default()).request(&review).messages[1]
        .content
        .clone();
    assert!(user.contains("## Work in progress (after 4 completed turn(s))"));
    assert!(user.contains("(no transcript captured)"));
}

#[tokio::test]
async fn a_fenced_answer_parses_and_usage_is_charged() {
    let model = ScriptedModel::new([ChatResponse::text(
        "```json\n{\"notes\":[{\"text\":\"the sum is off\",\"severity\":\"Concern\"}]}\n```",
    )
    .with_usage(100, 7)]);
    let review = window_review();
    let notes = ModelReviewer::new(model).review(&review).await.unwrap();
    assert_eq!(notes, vec![Note::concern("the sum is off")]);
    assert_eq!(review.usage.total(), Usage::new(100, 7));
}

#[tokio::test]
async fn prose_is_unusable_and_the_error_never_quotes_the_answer() {
    let model =
        ScriptedModel::new([ChatResponse::text("I think the SECRET-ANSWER is fine {\"notes\":[]}").with_usage(50, 9)]);
    let review = window_review();
    let err = ModelReviewer::new(model).review(&review).await.unwrap_err();
    assert_eq!(err.kind(), ReviewErrorKind::Unusable);
    assert!(!err.to_string().contains("SECRET"));
    assert_eq!(
        review.usage.total().input_tokens,
        50,
        "an unusable answer still cost tokens"
    );
}

#[tokio::test]
async fn a_failed_model_call_is_an_error_that_charges_what_it_cost() {
    let model = ScriptedModel::default();
    model.push(Err(
        ModelError::new(ModelErrorKind::Status, "503").with_usage(Usage::new(2, 0))
    ));
    let review = window_review();
    assert!(ModelReviewer::new(model).review(&review).await.is_err());
    assert_eq!(review.usage.total().input_tokens, 2);
}

#[tokio::test]
async fn through_the_plugin_garbage_fails_open_and_usage_reaches_the_report_and_the_callback() {
    let reviewer_model = ScriptedModel::new([
        ChatResponse::text("not json at all").with_usage(30, 3),
        ChatResponse::text("{\"notes\":[]}").with_usage(40, 2),
    ]);
    let charged: Arc<Mutex<Vec<(String, Usage)>>> = Arc::default();
    let c = charged.clone();
    let plugin = AdvisorPlugin::builder()
        .reviewer(ModelReviewer::new(reviewer_model))
        .on_usage(move |name, u| c.lock().unwrap().push((name.to_owned(), u)))
        .build()
        .unwrap();
    let agent_model = ScriptedModel::texts(["answer one", "answer two"]);
    let agent = Agent::new(agent_model.clone()).extension(plugin.clone());
    let out = agent.run("task").await.unwrap();
    assert_eq!(
        out.final_answer, "answer one",
        "garbage from the reviewer leaves the run as it was"
    );
    assert_eq!(agent_model.calls(), 1);
    let report = plugin.last_report().unwrap();
    assert_eq!(report.errors, 1);
    assert_eq!(report.usage, Usage::new(30, 3));
    assert_eq!(charged.lock().unwrap()[0].0, "advisor");
}

#[test]
fn strict_parsing_rules() {
    assert_eq!(parse_notes("{\"notes\":[]}").unwrap(), vec![]);
    let n = parse_notes("{\"notes\":[{\"text\":\"a\",\"severity\":\"critical\"}]}").unwrap();
    assert_eq!(n[0].severity, Severity::Nit, "unknown severities are nits");
    for bad in [
        "",
        "no notes",
        "{}",
        "{\"notes\":null}",
        "{\"notes\":[{\"text\":\"a\"}]}",
        "{\"notes\":[{\"text\":\"a\",\"severity\":\"nit\",\"why\":\"x\"}]}",
        "{\"notes\":[],\"extra\":1}",
        "{\"notes\":[]} trailing",
        "Sure:\n```json\n{\"notes\":[]}\n```",
        "```json\n{\"notes\":[]}\n```\n```json\n{\"notes\":[]}\n```",
        "{\"notes\":[{\"text\":1,\"severity\":\"nit\"}]}",
        // found by fuzzing: serde takes a struct written as a list
        "```\n{\"notes\":[[\"e((\",\n\n\n\"seh[\"]]}\n```",
        "{\"notes\":[[\"text\",\"nit\"]]}",
    ] {
        assert!(parse_notes(bad).is_err(), "{bad:?} must be rejected");
    }
}

proptest! {
    #[test]
    fn parse_notes_never_panics_and_errors_never_quote_the_input(s in "\\PC{0,300}") {
        if let Err(e) = parse_notes(&s) {
            let marker = "ZQXJ";
            let with_marker = format!("{s}{marker}");
            if let Err(e2) = parse_notes(&with_marker) {
                prop_assert!(!e2.contains(marker));
            }
            prop_assert!(!e.is_empty());
        }
    }

    #[test]
    fn any_string_value_in_a_rejected_answer_is_absent_from_the_error(text in "[A-Za-z]{8,20}") {
        let answer = format!("{{\"notes\":[{{\"text\":\"{text}\",\"severity\":\"nit\",\"extra\":\"{text}\"}}]}}");
        let err = parse_notes(&answer).unwrap_err();
        prop_assert!(!err.contains(&text));
    }
}

/// Issue 16 item 3: the model reviewer's note limit is the plugin's
/// `max_notes_per_review` — one setting, carried by the review.
#[tokio::test]
async fn the_note_limit_comes_from_the_plugins_max_notes_per_review() {
    use advisor::host::{StopInfo, StopInterceptor};
    for n in [1, 5] {
        let model = ScriptedModel::texts([r#"{"notes":[]}"#]);
        let plugin = AdvisorPlugin::builder()
            .reviewer(ModelReviewer::new(model.clone()))
            .max_notes_per_review(n)
            .build()
            .unwrap();
        let mut run = plugin.start_run();
        let info = StopInfo {
            final_answer: "done".into(),
            turns: 1,
            ..StopInfo::default()
        };
        assert!(!run.turn_stopping(&info).await.reopens());
        let request = &model.requests()[0];
        assert_eq!(
            request.response_schema.as_ref().unwrap()["properties"]["notes"]["maxItems"],
            n,
            "the schema allows the plugin's limit"
        );
        assert!(
            request.messages[0].content.contains(&format!("At most {n} notes")),
            "{}",
            request.messages[0].content
        );
    }
}
