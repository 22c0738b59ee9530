//! 1 000 concurrent `rollout::Advisor` reviews against a local mock
//! OpenAI-compatible server on loopback: the advisor-side overhead per review
//! (against the same 1 000 bare model calls), peak memory, and memory per idle
//! advisor (target ≤ 16 KiB).
//!
//! `cargo bench --bench rollout_load`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // criterion macros; benches may panic

use advisor_testkit::corpus as common;

use std::sync::Arc;

use advisor::host::Message;
use advisor::model::{ChatModel, ChatRequest, OpenAiCompatible};
use advisor::rollout::{Advisor, AdvisorConfig, Draft, TaskMaterial};
use criterion::{Criterion, criterion_group, criterion_main};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

const CONTINUE: &str = r#"{"intervene": false, "confidence": 0.9, "reason_code": "COMPLETE", "action": "CONTINUE", "plan": "1. merge ties (done)", "hint": "", "private_diagnosis": "fine"}"#;

fn task() -> TaskMaterial {
    TaskMaterial::new("Make merge keep insertion order for equal keys.").file(
        "tests/test_hidden.py",
        "def test_equal_keys():\n    assert merge([(1,'a'),(1,'b')]) == [(1,'a'),(1,'b')]\n".repeat(20),
    )
}

fn history() -> Vec<Message> {
    (0..24)
        .map(|i| {
            if i % 2 == 0 {
                Message::user(format!("step {i}"))
            } else {
                Message::assistant(format!("ran check {i}: ok"))
            }
        })
        .collect()
}

fn vm_hwm_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn bench(c: &mut Criterion) {
    let rt = common::runtime();
    let server = rt.block_on(async {
        let s = MockServer::start().await;
        let body = serde_json::json!({"choices": [{"message": {"role": "assistant", "content": CONTINUE}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 40}});
        Mock::given(method("POST")).respond_with(ResponseTemplate::new(200).set_body_json(body)).mount(&s).await;
        s
    });
    let model = Arc::new(
        OpenAiCompatible::builder(format!("{}/v1", server.uri()), "mock")
            .max_concurrency(64)
            .build()
            .unwrap(),
    );
    let config = Arc::new(AdvisorConfig::builder().build().unwrap());
    let task = Arc::new(task());
    let history = Arc::new(history());

    c.bench_function("one rollout review against the mock server", |b| {
        b.iter(|| {
            rt.block_on(async {
                let mut a = Advisor::with_shared_model(config.clone(), task.clone(), model.clone());
                a.review(&history, Draft::calling("done", "submit"), |_| async {
                    Ok(Draft::text("r"))
                })
                .await
                .unwrap()
            })
        })
    });

    let n = 1_000;
    // the same request size the advisor sends, as bare model calls
    let probe = {
        let captured = Arc::new(advisor::model::ScriptedModel::texts([CONTINUE]));
        let mut b = Advisor::with_shared_model(config.clone(), task.clone(), captured.clone());
        rt.block_on(b.review(&history, Draft::calling("done", "submit"), |_| async {
            Ok(Draft::text("r"))
        }))
        .unwrap();
        captured.requests()[0].clone()
    };
    let bare = |req: ChatRequest| {
        let model = model.clone();
        async move { model.complete(req).await.unwrap() }
    };
    let hwm_before = vm_hwm_kib();
    let t_bare = common::median(3, || {
        rt.block_on(async {
            let hs: Vec<_> = (0..n).map(|_| tokio::spawn(bare(probe.clone()))).collect();
            for h in hs {
                h.await.unwrap();
            }
        })
    });
    let t_adv = common::median(3, || {
        rt.block_on(async {
            let hs: Vec<_> = (0..n)
                .map(|_| {
                    let (config, task, model, history) = (config.clone(), task.clone(), model.clone(), history.clone());
                    tokio::spawn(async move {
                        let mut a = Advisor::with_shared_model(config, task, model);
                        a.review(&history, Draft::calling("done", "submit"), |_| async {
                            Ok(Draft::text("r"))
                        })
                        .await
                        .unwrap()
                    })
                })
                .collect();
            for h in hs {
                h.await.unwrap();
            }
        })
    });
    let hwm_after = vm_hwm_kib();

    let idle = 10_000;
    let rss_before = common::rss_kib();
    let advisors: Vec<Advisor> = (0..idle)
        .map(|_| Advisor::with_shared_model(config.clone(), task.clone(), model.clone()))
        .collect();
    let rss_after = common::rss_kib();
    let per_idle = (rss_after.saturating_sub(rss_before)) as f64 * 1024.0 / idle as f64;
    drop(advisors);

    println!(
        "RESULT rollout: {n} concurrent reviews in {:.0} ms vs {:.0} ms of bare model calls: advisor-side overhead {:.1} µs per review (ratio {:.2}); peak RSS {} MiB (+{} MiB during the runs); {:.0} bytes per idle advisor (target ≤ 16384)",
        t_adv.as_secs_f64() * 1e3,
        t_bare.as_secs_f64() * 1e3,
        (t_adv.as_secs_f64() - t_bare.as_secs_f64()) * 1e6 / n as f64,
        t_adv.as_secs_f64() / t_bare.as_secs_f64(),
        hwm_after / 1024,
        hwm_after.saturating_sub(hwm_before) / 1024,
        per_idle
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
