//! The privileged rollout advisor for RL / eval rollouts (docs/design.md §7).
//!
//! Owns [`Advisor`] (gate, decision, selective intervention, fail-open,
//! statefulness), the strict [`AdvisorDecision`], cues ([`CompiledCue`],
//! [`Revision`]), hint screening, the private trace and its summary. The
//! advisor sees hidden tests and reference material; the solver only ever
//! receives a solver-safe cue. Must not edit the repository or act on the task.

mod advisor;
mod config;
mod cue;
mod decision;
mod error;
mod prompt;
mod screen;
mod summary;
mod summary_files;
mod trace;

pub use advisor::{Advisor, Draft};
pub use config::{AdvisorConfig, AdvisorConfigBuilder, CuePath, TaskMaterial};
pub use cue::{CompiledCue, Revision, compile_cue, self_check_sentence};
pub use decision::{Action, AdvisorDecision, DecisionReason, parse_decision};
pub use error::{RolloutError, RolloutErrorKind};
pub use prompt::system_prompt;
pub use screen::{ScreenCheck, ScreenInput, ScreenResult, Violation, screen_hint};
pub use summary::{ArmSummary, Summarizer, Summary, summarize};
pub use summary_files::{MAX_TRACE_LINE, summarize_paths};
pub use trace::{Arm, EventKind, Outcome, ROLLOUT_TRACE_SCHEMA, RolloutEvent, RolloutTrace, Trigger};
