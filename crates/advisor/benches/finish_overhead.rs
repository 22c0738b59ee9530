//! Finish-review overhead of `AdvisorPlugin` with an instant reviewer over a
//! 32-message window, against the same loop without the advisor.
//!
//! `cargo bench --bench finish_overhead`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // criterion macros; benches may panic

use advisor_testkit::corpus as common;

use advisor::host::ToolCall;
use advisor::model::{ChatResponse, ScriptedModel, ToolSpec};
use advisor::{AdvisorPlugin, Agent, agent::tool_fn, review};
use criterion::{Criterion, criterion_group, criterion_main};

/// 15 tool turns then an answer: a 32-message window at the finish.
fn script() -> ScriptedModel {
    let mut turns: Vec<ChatResponse> = (0..15)
        .map(|i| {
            ChatResponse::tool_calls(vec![ToolCall {
                id: format!("c{i}"),
                name: "lookup".into(),
                arguments: "{\"q\":1}".into(),
            }])
        })
        .collect();
    turns.push(ChatResponse::text("The total is 3.1M after refunds."));
    ScriptedModel::new(turns)
}

fn agent(with_advisor: bool) -> Agent {
    let spec = ToolSpec {
        name: "lookup".into(),
        description: "look up".into(),
        parameters: serde_json::json!({}),
    };
    let mut a = Agent::new(script())
        .tool(spec, tool_fn(|_| Ok("region,total\n1,1234.56".into())), false)
        .max_turns(20)
        .unwrap();
    if with_advisor {
        a = a.extension(
            AdvisorPlugin::builder()
                .reviewer(review::from_sync_fn(|_r: &review::Review| Ok(vec![])))
                .build()
                .unwrap(),
        );
    }
    a
}

fn bench(c: &mut Criterion) {
    let rt = common::runtime();
    let mut g = c.benchmark_group("run with a finish review");
    g.bench_function("without advisor", |b| {
        b.iter(|| rt.block_on(agent(false).run("sum revenue")).unwrap())
    });
    g.bench_function("with advisor (instant reviewer)", |b| {
        b.iter(|| rt.block_on(agent(true).run("sum revenue")).unwrap())
    });
    g.finish();

    let reps = 200;
    let without = common::median(7, || {
        for _ in 0..reps {
            rt.block_on(agent(false).run("sum revenue")).unwrap();
        }
    });
    let with = common::median(7, || {
        for _ in 0..reps {
            rt.block_on(agent(true).run("sum revenue")).unwrap();
        }
    });
    println!(
        "RESULT finish overhead: {:.1} µs per run without, {:.1} µs with the advisor; +{:.1} µs per finish review, ratio {:.2}",
        without.as_secs_f64() * 1e6 / reps as f64,
        with.as_secs_f64() * 1e6 / reps as f64,
        (with.as_secs_f64() - without.as_secs_f64()) * 1e6 / reps as f64,
        with.as_secs_f64() / without.as_secs_f64()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
