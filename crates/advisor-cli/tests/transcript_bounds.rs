//! Issue 48, finding 8: a transcript is read within its bounds inside one
//! line too. A workspace file with no line break (sparse, gigabytes long)
//! used to be read to its start, line cap or not, and scanned again from
//! the start by the format sniff: `advisor_review` was busy for a minute
//! and the hook read it before its timeout started. Now the read from the
//! end stops at the byte cap even inside a line, the sniff reads one line
//! cap from the start, and the line cap bounds how many lines are taken.
//! The first two tests failed on the code before the fix (see
//! docs/security.md).
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use advisor_cli::transcript::{ReadOptions, read_transcript_with};

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("advisor-transcript-bounds-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn example() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-failing-tests.jsonl"))
        .unwrap()
}

/// Four GiB, sparse (no disk used), with no line break.
const HUGE: u64 = 4 << 30;

#[test]
fn a_file_with_no_line_break_is_read_no_further_than_the_byte_cap() {
    let dir = scratch("one-line");
    let path = dir.0.join("t.jsonl");
    std::fs::File::create(&path).unwrap().set_len(HUGE).unwrap();
    let started = Instant::now();
    let outcome = read_transcript_with(&path, &ReadOptions::default());
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(3),
        "reading a {HUGE}-byte file with no line break took {took:?}"
    );
    if let Ok((t, _)) = outcome {
        assert!(t.truncated);
    }
}

#[test]
fn a_transcript_after_a_line_of_gigabytes_is_read_from_its_end_within_the_cap() {
    let dir = scratch("long-first-line");
    let path = dir.0.join("t.jsonl");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(HUGE).unwrap();
    let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    file.write_all(b"\n").unwrap();
    file.write_all(&example()).unwrap();
    drop(file);
    let started = Instant::now();
    let (t, _) = read_transcript_with(&path, &ReadOptions::default()).unwrap();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(3), "took {took:?}");
    let whole = read_transcript_with(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-failing-tests.jsonl"),
        &ReadOptions::default(),
    )
    .unwrap()
    .0;
    assert_eq!(t.last_answer(), whole.last_answer());
    assert!(t.last_answer().is_some());
}

#[test]
fn the_line_cap_bounds_how_many_lines_are_taken() {
    let dir = scratch("lines");
    let path = dir.0.join("t.jsonl");
    // the example, after 300 000 blank lines: the line cap stops the read first
    let mut text = "\n".repeat(300_000).into_bytes();
    text.extend(example());
    std::fs::write(&path, &text).unwrap();
    let (t, _) = read_transcript_with(&path, &ReadOptions::default()).unwrap();
    assert!(t.last_answer().is_some());
    let few = ReadOptions {
        max_lines: 2,
        ..ReadOptions::default()
    };
    let (t, _) = read_transcript_with(&path, &few).unwrap();
    assert!(t.truncated, "two lines hold no turn start");
}
