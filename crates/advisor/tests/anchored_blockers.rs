//! Blockers quote their evidence (issue 44): a model-backed reviewer's
//! blocker stays one only when its evidence is found in what the reviewer was
//! shown; the gate re-opens at the configured severity and leaves the rest to
//! the user; a raw control character inside a model's JSON string is read.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use advisor::host::{Message, Role, ToolCall, ToolTrace};
use advisor::kind::ReviewKind;
use advisor::model::{ChatResponse, ScriptedModel};
use advisor::review::tools::{WorkspaceTool, WorkspaceTools};
use advisor::review::{Contest, Failure, ModelReviewer, Review, Reviewer, parse_notes};
use advisor::trace::MemoryTrace;
use advisor::{AdvisorPlugin, Agent, Note, Severity, review};
use proptest::prelude::*;

fn finish_review() -> Review {
    Review {
        kind: ReviewKind::Finish,
        reviewer: "advisor".into(),
        final_answer: Some("All 12 tests pass and the build is green.".into()),
        turns: 3,
        messages: vec![
            Message::user("Make the parser tests pass."),
            Message::assistant("Running the tests."),
            Message {
                name: Some("Bash".into()),
                ..Message::new(Role::Tool, "Exit code 1\n=== 1 failed, 11 passed in 0.41s ===")
            },
        ]
        .into(),
        tools: vec![ToolTrace {
            name: "Bash".into(),
            args: "pytest -q".into(),
            output: "=== 1 failed, 11 passed in 0.41s ===".into(),
            error: Some("Exit code 1".into()),
            exit_code: Some(1),
        }],
        ..Review::default()
    }
}

fn answer(notes: &str) -> ScriptedModel {
    ScriptedModel::texts([notes.to_owned()])
}

async fn notes_of(model: ScriptedModel, review: &Review) -> Vec<Note> {
    ModelReviewer::new(model).review(review).await.unwrap()
}

