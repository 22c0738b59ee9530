//! Builders reject what they used to clamp, naming the field and the allowed
//! range; wrapped errors keep the model's failure as their `source()`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::error::Error as _;

use advisor::model::{ModelError, ModelErrorKind, ScriptedModel};
use advisor::review::{MIN_PROMPT_TOKENS, ModelReviewer, Review, Reviewer};
use advisor::usage::Usage;
use advisor::{Agent, EmissionGuard, ErrorKind, Note, guard::DEFAULT_MAX_NOTES_PER_REVIEW};

#[test]
fn the_model_reviewer_rejects_what_it_used_to_clamp() {
    let err = ModelReviewer::new(ScriptedModel::default())
        .max_prompt_tokens(MIN_PROMPT_TOKENS - 1)
        .unwrap_err();
    assert_eq!(err.field(), Some("max_prompt_tokens"));
    assert!(err.to_string().contains(&MIN_PROMPT_TOKENS.to_string()), "{err}");
    assert!(
        ModelReviewer::new(ScriptedModel::default())
            .max_prompt_tokens(MIN_PROMPT_TOKENS)
            .is_ok()
    );
}

#[test]
fn the_agent_rejects_zero_turns() {
    let err = Agent::new(ScriptedModel::default()).max_turns(0).unwrap_err();
    assert_eq!((err.kind(), err.field()), (ErrorKind::Config, Some("max_turns")));
    assert!(Agent::new(ScriptedModel::default()).max_turns(1).is_ok());
}

#[test]
fn the_default_emission_guard_has_the_default_breadth_cap() {
    let notes: Vec<Note> = (0..8)
        .map(|i| Note::blocker(format!("separate defect number {i}")))
        .collect();
    let out = EmissionGuard::default().screen(&notes);
    assert_eq!(out.accepted().len(), DEFAULT_MAX_NOTES_PER_REVIEW);
}

fn failing_model() -> ScriptedModel {
    let model = ScriptedModel::default();
    model.push(Err(
        ModelError::new(ModelErrorKind::Status, "server said 503").with_status(503)
    ));
    model
}

#[tokio::test]
async fn a_failed_review_keeps_the_model_error_as_its_source() {
    let review = Review::default();
    let err = ModelReviewer::new(failing_model()).review(&review).await.unwrap_err();
    let source = err.source().expect("the model error is the source");
    let model_error = source.downcast_ref::<ModelError>().expect("a ModelError, not a string");
    assert_eq!(model_error.status(), Some(503));
    assert!(err.to_string().contains("server said 503"), "{err}");
    assert_eq!(review.usage.total(), Usage::default());
}

#[tokio::test]
async fn an_agent_whose_model_fails_keeps_the_model_error_as_its_source() {
    let err = Agent::new(failing_model()).run("task").await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Model);
    let model_error = err.source().and_then(|s| s.downcast_ref::<ModelError>()).unwrap();
    assert_eq!(model_error.kind(), ModelErrorKind::Status);
    assert!(
        err.to_string().contains("turn 1") && err.to_string().contains("server said 503"),
        "{err}"
    );
}

#[test]
fn the_rollout_config_rejects_zero_counts_so_a_zero_interval_never_reaches_the_gate() {
    use advisor::rollout::AdvisorConfig;
    let b = AdvisorConfig::builder;
    for (built, field) in [
        (
            b().periodic_review_interval(Some(0)).build(),
            "periodic_review_interval",
        ),
        (b().max_advisor_attempts(0).build(), "max_advisor_attempts"),
        (b().max_revision_attempts(0).build(), "max_revision_attempts"),
    ] {
        let err = built.unwrap_err();
        assert_eq!((err.kind(), err.field()), (ErrorKind::Config, Some(field)));
        assert!(err.to_string().contains("at least 1"), "{err}");
    }
    assert_eq!(
        b().periodic_review_interval(Some(3))
            .build()
            .unwrap()
            .periodic_review_interval(),
        Some(3)
    );
    assert_eq!(b().build().unwrap().periodic_review_interval(), None);
}
