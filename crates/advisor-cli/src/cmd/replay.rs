//! `advisor replay`: re-run the emission guard over recorded reviews.
//!
//! Input is JSONL, one object per line: a review `{"notes":[{"text","severity"}]}`
//! or an event `{"event":"rebase"}` (dedupe history cleared) /
//! `{"event":"fresh_request"}` (a new user request: everything reset) — or the
//! lines of an advisor trace (`"schema":"advisor.trace.v1"`), whose raw notes
//! are re-gated per reviewer and compared with the recorded decisions
//! (`--check` turns a difference into exit status 1, so a recorded incident is
//! a regression fixture). Blank lines are ignored; anything else is reported
//! with its line number and makes the exit status 1 — nothing is skipped
//! silently. The guard runs through the library's own gate, so a replay can
//! never disagree with a live run.
//!
//! Input is streamed line by line, so a file of any length replays in
//! constant memory: only regular files are opened, a line longer than
//! [`MAX_LINE_BYTES`] is an error naming the line (its bytes are skipped, not
//! buffered), and standard input stops at [`MAX_STDIN_BYTES`]. Output is
//! buffered; `--json` lines are written from typed structs, and the
//! human-readable form escapes control and invisible characters.

mod input;

use std::collections::HashMap;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use advisor::io::BoundedLines;

use advisor::Severity;
use advisor::gate::admit;
use advisor::guard::DEFAULT_MAX_NOTES_PER_REVIEW;
use advisor::guard::GuardSettings;
use advisor::plugin::MAX_NOTES_PER_REVIEW_LIMIT;

use advisor::EmissionGuard;
use advisor::guard::Reason;
use advisor::kind::ReviewKind;
use advisor::plugin::PLUGIN_NAME;
use advisor::render::{InjectionFrame, injection_frame};
use clap::Args;
use serde::Serialize;

use crate::json_out;
use crate::terminal::{Exit, fail, line as escape_for_terminal};
use input::{EventName, Line, MAX_LINE_BYTES, MAX_STDIN_BYTES, READ_BUFFER, Replayed, Source, line_text, parse_line};

/// Arguments of `advisor replay`.
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// JSONL file of reviews and events (`-` for standard input).
    file: String,
    /// Notes admitted per review (the plugin's breadth cap).
    #[arg(long, default_value_t = DEFAULT_MAX_NOTES_PER_REVIEW as u64,
          value_parser = clap::value_parser!(u64).range(1..=MAX_NOTES_PER_REVIEW_LIMIT as u64))]
    max_notes: u64,
    /// One JSON object per line instead of text.
    #[arg(long)]
    json: bool,
    /// Turn on similarity dedupe, as the plugin's `similarity_dedupe(true)`.
    #[arg(long)]
    similarity: bool,
    /// Exit with status 1 when a replayed decision differs from the one a trace recorded.
    #[arg(long)]
    check: bool,
}

/// Lines the reader thread hands over at a time.
const BATCH_LINES: usize = 64;
/// Batches read ahead of the guard at most.
const BATCHES_AHEAD: usize = 8;

/// One input line as the reader thread hands it over, in input order.
enum ReadLine {
    /// A line: its number and what it parsed to (`None`: blank).
    Parsed(usize, Result<Option<Line>, String>),
    /// Reading failed; nothing follows.
    Failed(io::Error),
}

/// The reader thread: reads and parses each line and hands the lines over
/// in batches, in input order. It also prepares the notes of a batch
/// (per-note work, independent of the guard's state) while the guard side
/// is busy with earlier batches; when the guard side is waiting for work,
/// the batch goes as it is and the guard side prepares it. Either way every
/// note is prepared once, the same way. Returns whether standard input went
/// past its cap. Stops early when the guard side has gone away.
fn read_ahead(
    mut source: Source,
    flags: GuardSettings,
    to_guard: &mpsc::SyncSender<Vec<ReadLine>>,
    in_flight: &AtomicUsize,
) -> bool {
    let mut batch = Vec::with_capacity(BATCH_LINES);
    for line in BoundedLines::new(&mut source, MAX_LINE_BYTES) {
        let failed = line.is_err();
        batch.push(match line {
            Ok(l) => ReadLine::Parsed(
                l.number,
                line_text(l.bytes).and_then(|text| {
                    if text.trim().is_empty() {
                        Ok(None)
                    } else {
                        parse_line(&text, flags).map(Some)
                    }
                }),
            ),
            Err(e) => ReadLine::Failed(e),
        });
        if batch.len() == BATCH_LINES || failed {
            let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_LINES));
            if !hand_over(full, to_guard, in_flight) || failed {
                return false;
            }
        }
    }
    if !batch.is_empty() && !hand_over(batch, to_guard, in_flight) {
        return false;
    }
    source.over_cap()
}

