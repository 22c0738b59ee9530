//! Observe cost per provider request at 100 and at 100 000 history messages:
//! the cost is the window, not the history (target ratio ≤ 1.5).
//!
//! `cargo bench --bench observe`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // criterion macros; benches may panic

use advisor_testkit::corpus as common;

use std::hint::black_box;

use advisor::host::{Message, ObservePhase, RunObserver};
use advisor::{AdvisorPlugin, review};
use criterion::{Criterion, criterion_group, criterion_main};

fn history(n: usize) -> Vec<Message> {
    (0..n)
        .map(|i| match i % 3 {
            0 => Message::user(format!("step {i}: please check the totals for region {i}")),
            1 => Message::assistant(format!(
                "running the query for region {i} with the refund filter applied"
            )),
            _ => Message::new(
                advisor::host::Role::Tool,
                format!("region,total\n{i},{}", "1234.56,".repeat(40)),
            ),
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|_r: &review::Review| Ok(vec![])))
        .build()
        .unwrap();
    let small = history(100);
    let large = history(100_000);
    let mut run = plugin.start_run();
    let mut g = c.benchmark_group("observe request");
    g.bench_function("100 messages", |b| {
        b.iter(|| run.observe_messages(ObservePhase::Request, 1, black_box(&small)))
    });
    g.bench_function("100000 messages", |b| {
        b.iter(|| run.observe_messages(ObservePhase::Request, 1, black_box(&large)))
    });
    g.finish();

    let reps = 2_000;
    let t_small = common::median(7, || {
        for _ in 0..reps {
            run.observe_messages(ObservePhase::Request, 1, black_box(&small));
        }
    });
    let t_large = common::median(7, || {
        for _ in 0..reps {
            run.observe_messages(ObservePhase::Request, 1, black_box(&large));
        }
    });
    println!(
        "RESULT observe: {:.2} µs per request at 100 messages, {:.2} µs at 100000; ratio {:.2} (target ≤ 1.5)",
        t_small.as_secs_f64() * 1e6 / reps as f64,
        t_large.as_secs_f64() * 1e6 / reps as f64,
        t_large.as_secs_f64() / t_small.as_secs_f64()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
