//! The rules reviewer as a plugin's member reads a finish with its own
//! evidence bounds: up to 16 000 bytes of each tool call, where a failing line
//! can sit above the last kilobyte the configured bounds keep for a model.
//! Must not test anything but the rules reviewer's verdicts.

use advisor::agent::tool_fn;
use advisor::host::ToolCall;
use advisor::model::{ChatResponse, ScriptedModel, ToolSpec};
use advisor::{AdvisorPlugin, Agent};
use advisor_rules::RulesReviewer;

/// A `go build` through `tail` whose compile error sits 1 500 bytes into
/// 5 000 bytes of output: outside the head and the tail that 1 000 bytes keep.
fn build_output() -> String {
    let filler = |n: usize| "go: noting progress of the build here\n".repeat(n);
    format!("{}./main.go:3:2: undefined: foo\n{}", filler(40), filler(90))
}

fn build_call() -> ChatResponse {
    ChatResponse::tool_calls(vec![ToolCall {
        id: "1".into(),
        name: "Bash".into(),
        arguments: serde_json::json!({ "command": "go build ./... 2>&1 | tail -200" }).to_string(),
    }])
}

fn agent(model: ScriptedModel, plugin: AdvisorPlugin) -> Agent {
    let spec = ToolSpec {
        name: "Bash".into(),
        description: "Run a command".into(),
        parameters: serde_json::json!({}),
    };
    Agent::new(model)
        .tool(spec, tool_fn(|_| Ok(build_output())), false)
        .extension(plugin)
}

#[tokio::test]
async fn the_rules_read_a_compile_error_above_the_last_kilobyte() {
    let model = ScriptedModel::new([
        build_call(),
        ChatResponse::text("The build is clean."),
        ChatResponse::text("The build failed: `undefined: foo` in main.go."),
    ]);
    let plugin = AdvisorPlugin::builder().reviewer(RulesReviewer::new()).build().unwrap();
    let out = agent(model.clone(), plugin).run("build it").await.unwrap();
    assert_eq!(model.calls(), 3, "the false claim was sent back");
    let advisory = (model.requests()[2].messages.iter())
        .find(|m| m.content.contains("<advisory"))
        .map(|m| m.content.clone())
        .unwrap();
    assert!(advisory.contains("undefined: foo"), "{advisory}");
    assert!(out.final_answer.contains("failed"));
}
