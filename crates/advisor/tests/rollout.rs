//! The privileged rollout advisor: gate, decisions, cues, screening, trace and summary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};

use advisor::host::Message;
use advisor::model::{ModelError, ModelErrorKind, ScriptedModel};
use advisor::rollout::{
    Action, Advisor, AdvisorConfig, Arm, CuePath, Draft, Outcome, Revision, RolloutErrorKind, RolloutTrace,
    ScreenCheck, TaskMaterial, parse_decision, screen_hint, self_check_sentence, summarize,
};
use proptest::prelude::*;
use serde_json::{Value, json};

fn decision(intervene: bool, reason: &str, action: &str, hint: &str) -> String {
    json!({"intervene": intervene, "confidence": 0.6, "reason_code": reason, "action": action,
           "plan": "PLAN-SECRET: 1. merge path 2. watermark", "hint": hint,
           "private_diagnosis": "DIAG-SECRET: hidden test_merge_ties fails"})
    .to_string()
}

fn cont() -> String {
    decision(false, "COMPLETE", "CONTINUE", "")
}

fn task() -> TaskMaterial {
    TaskMaterial::new("Fix the merge so ties keep insertion order.")
        .file(
            "tests/test_merge_hidden.py",
            "def test_merge_ties_keep_order():\n    assert merge([1, 1]) == [1, 1]\n",
        )
        .file(
            "reference.patch",
            "when two keys compare equal keep the element that was inserted first in the output list",
        )
}

fn config() -> advisor::rollout::AdvisorConfigBuilder {
    AdvisorConfig::builder()
}

type Seen = Arc<Mutex<Vec<Revision>>>;

/// A regenerate callback that records revisions and answers from a script.
fn regen(seen: Seen, answers: Vec<Draft>) -> impl FnMut(Revision) -> std::future::Ready<Result<Draft, String>> {
    let answers = Arc::new(Mutex::new(answers));
    move |r: Revision| {
        seen.lock().unwrap().push(r);
        let mut a = answers.lock().unwrap();
        std::future::ready(if a.is_empty() {
            Err("no more revisions".into())
        } else {
            Ok(a.remove(0))
        })
    }
}

fn finish() -> Draft {
    Draft::calling("done", "submit")
}

#[tokio::test]
async fn the_gate_opens_on_finishes_and_every_kth_turn() {
    for (k, with_finish_at) in [(Some(3), None), (Some(3), Some(4)), (None, Some(5))] {
        let model = ScriptedModel::new(std::iter::repeat_n(advisor::model::ChatResponse::text(cont()), 20));
        let mut a = Advisor::new(
            config().periodic_review_interval(k).build().unwrap(),
            task(),
            model.clone(),
        );
        let mut reviewed = Vec::new();
        for t in 1..=9u32 {
            let before = model.calls();
            let draft = if Some(t) == with_finish_at {
                finish()
            } else {
                Draft::text(format!("turn {t}"))
            };
            let seen: Seen = Arc::default();
            a.review(&[], draft, regen(seen, vec![])).await.unwrap();
            if model.calls() > before {
                reviewed.push(t);
            }
        }
        let mut want: Vec<u32> = (1..=9).filter(|t| k.is_some_and(|k| t % k == 0)).collect();
        if let Some(f) = with_finish_at {
            want.push(f);
            want.sort();
        }
        assert_eq!(reviewed, want, "k={k:?} finish at {with_finish_at:?}");
    }
}

#[tokio::test]
async fn the_budget_closes_the_gate() {
    let model = ScriptedModel::texts([decision(true, "PREMATURE_SUBMISSION", "RECONSIDER_SUBMISSION", "")]);
    let mut a = Advisor::new(config().max_interventions(1).build().unwrap(), task(), model.clone());
    let seen: Seen = Arc::default();
    let out = a
        .review(&[], finish(), regen(seen.clone(), vec![Draft::text("checking")]))
        .await
        .unwrap();
    assert_eq!(out.text, "checking");
    let out = a.review(&[], finish(), regen(seen.clone(), vec![])).await.unwrap();
    assert!(
        out.calls("submit"),
        "the budget is spent: the finish is committed unreviewed"
    );
    assert_eq!(model.calls(), 1);
    assert_eq!(a.interventions(), 1);
}

