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
use advisor::kind::ReviewKind;
use advisor::{EmissionGuard, Severity, gate::admit};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn run(reviews: &[Vec<advisor::Note>], similarity: bool) -> usize {
    let mut guard = EmissionGuard::new(3).with_similarity(similarity);
    let mut delivered = 0;
    for r in reviews {
        delivered += admit(&mut guard, r, ReviewKind::Finish, Severity::Blocker, Severity::Concern)
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

    // one pass over the notes takes a few milliseconds, at the mercy of the
    // scheduler: each sample times the two one after the other and keeps
    // their ratio; the figures are the medians of 41 samples
    let pass = |f: fn(&str) -> String| {
        let t = std::time::Instant::now();
        for _ in 0..4 {
            black_box(texts.iter().map(|t| f(t).len()).sum::<usize>());
        }
        t.elapsed().as_secs_f64() / 4.0
    };
    let mut samples: Vec<(f64, f64)> = (0..41)
        .map(|_| (pass(normalize_note), pass(normalize_note_spec)))
        .collect();
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let mut fast: Vec<f64> = samples.iter().map(|s| s.0).collect();
    let mut spec: Vec<f64> = samples.iter().map(|s| s.1).collect();
    let mut ratio: Vec<f64> = samples.drain(..).map(|(f, s)| s / f).collect();
    println!(
        "RESULT guard key: {notes} notes, fast path {:.0} notes/s, plain definition {:.0} notes/s; speed-up {:.2}",
        notes as f64 / med(&mut fast),
        notes as f64 / med(&mut spec),
        med(&mut ratio)
    );

    // the gate's ratios the same way: each sample times preparation, the
    // exact gate and the similarity gate one after the other
    let time = |f: &mut dyn FnMut()| {
        let t = std::time::Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    let mut samples: Vec<(f64, f64, f64)> = (0..15)
        .map(|_| {
            let prepare = time(&mut || {
                for n in reviews.iter().flatten() {
                    black_box(PreparedNote::from(n));
                }
            });
            let off = time(&mut || {
                black_box(run(&reviews, false));
            });
            let on = time(&mut || {
                black_box(run(&reviews, true));
            });
            (prepare, off, on)
        })
        .collect();
    let mut off: Vec<f64> = samples.iter().map(|s| s.1).collect();
    let mut on: Vec<f64> = samples.iter().map(|s| s.2).collect();
    let mut similarity: Vec<f64> = samples.iter().map(|s| s.2 / s.1).collect();
    let mut prepare: Vec<f64> = samples.drain(..).map(|s| s.0 / s.1).collect();
    println!(
        "RESULT guard: {notes} notes, {:.0} notes/s exact, {:.0} notes/s similarity; similarity/exact cost ratio {:.2}",
        notes as f64 / med(&mut off),
        notes as f64 / med(&mut on),
        med(&mut similarity)
    );
    println!(
        "RESULT guard prepare: {notes} notes, preparing them (delivered text + key) takes {:.2} of the exact gate",
        med(&mut prepare)
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
