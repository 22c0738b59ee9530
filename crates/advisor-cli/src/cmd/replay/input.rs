//! The input of `advisor replay`: its lines, streamed and parsed.
//!
//! Owns [`Source`] (a regular file, or standard input up to
//! [`MAX_STDIN_BYTES`]), the per-line cap [`MAX_LINE_BYTES`], and the parsing
//! of each line into a [`Line`]: a recorded review, an event, or the lines of
//! an advisor trace. Must not run the guard or write output; `replay` does.

use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use advisor::guard::{GuardSettings, PreparedNote, Reason};
use advisor::io::open_regular;
use advisor::kind::ReviewKind;
use advisor::plugin::PLUGIN_NAME;
use advisor::trace::{TRACE_SCHEMA, TraceEvent, TraceEventKind};
use advisor::{Note, Severity};
use serde::Deserialize;

/// Longest input line `replay` accepts, in bytes; a longer one is reported
/// by its number and skipped.
pub(crate) const MAX_LINE_BYTES: usize = 4 << 20;
/// Most bytes read from standard input (a file is streamed whatever its
/// length).
pub(crate) const MAX_STDIN_BYTES: u64 = 256 << 20;
/// Read buffer for the input stream.
pub(crate) const READ_BUFFER: usize = 1 << 16;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReviewLine<N> {
    notes: Vec<N>,
}

/// A recorded review's note, on the general path: both fields as written,
/// checked by [`recorded_note`].
#[derive(Debug, Deserialize)]
struct RecordedNote {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    severity: Option<String>,
}

/// A note as the fast path reads it: its severity borrowed from the line when
/// it has no escape; a `null` or non-string field fails here and takes the
/// general path, which says what is wrong.
#[derive(Debug, Deserialize)]
struct BorrowedNote<'a> {
    text: String,
    #[serde(borrow)]
    severity: Cow<'a, str>,
}