#[tokio::test]
async fn a_blocker_quoting_the_transcript_stays_a_blocker() {
    let notes = notes_of(
        answer(r#"{"notes":[{"text":"the tests fail","severity":"blocker","evidence":"=== 1 failed, 11 passed"}]}"#),
        &finish_review(),
    )
    .await;
    assert_eq!((notes[0].severity, notes[0].anchored), (Severity::Blocker, Some(true)));
    assert_eq!(notes[0].evidence.as_deref(), Some("=== 1 failed, 11 passed"));
}

#[tokio::test]
async fn a_blocker_quoting_only_the_answer_or_the_instructions_or_nothing_is_demoted() {
    for evidence in [
        r#","evidence":"All 12 tests pass and the build is green.""#,
        r#","evidence":"Silence is the default. Most work needs no comment""#,
        r#","evidence":"=== 0 failed, 12 passed""#,
        "",
    ] {
        let text = format!(r#"{{"notes":[{{"text":"the tests fail","severity":"blocker"{evidence}}}]}}"#);
        let notes = notes_of(answer(&text), &finish_review()).await;
        assert_eq!(
            (notes[0].severity, notes[0].anchored),
            (Severity::Concern, Some(false)),
            "{evidence}"
        );
    }
}

/// What one blocker quoting `evidence` (JSON string text: `\n` escapes a
/// line break) becomes on `review`: its severity and anchoring.
async fn blocker_quoting(evidence: &str, review: &Review) -> (Severity, Option<bool>) {
    let text = format!(r#"{{"notes":[{{"text":"the tests fail","severity":"blocker","evidence":"{evidence}"}}]}}"#);
    let notes = notes_of(answer(&text), review).await;
    (notes[0].severity, notes[0].anchored)
}

#[tokio::test]
async fn a_quote_that_carries_the_prompts_headings_along_is_read_without_them() {
    const FOUND: (Severity, Option<bool>) = (Severity::Blocker, Some(true));
    const DEMOTED: (Severity, Option<bool>) = (Severity::Concern, Some(false));
    // models copy a result's heading (`### Bash result`) or the tool trace's
    // `- Bash: FAILED` with the lines they quote: a locator, not a claim
    for evidence in [
        r"### Bash result\nExit code 1\n=== 1 failed, 11 passed in 0.41s ===",
        r"- Bash: FAILED Exit code 1",
        r"### user\nMake the parser tests pass.\n...\n### Bash result\n=== 1 failed",
        r"## Transcript (3 message(s) shown, 0 earlier elided)\n...\n=== 1 failed, 11 passed\n## Tool trace (1 call(s), oldest first)\n- Bash: FAILED Exit code 1",
        "=== 1 failed, 11 passed in \u{1b}[1m0.41s\u{1b}[0m ===",
    ] {
        assert_eq!(blocker_quoting(evidence, &finish_review()).await, FOUND, "{evidence}");
    }
    // a heading anchors nothing on its own, and never makes a quote found
    for evidence in [
        r"### Bash result\n### agent",
        r"### Bash result\n=== 0 failed, 12 passed",
        r"- Bash: FAILED all tests passed",
        r"## Tool trace (1 call(s), oldest first)\n- Bash: ok",
    ] {
        assert_eq!(blocker_quoting(evidence, &finish_review()).await, DEMOTED, "{evidence}");
    }
    // only the status line the prompt printed is a label: a call recorded ok
    // was never shown as `- Bash: FAILED`
    let mut passed = finish_review();
    passed.tools[0].error = None;
    assert_eq!(blocker_quoting(r"- Bash: FAILED Exit code 1", &passed).await, DEMOTED);
}

#[tokio::test]
async fn concerns_and_nits_are_not_checked() {
    let notes = notes_of(
        answer(r#"{"notes":[{"text":"a","severity":"concern","evidence":"nowhere"},{"text":"b","severity":"nit"}]}"#),
        &finish_review(),
    )
    .await;
    assert_eq!(notes.iter().map(|n| n.anchored).collect::<Vec<_>>(), [None, None]);
    assert_eq!(notes[0].severity, Severity::Concern);
}

#[tokio::test]
async fn what_a_workspace_tool_returned_anchors_a_blocker() {
    let dir = std::env::temp_dir().join(format!("advisor-anchor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lib.rs"), "fn total() -> u32 { todo!(\"sum the rows\") }\n").unwrap();
    let call = ToolCall {
        id: "c1".into(),
        name: "read_file".into(),
        arguments: r#"{"path":"lib.rs"}"#.into(),
    };
    let model = ScriptedModel::new([
        ChatResponse::tool_calls(vec![call]),
        ChatResponse::text(
            r#"{"notes":[{"text":"total is a stub","severity":"blocker","evidence":"fn total() -> u32 { todo!(\"sum the rows\") }"}]}"#,
        ),
    ]);
    let reviewer = ModelReviewer::new(model).tools(WorkspaceTools::new(&dir, [WorkspaceTool::ReadFile]));
    let notes = reviewer.review(&finish_review()).await.unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!((notes[0].severity, notes[0].anchored), (Severity::Blocker, Some(true)));
}

#[tokio::test]
async fn a_judge_reads_the_contest_and_anchors_on_its_quotes_only() {
    let mut review = finish_review();
    review.contest = Some(Arc::new(Contest {
        request: "Make the parser tests pass.".into(),
        failures: vec![Failure::new(
            "pytest -q",
            "exit code 1",
            "=== 1 failed, 11 passed in 0.41s ===",
        )],
        after: vec!["`git status --short` — exit 0: M src/parser.py".into()],
        written: vec!["src/parser.py".into()],
        remarks: vec!["[blocker] the rules saw pytest fail".into()],
        only_looked: false,
    }));
    let model = ScriptedModel::texts([
        r#"{"notes":[{"text":"claims green over a red run","severity":"blocker","evidence":"1 failed, 11 passed"}]}"#,
        r#"{"notes":[{"text":"claims green","severity":"blocker","evidence":"the rules saw pytest fail"}]}"#,
    ]);
    let reviewer = ModelReviewer::new(model.clone());
    let first = reviewer.review(&review).await.unwrap();
    let second = reviewer.review(&review).await.unwrap();
    assert_eq!(first[0].severity, Severity::Blocker);
    assert_eq!(
        (second[0].severity, second[0].anchored),
        (Severity::Concern, Some(false))
    );
    let requests = model.requests();
    let user = &requests[0].messages[1].content;
    assert!(
        user.contains("## Failures nothing later in the turn cleared (1)"),
        "{user}"
    );
    assert!(
        !user.contains("Running the tests."),
        "the judge sees the contest, not the window"
    );
    assert!(requests[0].tools.is_empty());
    insta::assert_snapshot!("judge_system_prompt", requests[0].messages[0].content);
    insta::assert_snapshot!("judge_user_prompt", user);
}

#[tokio::test]
async fn only_a_blocker_reopens_when_the_gate_says_so_and_the_concern_goes_to_the_user() {
    let traces = Arc::new(MemoryTrace::new());
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|r: &review::Review| {
            assert_eq!(r.round, 0, "a concern alone never re-opens");
            Ok(vec![Note::concern("the cache is never invalidated")])
        }))
        .interrupt(Severity::Blocker)
        .trace(traces.clone())
        .build()
        .unwrap();
    let outcome = Agent::new(ScriptedModel::texts(["4.2M"]))
        .extension(plugin.clone())
        .run("what was revenue?")
        .await
        .unwrap();
    // round 0: a concern only — the run is not re-opened, the user is told
    assert_eq!(outcome.final_answer, "4.2M");
    let traces = traces.events();
    assert!(!traces[0].interrupted);
    assert_eq!(traces[0].to_user, vec![Note::concern("the cache is never invalidated")]);
    assert_eq!(plugin.last_report().map(|r| r.interruptions), Some(0));
}

#[tokio::test]
async fn with_a_blocker_the_reviews_concerns_go_to_the_agent_too() {
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|r: &review::Review| {
            Ok(if r.round == 0 {
                vec![
                    Note::blocker("the answer says 4.2M; the query returned 3.1M"),
                    Note::concern("the totals double-count refunds"),
                ]
            } else {
                vec![]
            })
        }))
        .interrupt(Severity::Blocker)
        .build()
        .unwrap();
    let model = ScriptedModel::texts(["4.2M", "3.1M"]);
    let outcome = Agent::new(model.clone())
        .extension(plugin)
        .run("what was revenue?")
        .await
        .unwrap();
    assert_eq!(outcome.final_answer, "3.1M");
    let requests = model.requests();
    let injected = &requests[1].messages.last().unwrap().content;
    assert!(
        injected.contains("double-count refunds") && injected.contains("returned 3.1M"),
        "{injected}"
    );
}

