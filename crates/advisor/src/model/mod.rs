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
mod structured_output;

use std::fmt;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::host::{Message, ToolCall};
use crate::usage::Usage;

pub use backoff::Backoff;
#[cfg(feature = "http")]
pub use openai::{DEFAULT_CALL_TIMEOUT, MAX_CALL_TIMEOUT, OpenAiCompatible, OpenAiCompatibleBuilder};
pub use scripted::ScriptedModel;
pub use structured_output::StructuredOutput;

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

/// Bytes per token assumed when a server reports no usage and when a prompt is
/// fitted to a token budget. Three bytes per token over-counts English prose
/// (about four for most tokenizers) and is close for JSON, code and logs, so a
/// budget errs on the side of spending less and a fitted prompt on the side
/// of being shorter than allowed.
pub const ESTIMATED_BYTES_PER_TOKEN: usize = 3;

/// Tokens `text` is estimated to take: its UTF-8 length divided by
/// [`ESTIMATED_BYTES_PER_TOKEN`], rounded up.
///
/// ```
/// assert_eq!(advisor::model::estimate_tokens(""), 0);
/// assert_eq!(advisor::model::estimate_tokens("abcd"), 2);
/// ```
pub fn estimate_tokens(text: &str) -> u64 {
    u64::try_from(text.len().div_ceil(ESTIMATED_BYTES_PER_TOKEN)).unwrap_or(u64::MAX)
}

/// Estimating usage from what was sent and received, for servers that
/// report none (the type is [`Usage`], on the library's ground floor).
impl Usage {
    /// Usage estimated from the text sent and received (marked estimated).
    pub fn estimate(request: &ChatRequest, answer: &str) -> Usage {
        let input = request
            .messages
            .iter()
            .map(|m| estimate_tokens(&m.content).saturating_add(4))
            .fold(0u64, u64::saturating_add);
        Usage {
            input_tokens: input,
            output_tokens: estimate_tokens(answer),
            estimated: true,
        }
    }

    /// This usage, or — when it counts nothing, i.e. the server reported none —
    /// an estimate from the text of `request` and `answer`.
    pub fn or_estimate(self, request: &ChatRequest, answer: &str) -> Usage {
        if self.is_zero() {
            Usage::estimate(request, answer)
        } else {
            self
        }
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
        self.usage = Usage::new(input_tokens, output_tokens);
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

/// Phrases servers use when a prompt does not fit the model's context:
/// OpenAI and llama-cpp-python (`context_length_exceeded`, "maximum context
/// length"), llama.cpp (`exceed_context_size_error`, "exceeds the available
/// context size"), vLLM ("maximum context length").
const CONTEXT_OVERFLOW_MARKERS: [&str; 5] = [
    "context_length_exceeded",
    "maximum context length",
    "exceed_context_size",
    "exceeds the available context size",
    "context window",
];

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

    setters! {
        /// Records the HTTP status the server answered with.
        with_status(status: u16) => status = Some(status);

        /// Records tokens spent by the failed call (and any failed attempts before it).
        with_usage(usage: Usage) => usage = usage;
    }

    getters! {
        /// What kind of failure this is.
        kind: ModelErrorKind;

        /// The HTTP status, for [`ModelErrorKind::Status`] errors.
        status: Option<u16>;

        /// Tokens the failed call still cost.
        usage: Usage;
    }

    /// Whether the server refused the request because the prompt does not fit
    /// the model's context (a 400 or 413 whose text says so).
    pub fn is_context_overflow(&self) -> bool {
        if !matches!(self.status, Some(400 | 413)) {
            return false;
        }
        let text = self.message.to_ascii_lowercase();
        CONTEXT_OVERFLOW_MARKERS.iter().any(|m| text.contains(m))
    }

    /// The context size a context-overflow error states ("maximum context
    /// length is N tokens", "context window of N"), when it states one.
    pub fn stated_context_tokens(&self) -> Option<u64> {
        if !self.is_context_overflow() {
            return None;
        }
        let text = self.message.to_ascii_lowercase();
        [
            "maximum context length is ",
            "context window of ",
            "n_ctx\":",
            "n_ctx: ",
        ]
        .iter()
        .find_map(|marker| {
            let at = text.find(marker)? + marker.len();
            let digits: String = text[at..]
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse::<u64>().ok().filter(|n| *n > 0)
        })
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

    /// The model's context size in tokens (prompt and answer together), when
    /// the server reports it; `None` (the default) when unknown. Callers use
    /// it to fit prompts and must treat it as a hint.
    async fn context_tokens(&self) -> Option<u64> {
        None
    }
}

impl From<ModelError> for crate::Error {
    /// An [`ErrorKind::Model`](crate::ErrorKind::Model) error with this one as its source.
    fn from(e: ModelError) -> crate::Error {
        crate::Error::with_source(crate::ErrorKind::Model, "the model failed", e)
    }
}
