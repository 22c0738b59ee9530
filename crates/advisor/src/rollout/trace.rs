//! The rollout advisor's private trace: one versioned JSON line per event.
//!
//! Owns [`RolloutEvent`], [`EventKind`] and [`RolloutTrace`], the writer that
//! numbers events and writes `attempt_end` exactly once (on drop if the harness
//! never did). The trace is private — it holds decisions with their plans and
//! diagnoses — and must never be fed to a solver. Events are written by a
//! background writer thread, never on the rollout's path; write failures are
//! logged and never break a rollout.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde::{Deserialize, Serialize};

use super::cue::CompiledCue;
use super::decision::AdvisorDecision;
use super::screen::ScreenResult;
use crate::usage::Usage;
use crate::write_behind::WriteBehind;

/// The `schema` of every event this version writes.
pub const ROLLOUT_TRACE_SCHEMA: &str = "advisor.rollout.v1";

/// Which arm of an experiment an attempt belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    /// Attempts run with the advisor.
    Advised,
    /// Control attempts, without the advisor.
    Unadvised,
}

/// Why a review ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// The draft calls the finish tool.
    Finish,
    /// A k-th turn.
    Periodic,
}

/// How an attempt ended, as the harness reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Graded and passed.
    Passed,
    /// Graded and failed.
    Failed,
    /// Not graded (or the trace ended without a report).
    Unknown,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// The attempt began.
    AttemptStart,
    /// The gate opened.
    ReviewGated {
        /// Finish or periodic.
        trigger: Trigger,
        /// Interventions used before this review.
        interventions_used: u32,
    },
    /// A review was due but the intervention budget was spent.
    ReviewSkipped {
        /// Finish or periodic.
        trigger: Trigger,
    },
    /// A review was due (or an advisor attempt would have followed) but the
    /// attempt's token budget was spent; the draft was kept.
    BudgetSpent {
        /// Finish or periodic.
        trigger: Trigger,
        /// The spent budget.
        budget: crate::budget::BudgetStop,
    },
    /// One call to the advisor model.
    AdvisorAttempt {
        /// 1-based.
        attempt: u32,
        /// Whether it produced a valid decision.
        ok: bool,
        /// `model` or `decision` when it failed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error_kind: Option<String>,
        /// What was wrong (never the answer).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
        /// Tokens used.
        usage: Usage,
    },
    /// The accepted decision, private fields included.
    Decision {
        /// The decision.
        decision: AdvisorDecision,
    },
    /// A hint was screened.
    Screened {
        /// The screen's result (hashes only).
        result: ScreenResult,
    },
    /// A cue reached the solver.
    CueDelivered {
        /// The cue.
        cue: CompiledCue,
        /// Whether the revision keeps the finish tool.
        finish_tool_offered: bool,
    },
    /// A revision called finish without the tool and was resampled.
    RevisionResampled {
        /// 1-based revision attempt that was rejected.
        attempt: u32,
    },
    /// The advisor or the revision failed and the draft was kept.
    FailOpen {
        /// `advisor` or `revision`.
        stage: String,
        /// What failed.
        error: String,
    },
    /// The advisor or the revision failed and the error was returned.
    Failed {
        /// `advisor` or `revision`.
        stage: String,
        /// What failed.
        error: String,
    },
    /// The attempt ended.
    AttemptEnd {
        /// As the harness reports it.
        outcome: Outcome,
        /// Reviews that produced a decision.
        reviews: u32,
        /// Cues delivered.
        interventions: u32,
        /// Solver calls seen (drafts and revisions).
        solver_calls: u32,
    },
}

/// One trace line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RolloutEvent {
    /// [`ROLLOUT_TRACE_SCHEMA`].
    pub schema: String,
    /// The attempt.
    pub rollout_id: String,
    /// The task.
    pub task_id: String,
    /// The arm.
    pub arm: Arm,
    /// Strictly increasing within an attempt.
    pub seq: u64,
    /// The solver turn, when it applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}

#[derive(Default)]
struct Counters {
    seq: u64,
    ended: bool,
    totals: (u32, u32, u32),
}

/// What the clones share: the counters, and the stream the events go to
/// (outside the lock, so a flush never holds up a clone's `record`).
struct Shared {
    counters: Mutex<Counters>,
    out: WriteBehind,
}

/// Writes one attempt's private trace. Cheap to clone; clones share the stream.
///
/// [`record`](RolloutTrace::record) hands the event to a background writer
/// thread and never waits for the disk; [`end`](RolloutTrace::end),
/// [`flush`](RolloutTrace::flush) and dropping the last clone wait until every
/// event recorded before is written, so nothing is lost.
#[derive(Clone)]
pub struct RolloutTrace {
    rollout_id: String,
    task_id: String,
    arm: Arm,
    shared: Arc<Shared>,
}

impl std::fmt::Debug for RolloutTrace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RolloutTrace")
            .field("rollout_id", &self.rollout_id)
            .field("arm", &self.arm)
            .finish()
    }
}

impl RolloutTrace {
    /// Starts the trace of one attempt (writes `attempt_start`).
    pub fn start(
        out: impl Write + Send + 'static,
        rollout_id: impl Into<String>,
        task_id: impl Into<String>,
        arm: Arm,
    ) -> RolloutTrace {
        let t = RolloutTrace {
            rollout_id: rollout_id.into(),
            task_id: task_id.into(),
            arm,
            shared: Arc::new(Shared {
                counters: Mutex::default(),
                out: WriteBehind::new(out, "a rollout trace event"),
            }),
        };
        t.record(None, EventKind::AttemptStart);
        t
    }

    /// Writes one event (hands it to the writer; never waits for I/O).
    pub fn record(&self, turn: Option<u32>, kind: EventKind) {
        let mut counters = self.counters();
        if counters.ended {
            return;
        }
        counters.ended = matches!(kind, EventKind::AttemptEnd { .. });
        counters.seq += 1;
        let event = RolloutEvent {
            schema: ROLLOUT_TRACE_SCHEMA.to_owned(),
            rollout_id: self.rollout_id.clone(),
            task_id: self.task_id.clone(),
            arm: self.arm,
            seq: counters.seq,
            turn,
            kind,
        };
        match serde_json::to_vec(&event) {
            // handed over under the lock, so lines keep the order of `seq`
            Ok(line) => self.shared.out.write_line(line),
            Err(e) => tracing::warn!(error = %e, "could not encode a rollout trace event"),
        }
    }

    /// Waits until every event recorded before is written and flushed; the
    /// trace's first write error, if any (it was also logged).
    pub fn flush(&self) -> io::Result<()> {
        self.shared.out.flush()
    }

    fn counters(&self) -> MutexGuard<'_, Counters> {
        self.shared.counters.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn set_totals(&self, reviews: u32, interventions: u32, solver_calls: u32) {
        self.counters().totals = (reviews, interventions, solver_calls);
    }

    /// Ends the attempt with the harness's outcome (written once; later calls
    /// are ignored) and waits until the attempt's events are written (an error
    /// is logged; [`flush`](RolloutTrace::flush) returns it).
    pub fn end(&self, outcome: Outcome) {
        let (reviews, interventions, solver_calls) = self.counters().totals;
        self.record(
            None,
            EventKind::AttemptEnd {
                outcome,
                reviews,
                interventions,
                solver_calls,
            },
        );
        let _ = self.flush(); // an error was logged when it happened
    }
}

impl Drop for RolloutTrace {
    fn drop(&mut self) {
        if Arc::strong_count(&self.shared) == 1 {
            self.end(Outcome::Unknown);
        }
    }
}