/// Sends a batch to the guard side, prepared first when the guard side is
/// busy; false when it has gone away.
fn hand_over(mut batch: Vec<ReadLine>, to_guard: &mpsc::SyncSender<Vec<ReadLine>>, in_flight: &AtomicUsize) -> bool {
    if in_flight.load(Ordering::Relaxed) > 0 {
        for line in &mut batch {
            if let ReadLine::Parsed(_, Ok(Some(Line::Review(r)))) = line {
                r.prepare();
            }
        }
    }
    in_flight.fetch_add(1, Ordering::Relaxed);
    to_guard.send(batch).is_ok()
}

pub(crate) fn run(args: &ReplayArgs) -> Exit {
    let (source, name) = Source::open(&args.file).map_err(|e| fail("replay", 2, e))?;
    let frames = match [ReviewKind::Finish, ReviewKind::Periodic].map(EscapedFrame::new) {
        [Ok(finish), Ok(periodic)] => [finish, periodic],
        _ => return Err(fail("replay", 2, "could not prepare the injection frames")),
    };
    let stdout = io::stdout();
    // the flags gate plain reviews and traces that did not record their settings
    let flags = GuardSettings {
        max_notes_per_review: usize::try_from(args.max_notes).unwrap_or(DEFAULT_MAX_NOTES_PER_REVIEW),
        similarity: args.similarity,
        max_severity: Severity::Blocker,
        interrupt: Severity::Concern,
    };
    let mut replay = Replay {
        args,
        name: &name,
        frames,
        out: io::BufWriter::with_capacity(READ_BUFFER, stdout.lock()),
        guards: HashMap::default(),
        review_no: 0,
        malformed: 0,
        differences: 0,
    };
    let (to_guard, from_reader) = mpsc::sync_channel(BATCHES_AHEAD);
    let in_flight = &AtomicUsize::new(0);
    let (replayed, over_cap) = std::thread::scope(|scope| {
        // the sender moves into the reader, so the guard side's loop ends with it
        let reader = scope.spawn(move || read_ahead(source, flags, &to_guard, in_flight));
        let replayed = replay.all(from_reader, in_flight);
        (replayed, reader.join())
    });
    replayed?;
    replay.out.flush().map_err(|e| write_failed(&e))?;
    let over_cap = over_cap.map_err(|_| fail("replay", 2, format!("{name}: the reader thread failed")))?;
    if over_cap {
        let cap = MAX_STDIN_BYTES;
        return Err(fail(
            "replay",
            1,
            format!("{name}: standard input is longer than the {cap}-byte cap; stopped there"),
        ));
    }
    if replay.malformed > 0 {
        return Err(fail(
            "replay",
            1,
            format!("{name}: {} malformed line(s)", replay.malformed),
        ));
    }
    if args.check && replay.differences > 0 {
        let differences = replay.differences;
        return Err(fail(
            "replay",
            1,
            format!("{name}: {differences} decision(s) differ from the trace"),
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// The guard side of a replay: the guards per reviewer, the output and the
/// counts of what went wrong.
struct Replay<'a, W: Write> {
    args: &'a ReplayArgs,
    name: &'a str,
    frames: [EscapedFrame; 2],
    out: W,
    /// One guard per reviewer (foldhash: the names are not secret).
    guards: HashMap<String, EmissionGuard, foldhash::fast::RandomState>,
    review_no: usize,
    malformed: usize,
    differences: usize,
}

impl<W: Write> Replay<'_, W> {
    /// Replays every line the reader hands over; `Err` is the exit status
    /// when reading or writing failed.
    fn all(&mut self, from_reader: mpsc::Receiver<Vec<ReadLine>>, in_flight: &AtomicUsize) -> Result<(), ExitCode> {
        for batch in from_reader {
            in_flight.fetch_sub(1, Ordering::Relaxed);
            for line in batch {
                let result = match line {
                    ReadLine::Parsed(line_no, parsed) => self.line(line_no, parsed),
                    ReadLine::Failed(e) => {
                        let _ = self.out.flush();
                        return Err(fail("replay", 2, format!("{}: reading: {e}", self.name)));
                    }
                };
                if let Err(e) = result {
                    return Err(write_failed(&e));
                }
            }
        }
        Ok(())
    }

    fn line(&mut self, line_no: usize, parsed: Result<Option<Line>, String>) -> io::Result<()> {
        let (out, json) = (&mut self.out, self.args.json);
        match parsed {
            Ok(None) => Ok(()),
            Ok(Some(Line::Event(reviewer, event))) => {
                // a guard not made yet is fresh: it is made at the reviewer's first review
                if let Some(guard) = self.guards.get_mut(&reviewer) {
                    guard.reset();
                }
                print_event(out, json, &reviewer, &event)
            }
            Ok(Some(Line::NotRun(event, reviewer, why))) => {
                if json {
                    writeln!(
                        out,
                        "{}",
                        serde_json::json!({ "event": event, "reviewer": reviewer, "why": why })
                    )
                } else {
                    writeln!(
                        out,
                        "-- {event} ({}): {}",
                        escape_for_terminal(&reviewer),
                        escape_for_terminal(&why)
                    )
                }
            }
            Ok(Some(Line::Review(mut r))) => {
                self.review_no += 1;
                if let Some(why) = &r.failed {
                    return print_failed(out, json, self.review_no, &r.reviewer, why);
                }
                if !self.guards.contains_key(&r.reviewer) {
                    self.guards.insert(r.reviewer.clone(), r.settings.guard());
                }
                let Some(guard) = self.guards.get_mut(&r.reviewer) else {
                    return Ok(()); // inserted just above
                };
                r.prepare();
                let notes = r.prepared.take().unwrap_or_default();
                let count = notes.len();
                let gate = admit(guard, notes, r.kind, r.settings.max_severity, r.settings.interrupt);
                let differs = r.recorded.as_ref().map_or(0, |rec| {
                    gate.outcome
                        .admissions
                        .iter()
                        .filter(|a| rec.get(a.index) != Some(&a.reason))
                        .count()
                });
                if differs > 0 {
                    self.differences += differs;
                    eprintln!(
                        "advisor replay: {}:{line_no}: {differs} decision(s) differ from the recorded ones",
                        escape_for_terminal(self.name)
                    );
                }
                print_review(out, json, &self.frames, self.review_no, &r, count, &gate)
            }
            Err(msg) => {
                self.malformed += 1;
                eprintln!(
                    "advisor replay: {}:{line_no}: {}",
                    escape_for_terminal(self.name),
                    escape_for_terminal(&msg)
                );
                Ok(())
            }
        }
    }
}

/// The exit status for a failed write: success when the reader went away
/// (a closed pipe), else 2.
fn write_failed(e: &io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    eprintln!("advisor replay: writing output: {e}");
    ExitCode::from(2)
}

/// One `--json` line per note: `{"accepted","key","note","reason",
/// "recorded_reason"?,"review","reviewer"?}` — alphabetical, the order
/// `replay` has always written — exactly as serde_json writes it.
fn write_note_json(
    out: &mut impl Write,
    a: &advisor::guard::Admission,
    recorded: Option<Reason>,
    review: usize,
    reviewer: Option<&str>,
) -> io::Result<()> {
    out.write_all(if a.accepted() {
        b"{\"accepted\":true,\"key\":"
    } else {
        b"{\"accepted\":false,\"key\":"
    })?;
    json_out::write_key(out, &a.key)?;
    out.write_all(b",\"note\":")?;
    json_out::write_usize(out, a.index + 1)?;
    out.write_all(b",\"reason\":\"")?;
    out.write_all(a.reason.as_str().as_bytes())?;
    if let Some(rec) = recorded {
        out.write_all(b"\",\"recorded_reason\":\"")?;
        out.write_all(rec.as_str().as_bytes())?;
    }
    out.write_all(b"\",\"review\":")?;
    json_out::write_usize(out, review)?;
    if let Some(reviewer) = reviewer {
        out.write_all(b",\"reviewer\":")?;
        json_out::write_str(out, reviewer)?;
    }
    out.write_all(b"}\n")
}

/// An injection's fixed head and tail ([`injection_frame`]) for one review
/// kind, raw and as JSON string contents, so `--json` escapes them once per
/// run instead of once per review.
struct EscapedFrame {
    frame: InjectionFrame,
    head: String,
    tail: String,
}

impl EscapedFrame {
    fn new(kind: ReviewKind) -> io::Result<EscapedFrame> {
        let frame = injection_frame(kind);
        Ok(EscapedFrame {
            frame,
            head: json_contents(frame.head)?,
            tail: json_contents(frame.tail)?,
        })
    }
}

/// `s` as a JSON string without its quotes (JSON escaping is per character,
/// so contents of pieces concatenate to the contents of the whole).
fn json_contents(s: &str) -> io::Result<String> {
    let mut v = Vec::new();
    json_out::write_str_contents(&mut v, s)?;
    String::from_utf8(v).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// The `--json` line closing a review: `{"injection":…,"interrupt":…,"review":…}`,
/// written exactly as serde_json writes it, with the injection's frame
/// pre-escaped.
fn write_review_json(
    out: &mut impl Write,
    frames: &[EscapedFrame; 2],
    kind: ReviewKind,
    injection: Option<&str>,
    review: usize,
) -> io::Result<()> {
    out.write_all(b"{\"injection\":")?;
    match injection {
        None => out.write_all(b"null")?,
        Some(text) => {
            let f = &frames[usize::from(kind == ReviewKind::Periodic)];
            match text
                .strip_prefix(f.frame.head)
                .and_then(|rest| rest.strip_suffix(f.frame.tail))
            {
                Some(advisories) => {
                    out.write_all(b"\"")?;
                    out.write_all(f.head.as_bytes())?;
                    json_out::write_str_contents(out, advisories)?;
                    out.write_all(f.tail.as_bytes())?;
                    out.write_all(b"\"")?;
                }
                None => json_out::write_str(out, text)?,
            }
        }
    }
    out.write_all(if injection.is_some() {
        b",\"interrupt\":true,\"review\":"
    } else {
        b",\"interrupt\":false,\"review\":"
    })?;
    json_out::write_usize(out, review)?;
    out.write_all(b"}\n")
}

/// The `--json` line of a review that failed when it was recorded.
#[derive(Serialize)]
struct FailedJson<'a> {
    error: &'a str,
    injection: Option<&'a str>,
    interrupt: bool,
    review: usize,
    reviewer: &'a str,
}

/// The `--json` line of an event.
#[derive(Serialize)]
struct EventJson<'a> {
    event: &'a str,
    reviewer: &'a str,
}

fn write_json(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

fn print_failed(out: &mut impl Write, json: bool, review: usize, reviewer: &str, why: &str) -> io::Result<()> {
    if json {
        write_json(
            out,
            &FailedJson {
                error: why,
                injection: None,
                interrupt: false,
                review,
                reviewer,
            },
        )
    } else {
        writeln!(
            out,
            "review {review} ({}): the reviewer failed ({}); the run went on without advice",
            escape_for_terminal(reviewer),
            escape_for_terminal(why)
        )
    }
}

fn print_event(out: &mut impl Write, json: bool, reviewer: &str, event: &EventName) -> io::Result<()> {
    let (name, what) = match event {
        EventName::Rebase => ("rebase", "dedupe history cleared"),
        EventName::FreshRequest => ("fresh_request", "new user request: dedupe history cleared"),
    };
    if json {
        write_json(out, &EventJson { event: name, reviewer })
    } else {
        writeln!(out, "-- {name} ({}): {what}", escape_for_terminal(reviewer))
    }
}

#[allow(clippy::too_many_arguments)]
fn print_review(
    out: &mut impl Write,
    json: bool,
    frames: &[EscapedFrame; 2],
    review: usize,
    r: &Replayed,
    count: usize,
    gate: &advisor::gate::Admitted,
) -> io::Result<()> {
    let recorded = |i: usize| r.recorded.as_ref().and_then(|rec| rec.get(i)).copied();
    if json {
        let reviewer = (r.reviewer != PLUGIN_NAME).then_some(r.reviewer.as_str());
        for a in &gate.outcome.admissions {
            write_note_json(out, a, recorded(a.index), review, reviewer)?;
        }
        return write_review_json(out, frames, r.kind, gate.injection.as_deref(), review);
    }
    let verdict = if gate.interrupts() {
        "interrupts"
    } else {
        "does not interrupt"
    };
    let who = if r.reviewer == PLUGIN_NAME {
        String::new()
    } else {
        format!(" ({})", escape_for_terminal(&r.reviewer))
    };
    writeln!(out, "review {review}{who}: {} {} note(s), {verdict}", r.kind, count)?;
    for a in &gate.outcome.admissions {
        let differs = match recorded(a.index) {
            Some(rec) if rec != a.reason => format!("  (recorded: {})", rec.as_str()),
            _ => String::new(),
        };
        writeln!(
            out,
            "  note {} {:<9} {:<12} {}{differs}",
            a.index + 1,
            format!("[{}]", a.note.severity),
            a.reason.as_str(),
            escape_for_terminal(&format!("{:?}", a.note.text))
        )?;
    }
    if let Some(injection) = &gate.injection {
        writeln!(out, "  injection:")?;
        for l in injection.lines() {
            writeln!(out, "    {}", escape_for_terminal(l))?;
        }
    }
    Ok(())
}
