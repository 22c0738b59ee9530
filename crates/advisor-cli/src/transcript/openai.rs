//! OpenAI-style message JSONL: one `{"role","content","tool_calls"?,
//! "tool_call_id"?,"name"?}` object per line.
//!
//! Content may be a string or a list of text parts. Tool results are paired
//! with the assistant's calls by `tool_call_id`; the format records no
//! outcome of its own beyond an optional `is_error`, so failure is otherwise
//! read from the output (exit codes, failed tests, errors) and no trace gets
//! an exit code (that field is only ever the host's). Must not review anything.

use serde_json::Value;

use super::{Boundary, RawLine, Transcript, is_injected, string_or_json, text_of};
use advisor::host::{Message, ToolCall};

/// Where `line` stands in the turn structure: a user message that is not an
/// advisory starts a turn.
pub(super) fn boundary(line: &Value) -> Boundary {
    let user = line.get("role").and_then(Value::as_str) == Some("user");
    if user && !is_injected(&text_of(line.get("content").unwrap_or(&Value::Null))) {
        Boundary::TurnStart
    } else {
        Boundary::None
    }
}

pub(super) fn read(lines: &[RawLine]) -> Result<Transcript, (usize, String)> {
    let mut t = Transcript::default();
    for (n, raw) in lines.iter().enumerate() {
        let Some(line) = t.parsed(raw) else { continue };
        let Some(role) = line.get("role").and_then(Value::as_str) else {
            return Err((n, "a line has no `role`".into()));
        };
        let content = text_of(line.get("content").unwrap_or(&Value::Null));
        match role {
            "system" | "developer" => t.messages.push(Message::system(content)),
            "user" if is_injected(&content) => t.aside(content),
            "user" => {
                let id = raw.identity(&content);
                t.prompt(content, id);
            }
            "assistant" => {
                let calls = (line.get("tool_calls").and_then(Value::as_array).into_iter().flatten())
                    .map(|c| {
                        let f = c.get("function").unwrap_or(&Value::Null);
                        ToolCall {
                            id: c.get("id").and_then(Value::as_str).unwrap_or_default().to_owned(),
                            name: f.get("name").and_then(Value::as_str).unwrap_or("tool").to_owned(),
                            arguments: string_or_json(f.get("arguments")),
                        }
                    })
                    .collect();
                t.messages.push(Message::assistant_with_tools(content, calls));
            }
            "tool" | "function" => {
                let id = line.get("tool_call_id").and_then(Value::as_str).unwrap_or_default();
                let failed = line.get("is_error").and_then(Value::as_bool) == Some(true);
                t.tool_result(id, content, failed);
            }
            other => return Err((n, format!("unknown role `{other}`"))),
        }
    }
    Ok(t)
}
