//! What a reference-loop run returns.
//!
//! Owns [`RunOutcome`] and [`StopReason`]; must not run anything.

use std::fmt;

use crate::host::{Message, ToolTrace};
use crate::model::Usage;

/// Why a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
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
    /// An extension gave up with this reason.
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

/// The result of one run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunOutcome {
    /// The last assistant text.
    pub final_answer: String,
    /// Why the run ended.
    pub stop_reason: StopReason,
    /// Turns used.
    pub turns: u32,
    /// Requests made to the agent's model.
    pub model_calls: u32,
    /// Token usage of the agent's model.
    pub usage: Usage,
    /// The whole conversation, as the model saw it.
    pub history: Vec<Message>,
    /// Every tool call executed.
    pub tools: Vec<ToolTrace>,
    /// Progress lines shown to the user (never raw injections).
    pub progress: Vec<String>,
    /// The extensions' saved state, keyed by extension name.
    pub checkpoint: serde_json::Map<String, serde_json::Value>,
}
