//! The model reviewer's own overhead: building the prompt for a 32-message
//! window and parsing an answer, next to which a model call (hundreds of
//! milliseconds) is what costs.
//!
//! `cargo bench --bench reviewer`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // criterion macros; benches may panic

use advisor::host::{Message, Role, ToolTrace};
use advisor::kind::ReviewKind;
use advisor::model::ScriptedModel;
use advisor::review::{ModelReviewer, Review, parse_notes};
use advisor::{Note, evidence::EvidenceBounds, evidence::Window};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn window_review() -> Review {
    let mut history = vec![Message::user("Reconcile the March revenue report against the ledger.")];
    for i in 0..40 {
        history.push(Message::assistant(format!(
            "Step {i}: querying the ledger for region {i} with the refund filter."
        )));
        history.push(Message {
            name: Some("run_sql".into()),
            ..Message::new(Role::Tool, format!("region,total\n{i},{}\n", "1234.56,".repeat(60)))
        });
    }
    let mut window = Window::new(EvidenceBounds::default());
    window.replace(&history);
    Review {
        kind: ReviewKind::Finish,
        reviewer: "advisor".into(),
        final_answer: Some("March revenue was 3.1M after refunds; every region reconciles.".into()),
        turns: 41,
        messages: window.messages().into(),
        omitted_messages: window.omitted(),
        tools: (0..32)
            .map(|i| ToolTrace {
                name: "run_sql".into(),
                args: format!("select {i}"),
                output: "ok".into(),
                error: None,
                exit_code: None,
            })
            .collect(),
        round: 1,
        delivered: vec![Note::concern("the refund filter is applied twice in region 7")],
        ..Review::default()
    }
}

fn bench(c: &mut Criterion) {
    let review = window_review();
    assert_eq!(review.messages.len(), 32);
    let reviewer = ModelReviewer::new(ScriptedModel::default());
    c.bench_function("build prompt (32-message window)", |b| {
        b.iter(|| black_box(reviewer.request(black_box(&review))))
    });
    let answer = "```json\n{\"notes\":[{\"text\":\"Region 7 subtracts refunds twice: the CTE already excludes them.\",\"severity\":\"blocker\"},{\"text\":\"The answer says every region reconciles, but region 12 was never queried.\",\"severity\":\"concern\"}]}\n```";
    c.bench_function("parse answer (2 notes, fenced)", |b| {
        b.iter(|| black_box(parse_notes(black_box(answer))))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
