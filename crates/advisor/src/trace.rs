//! JSONL traces of review decisions: one versioned event per line.
//!
//! Owns the [`TraceEvent`] record, the [`TraceSink`] seam and the [`JsonlTrace`]
//! writer. A trace records what the reviewer said (raw notes), the guard
//! settings, every guard decision with its reason, whether the review
//! interrupted, the exact injection, errors and latency — so a recorded incident can be replayed
//! (`advisor replay` accepts traces) and turned into a regression fixture. It
//! must not influence the run: a failing sink is logged and ignored, and
//! [`JsonlTrace`] writes off the agent's thread. [`short_hash`] is the short
//! stable hash traces and host state use for identities (excerpts, prompts,
//! compactions).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use crate::budget::BudgetStop;
use crate::guard::{GuardSettings, Reason};
use crate::kind::{ReviewErrorKind, ReviewKind};
use crate::note::{Note, Severity};
use crate::usage::Usage;
use crate::write_behind::WriteBehind;

/// The `schema` value of every event this version writes.
pub const TRACE_SCHEMA: &str = "advisor.trace.v1";

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceEventKind {
    /// A review ran (or failed).
    Review,
    /// The history was rebased: the reviewer's dedupe history was cleared.
    Rebase,
    /// A fresh user request: allowances, delivered notes and dedupe reset.
    FreshRequest,
    /// A review did not run because a token budget was spent (see `budget`).
    BudgetSpent,
    /// A saved state was rejected (see `rejected`): the reviewer sits out the
    /// current request.
    CheckpointRejected,
}

/// Size of the evidence a review read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WindowStats {
    /// Messages in the window.
    pub messages: usize,
    /// Bytes of message content in the window.
    pub bytes: usize,
    /// Older messages left out.
    pub omitted_messages: usize,
    /// Tool traces shown.
    pub tools: usize,
}

/// The guard's decision on one raw note, as a trace records it (the note's
/// text is in [`TraceEvent::notes`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteDecision {
    /// Position in the reviewer's list (0-based).
    pub note: usize,
    /// The severity the guard saw (after the `max_severity` clamp).
    pub severity: Severity,
    /// Why it was admitted or suppressed.
    pub reason: Reason,
    /// The dedupe key.
    pub key: String,
}

/// A review error as traced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorRecord {
    /// What kind of failure.
    pub kind: ReviewErrorKind,
    /// The error message.
    pub message: String,
}

/// One trace line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceEvent {
    /// Always [`TRACE_SCHEMA`] for events this version writes.
    pub schema: String,
    /// What happened.
    pub event: TraceEventKind,
    /// The reviewer concerned.
    pub reviewer: String,
    /// Finish or periodic (reviews only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<ReviewKind>,
    /// 0-based round within the kind (reviews only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// What the reviewer read (reviews only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<WindowStats>,
    /// The notes exactly as the reviewer returned them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    /// The settings the notes were gated with (reviews; absent from traces
    /// written before 0.2.0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<GuardSettings>,
    /// The severity clamp as traces before 0.2.0 recorded it (when below
    /// blocker); read, never written — [`guard`](Self::guard) holds it now.
    #[serde(default, skip_serializing)]
    pub max_severity: Option<Severity>,
    /// One decision per raw note.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<NoteDecision>,
    /// Whether the review re-opened the run / added context.
    #[serde(default)]
    pub interrupted: bool,
    /// Whether the reviewer runs in shadow mode (never injects).
    #[serde(default)]
    pub shadow: bool,
    /// The exact injection (or, in shadow mode, the one that would have been sent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub injection: Option<String>,
    /// Admitted concerns and blockers that did not send the agent back (below
    /// the reviewer's `interrupt` severity): for the user, never the agent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub to_user: Vec<Note>,
    /// Why the reviewer answered from its fallback (a part of it could not
    /// run: a two-stage reviewer's judge failed, so the offline rules'
    /// verdict stands), if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
    /// The review's failure, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorRecord>,
    /// Wall-clock time of the review call, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// Tokens the reviewer reported using (every attempt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// The spent budget that stopped a review (`budget_spent` events only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<BudgetStop>,
    /// Why a saved state was rejected (`checkpoint_rejected` events only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejected: Option<String>,
}

