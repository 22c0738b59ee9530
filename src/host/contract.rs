//! The capabilities an extension may implement, and the values the loop passes
//! them.
//!
//! Owns [`ObservePhase`], [`RunObserver`], [`StepInterceptor`],
//! [`StopInterceptor`], [`StopInfo`], [`StopDecision`], [`Checkpoint`],
//! [`Extension`] and [`ExtensionFactory`]. Every capability has a no-op default
//! (in the style of `tracing-subscriber`'s `Layer`), so an extension implements
//! only what it needs. The rules for calling them live in the dispatcher
//! ([`super::Extensions`]), not here.

use std::fmt;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::{Message, ToolTrace};
use crate::error::Error;

/// Why a [`RunObserver`] is being shown messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObservePhase {
    /// Messages newly added to the history.
    Append,
    /// The history was replaced (compaction, a context edit); earlier views are void.
    Rebase,
    /// The full history about to be sent to the model.
    Request,
    /// Input from outside the model: the run's new input at turn 0, steers,
    /// follow-ups, stop-interceptor injections.
    ExternalInput,
    /// The history restored from a checkpoint, before new input.
    Restore,
}

impl ObservePhase {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ObservePhase::Append => "append",
            ObservePhase::Rebase => "rebase",
            ObservePhase::Request => "request",
            ObservePhase::ExternalInput => "external_input",
            ObservePhase::Restore => "restore",
        }
    }
}

impl fmt::Display for ObservePhase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Sees the run's messages. Observation cannot change the run.
pub trait RunObserver: Send {
    /// Called with the messages of `phase` at `turn` (0 before the first turn).
    fn observe_messages(&mut self, phase: ObservePhase, turn: u32, messages: &[Message]);
}

/// What a [`StepInterceptor`] is told before a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct StepInfo {
    /// The upcoming turn, 1-based.
    pub turn: u32,
}

impl StepInfo {
    /// Step info for the upcoming `turn`.
    pub fn new(turn: u32) -> StepInfo {
        StepInfo { turn }
    }
}

/// Runs before each normal turn (never before a wrap-up turn) and may add
/// context messages. Every interceptor is called, in registration order, and
/// their additions are concatenated.
#[async_trait]
pub trait StepInterceptor: Send {
    /// Messages to append before the upcoming turn (empty: none).
    async fn before_step(&mut self, info: &StepInfo) -> Vec<Message>;
}

/// What a [`StopInterceptor`] is told when the model finished a turn without
/// tool calls.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StopInfo {
    /// The answer just produced.
    pub final_answer: String,
    /// Turns used in this run, including the current one.
    pub turns: u32,
    /// The run's tool trace so far.
    pub tools: Vec<ToolTrace>,
    /// How many times *this* extension already re-opened the run. Kept by the
    /// dispatcher; whatever the caller sets is overwritten.
    pub attempt: u32,
}

/// A stop interceptor's verdict. The default accepts the finish.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StopDecision {
    /// Re-open the run instead of accepting. Without messages to inject this
    /// counts as accept.
    pub continue_run: bool,
    /// Messages appended to the conversation before the next turn.
    pub inject: Vec<Message>,
    /// A short progress line for the user (never the raw injection).
    pub note: Option<String>,
    /// Overrides the recorded stop reason when an extension gives up.
    pub stop_reason: Option<String>,
}

impl StopDecision {
    /// Accept the finish.
    pub fn accept() -> StopDecision {
        StopDecision::default()
    }

    /// Re-open the run with `inject`, showing `note` to the user.
    pub fn reopen(inject: Vec<Message>, note: Option<String>) -> StopDecision {
        StopDecision {
            continue_run: true,
            inject,
            note,
            stop_reason: None,
        }
    }

    /// Whether this decision re-opens the run (continue with something to inject).
    pub fn reopens(&self) -> bool {
        self.continue_run && !self.inject.is_empty()
    }
}

/// Consulted when the model finished a turn without tool calls and the run
/// chose to stop. Never consulted on stops the run did not choose.
#[async_trait]
pub trait StopInterceptor: Send {
    /// Accept the finish or re-open the run.
    async fn turn_stopping(&mut self, info: &StopInfo) -> StopDecision;
}

/// State an extension carries across runs. `restore` must validate and never
/// panic on hostile input.
pub trait Checkpoint: Send {
    /// The state as JSON.
    fn save(&self) -> Result<serde_json::Value, Error>;
    /// Replaces the state with a saved one, or rejects it naming the field.
    fn restore(&mut self, state: serde_json::Value) -> Result<(), Error>;
}

/// How a run ended, told to [`RunFinalizer`]s before checkpoints are saved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct RunEnd {
    /// Turns the run used, including the last settled one.
    pub turns: u32,
    /// Why the run ended (`stop`, `max_turns`, …).
    pub stop_reason: String,
}

impl RunEnd {
    /// A run end after `turns` turns for `stop_reason`.
    pub fn new(turns: u32, stop_reason: impl Into<String>) -> RunEnd {
        RunEnd {
            turns,
            stop_reason: stop_reason.into(),
        }
    }
}

/// Told when a run ends, in reverse registration order, before checkpoints are
/// saved — the only place the last settled turn (which has no following step)
/// is seen.
pub trait RunFinalizer: Send {
    /// The run ended.
    fn finalize_run(&mut self, end: &RunEnd);
}

/// A per-run extension: owns its state for one run and exposes the
/// capabilities it implements. Every capability defaults to none.
pub trait Extension: Send {
    /// A unique name within the run; re-open attempts and checkpoints are keyed by it.
    fn name(&self) -> &str;

    /// The observer side, if any.
    fn observer(&mut self) -> Option<&mut dyn RunObserver> {
        None
    }

    /// The step side, if any.
    fn step_interceptor(&mut self) -> Option<&mut dyn StepInterceptor> {
        None
    }

    /// The stop side, if any.
    fn stop_interceptor(&mut self) -> Option<&mut dyn StopInterceptor> {
        None
    }

    /// The checkpoint side, if any.
    fn checkpoint(&mut self) -> Option<&mut dyn Checkpoint> {
        None
    }

    /// The finalizer side, if any.
    fn finalizer(&mut self) -> Option<&mut dyn RunFinalizer> {
        None
    }
}

/// What a factory is told when a run begins.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct RunInfo {
    /// An id for the run, for logs and traces.
    pub run_id: String,
    /// The run's turn limit.
    pub max_turns: u32,
}

impl RunInfo {
    /// Run info with this id and turn limit.
    pub fn new(run_id: impl Into<String>, max_turns: u32) -> RunInfo {
        RunInfo {
            run_id: run_id.into(),
            max_turns,
        }
    }
}

/// Makes one [`Extension`] per run, or declines the run.
pub trait ExtensionFactory: Send + Sync {
    /// The name of the extensions it makes.
    fn name(&self) -> &str;

    /// Called once per run. `Ok(None)` declines this run; an error aborts the
    /// run before any model call.
    fn begin_run(&self, info: &RunInfo) -> Result<Option<Box<dyn Extension>>, Error>;
}
