//! The neutral transcript types a host hands to extensions.
//!
//! Owns [`Message`], [`Role`], [`ToolCall`] and [`ToolTrace`]. These are plain
//! data with stable JSON names (`role`, `content`, `tool_calls`,
//! `tool_call_id`, `name`); they must not carry provider-specific fields.

use serde::{Deserialize, Serialize};

wire_enum! {
    /// Who wrote a message.
    Role {
        /// Instructions from the host.
        System => "system",
        /// The user, or input the host injects on the user's channel.
        User => "user",
        /// The model.
        Assistant => "assistant",
        /// A tool result.
        Tool => "tool",
    }
}

/// A tool call requested by the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// Provider-assigned id, echoed by the tool result.
    #[serde(default)]
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Arguments as the model wrote them (usually JSON text).
    #[serde(default)]
    pub arguments: String,
}

/// One message of a run's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// The text.
    #[serde(default)]
    pub content: String,
    /// Tool calls requested by an assistant message.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For a tool result: the id of the call it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// For a tool result: the tool's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Message {
    /// A message with the given role and text.
    pub fn new(role: Role, content: impl Into<String>) -> Message {
        Message {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
            name: None,
        }
    }

    /// A system message.
    pub fn system(content: impl Into<String>) -> Message {
        Message::new(Role::System, content)
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Message {
        Message::new(Role::User, content)
    }

    /// An assistant message.
    pub fn assistant(content: impl Into<String>) -> Message {
        Message::new(Role::Assistant, content)
    }

    /// An assistant message that requests tool calls.
    pub fn assistant_with_tools(content: impl Into<String>, calls: Vec<ToolCall>) -> Message {
        Message {
            tool_calls: calls,
            ..Message::assistant(content)
        }
    }

    /// A tool result answering `call`.
    pub fn tool_result(call: &ToolCall, content: impl Into<String>) -> Message {
        Message {
            tool_call_id: Some(call.id.clone()),
            name: Some(call.name.clone()),
            ..Message::new(Role::Tool, content)
        }
    }
}

/// What happened when the run executed one tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ToolTrace {
    /// Tool name.
    pub name: String,
    /// Arguments as sent.
    #[serde(default)]
    pub args: String,
    /// What the tool returned (may be bounded by the host).
    #[serde(default)]
    pub output: String,
    /// Set when the call failed; `None` means success.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The exit status the host recorded for the call in its own fields or
    /// header (Codex `exit_code`, the `Exit code N` first line Claude Code
    /// writes for a failed Bash call, Gemini CLI's `Exit Code:` after the
    /// output), when it records one. Never read from what the tool printed:
    /// an output line cannot set it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
}

impl ToolTrace {
    /// Whether the call succeeded.
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }
}
