//! Real-model check: a real review through `OpenAiCompatible` and the model
//! reviewer against SmolLM2-135M served by llama.cpp on loopback
//! (`scripts/local-llm.sh`). Asserts structure only — HTTP success, the answer
//! parses to notes, severities are in range, the guard output renders and
//! escapes — never the model's judgement.
//!
//! Uses `ADVISOR_LLM_BASE_URL` (and `ADVISOR_LLM_MODEL`) when set; otherwise
//! starts the server itself and stops it when the test ends. Only
//! `ADVISOR_SKIP_REAL_LLM=1` skips it, and the runner then reports it as
//! ignored (`advisor_testkit::trials`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use advisor::gate::admit;
use advisor::host::ToolTrace;
use advisor::host::{Message, Role};
use advisor::kind::ReviewKind;
use advisor::model::{OpenAiCompatible, ScriptedModel, StructuredOutput};
use advisor::review::{ModelReviewer, Review, Reviewer};
use advisor::{AdvisorPlugin, Agent, EmissionGuard, Severity};

use advisor_testkit::local_llm;

use advisor_testkit::trials;
use local_llm::{server, start_server};

fn canned_review() -> Review {
    Review {
        kind: ReviewKind::Finish,
        reviewer: "advisor".into(),
        final_answer: Some("All tests pass and the bug is fixed. <b>Done</b> & shipped.".into()),
        turns: 3,
        messages: vec![
            Message::user("Fix the off-by-one in pagination and make the tests pass."),
            Message::assistant("I changed `page * size` to `(page - 1) * size`."),
            Message {
                name: Some("run_tests".into()),
                ..Message::new(Role::Tool, "test pagination::last_page ... FAILED\n1 failed, 41 passed")
            },
        ]
        .into(),
        tools: vec![ToolTrace {
            name: "run_tests".into(),
            args: "cargo test".into(),
            output: String::new(),
            error: Some("1 failed, 41 passed".into()),
            exit_code: None,
        }],
        ..Review::default()
    }
}

async fn a_real_model_review_has_the_right_structure() {
    let server = server();
    let model = OpenAiCompatible::builder(&server.base_url, &server.model)
        .structured_output(StructuredOutput::JsonSchema)
        .timeout(Duration::from_secs(120))
        .max_tokens(Some(700))
        .build()
        .unwrap();

    // 1. the reviewer, directly: HTTP success, the answer parses, severities in range
    let reviewer = ModelReviewer::new(model.clone());
    let review = canned_review();
    let started = Instant::now();
    let notes = server.check("the real model's review", reviewer.review(&review).await);
    eprintln!(
        "real model: {} note(s) in {:?}, {:?} tokens, structured output mode {:?}",
        notes.len(),
        started.elapsed(),
        review.usage.total(),
        model.structured_output()
    );
    assert!(review.usage.total().input_tokens > 0, "the server reported usage");
    for n in &notes {
        assert!(matches!(
            n.severity,
            Severity::Nit | Severity::Concern | Severity::Blocker
        ));
    }

    // 2. the guard output renders and escapes correctly
    let mut guard = EmissionGuard::new(3);
    let gate = admit(
        &mut guard,
        &notes,
        ReviewKind::Finish,
        Severity::Blocker,
        Severity::Concern,
    );
    let accepted = gate.accepted();
    if let Some(injection) = &gate.injection {
        assert_eq!(injection.matches("<advisory ").count(), accepted.len());
        assert_eq!(injection.matches("</advisory>").count(), accepted.len());
        let inside: usize = accepted.iter().map(|n| n.text.matches('<').count()).sum();
        assert_eq!(
            injection.matches('<').count(),
            2 * accepted.len(),
            "{inside} '<' in note text were escaped"
        );
    }

    // 3. end to end through the plugin: the run ends normally either way
    let plugin = AdvisorPlugin::builder()
        .reviewer(ModelReviewer::new(model))
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap();
    let agent_model = ScriptedModel::texts(["All tests pass.", "All tests pass (re-checked).", "Final."]);
    let out = server.check(
        "the agent run reviewed by the real model",
        Agent::new(agent_model)
            .extension(plugin.clone())
            .run("Fix the pagination bug.")
            .await,
    );
    let report = plugin.last_report().unwrap();
    assert!(report.finish_reviews >= 1);
    assert_eq!(
        report.errors,
        0,
        "the real model answered parseable notes every time{}",
        server.died().map(|d| format!("; {d}")).unwrap_or_default()
    );
    assert!(!out.final_answer.is_empty());
}

/// A server that dies after it started (here: killed with SIGSEGV, as a
/// llama.cpp build tuned to another CPU dies on its first completion) makes
/// a real-model test fail with how it died and its log's tail — never with a
/// bare transport error.
async fn a_server_that_dies_after_start_is_reported_with_its_signal_and_log() {
    // always a server of its own: it is killed
    let server = start_server();
    let pid = server.pid.clone().expect("started here");
    let killed = std::process::Command::new("kill")
        .args(["-SEGV", &pid])
        .status()
        .expect("run kill");
    assert!(killed.success());
    // the supervisor records the ending as soon as the process is reaped
    // (a real process, so real time: at most 10 s)
    for _ in 0..200 {
        if server.died().is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let model = OpenAiCompatible::builder(&server.base_url, &server.model)
        .timeout(Duration::from_secs(10))
        .max_retries(0)
        .build()
        .unwrap();
    let result = ModelReviewer::new(model).review(&canned_review()).await;
    assert!(result.is_err(), "a dead server cannot answer");
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        server.check("the real model's review", result)
    }))
    .expect_err("the check fails the test");
    let message = panic
        .downcast_ref::<String>()
        .cloned()
        .expect("a formatted panic message");
    assert!(message.contains("signal 11 (SIGSEGV)"), "{message}");
    assert!(message.contains("the last lines of its log"), "{message}");
    // the log's tail is quoted: the server's own start-up lines
    assert!(message.contains("Uvicorn running on"), "{message}");
}

/// The real-model tests, under the testkit's harness: ignored (never passed) with
/// `ADVISOR_SKIP_REAL_LLM=1`.
fn main() -> std::process::ExitCode {
    trials::run(vec![
        trials::trial(
            "a_real_model_review_has_the_right_structure",
            a_real_model_review_has_the_right_structure,
        ),
        trials::trial(
            "a_server_that_dies_after_start_is_reported_with_its_signal_and_log",
            a_server_that_dies_after_start_is_reported_with_its_signal_and_log,
        ),
    ])
}
