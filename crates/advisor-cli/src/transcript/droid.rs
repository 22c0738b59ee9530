//! Factory droid session JSONL: `~/.factory/sessions/<slug>/<session>.jsonl`.
//!
//! As droid 0.215.0 writes it: a `session_start` line, then `message` lines
//! `{"type":"message","id","parentId","timestamp","message":{role,content}}`
//! whose content blocks are Anthropic-style (`text`, `tool_use` with `id`,
//! `name`, `input`; `tool_result` with `tool_use_id`, `is_error`, `content`;
//! `thinking`), and an `agent_turn_outcome` line when a turn ends.
//!
//! - A user message is a prompt unless it holds tool results, is droid's own
//!   context (an id starting `context-`, or text that is only
//!   `<system-reminder>` blocks), is an advisory, or is a stop hook's reason:
//!   droid records each hook run as a user message with no content and a
//!   `hookEventName` (with `hookResults[]`: `exitCode`, `stdout`, `stderr`)
//!   after the hook returns, and a block's reason as the next user message.
//!   A stop hook's reason ends the earlier answer, as an interrupt does.
//! - A tool result's outcome is droid's `is_error`; the exit code is the
//!   `[Process exited with code N]` line droid writes last in a command's
//!   result (a line the command printed earlier never counts).
//! - The answer under review is the message whose `id` is the Stop input's
//!   `message_id` ([`StopRecord::Message`]) when one is given.
//!
//! Every other line type is counted in `skipped`. Must not review anything,
//! and must not judge an outcome from the words a tool printed.

use serde_json::Value;

use super::{Boundary, Outcome, RawLine, ReadOptions, StopRecord, Transcript, call_of, is_injected, text_of};
use advisor::host::Message;

/// Whether `line` is a droid session line: a `message` line with a `message`
/// object and an `id`, or droid's own `session_start` / `agent_turn_outcome`.
pub(super) fn is_line(line: &Value) -> bool {
    match line.get("type").and_then(Value::as_str) {
        Some("message") => line.get("message").is_some_and(Value::is_object) && line.get("id").is_some(),
        Some("session_start") => line.get("owner").is_some() || line.get("hostId").is_some(),
        Some("agent_turn_outcome") => line.get("turnId").is_some(),
        _ => false,
    }
}

fn blocks(message: &Value) -> &[Value] {
    message
        .get("content")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn kind(block: &Value) -> Option<&str> {
    block.get("type").and_then(Value::as_str)
}

/// The text of a message's `text` blocks (or its string content).
fn text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(_)) => {
            let texts: Vec<Value> = blocks(message)
                .iter()
                .filter(|b| kind(b) == Some("text"))
                .cloned()
                .collect();
            text_of(&Value::Array(texts))
        }
        _ => String::new(),
    }
    .trim_end()
    .to_owned()
}