#[tokio::test]
async fn the_library_default_is_the_seeds_a_concern_reopens() {
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|r: &review::Review| {
            Ok(if r.round == 0 {
                vec![Note::concern("the cache is never invalidated")]
            } else {
                vec![]
            })
        }))
        .build()
        .unwrap();
    let outcome = Agent::new(ScriptedModel::texts(["a", "b"]))
        .extension(plugin)
        .run("q")
        .await
        .unwrap();
    assert_eq!(outcome.final_answer, "b");
}

#[tokio::test]
async fn a_reviewer_that_answered_from_its_fallback_says_so_in_the_trace() {
    let traces = Arc::new(MemoryTrace::new());
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|r: &review::Review| {
            r.usage.fall_back("the judge did not answer within 9 s");
            Ok(vec![])
        }))
        .trace(traces.clone())
        .build()
        .unwrap();
    Agent::new(ScriptedModel::texts(["a"]))
        .extension(plugin)
        .run("q")
        .await
        .unwrap();
    assert_eq!(
        traces.events()[0].fallback.as_deref(),
        Some("the judge did not answer within 9 s")
    );
}

#[test]
fn a_raw_newline_inside_a_string_is_read_and_nothing_else_is_loosened() {
    let notes = parse_notes("{\"notes\":[{\"text\":\"line one\nline two\",\"severity\":\"concern\"}]}").unwrap();
    assert_eq!(notes[0].text, "line one\nline two");
    // a raw newline between tokens was always fine; prose, unknown fields and a second object are not
    assert!(parse_notes("{\"notes\":\n[]}").is_ok());
    assert!(parse_notes("Here: {\"notes\":[]}").is_err());
    assert!(parse_notes("{\"notes\":[],\"extra\":\"a\nb\"}").is_err());
    assert!(parse_notes("{\"notes\":[]}\n{\"notes\":[]}").is_err());
    assert!(
        parse_notes("{\"notes\":[{\"text\":\"a\\\nb\",\"severity\":\"nit\"}]}").is_err(),
        "a backslash before a raw newline stays invalid"
    );
}

proptest! {
    #[test]
    fn any_text_with_raw_controls_reads_back_whole(
        parts in prop::collection::vec(prop_oneof![Just("```".to_owned()), "[a-z `\\x00-\\x1f\"\\\\]{1,8}"], 1..8)
    ) {
        let text = parts.concat();
        // the model escaped quotes and backslashes but wrote control characters
        // raw, and code fences are text inside the string
        let written: String = text.chars().flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            c => vec![c],
        }).collect();
        let answer = format!("{{\"notes\":[{{\"text\":\"{written}\",\"severity\":\"nit\"}}]}}");
        let notes = parse_notes(&answer).unwrap();
        prop_assert_eq!(&notes[0].text, &text);
    }

    #[test]
    fn evidence_is_kept_to_its_bound(len in 0usize..3000) {
        let note = Note::blocker("x").with_evidence("é".repeat(len));
        let kept = note.evidence.map_or(0, |e| e.chars().count());
        prop_assert_eq!(kept, len.min(advisor::note::MAX_EVIDENCE_CHARS));
    }
}