#[tokio::test]
async fn continue_commits_the_draft_and_carries_the_plan() {
    let model = ScriptedModel::texts([cont()]);
    let mut a = Advisor::new(config().build().unwrap(), task(), model);
    let seen: Seen = Arc::default();
    let out = a
        .review(&[Message::user("task")], finish(), regen(seen.clone(), vec![]))
        .await
        .unwrap();
    assert_eq!(out, finish());
    assert!(seen.lock().unwrap().is_empty());
    assert!(a.plan().starts_with("PLAN-SECRET"));
}

#[tokio::test]
async fn each_action_delivers_its_fixed_sentence_and_withholds_finish() {
    for (reason, action) in [
        ("INCOMPLETE_REQUIREMENT_COVERAGE", Action::ReviewAllRequirements),
        ("UNVERIFIED_STATE_TRANSITIONS", Action::TraceStateTransitions),
        ("INSUFFICIENT_END_TO_END_VALIDATION", Action::RunBroaderValidation),
        ("PREMATURE_SUBMISSION", Action::ReconsiderSubmission),
    ] {
        let model = ScriptedModel::texts([decision(true, reason, action.as_str(), "")]);
        let mut a = Advisor::new(config().build().unwrap(), task(), model);
        let seen: Seen = Arc::default();
        let out = a
            .review(&[], finish(), regen(seen.clone(), vec![Draft::text("re-checking")]))
            .await
            .unwrap();
        assert_eq!(out.text, "re-checking");
        let r = seen.lock().unwrap()[0].clone();
        assert_eq!(r.cue.text, self_check_sentence(action).unwrap());
        assert!(!r.finish_tool_offered);
        assert_eq!(a.delivered_cues().len(), 1);
    }
}

#[tokio::test]
async fn confirm_and_submit_keeps_the_finish_tool() {
    let model = ScriptedModel::texts([decision(true, "COMPLETE", "CONFIRM_AND_SUBMIT", "")]);
    let mut a = Advisor::new(
        config().periodic_review_interval(Some(1)).build().unwrap(),
        task(),
        model,
    );
    let seen: Seen = Arc::default();
    let out = a
        .review(&[], Draft::text("still editing"), regen(seen.clone(), vec![finish()]))
        .await
        .unwrap();
    assert!(out.calls("submit"), "a finish is allowed in this revision");
    assert!(seen.lock().unwrap()[0].finish_tool_offered);
}

#[tokio::test]
async fn a_revision_that_calls_finish_anyway_is_resampled_then_fails() {
    let model = ScriptedModel::texts([decision(true, "OTHER", "RUN_BROADER_VALIDATION", "")]);
    let mut a = Advisor::new(config().max_revision_attempts(2).build().unwrap(), task(), model);
    let seen: Seen = Arc::default();
    let out = a
        .review(
            &[],
            finish(),
            regen(seen.clone(), vec![finish(), Draft::text("ran the tests")]),
        )
        .await
        .unwrap();
    assert_eq!(out.text, "ran the tests", "resampled once, then accepted");

    let model = ScriptedModel::texts([decision(true, "OTHER", "RUN_BROADER_VALIDATION", "")]);
    let mut a = Advisor::new(config().max_revision_attempts(2).build().unwrap(), task(), model);
    let draft = Draft::calling("original", "submit");
    let out = a
        .review(&[], draft.clone(), regen(Arc::default(), vec![finish(), finish()]))
        .await
        .unwrap();
    assert_eq!(out, draft, "a failed revision keeps the draft under fail_open");

    let model = ScriptedModel::texts([decision(true, "OTHER", "RUN_BROADER_VALIDATION", "")]);
    let mut a = Advisor::new(config().fail_open(false).build().unwrap(), task(), model);
    let err = a
        .review(&[], finish(), regen(Arc::default(), vec![finish(), finish()]))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), RolloutErrorKind::Revision);
}