/// Whether a user message is droid's own context for the model.
fn is_context(line: &Value, message: &Value) -> bool {
    let id = line.get("id").and_then(Value::as_str).unwrap_or_default();
    let texts: Vec<&str> = (blocks(message).iter())
        .filter(|b| kind(b) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    id.starts_with("context-")
        || (!texts.is_empty() && texts.iter().all(|t| t.trim_start().starts_with("<system-reminder>")))
}

fn user_message(line: &Value) -> Option<&Value> {
    let message = line.get("message")?;
    (line.get("type").and_then(Value::as_str) == Some("message")
        && message.get("role").and_then(Value::as_str) == Some("user")
        && message.get("hookEventName").is_none())
    .then_some(message)
}

/// Where `line` stands in the turn structure.
pub(super) fn boundary(line: &Value) -> Boundary {
    let Some(message) = user_message(line) else {
        return Boundary::None;
    };
    let has_results = blocks(message).iter().any(|b| kind(b) == Some("tool_result"));
    let t = text(message);
    if has_results || is_context(line, message) || t.trim().is_empty() || is_injected(&t) {
        Boundary::None
    } else {
        Boundary::TurnStart
    }
}

/// Whether a hook record is a Stop hook that sent the agent back: a result
/// with exit code 2, or whose stdout is `{"decision":"block",…}`.
fn blocked(record: &Value) -> bool {
    let stop = record.get("hookEventName").and_then(Value::as_str) == Some("Stop");
    let results = record
        .get("hookResults")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    stop && results.iter().any(|r| {
        let stdout = r.get("stdout").and_then(Value::as_str).unwrap_or_default();
        let decision = serde_json::from_str::<Value>(stdout.trim()).ok();
        r.get("exitCode").and_then(Value::as_i64) == Some(2)
            || decision.is_some_and(|d| d.get("decision").and_then(Value::as_str) == Some("block"))
    })
}

/// The exit code droid writes as the last line of a command's result.
fn exit_trailer(output: &str) -> Option<i64> {
    let last = output.trim_end().lines().last()?.trim();
    last.strip_prefix("[Process exited with code ")?
        .strip_suffix(']')?
        .trim()
        .parse()
        .ok()
}

pub(super) fn read(lines: &[RawLine], options: &ReadOptions) -> Result<Transcript, (usize, String)> {
    let answer_id = match &options.stop {
        Some(StopRecord::Message(id)) => Some(id.as_str()),
        _ => None,
    };
    let mut t = Transcript::default();
    // the last line was a Stop hook's record that sent the agent back
    let mut after_block = false;
    for raw in lines {
        let Some(line) = t.parsed(raw) else { continue };
        let ty = line.get("type").and_then(Value::as_str).unwrap_or("");
        let Some(message) = line.get("message").filter(|_| ty == "message") else {
            t.skip(if ty.is_empty() { "untyped" } else { ty });
            continue;
        };
        if message.get("hookEventName").is_some() {
            after_block = blocked(message);
            t.skip("hook");
            continue;
        }
        let feedback = std::mem::replace(&mut after_block, false);
        match message.get("role").and_then(Value::as_str) {
            Some("user") => user(&mut t, raw, line, message, feedback),
            Some("assistant") => {
                let calls: Vec<_> = (blocks(message).iter())
                    .filter(|b| kind(b) == Some("tool_use"))
                    .map(|b| call_of(b, "input"))
                    .collect();
                let text = text(message);
                let id = line.get("id").and_then(Value::as_str);
                if id.is_some() && id == answer_id {
                    t.stop_seen = true;
                    t.recorded_answer = Some((t.messages.len(), text.clone()));
                }
                t.messages.push(Message::assistant_with_tools(text, calls));
            }
            _ => t.skip("message:other-role"),
        }
    }
    Ok(t)
}

fn user(t: &mut Transcript, raw: &RawLine, line: &Value, message: &Value, feedback: bool) {
    let mut results = false;
    for b in blocks(message).iter().filter(|b| kind(b) == Some("tool_result")) {
        results = true;
        let id = b.get("tool_use_id").and_then(Value::as_str).unwrap_or_default();
        let output = text_of(b.get("content").unwrap_or(&Value::Null));
        let failed = b.get("is_error").and_then(Value::as_bool) == Some(true);
        let code = exit_trailer(&output);
        let at = t.tool_outcome(id, output, Outcome::Failed(failed));
        t.tools[at].exit_code = code;
    }
    let text = text(message);
    if text.trim().is_empty() {
        return;
    }
    if is_context(line, message) {
        t.skip("context");
    } else if feedback {
        // a stop hook's reason: what the agent said before it is no answer any more
        t.interrupt(text);
    } else if results || is_injected(&text) {
        t.aside(text);
    } else {
        let id = line.get("id").and_then(Value::as_str);
        let id = id.map_or_else(|| raw.identity(&text), |id| format!("id:{id}"));
        t.prompt(text, id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn msg(id: &str, role: &str, content: Value) -> Value {
        json!({"type": "message", "id": id, "timestamp": "t", "message": {"role": role, "content": content}})
    }

    fn read_all(values: &[Value], answer: Option<&str>) -> Transcript {
        let raw: Vec<RawLine> = (values.iter().enumerate())
            .map(|(i, v)| RawLine {
                number: Some(i + 1),
                offset: i as u64,
                value: Ok(v.clone()),
            })
            .collect();
        let options = ReadOptions {
            stop: answer.map(|a| StopRecord::Message(a.to_owned())),
            ..ReadOptions::default()
        };
        let mut t = read(&raw, &options).unwrap();
        t.finish();
        t
    }

    #[test]
    fn context_hook_records_and_a_reason_are_no_prompts() {
        let hook = json!({"type": "message", "id": "h1", "message": {"role": "user", "content": [], "hookEventName": "Stop",
            "hookResults": [{"exitCode": 0, "stdout": "{\"decision\":\"block\",\"reason\":\"look again\"}", "stderr": ""}]}});
        let values = [
            json!({"type": "session_start", "id": "s", "title": "t", "owner": "o", "version": 2}),
            msg(
                "context-p1",
                "user",
                json!([{"type": "text", "text": "<system-reminder>\ntools\n</system-reminder>"}]),
            ),
            msg("p1", "user", json!([{"type": "text", "text": "run the tests"}])),
            msg(
                "a1",
                "assistant",
                json!([{"type": "tool_use", "id": "c1", "name": "Execute", "input": {"command": "pytest"}}]),
            ),
            msg(
                "r1",
                "user",
                json!([{"type": "tool_result", "tool_use_id": "c1", "is_error": true,
                "content": "Error: Command failed (exit code: 1)\n1 failed\n\n\n[Process exited with code 1]"}]),
            ),
            msg("a2", "assistant", json!([{"type": "text", "text": "All tests pass."}])),
            hook,
            msg("f1", "user", json!([{"type": "text", "text": "look again"}])),
            msg("a3", "assistant", json!([{"type": "text", "text": "1 test fails."}])),
        ];
        let t = read_all(&values, Some("a3"));
        assert_eq!((t.user_prompts, t.last_prompt.as_deref()), (1, Some("id:p1")));
        assert_eq!(t.tools[0].exit_code, Some(1));
        assert!(t.tools[0].error.is_some());
        assert_eq!(t.last_answer(), Some("1 test fails."));
        assert!(t.stop_seen);
        // the answer not on disk yet: the stop is not seen, and the reason ended the earlier answer
        let t = read_all(&values[..8], Some("a3"));
        assert!(!t.stop_seen);
        assert_eq!(t.last_answer(), None);
        assert_eq!(boundary(&values[1]), Boundary::None);
        assert_eq!(boundary(&values[2]), Boundary::TurnStart);
        assert!(values.iter().all(is_line));
    }
}
