//! Codex rollout JSONL: `{"timestamp","type","payload"}` per line.
//!
//! `response_item` payloads carry the conversation: `message` (user or
//! assistant, `input_text` / `output_text` blocks), `function_call` (`name`,
//! `arguments` as a JSON string, `call_id`), `function_call_output`
//! (`call_id`, `output`, possibly JSON with `metadata.exit_code`), and
//! `reasoning` (skipped; often encrypted). The boilerplate user messages Codex
//! repeats in every file (AGENTS.md in `<INSTRUCTIONS>`,
//! `<environment_context>`, `<user_instructions>`) are not the user's request.
//! `compacted` is a rebase. `event_msg` lines duplicate messages and are
//! ignored, except `user_message`, which marks a fresh request. Unknown line
//! and payload types are skipped and counted — Codex adds types between
//! versions. Must not review anything.

use serde_json::Value;

use super::{Transcript, text_of};
use crate::host::{Message, ToolCall};

/// Whether a user message is boilerplate Codex injects, not the user's words.
fn is_boilerplate(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("<user_instructions>")
        || t.starts_with("<environment_context>")
        || t.contains("<INSTRUCTIONS>")
        || t.starts_with("# AGENTS.md instructions")
}

/// Whether a function output reports failure: a JSON envelope with a non-zero
/// `metadata.exit_code`, else the shared heuristics.
fn output_of(raw: &Value) -> (String, bool) {
    let text = match raw {
        Value::String(s) => s.clone(),
        Value::Object(_) => raw.get("content").map(text_of).unwrap_or_else(|| raw.to_string()),
        other => text_of(other),
    };
    if let Ok(Value::Object(env)) = serde_json::from_str::<Value>(&text) {
        let code = env
            .get("metadata")
            .and_then(|m| m.get("exit_code"))
            .and_then(Value::as_i64);
        let inner = env
            .get("output")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or(text.clone());
        if let Some(code) = code {
            return (inner, code != 0);
        }
        return (inner, false);
    }
    (text, false)
}

pub(super) fn read(lines: &[(usize, Value)]) -> Result<Transcript, (usize, String)> {
    let mut t = Transcript::default();
    for (n, line) in lines {
        let ty = line.get("type").and_then(Value::as_str).unwrap_or("");
        let payload = line.get("payload").unwrap_or(&Value::Null);
        match ty {
            "session_meta" | "turn_context" => {}
            "compacted" => {
                t.compact();
                let summary = payload.get("message").and_then(Value::as_str).unwrap_or_default();
                if !summary.trim().is_empty() {
                    t.messages.push(Message::user(summary.to_owned()));
                }
            }
            "event_msg" => {
                if payload.get("type").and_then(Value::as_str) == Some("user_message") {
                    let text = payload.get("message").and_then(Value::as_str).unwrap_or_default();
                    if !is_boilerplate(text) && !super::is_injected(text) && !text.trim().is_empty() {
                        t.user_prompts += 1;
                    }
                }
            }
            "response_item" => response_item(&mut t, payload).map_err(|m| (*n, m))?,
            other => t.skip(&format!("line:{}", if other.is_empty() { "untyped" } else { other })),
        }
    }
    Ok(t)
}

fn response_item(t: &mut Transcript, p: &Value) -> Result<(), String> {
    match p.get("type").and_then(Value::as_str).unwrap_or("") {
        "message" => {
            let text = text_of(p.get("content").unwrap_or(&Value::Null));
            match p.get("role").and_then(Value::as_str) {
                Some("assistant") => t.messages.push(Message::assistant(text)),
                Some("user") => {
                    if !is_boilerplate(&text) && !text.trim().is_empty() {
                        t.messages.push(Message::user(text));
                    }
                }
                Some("developer" | "system") => {}
                _ => t.skip("response_item:message:unknown-role"),
            }
        }
        "function_call" => {
            let call = ToolCall {
                id: p.get("call_id").and_then(Value::as_str).unwrap_or_default().to_owned(),
                name: p.get("name").and_then(Value::as_str).unwrap_or("tool").to_owned(),
                arguments: match p.get("arguments") {
                    Some(Value::String(s)) => s.clone(),
                    Some(other) => other.to_string(),
                    None => String::new(),
                },
            };
            match t.messages.last_mut() {
                Some(last) if last.role == crate::host::Role::Assistant && last.content.is_empty() => {
                    last.tool_calls.push(call)
                }
                _ => t
                    .messages
                    .push(Message::assistant_with_tools(String::new(), vec![call])),
            }
        }
        "function_call_output" => {
            let id = p.get("call_id").and_then(Value::as_str).unwrap_or_default().to_owned();
            let (output, failed) = output_of(p.get("output").unwrap_or(&Value::Null));
            t.tool_result(&id, output, failed);
        }
        "reasoning" => {}
        other => t.skip(&format!(
            "response_item:{}",
            if other.is_empty() { "untyped" } else { other }
        )),
    }
    Ok(())
}
