//! Claude Code session JSONL.
//!
//! Each line is `{"type":"user"|"assistant"|"system"|"summary",…}`; chat lines
//! carry `message.content` as a string or blocks (`text`, `tool_use`,
//! `tool_result` with `is_error`, `thinking`). Side chains (sub-agents) and meta
//! lines are left out; a `compact_boundary` system line is a compaction. Must
//! not review anything.

use serde_json::Value;

use super::{Transcript, text_of};
use crate::host::{Message, ToolCall};

pub(super) fn read(lines: &[(usize, Value)]) -> Result<Transcript, (usize, String)> {
    let mut t = Transcript::default();
    let mut last_assistant_id: Option<String> = None;
    for (n, line) in lines {
        let ty = line.get("type").and_then(Value::as_str).unwrap_or("");
        if line.get("isSidechain").and_then(Value::as_bool) == Some(true) {
            t.skip("sidechain");
            continue;
        }
        if ty == "system" && line.get("subtype").and_then(Value::as_str) == Some("compact_boundary") {
            t.compact();
            continue;
        }
        if !matches!(ty, "user" | "assistant") {
            t.skip(if ty.is_empty() { "untyped" } else { ty });
            continue;
        }
        if line.get("isMeta").and_then(Value::as_bool) == Some(true) {
            t.skip("meta");
            continue;
        }
        let Some(message) = line.get("message") else {
            return Err((*n, format!("a `{ty}` line has no `message`")));
        };
        let content = message.get("content").unwrap_or(&Value::Null);
        if ty == "assistant" {
            let id = message.get("id").and_then(Value::as_str).map(str::to_owned);
            let same_turn = id.is_some() && id == last_assistant_id;
            assistant(&mut t, content, same_turn);
            last_assistant_id = id;
        } else {
            last_assistant_id = None;
            user(
                &mut t,
                content,
                line.get("isCompactSummary").and_then(Value::as_bool) == Some(true),
            );
        }
    }
    Ok(t)
}

fn assistant(t: &mut Transcript, content: &Value, same_turn: bool) {
    let mut text = Vec::new();
    let mut calls = Vec::new();
    match content {
        Value::String(s) => text.push(s.clone()),
        Value::Array(blocks) => {
            for b in blocks {
                match b.get("type").and_then(Value::as_str) {
                    Some("text") => text.extend(b.get("text").and_then(Value::as_str).map(str::to_owned)),
                    Some("tool_use") => calls.push(ToolCall {
                        id: b.get("id").and_then(Value::as_str).unwrap_or_default().to_owned(),
                        name: b.get("name").and_then(Value::as_str).unwrap_or("tool").to_owned(),
                        arguments: b.get("input").map(Value::to_string).unwrap_or_default(),
                    }),
                    _ => {}
                }
            }
        }
        _ => {}
    }
    // Claude Code writes one line per content block of a turn (same message id):
    // merge them into one assistant message.
    if same_turn {
        if let Some(last) = t.messages.last_mut().filter(|m| m.role == crate::host::Role::Assistant) {
            for piece in text {
                if !last.content.is_empty() {
                    last.content.push('\n');
                }
                last.content.push_str(&piece);
            }
            last.tool_calls.extend(calls);
            return;
        }
    }
    t.messages.push(Message::assistant_with_tools(text.join("\n"), calls));
}

fn user(t: &mut Transcript, content: &Value, compact_summary: bool) {
    let blocks = match content {
        Value::Array(b) => b.as_slice(),
        _ => {
            let text = text_of(content);
            if compact_summary {
                t.messages.push(Message::user(text));
            } else if !text.trim().is_empty() {
                t.user_prompt(text);
            }
            return;
        }
    };
    let mut text = Vec::new();
    for b in blocks {
        match b.get("type").and_then(Value::as_str) {
            Some("tool_result") => {
                let id = b
                    .get("tool_use_id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let output = text_of(b.get("content").unwrap_or(&Value::Null));
                let failed = b.get("is_error").and_then(Value::as_bool) == Some(true);
                t.tool_result(&id, output, failed);
            }
            Some("text") => text.extend(b.get("text").and_then(Value::as_str).map(str::to_owned)),
            _ => {}
        }
    }
    let text = text.join("\n");
    if !text.trim().is_empty() {
        if compact_summary {
            t.messages.push(Message::user(text));
        } else {
            t.user_prompt(text);
        }
    }
}
