//! The `ChatModel` seam: messages in, text, tool calls, usage and a finish
//! reason out.
//!
//! Owns the request/response types every model-backed part of the crate uses
//! (the reference agent loop, reviewers). It must not know about any provider's
//! wire format; HTTP clients live behind feature flags in their own files.

mod backoff;
#[cfg(feature = "http")]
mod openai;
#[cfg(feature = "http")]
mod openai_wire;
mod scripted;

use std::fmt;
use std::ops::{Add, AddAssign};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::host::{Message, ToolCall};

pub use backoff::Backoff;
#[cfg(feature = "http")]
pub use openai::{MAX_TIMEOUT, OpenAiCompatible, OpenAiCompatibleBuilder, StructuredOutput};
pub use scripted::ScriptedModel;

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Tool name.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// JSON Schema of its arguments.
    pub parameters: serde_json::Value,
}

/// One request to a model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChatRequest {
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// Tools offered for this request (empty: none).
    pub tools: Vec<ToolSpec>,
    /// When set, the answer must be a JSON value matching this schema.
    pub response_schema: Option<serde_json::Value>,
}

impl ChatRequest {
    /// A request with these messages, no tools and no schema.
    pub fn new(messages: Vec<Message>) -> ChatRequest {
        ChatRequest {
            messages,
            ..ChatRequest::default()
        }
    }
}

/// Token usage of one or more model calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
}

impl Add for Usage {
    type Output = Usage;
    fn add(self, rhs: Usage) -> Usage {
        Usage {
            input_tokens: self.input_tokens.saturating_add(rhs.input_tokens),
            output_tokens: self.output_tokens.saturating_add(rhs.output_tokens),
        }
    }
}

impl AddAssign for Usage {
    fn add_assign(&mut self, rhs: Usage) {
        *self = *self + rhs;
    }
}

/// Why the model stopped producing output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// A natural end of the answer.
    #[default]
    Stop,
    /// The output hit the token limit.
    Length,
    /// The model asked for tool calls.
    ToolCalls,
    /// A provider-specific reason.
    Other(String),
}

/// One answer from a model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChatResponse {
    /// The answer text.
    pub text: String,
    /// Tool calls requested (empty: the model is done).
    pub tool_calls: Vec<ToolCall>,
    /// Tokens used by this call.
    pub usage: Usage,
    /// Why the answer ended.
    pub finish_reason: FinishReason,
}

impl ChatResponse {
    /// A plain text answer.
    pub fn text(text: impl Into<String>) -> ChatResponse {
        ChatResponse {
            text: text.into(),
            ..ChatResponse::default()
        }
    }

    /// An answer that requests tool calls.
    pub fn tool_calls(calls: Vec<ToolCall>) -> ChatResponse {
        ChatResponse {
            tool_calls: calls,
            finish_reason: FinishReason::ToolCalls,
            ..ChatResponse::default()
        }
    }

    /// Sets the usage.
    pub fn with_usage(mut self, input_tokens: u64, output_tokens: u64) -> ChatResponse {
        self.usage = Usage {
            input_tokens,
            output_tokens,
        };
        self
    }
}

/// What kind of failure a [`ModelError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ModelErrorKind {
    /// The connection failed or was dropped.
    Transport,
    /// The server answered with an error status.
    Status,
    /// No answer within the configured time.
    Timeout,
    /// The answer could not be understood.
    InvalidResponse,
    /// A scripted model ran out of answers.
    Exhausted,
}

/// A model call failed. Never carries an API key or the raw answer body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError {
    kind: ModelErrorKind,
    message: String,
    status: Option<u16>,
    usage: Usage,
}

impl ModelError {
    /// A model error of `kind`.
    pub fn new(kind: ModelErrorKind, message: impl Into<String>) -> ModelError {
        ModelError {
            kind,
            message: message.into(),
            status: None,
            usage: Usage::default(),
        }
    }

    /// Records the HTTP status the server answered with.
    pub fn with_status(mut self, status: u16) -> ModelError {
        self.status = Some(status);
        self
    }

    /// Records tokens spent by the failed call (and any failed attempts before it).
    pub fn with_usage(mut self, usage: Usage) -> ModelError {
        self.usage = usage;
        self
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ModelErrorKind {
        self.kind
    }

    /// The HTTP status, for [`ModelErrorKind::Status`] errors.
    pub fn status(&self) -> Option<u16> {
        self.status
    }

    /// Tokens the failed call still cost.
    pub fn usage(&self) -> Usage {
        self.usage
    }
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ModelError {}

/// A chat model.
#[async_trait]
pub trait ChatModel: Send + Sync {
    /// Answers one request.
    async fn complete(&self, request: ChatRequest) -> Result<ChatResponse, ModelError>;
}