/// A recorded note, or why it cannot be replayed: the text must be there and
/// not blank, the severity one of `nit`, `concern` or `blocker` (any case,
/// surrounding spaces ignored, as models write them). An unknown severity is
/// refused rather than read as a nit, so a typo cannot hide a blocker; the
/// value itself is not echoed. `index` counts from 0.
fn recorded_note(index: usize, text: Option<String>, severity: Option<&str>) -> Result<Note, String> {
    let n = index + 1;
    let text = text
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| format!("note {n} has no text (expected {{\"text\",\"severity\"}})"))?;
    let severity = severity.ok_or_else(|| format!("note {n} has no severity (expected nit, concern or blocker)"))?;
    let known = [Severity::Nit, Severity::Concern, Severity::Blocker]
        .into_iter()
        .find(|v| severity.trim().eq_ignore_ascii_case(v.as_str()))
        .ok_or_else(|| format!("note {n} has an unknown severity (expected nit, concern or blocker)"))?;
    Ok(Note::new(text, known))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub(crate) enum EventName {
    Rebase,
    FreshRequest,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EventLine {
    event: EventName,
}

/// One review to replay.
pub(crate) struct Replayed {
    pub(crate) reviewer: String,
    pub(crate) kind: ReviewKind,
    pub(crate) notes: Vec<Note>,
    /// The notes, taken from `notes` and prepared for the guard
    /// ([`Replayed::prepare`]), on whichever thread has time.
    pub(crate) prepared: Option<Vec<PreparedNote>>,
    /// The settings to gate with: the ones a trace recorded, else the flags.
    pub(crate) settings: GuardSettings,
    /// The decisions a trace recorded, by note index.
    pub(crate) recorded: Option<Vec<Reason>>,
    /// The review failed when it was recorded: there is nothing to gate.
    pub(crate) failed: Option<String>,
}

impl Replayed {
    /// Prepares the notes for the guard, unless that is done already.
    pub(crate) fn prepare(&mut self) {
        if self.prepared.is_none() {
            let notes = std::mem::take(&mut self.notes);
            self.prepared = Some(notes.into_iter().map(PreparedNote::from).collect());
        }
    }
}

pub(crate) enum Line {
    Review(Replayed),
    Event(String, EventName),
    /// A traced review that did not run (its token budget was spent).
    /// A traced event without a review: its name, the reviewer and why
    /// (a spent token budget, a rejected saved state).
    NotRun(&'static str, String, String),
}

pub(crate) fn parse_trace(value: serde_json::Value, flags: GuardSettings) -> Result<Line, String> {
    let schema = value
        .get("schema")
        .and_then(|s| s.as_str())
        .unwrap_or_default()
        .to_owned();
    if schema != TRACE_SCHEMA {
        return Err(format!("trace schema {schema:?} is not {TRACE_SCHEMA:?}"));
    }
    let e: TraceEvent = serde_json::from_value(value).map_err(|e| format!("not an advisor trace event: {e}"))?;
    Ok(match e.event {
        TraceEventKind::Rebase => Line::Event(e.reviewer, EventName::Rebase),
        TraceEventKind::FreshRequest => Line::Event(e.reviewer, EventName::FreshRequest),
        TraceEventKind::BudgetSpent => {
            let why = e
                .budget
                .map_or_else(|| "a token budget was spent".to_owned(), |b| b.to_string());
            Line::NotRun("budget_spent", e.reviewer, why)
        }
        TraceEventKind::CheckpointRejected => {
            let why = e.rejected.unwrap_or_else(|| "a saved state was rejected".to_owned());
            Line::NotRun("checkpoint_rejected", e.reviewer, why)
        }
        TraceEventKind::Review => {
            let settings = guard_settings(&e, flags);
            let mut recorded = vec![Reason::Accepted; e.decisions.len()];
            for d in &e.decisions {
                if let Some(slot) = recorded.get_mut(d.note) {
                    *slot = d.reason;
                }
            }
            Line::Review(Replayed {
                reviewer: e.reviewer,
                kind: e.kind.unwrap_or_default(),
                notes: e.notes,
                prepared: None,
                settings,
                recorded: (!e.decisions.is_empty()).then_some(recorded),
                failed: e.error.map(|err| format!("{:?}: {}", err.kind, err.message)),
            })
        }
    })
}

pub(crate) fn parse_line(text: &str, flags: GuardSettings) -> Result<Line, String> {
    // The common line — a review — parsed straight into its type. Anything
    // else (traces, events, errors, duplicate keys) takes the general path
    // below, which decides exactly as before.
    if let Ok(r) = serde_json::from_str::<ReviewLine<BorrowedNote<'_>>>(text) {
        let notes = r
            .notes
            .into_iter()
            .enumerate()
            .map(|(i, n)| recorded_note(i, Some(n.text), Some(&n.severity)));
        return Ok(review_line(notes.collect::<Result<_, _>>()?, flags));
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("schema").is_some() {
        return parse_trace(value, flags);
    }
    if value.get("event").is_some() {
        let e: EventLine = serde_json::from_value(value)
            .map_err(|e| format!("not an event (expected {{\"event\":\"rebase\"|\"fresh_request\"}}): {e}"))?;
        return Ok(Line::Event(PLUGIN_NAME.to_owned(), e.event));
    }
    let r: ReviewLine<RecordedNote> = serde_json::from_value(value)
        .map_err(|e| format!("not a review (expected {{\"notes\":[{{\"text\",\"severity\"}}]}}): {e}"))?;
    let notes = r
        .notes
        .into_iter()
        .enumerate()
        .map(|(i, n)| recorded_note(i, n.text, n.severity.as_deref()));
    Ok(review_line(notes.collect::<Result<_, _>>()?, flags))
}

pub(crate) fn review_line(notes: Vec<Note>, settings: GuardSettings) -> Line {
    Line::Review(Replayed {
        reviewer: PLUGIN_NAME.to_owned(),
        kind: ReviewKind::Finish,
        notes,
        prepared: None,
        settings,
        recorded: None,
        failed: None,
    })
}

/// The lines of the input, streamed: a regular file, or standard input up to
/// [`MAX_STDIN_BYTES`].
pub(crate) enum Source {
    File(BufReader<std::fs::File>),
    Stdin(BufReader<io::Take<io::Stdin>>),
}

impl Source {
    pub(crate) fn open(path: &str) -> Result<(Source, String), String> {
        if path == "-" {
            let stdin = io::stdin().take(MAX_STDIN_BYTES + 1);
            return Ok((
                Source::Stdin(BufReader::with_capacity(READ_BUFFER, stdin)),
                "<stdin>".to_owned(),
            ));
        }
        let file = open_regular(Path::new(path)).map_err(|e| e.to_string())?;
        Ok((
            Source::File(BufReader::with_capacity(READ_BUFFER, file)),
            path.to_owned(),
        ))
    }

    /// Whether standard input went past its cap (a file never does).
    pub(crate) fn over_cap(&self) -> bool {
        match self {
            Source::File(_) => false,
            Source::Stdin(r) => r.get_ref().limit() == 0,
        }
    }
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::File(r) => r.read(buf),
            Source::Stdin(r) => r.read(buf),
        }
    }
}

impl BufRead for Source {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Source::File(r) => r.fill_buf(),
            Source::Stdin(r) => r.fill_buf(),
        }
    }

    fn consume(&mut self, amt: usize) {
        match self {
            Source::File(r) => r.consume(amt),
            Source::Stdin(r) => r.consume(amt),
        }
    }
}

/// One input line as text, or why it cannot be replayed.
pub(crate) fn line_text(bytes: Result<Vec<u8>, u64>) -> Result<String, String> {
    let mut bytes =
        bytes.map_err(|len| format!("the line is {len} bytes, over the {MAX_LINE_BYTES}-byte line cap; skipped"))?;
    while bytes.last().is_some_and(|b| *b == b'\r') {
        bytes.pop();
    }
    String::from_utf8(bytes).map_err(|_| "the line is not valid UTF-8".to_owned())
}

/// The settings a traced review was gated with: the recorded ones, else (a
/// trace before 0.2.0) `fallback` with the recorded clamp, if any.
fn guard_settings(e: &TraceEvent, fallback: GuardSettings) -> GuardSettings {
    e.guard.unwrap_or(GuardSettings {
        max_severity: e.max_severity.unwrap_or(fallback.max_severity),
        ..fallback
    })
}
