//! Each reviewer of a plugin reads a finish with its own evidence bounds:
//! the configured ones by default (a model's prompt is sized by them), wider
//! ones where the reviewer asks (the offline rules read up to 16 000 bytes of
//! each tool call, where a failing line can sit above the last kilobyte: the
//! rules crate's own tests show that one through the plugin).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};

use advisor::agent::tool_fn;
use advisor::evidence::EvidenceBounds;
use advisor::host::ToolCall;
use advisor::model::{ChatResponse, ScriptedModel, ToolSpec};
use advisor::plugin::NamedReviewer;
use advisor::review::{Review, ReviewError, Reviewer};
use advisor::{AdvisorPlugin, Agent, Note};
use async_trait::async_trait;

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

/// Records the output of the tool call it was shown; asks for `bounds`.
struct Recorder {
    seen: Arc<Mutex<Vec<usize>>>,
    bounds: Option<EvidenceBounds>,
}

#[async_trait]
impl Reviewer for Recorder {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        let len = review.tools.iter().map(|t| t.output.len()).max().unwrap_or(0);
        self.seen.lock().unwrap().push(len);
        Ok(Vec::new())
    }

    fn evidence_bounds(&self, configured: EvidenceBounds) -> EvidenceBounds {
        self.bounds.unwrap_or(configured)
    }
}

#[tokio::test]
async fn every_reviewer_reads_with_its_own_bounds_and_the_default_keeps_the_configured() {
    let plain = Arc::new(Mutex::new(Vec::new()));
    let wide = Arc::new(Mutex::new(Vec::new()));
    let wider = EvidenceBounds {
        max_tool_field_bytes: 8_000,
        ..EvidenceBounds::default()
    };
    let plugin = AdvisorPlugin::builder()
        .add_reviewer(NamedReviewer::new(
            "plain",
            Recorder {
                seen: plain.clone(),
                bounds: None,
            },
        ))
        .add_reviewer(NamedReviewer::new(
            "wide",
            Recorder {
                seen: wide.clone(),
                bounds: Some(wider),
            },
        ))
        .build()
        .unwrap();
    let model = ScriptedModel::new([build_call(), ChatResponse::text("Done.")]);
    agent(model, plugin).run("build it").await.unwrap();
    let full = build_output().len();
    assert_eq!(*wide.lock().unwrap(), vec![full]);
    let plain = plain.lock().unwrap().clone();
    assert_eq!(plain.len(), 1);
    assert!(plain[0] < 1_100 && plain[0] < full, "{plain:?}");
}
