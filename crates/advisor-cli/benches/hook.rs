//! `advisor hook` on a long session against a short one: the same real
//! session (`tests/fixtures/real/claude-2.0.76-codemie-slash-interrupt.jsonl`,
//! 233 lines, no compaction) with its turns repeated to 2 MB and to 200 MB.
//! Each iteration runs the built binary once, as a host would, with a fresh
//! session id (so every stop is a first review, never a spent allowance).
//! Prints the wall-time ratio and, where `/usr/bin/time` exists, the peak
//! RSS of one run of each. Target (issue 12): 200 MB within 2× the 2 MB
//! time, ≤ 64 MB peak RSS.
//!
//! `cargo bench --bench hook`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)] // criterion macros; benches may panic

use advisor_testkit::corpus as common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use criterion::{Criterion, criterion_group, criterion_main};

const FIXTURE: &str = "../../tests/fixtures/real/claude-2.0.76-codemie-slash-interrupt.jsonl";

/// Writes the fixture's first lines, then its turns (from the first prompt
/// on) repeated until the file holds at least `bytes`.
fn session(dir: &Path, name: &str, bytes: u64) -> PathBuf {
    let path = dir.join(name);
    if path.metadata().is_ok_and(|m| m.len() >= bytes) {
        return path;
    }
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // l.6 is the first genuine prompt (l.3-4 are /clear)
    let (head, turns) = lines.split_at(5);
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let mut written = 0u64;
    for l in head {
        writeln!(out, "{l}").unwrap();
        written += l.len() as u64 + 1;
    }
    while written < bytes {
        for l in turns {
            writeln!(out, "{l}").unwrap();
            written += l.len() as u64 + 1;
        }
    }
    out.flush().unwrap();
    path
}

struct Setup {
    workspace: PathBuf,
    small: PathBuf,
    large: PathBuf,
}

fn setup() -> Setup {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-hook");
    std::fs::create_dir_all(dir.join("ws/.advisor")).unwrap();
    std::fs::write(dir.join("ws/.advisor/config.toml"), "enabled = true\n").unwrap();
    Setup {
        workspace: dir.join("ws"),
        small: session(&dir, "session-2mb.jsonl", 2 << 20),
        large: session(&dir, "session-200mb.jsonl", 200 << 20),
    }
}

static SESSION: AtomicUsize = AtomicUsize::new(0);

fn input(s: &Setup, transcript: &Path) -> String {
    serde_json::json!({
        "session_id": format!("bench-{}-{}", std::process::id(), SESSION.fetch_add(1, Ordering::Relaxed)),
        "transcript_path": transcript,
        "cwd": s.workspace,
        "hook_event_name": "Stop",
        "stop_hook_active": false,
    })
    .to_string()
}

fn run(cmd: &mut Command, input: &str) -> std::process::Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    out
}

fn hook(s: &Setup, transcript: &Path) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_advisor"));
    cmd.arg("hook");
    run(&mut cmd, &input(s, transcript));
}

/// Peak RSS of one run in KiB, from `/usr/bin/time -v`.
fn peak_rss_kib(s: &Setup, transcript: &Path) -> Option<u64> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        return None;
    }
    let mut cmd = Command::new(time);
    cmd.arg("-v").arg(env!("CARGO_BIN_EXE_advisor")).arg("hook");
    let out = run(&mut cmd, &input(s, transcript));
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes): "))
        .and_then(|v| v.trim().parse().ok())
}

fn bench(c: &mut Criterion) {
    let s = setup();
    let mut g = c.benchmark_group("hook");
    g.sample_size(20);
    g.bench_function("2 MB session", |b| b.iter(|| hook(&s, &s.small)));
    g.bench_function("200 MB session", |b| b.iter(|| hook(&s, &s.large)));
    g.finish();

    let small = common::median(9, || hook(&s, &s.small));
    let large = common::median(9, || hook(&s, &s.large));
    let rss = |p: &Path| peak_rss_kib(&s, p).map_or("n/a".to_owned(), |k| format!("{:.1} MiB", k as f64 / 1024.0));
    println!(
        "RESULT hook: {:.1} ms on a {:.0} MB session, {:.1} ms on a {:.0} MB session; ratio {:.2} (target ≤ 2); peak RSS {} / {} (target ≤ 64 MiB)",
        small.as_secs_f64() * 1e3,
        s.small.metadata().unwrap().len() as f64 / 1e6,
        large.as_secs_f64() * 1e3,
        s.large.metadata().unwrap().len() as f64 / 1e6,
        large.as_secs_f64() / small.as_secs_f64(),
        rss(&s.small),
        rss(&s.large),
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