#[tokio::test]
async fn advisor_failure_fails_open_or_returns_the_error() {
    let down = || {
        let m = ScriptedModel::default();
        for _ in 0..3 {
            m.push(Err(ModelError::new(ModelErrorKind::Transport, "connection refused")));
        }
        m
    };
    let mut a = Advisor::new(config().build().unwrap(), task(), down());
    assert_eq!(
        a.review(&[], finish(), regen(Arc::default(), vec![])).await.unwrap(),
        finish()
    );
    let mut a = Advisor::new(config().fail_open(false).build().unwrap(), task(), down());
    assert!(matches!(
        a.review(&[], finish(), regen(Arc::default(), vec![])).await,
        Err(e) if e.kind() == RolloutErrorKind::Model
    ));
    let garbage = ScriptedModel::new(
        ["no", "{\"intervene\": \"yes\"}", "```json\n{}\n```"]
            .map(|t| advisor::model::ChatResponse::text(t).with_usage(100, 10)),
    );
    let mut a = Advisor::new(config().fail_open(false).build().unwrap(), task(), garbage);
    let err = a
        .review(&[], finish(), regen(Arc::default(), vec![]))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), RolloutErrorKind::Decision);
    assert!(
        std::error::Error::source(&err).is_some(),
        "the decision error is the source"
    );
    assert_eq!(
        a.tokens_spent(),
        330,
        "every attempt is counted when the advisor gives up"
    );
}

