//! The capabilities an extension may implement, and the values the loop passes
//! them.
//!
//! Owns [`ObservePhase`], [`RunObserver`], [`StepInterceptor`],
//! [`StopInterceptor`], [`StopInfo`], [`StopDecision`], [`StopReason`],
//! [`Checkpoint`], [`RunEnd`], [`Extension`] and [`ExtensionFactory`]. Every capability has a no-op default
//! (in the style of `tracing-subscriber`'s `Layer`), so an extension implements
//! only what it needs. The rules for calling them live in the dispatcher
//! ([`super::Extensions`]), not here.

use std::fmt;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::{Message, ToolTrace};
use crate::error::Error;

wire_enum! {
    /// Why a [`RunObserver`] is being shown messages.
    ObservePhase {
        /// Messages newly added to the history.
        Append => "append",
        /// The history was replaced (compaction, a context edit); earlier views are void.
        Rebase => "rebase",
        /// The full history about to be sent to the model.
        Request => "request",
        /// Input from outside the model: the run's new input at turn 0, steers,
        /// follow-ups, stop-interceptor injections.
        ExternalInput => "external_input",
        /// The history restored from a checkpoint, before new input.
        Restore => "restore",
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
    /// How many of the oldest [`tools`](Self::tools) were made before the
    /// current request — earlier turns, when a host hands over a whole
    /// conversation (the `advisor hook` transcript). 0 when `tools` holds only
    /// calls made for this request, as in a run of a library loop.
    pub earlier_tools: usize,
    /// How many times *this* extension already re-opened the run. Kept by the
    /// dispatcher; whatever the caller sets is overwritten.
    pub attempt: u32,
}

/// A stop interceptor's verdict. Only a re-open with something to inject
/// re-opens the run; [`StopDecision::reopen`] with nothing to inject is
/// [`Accept`](StopDecision::Accept).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum StopDecision {
    /// Accept the finish (no opinion: later interceptors are still consulted).
    #[default]
    Accept,
    /// Re-open the run: `inject` is appended to the conversation before the
    /// next turn, `progress` is a short line for the user (never the raw
    /// injection).
    Reopen {
        /// Messages appended to the conversation (never empty when built by
        /// [`StopDecision::reopen`]; the dispatcher treats an empty one as accept).
        inject: Vec<Message>,
        /// A short progress line for the user.
        progress: Option<String>,
    },
    /// End the walk and the run with this reason (an extension gives up).
    End(StopReason),
}

impl StopDecision {
    /// Re-open the run with `inject`, showing `progress` to the user; accept
    /// when there is nothing to inject.
    pub fn reopen(inject: Vec<Message>, progress: Option<String>) -> StopDecision {
        if inject.is_empty() {
            return StopDecision::Accept;
        }
        StopDecision::Reopen { inject, progress }
    }

    /// Whether this decision re-opens the run (a re-open with something to inject).
    pub fn reopens(&self) -> bool {
        matches!(self, StopDecision::Reopen { inject, .. } if !inject.is_empty())
    }
}

/// Why a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum StopReason {
    /// The model finished and every stop interceptor accepted.
    #[default]
    Stop,
    /// The turn limit was reached.
    MaxTurns,
    /// The budget was spent; the wrap-up answer ended the run.
    BudgetExhausted,
    /// The run was aborted between turns.
    Aborted,
    /// A terminal tool ended the run.
    TerminalTool,
    /// An extension ended the run with this reason.
    Extension(String),
}

impl StopReason {
    /// The snake_case name (`stop`, `max_turns`, `budget_exhausted`, `aborted`,
    /// `terminal_tool`, or the extension's reason).
    pub fn as_str(&self) -> &str {
        match self {
            StopReason::Stop => "stop",
            StopReason::MaxTurns => "max_turns",
            StopReason::BudgetExhausted => "budget_exhausted",
            StopReason::Aborted => "aborted",
            StopReason::TerminalTool => "terminal_tool",
            StopReason::Extension(r) => r,
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
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
/// panic on hostile input. A rejected state does not stop the host's run: the
/// dispatcher reports it and goes on, so an extension that rejects a state
/// must leave itself safe (the advisor sits out the current request rather
/// than start with a refilled allowance).
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
    /// Why the run ended.
    pub stop_reason: StopReason,
}

impl RunEnd {
    /// A run end after `turns` turns for `stop_reason`.
    pub fn new(turns: u32, stop_reason: StopReason) -> RunEnd {
        RunEnd { turns, stop_reason }
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

/// Makes one [`Extension`] per run, or declines the run.
pub trait ExtensionFactory: Send + Sync {
    /// The name of the extensions it makes.
    fn name(&self) -> &str;

    /// Called once per run. `Ok(None)` declines this run; an error aborts the
    /// run before any model call.
    fn begin_run(&self) -> Result<Option<Box<dyn Extension>>, Error>;
}
