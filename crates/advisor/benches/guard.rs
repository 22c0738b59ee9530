//! Guard throughput on a realistic note mix, single thread: notes per second,
//! the cost ratio of similarity dedupe (on / off), the dedupe key's one-pass
//! fast path against its plain definition, and the share of the gate that is
//! per-note preparation (`PreparedNote`: what `advisor replay` moves to its
//! reader thread) — each measured in one run.
//!
//! `cargo bench --bench guard`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // criterion macros; benches may panic

use advisor_testkit::corpus as common;

use std::hint::black_box;

use advisor::guard::{PreparedNote, normalize_note, normalize_note_spec};
use advisor::review::ReviewKind;
use advisor::{EmissionGuard, Severity, gate::admit};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn run(reviews: &[Vec<advisor::Note>], similarity: bool) -> usize {
    let mut guard = EmissionGuard::new(3).with_similarity(similarity);
    let mut delivered = 0;
    for r in reviews {
        delivered += admit(&mut guard, r, ReviewKind::Finish, Severity::Blocker)
            .accepted()
            .len();
    }
    delivered
}

fn bench(c: &mut Criterion) {
    let reviews = common::note_corpus(20_000);
    let notes: usize = reviews.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("guard");
    g.throughput(Throughput::Elements(notes as u64));
    g.bench_function(format!("gate {notes} notes (exact dedupe)"), |b| {
        b.iter(|| black_box(run(&reviews, false)))
    });
    g.bench_function(format!("gate {notes} notes (similarity dedupe)"), |b| {
        b.iter(|| black_box(run(&reviews, true)))
    });
    let texts: Vec<&str> = reviews.iter().flatten().map(|n| n.text.as_str()).collect();
    g.bench_function(format!("key {notes} notes (fast path)"), |b| {
        b.iter(|| texts.iter().map(|t| normalize_note(t).len()).sum::<usize>())
    });
    g.bench_function(format!("key {notes} notes (plain definition)"), |b| {
        b.iter(|| texts.iter().map(|t| normalize_note_spec(t).len()).sum::<usize>())
    });
    g.finish();

    let fast = common::median(9, || {
        black_box(texts.iter().map(|t| normalize_note(t).len()).sum::<usize>());
    });
    let spec = common::median(9, || {
        black_box(texts.iter().map(|t| normalize_note_spec(t).len()).sum::<usize>());
    });
    println!(
        "RESULT guard key: {notes} notes, fast path {:.0} notes/s, plain definition {:.0} notes/s; speed-up {:.2}",
        notes as f64 / fast.as_secs_f64(),
        notes as f64 / spec.as_secs_f64(),
        spec.as_secs_f64() / fast.as_secs_f64()
    );

    let prepare = common::median(9, || {
        for n in reviews.iter().flatten() {
            black_box(PreparedNote::from(n));
        }
    });
    let off = common::median(9, || {
        black_box(run(&reviews, false));
    });
    let on = common::median(9, || {
        black_box(run(&reviews, true));
    });
    println!(
        "RESULT guard: {notes} notes, {:.0} notes/s exact, {:.0} notes/s similarity; similarity/exact cost ratio {:.2}",
        notes as f64 / off.as_secs_f64(),
        notes as f64 / on.as_secs_f64(),
        on.as_secs_f64() / off.as_secs_f64()
    );
    println!(
        "RESULT guard prepare: {notes} notes, preparing them (delivered text + key) takes {:.2} of the exact gate",
        prepare.as_secs_f64() / off.as_secs_f64()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