#[tokio::test]
async fn an_invalid_answer_is_retried_then_accepted() {
    let model = ScriptedModel::texts(["Sure! Here's my decision.".to_owned(), cont()]);
    let buf = SharedBuf::default();
    let trace = RolloutTrace::start(buf.clone(), "r1", "t1", Arm::Advised);
    let mut a = Advisor::new(config().build().unwrap(), task(), model.clone()).with_trace(trace.clone());
    a.review(&[], finish(), regen(Arc::default(), vec![])).await.unwrap();
    assert_eq!(model.calls(), 2);
    let second = &model.requests()[1].messages;
    assert!(second.last().unwrap().content.contains("invalid advisor decision"));
    drop(a);
    trace.end(Outcome::Passed);
    let events = buf.lines();
    let attempts: Vec<&Value> = events.iter().filter(|e| e["event"] == "advisor_attempt").collect();
    assert_eq!(attempts.len(), 2);
    assert_eq!(attempts[0]["ok"], false);
    assert_eq!(attempts[1]["ok"], true);
    assert_eq!(events.last().unwrap()["event"], "attempt_end");
    assert_eq!(events.last().unwrap()["outcome"], "passed");
    let seqs: Vec<u64> = events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn strict_parsing_rules() {
    let ok = cont();
    assert!(parse_decision(&ok).is_ok());
    assert!(
        parse_decision(&format!("```json\n{ok}\n```")).is_ok(),
        "one fence is tolerated"
    );
    let mut v: Value = serde_json::from_str(&ok).unwrap();
    let cases: Vec<(Value, &str)> = vec![
        (
            {
                let mut x = v.clone();
                x["extra"] = json!("x");
                x
            },
            "<unknown field>",
        ),
        (
            {
                let mut x = v.clone();
                x["action"] = json!(["CONTINUE"]);
                x
            },
            "action",
        ),
        (
            {
                let mut x = v.clone();
                x["intervene"] = json!("false");
                x
            },
            "intervene",
        ),
        (
            {
                let mut x = v.clone();
                x["confidence"] = json!(1.5);
                x
            },
            "confidence",
        ),
        (
            {
                let mut x = v.clone();
                x["confidence"] = json!("0.5");
                x
            },
            "confidence",
        ),
        (
            {
                let mut x = v.clone();
                x.as_object_mut().unwrap().remove("private_diagnosis");
                x
            },
            "private_diagnosis",
        ),
        (
            {
                let mut x = v.clone();
                x["reason_code"] = json!("DONE");
                x
            },
            "reason_code",
        ),
        (
            {
                let mut x = v.clone();
                x["intervene"] = json!(true);
                x
            },
            "intervene",
        ),
        (
            {
                let mut x = v.clone();
                x["hint"] = json!("I should check");
                x
            },
            "hint",
        ),
    ];
    for (value, loc) in cases {
        let err = parse_decision(&value.to_string()).unwrap_err();
        assert!(err.problems.iter().any(|p| p.field == loc), "{loc}: {err}");
        assert!(std::error::Error::source(&err).is_none());
    }
    v["action"] = json!("CONFIRM_AND_SUBMIT");
    assert!(
        parse_decision(&v.to_string()).is_err(),
        "CONFIRM_AND_SUBMIT must intervene"
    );
    assert!(parse_decision(&format!("Decision: {ok}")).is_err());
    assert!(parse_decision(&format!("{ok}\nThanks")).is_err());
    assert!(
        self_check_sentence(Action::Continue).is_err(),
        "CONTINUE has no sentence"
    );
}

#[test]
fn the_screen_catches_hidden_names_and_copied_spans_but_not_public_words() {
    let files = [
        (
            "tests/test_merge_hidden.py",
            "def test_merge_ties_keep_order():\n    assert merge([1, 1]) == [1, 1]\n",
        ),
        (
            "reference.patch",
            "when two keys compare equal keep the element that was inserted first in the output list",
        ),
    ];
    let public = ["Fix the merge so ties keep insertion order."];
    let r = screen_hint(
        "I should make sure test_merge_ties_keep_order would pass.",
        &files,
        &public,
    );
    assert!(
        !r.passed && r.violations.iter().any(|v| v.check == ScreenCheck::Identifier),
        "{r:?}"
    );
    let r = screen_hint("I should look at test_merge_hidden first.", &files, &public);
    assert!(r.violations.iter().any(|v| v.check == ScreenCheck::Path), "{r:?}");
    let copied = "I think when two keys compare equal keep the element that was inserted first.";
    let r = screen_hint(copied, &files, &public);
    assert!(r.violations.iter().any(|v| v.check == ScreenCheck::Verbatim), "{r:?}");
    let r = screen_hint("I haven't run the hidden tests yet.", &files, &public);
    assert!(r.violations.iter().any(|v| v.check == ScreenCheck::Meta));
    // the same words pass once the public task or history shows them
    let shown = [
        "Fix the merge so ties keep insertion order. The test test_merge_ties_keep_order in tests/test_merge_hidden.py must pass: when two keys compare equal keep the element that was inserted first.",
    ];
    for hint in ["I should make sure test_merge_ties_keep_order would pass.", copied] {
        assert!(screen_hint(hint, &files, &shown).passed, "{hint}");
    }
    assert!(screen_hint("I haven't checked what happens with equal keys.", &files, &public).passed);
}

#[tokio::test]
async fn a_leaking_hint_is_replaced_by_the_fixed_sentence_on_the_prefill_path() {
    let leaky = decision(
        true,
        "INCOMPLETE_REQUIREMENT_COVERAGE",
        "REVIEW_ALL_REQUIREMENTS",
        "I should make test_merge_ties_keep_order pass.",
    );
    let cfg = config()
        .cue_path(CuePath::ReasoningPrefill)
        .screen_hints(true)
        .build()
        .unwrap();
    let mut a = Advisor::new(cfg.clone(), task(), ScriptedModel::texts([leaky]));
    let seen: Seen = Arc::default();
    a.review(&[], finish(), regen(seen.clone(), vec![Draft::text("x")]))
        .await
        .unwrap();
    let cue = seen.lock().unwrap()[0].cue.clone();
    assert!(cue.fell_back && cue.screened);
    assert_eq!(cue.text, self_check_sentence(Action::ReviewAllRequirements).unwrap());

    let clean = decision(
        true,
        "INCOMPLETE_REQUIREMENT_COVERAGE",
        "REVIEW_ALL_REQUIREMENTS",
        "I haven't checked equal keys yet.",
    );
    let mut a = Advisor::new(cfg, task(), ScriptedModel::texts([clean]));
    let seen: Seen = Arc::default();
    a.review(&[], finish(), regen(seen.clone(), vec![Draft::text("x")]))
        .await
        .unwrap();
    assert_eq!(seen.lock().unwrap()[0].cue.text, "I haven't checked equal keys yet.");
}

#[test]
fn streak_escalation_requires_screening() {
    let err = AdvisorConfig::builder()
        .repeat_streak_escalation(true)
        .build()
        .unwrap_err();
    assert_eq!(err.field(), Some("repeat_streak_escalation"));
    assert!(
        AdvisorConfig::builder()
            .repeat_streak_escalation(true)
            .screen_hints(true)
            .build()
            .is_ok()
    );
}

#[tokio::test]
async fn the_advisor_sees_its_streak_only_with_escalation_on() {
    let d = decision(true, "INSUFFICIENT_END_TO_END_VALIDATION", "RUN_BROADER_VALIDATION", "");
    let model = ScriptedModel::texts([d.clone(), d.clone(), d]);
    let cfg = config()
        .max_interventions(3)
        .repeat_streak_escalation(true)
        .screen_hints(true)
        .build()
        .unwrap();
    let mut a = Advisor::new(cfg, task(), model.clone());
    for _ in 0..3 {
        a.review(&[], finish(), regen(Arc::default(), vec![Draft::text("x")]))
            .await
            .unwrap();
    }
    let third = model.requests()[2].messages[1].content.clone();
    assert!(
        third.contains("## Streak") && third.contains("last 2 interventions"),
        "{third}"
    );
    assert!(!model.requests()[0].messages[1].content.contains("## Streak"));
}

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

impl SharedBuf {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
    fn lines(&self) -> Vec<Value> {
        self.text().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }
}

/// Runs one advised attempt whose advisor answers `answers` at the finish.
async fn attempt(id: &str, arm: Arm, answers: Vec<Result<String, ()>>, finishes: bool, outcome: Outcome) -> String {
    let buf = SharedBuf::default();
    let trace = RolloutTrace::start(buf.clone(), id, "task-1", arm);
    if arm == Arm::Advised {
        let model = ScriptedModel::default();
        for a in answers {
            model.push(
                a.map(advisor::model::ChatResponse::text)
                    .map_err(|()| ModelError::new(ModelErrorKind::Timeout, "timeout")),
            );
        }
        let mut adv =
            Advisor::new(config().max_advisor_attempts(1).build().unwrap(), task(), model).with_trace(trace.clone());
        let draft = if finishes { finish() } else { Draft::text("working") };
        adv.review(&[], draft, regen(Arc::default(), vec![Draft::text("revised")]))
            .await
            .unwrap();
    }
    trace.end(outcome);
    drop(trace);
    buf.text()
}

#[tokio::test]
async fn summarize_counts_each_metric() {
    let intervened = attempt(
        "a1",
        Arm::Advised,
        vec![Ok(decision(true, "PREMATURE_SUBMISSION", "RECONSIDER_SUBMISSION", ""))],
        true,
        Outcome::Passed,
    )
    .await;
    let failed_advisor = attempt("a2", Arm::Advised, vec![Err(())], true, Outcome::Failed).await;
    let never_reviewed = attempt("a3", Arm::Advised, vec![], false, Outcome::Failed).await;
    let continued = attempt("a4", Arm::Advised, vec![Ok(cont())], true, Outcome::Passed).await;
    let control = attempt("u1", Arm::Unadvised, vec![], false, Outcome::Failed).await;
    let inputs = [
        ("a1.jsonl", intervened.as_str()),
        ("a2.jsonl", failed_advisor.as_str()),
        ("a3.jsonl", never_reviewed.as_str()),
        ("a4.jsonl", continued.as_str()),
        ("u1.jsonl", control.as_str()),
        ("bad.jsonl", "{not json}\n"),
    ];
    let s = summarize(inputs);
    let adv = &s.arms[&Arm::Advised];
    assert_eq!(adv.attempts, 4);
    assert_eq!(adv.reviews, 2);
    assert_eq!(adv.interventions, 1);
    assert_eq!(adv.interventions_by_action["RECONSIDER_SUBMISSION"], 1);
    assert_eq!(adv.interventions_by_reason["PREMATURE_SUBMISSION"], 1);
    assert_eq!(
        adv.effectively_unadvised, 1,
        "a2: the advisor failed and never intervened"
    );
    assert_eq!(adv.advised_without_reviews, 1, "a3: never reviewed");
    assert_eq!(adv.fail_open_events, 1);
    assert_eq!((adv.graded, adv.passed), (4, 2));
    assert_eq!(adv.pass_rate, Some(0.5));
    let ctl = &s.arms[&Arm::Unadvised];
    assert_eq!((ctl.attempts, ctl.pass_rate), (1, Some(0.0)));
    assert_eq!(s.malformed.len(), 1);
    assert!(s.malformed[0].starts_with("bad.jsonl:1:"));
}

fn arb_decision() -> impl Strategy<Value = (bool, String, String, String, String, String)> {
    (
        any::<bool>(),
        prop::sample::select(vec![
            "COMPLETE",
            "INCOMPLETE_REQUIREMENT_COVERAGE",
            "UNVERIFIED_STATE_TRANSITIONS",
            "INSUFFICIENT_END_TO_END_VALIDATION",
            "PREMATURE_SUBMISSION",
            "OTHER",
        ])
        .prop_map(str::to_owned),
        prop::sample::select(vec![
            "CONTINUE",
            "REVIEW_ALL_REQUIREMENTS",
            "TRACE_STATE_TRANSITIONS",
            "RUN_BROADER_VALIDATION",
            "RECONSIDER_SUBMISSION",
            "CONFIRM_AND_SUBMIT",
        ])
        .prop_map(str::to_owned),
        "PLANX[a-z]{6,12}",
        "DIAGX[a-z]{6,12}",
        "(I [a-z ]{3,20})?",
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn no_string_value_of_an_answer_ever_appears_in_the_error(
        key in "[A-Za-z]{10,16}", val in "[A-Za-z]{10,16}", enum_val in "[A-Za-z]{10,16}", mode in 0usize..4
    ) {
        let answer = match mode {
            0 => json!({"intervene": false, "confidence": 0.5, "reason_code": enum_val, "action": "CONTINUE", "plan": val, "hint": "", "private_diagnosis": val}),
            1 => json!({ key.clone(): val, "intervene": false }),
            2 => json!({"intervene": false, "confidence": 0.5, "reason_code": "COMPLETE", "action": [enum_val], "plan": val, "hint": val, "private_diagnosis": val}),
            _ => json!({"intervene": val, "confidence": enum_val, "reason_code": "OTHER", "action": "CONTINUE", "plan": 1, "hint": "", "private_diagnosis": ""}),
        }
        .to_string();
        let err = parse_decision(&answer).unwrap_err().to_string();
        for s in [&key, &val, &enum_val] {
            prop_assert!(!err.contains(s.as_str()), "{} leaked into {}", s, err);
        }
    }

    #[test]
    fn no_plan_or_private_diagnosis_ever_reaches_regenerate(d in arb_decision(), prefill in any::<bool>()) {
        let (intervene, reason, action, plan, diag, hint) = d;
        let answer = json!({"intervene": intervene, "confidence": 0.5, "reason_code": reason, "action": action,
            "plan": plan, "hint": if intervene { hint } else { String::new() }, "private_diagnosis": diag}).to_string();
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let seen: Seen = Arc::default();
        let path = if prefill { CuePath::ReasoningPrefill } else { CuePath::SelfCheck };
        rt.block_on(async {
            let mut a = Advisor::new(config().cue_path(path).build().unwrap(), task(), ScriptedModel::texts([answer]));
            let _ = a.review(&[], finish(), regen(seen.clone(), vec![Draft::text("r")])).await;
        });
        for r in seen.lock().unwrap().iter() {
            let handed = format!("{:?}", r);
            prop_assert!(!handed.contains(&plan) && !handed.contains(&diag));
        }
    }
}
