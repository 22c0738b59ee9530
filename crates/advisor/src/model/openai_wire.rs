//! The OpenAI chat-completions wire format, as lenient serde types.
//!
//! Owns the request body we send and the subset of the response we read.
//! Lenient on input (unknown fields ignored, most fields optional) so vLLM,
//! llama.cpp and Ollama quirks pass; strict only where an answer would be
//! meaningless (`choices`). Must not perform I/O.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{ChatRequest, ChatResponse, FinishReason, ModelError, ModelErrorKind, StructuredOutput};
use crate::host::{Message, Role, ToolCall};
use crate::usage::Usage;

#[derive(Debug, Serialize)]
struct WireFunctionCall<'a> {
    name: &'a str,
    arguments: &'a str,
}

#[derive(Debug, Serialize)]
struct WireToolCall<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    function: WireFunctionCall<'a>,
}

#[derive(Debug, Serialize)]
struct WireMessage<'a> {
    role: &'static str,
    content: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_calls: Vec<WireToolCall<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
}

fn wire_message(m: &Message) -> WireMessage<'_> {
    WireMessage {
        role: m.role.as_str(),
        content: &m.content,
        tool_calls: m
            .tool_calls
            .iter()
            .map(|c| WireToolCall {
                id: &c.id,
                kind: "function",
                function: WireFunctionCall {
                    name: &c.name,
                    arguments: &c.arguments,
                },
            })
            .collect(),
        tool_call_id: m.tool_call_id.as_deref().filter(|_| m.role == Role::Tool),
        name: m.name.as_deref().filter(|_| m.role == Role::Tool),
    }
}

impl StructuredOutput {
    /// The mode to fall back to when a server rejects this one.
    pub(crate) fn fallback(self) -> Option<StructuredOutput> {
        match self {
            StructuredOutput::JsonSchema => Some(StructuredOutput::JsonObjectWithSchema),
            StructuredOutput::JsonObjectWithSchema => Some(StructuredOutput::None),
            StructuredOutput::None => None,
        }
    }

    pub(crate) fn as_u8(self) -> u8 {
        self as u8 // the declaration order: the inverse of `from_u8`
    }

    pub(crate) fn from_u8(v: u8) -> StructuredOutput {
        match v {
            0 => StructuredOutput::JsonSchema,
            1 => StructuredOutput::JsonObjectWithSchema,
            _ => StructuredOutput::None,
        }
    }

    fn response_format(self, schema: &Value) -> Option<Value> {
        match self {
            StructuredOutput::JsonSchema => {
                Some(json!({"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}))
            }
            StructuredOutput::JsonObjectWithSchema => Some(json!({"type": "json_object", "schema": schema})),
            StructuredOutput::None => None,
        }
    }
}

/// Settings that shape every request body.
#[derive(Debug, Clone, Default)]
pub(crate) struct BodySettings {
    pub(crate) model: String,
    pub(crate) max_tokens: Option<u32>,
    pub(crate) temperature: Option<f32>,
}

/// The JSON body for `request` in `mode`.
pub(crate) fn request_body(settings: &BodySettings, request: &ChatRequest, mode: StructuredOutput) -> Value {
    let mut body = json!({
        "model": settings.model,
        "messages": request.messages.iter().map(wire_message).collect::<Vec<_>>(),
    });
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}))
            .collect();
    }
    if let Some(format) = request.response_schema.as_ref().and_then(|s| mode.response_format(s)) {
        body["response_format"] = format;
    }
    if let Some(n) = settings.max_tokens {
        body["max_tokens"] = json!(n);
    }
    if let Some(t) = settings.temperature {
        body["temperature"] = json!(t);
    }
    body
}

#[derive(Debug, Deserialize)]
struct RespFunction {
    name: String,
    arguments: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RespToolCall {
    id: Option<String>,
    function: RespFunction,
}

#[derive(Debug, Deserialize)]
struct RespMessage {
    content: Option<String>,
    tool_calls: Option<Vec<RespToolCall>>,
}

#[derive(Debug, Deserialize)]
struct RespChoice {
    message: RespMessage,
    finish_reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RespUsage {
    prompt_tokens: Option<u64>,
    completion_tokens: Option<u64>,
}

#[derive(Debug, Deserialize)]
struct Response {
    choices: Option<Vec<RespChoice>>,
    usage: Option<RespUsage>,
}

/// Reads a successful response body. Errors never quote the body.
pub(crate) fn parse_response(body: &[u8]) -> Result<ChatResponse, ModelError> {
    let resp: Response = serde_json::from_slice(body).map_err(|e| {
        ModelError::new(
            ModelErrorKind::InvalidResponse,
            format!(
                "the server's answer is not a chat completion: {}",
                crate::json::describe_serde_error(&e)
            ),
        )
    })?;
    let usage = resp.usage.map_or(Usage::default(), |u| {
        Usage::new(u.prompt_tokens.unwrap_or(0), u.completion_tokens.unwrap_or(0))
    });
    let Some(choice) = resp.choices.and_then(|c| c.into_iter().next()) else {
        return Err(ModelError::new(
            ModelErrorKind::InvalidResponse,
            "the server's answer has no `choices`; is the base URL an OpenAI-compatible /v1 endpoint?",
        )
        .with_usage(usage));
    };
    let tool_calls: Vec<ToolCall> = choice
        .message
        .tool_calls
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .map(|(i, c)| ToolCall {
            id: c.id.unwrap_or_else(|| format!("call_{i}")),
            name: c.function.name,
            arguments: c.function.arguments.unwrap_or_default(),
        })
        .collect();
    let finish_reason = match choice.finish_reason.as_deref() {
        None | Some("stop") => FinishReason::Stop,
        Some("length") => FinishReason::Length,
        Some("tool_calls") | Some("function_call") => FinishReason::ToolCalls,
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    Ok(ChatResponse {
        text: choice.message.content.unwrap_or_default(),
        tool_calls,
        usage,
        finish_reason,
    })
}
