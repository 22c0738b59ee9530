//! The privileged rollout advisor on one scripted attempt: the solver tries to
//! submit after a narrow check, the advisor (which sees the hidden test)
//! intervenes with a fixed self-check cue and withholds the finish tool, the
//! solver validates more broadly, and the advisor lets the next finish through.
//! The private trace goes to `traces/attempt-1.jsonl` (under the current
//! directory, rewritten on each run) and is printed at the end:
//!
//! ```text
//! cargo run --example rollout
//! advisor summarize traces/ --json
//! ```

use advisor::host::Message;
use advisor::model::ScriptedModel;
use advisor::rollout::{Advisor, AdvisorConfig, Arm, Draft, Outcome, RolloutTrace, TaskMaterial};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let task = TaskMaterial::new("Make `merge` keep insertion order for equal keys.").file(
        "tests/test_hidden.py",
        "def test_equal_keys():\n    assert merge([(1,'a'),(1,'b')]) == [(1,'a'),(1,'b')]\n",
    );
    // The advisor model: intervene at the first finish, continue at the second.
    let advisor_model = ScriptedModel::texts([
        r#"{"intervene": true, "confidence": 0.7, "reason_code": "INSUFFICIENT_END_TO_END_VALIDATION",
            "action": "RUN_BROADER_VALIDATION", "plan": "1. equal keys 2. empty input",
            "hint": "", "private_diagnosis": "the hidden equal-keys test still fails"}"#,
        r#"{"intervene": false, "confidence": 0.9, "reason_code": "COMPLETE", "action": "CONTINUE",
            "plan": "1. equal keys (done) 2. empty input (done)", "hint": "",
            "private_diagnosis": "both cases now pass"}"#,
    ]);
    let config = AdvisorConfig::builder().max_interventions(2).build()?;
    let trace_path = std::path::Path::new("traces").join("attempt-1.jsonl");
    std::fs::create_dir_all("traces")?;
    let trace = RolloutTrace::start(
        std::fs::File::create(&trace_path)?,
        "attempt-1",
        "merge-ties",
        Arm::Advised,
    );
    let mut advisor = Advisor::new(config, task, advisor_model).with_trace(trace.clone());

    let history = vec![Message::user("Make `merge` keep insertion order for equal keys.")];
    let draft = Draft::calling("I ran one example and it works; submitting.", "submit");
    let committed = advisor
        .review(&history, draft, |revision| async move {
            println!("cue to the solver: {}", revision.cue.text);
            println!("finish tool offered: {}", revision.finish_tool_offered);
            Ok(Draft::text(
                "Running the full test suite, including equal and empty inputs.",
            ))
        })
        .await?;
    println!("committed: {}", committed.text);
    let second = Draft::calling("All cases pass, including equal keys; submitting.", "submit");
    let committed = advisor
        .review(&history, second, |_| async { Err("not needed".to_owned()) })
        .await?;
    println!("committed: {} (finish: {})", committed.text, committed.calls("submit"));
    trace.end(Outcome::Passed);
    drop(advisor);
    drop(trace);
    println!(
        "\nprivate trace: {} (try `advisor summarize traces/ --json`)",
        trace_path.display()
    );
    print!("{}", std::fs::read_to_string(&trace_path)?);
    Ok(())
}