impl TraceEvent {
    /// An event of `event` kind for `reviewer`, with every review field empty.
    pub fn new(event: TraceEventKind, reviewer: impl Into<String>) -> TraceEvent {
        TraceEvent {
            schema: TRACE_SCHEMA.to_owned(),
            event,
            reviewer: reviewer.into(),
            kind: None,
            round: None,
            window: None,
            notes: Vec::new(),
            guard: None,
            max_severity: None,
            decisions: Vec::new(),
            interrupted: false,
            shadow: false,
            injection: None,
            to_user: Vec::new(),
            fallback: None,
            error: None,
            latency_ms: None,
            usage: None,
            budget: None,
            rejected: None,
        }
    }
}

/// Receives trace events. It is called inline on the agent loop's path, so it
/// must not wait for I/O (hand the event to a writer, as [`JsonlTrace`] does).
pub trait TraceSink: Send + Sync {
    /// Records one event. Failures are the sink's to report; they never reach the run.
    fn record(&self, event: &TraceEvent);
}

/// Writes events as JSON lines without blocking the run: [`record`](TraceSink::record)
/// hands the line to a background writer thread, which writes and flushes it.
///
/// Nothing recorded is lost: [`flush`](JsonlTrace::flush) waits until every
/// event recorded before it is written, and so does dropping the trace (the
/// plugin drops it when it is dropped). To read the file while the plugin is
/// alive, keep an `Arc<JsonlTrace>` (it is a sink too) and flush it. A write
/// error is logged when it happens and returned by every later `flush`.
pub struct JsonlTrace {
    out: WriteBehind,
}

impl std::fmt::Debug for JsonlTrace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JsonlTrace")
    }
}

impl JsonlTrace {
    /// Appends to the file at `path`, creating it.
    pub fn append(path: impl AsRef<Path>) -> io::Result<JsonlTrace> {
        let file: File = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(JsonlTrace::new(BufWriter::new(file)))
    }

    /// Writes to any writer.
    pub fn new(out: impl Write + Send + 'static) -> JsonlTrace {
        JsonlTrace {
            out: WriteBehind::new(out, "an advisor trace event"),
        }
    }

    /// Waits until every event recorded before is written and flushed; the
    /// trace's first write error, if any. Blocks the calling
    /// thread: call it after the run (or from `spawn_blocking`).
    pub fn flush(&self) -> io::Result<()> {
        self.out.flush()
    }
}

impl TraceSink for JsonlTrace {
    fn record(&self, event: &TraceEvent) {
        match serde_json::to_vec(event) {
            Ok(line) => self.out.write_line(line),
            Err(e) => tracing::warn!(error = %e, "could not encode an advisor trace event"),
        }
    }
}

/// Keeps events in memory (tests, reports, embedding hosts).
#[derive(Debug, Default)]
pub struct MemoryTrace {
    events: Mutex<Vec<TraceEvent>>,
}

impl MemoryTrace {
    /// An empty trace.
    pub fn new() -> MemoryTrace {
        MemoryTrace::default()
    }

    /// Every event recorded so far.
    pub fn events(&self) -> Vec<TraceEvent> {
        self.events.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

impl TraceSink for MemoryTrace {
    fn record(&self, event: &TraceEvent) {
        self.events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(event.clone());
    }
}

impl<T: TraceSink + ?Sized> TraceSink for std::sync::Arc<T> {
    fn record(&self, event: &TraceEvent) {
        (**self).record(event);
    }
}

/// A short stable hash of `text` (FNV-1a, 64 bits, hex), for the identities
/// of prompts and compactions; not for anything an attacker must not collide.
pub fn short_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}
