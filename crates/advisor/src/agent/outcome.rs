//! What a reference-loop run returns.
//!
//! Owns [`RunOutcome`]; must not run anything.

use crate::host::{Message, StopReason, ToolTrace};
use crate::usage::Usage;

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
