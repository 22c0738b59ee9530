//! Qwen Code chat JSONL: `~/.qwen/projects/<slug>/chats/<session>.jsonl`, and a
//! sub-agent's own `…/subagents/<session>/agent-<agent id>.jsonl`.
//!
//! Each line is a record with Claude Code's frame (`uuid`, `parentUuid`,
//! `sessionId`, `type`, `timestamp`) and Gemini's content
//! (`message.parts[]`: `text`, `functionCall`, `functionResponse`), as Qwen
//! Code 0.24.4's `ChatRecordingService` writes it:
//!
//! - `user` without a `subtype` (`provenance: "real_user"` in the main chat,
//!   none in a sub-agent's file) is a prompt; with a `subtype`
//!   (`mid_turn_user_message`, `notification`, `cron`, `goal_runtime`) or as
//!   an advisory it is an aside.
//! - `assistant`: `text` parts (not `thought`) and `functionCall` parts
//!   (`id`, `name`, `args`).
//! - `tool_result`: `functionResponse` parts (`response.output`, or
//!   `response.error` on failure) with the host's `toolCallResult`: its
//!   `status` (`error`) and, for a shell, `resultDisplay.exitCode` decide.
//! - `system`: `chat_compression` and `rewind` start the conversation anew
//!   (a compaction); every other subtype (`ui_telemetry`,
//!   `attribution_snapshot`, `slash_command`, …) is counted in `skipped`.
//!
//! Qwen Code does not write a stop hook's reason into the main chat: a
//! blocked answer and the next one are two `assistant` records in a row (the
//! hook hands the answer over in `last_assistant_message`). Must not review
//! anything, and must not judge an outcome from the words a tool printed.

use serde_json::Value;

use super::{Boundary, Outcome, RawLine, Transcript, call_of, is_injected, string_or_json};
use advisor::host::Message;

/// Whether `line` is a Qwen Code record: Gemini-style `message.parts`, or
/// Qwen's `provenance` or `systemPayload` next to a `uuid`.
pub(super) fn is_line(line: &Value) -> bool {
    let parts = line
        .get("message")
        .and_then(|m| m.get("parts"))
        .is_some_and(Value::is_array);
    let qwen_keys = line.get("provenance").is_some_and(Value::is_string) || line.get("systemPayload").is_some();
    line.get("type").and_then(Value::as_str).is_some() && (parts || (qwen_keys && line.get("uuid").is_some()))
}

fn parts(line: &Value) -> &[Value] {
    (line
        .get("message")
        .and_then(|m| m.get("parts"))
        .and_then(Value::as_array))
    .map_or(&[], Vec::as_slice)
}

/// The text parts of a record, thoughts left out.
fn text(line: &Value) -> String {
    parts(line)
        .iter()
        .filter(|p| p.get("thought").and_then(Value::as_bool) != Some(true))
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

fn subtype(line: &Value) -> Option<&str> {
    line.get("subtype").and_then(Value::as_str)
}

/// Whether a `user` record is the user's own request: no subtype, written
/// as the real user's (or, in a sub-agent's file, with no provenance).
fn is_prompt_record(line: &Value) -> bool {
    let provenance = line.get("provenance").and_then(Value::as_str);
    subtype(line).is_none() && provenance.is_none_or(|p| p == "real_user")
}

/// Where `line` stands in the turn structure.
pub(super) fn boundary(line: &Value) -> Boundary {
    match line.get("type").and_then(Value::as_str) {
        Some("user") if is_prompt_record(line) => {
            let t = text(line);
            if !t.trim().is_empty() && !is_injected(&t) {
                Boundary::TurnStart
            } else {
                Boundary::None
            }
        }
        Some("system") if matches!(subtype(line), Some("chat_compression" | "rewind")) => Boundary::Compaction,
        _ => Boundary::None,
    }
}

fn identity(raw: &RawLine, line: &Value, text: &str) -> String {
    (line.get("uuid").and_then(Value::as_str)).map_or_else(|| raw.identity(text), |uuid| format!("uuid:{uuid}"))
}

/// The outcome the host recorded for a tool call: a shell's exit code, else
/// the call's status (or an `error` response).
fn outcome(record: &Value, response: &Value, output: &str) -> Outcome {
    let result = record.get("toolCallResult").unwrap_or(&Value::Null);
    let display = result.get("resultDisplay").unwrap_or(&Value::Null);
    let shell = display.get("type").and_then(Value::as_str) == Some("shell_result");
    match display.get("exitCode").and_then(Value::as_i64).filter(|_| shell) {
        Some(code) => Outcome::Exit(code),
        // a sub-agent's file records no `resultDisplay`: the shell's own trailer says
        None => match exit_field(output) {
            Some(code) => Outcome::Exit(code),
            None => Outcome::Failed(
                result.get("status").and_then(Value::as_str) == Some("error") || response.get("error").is_some(),
            ),
        },
    }
}

/// The `Exit Code: N` field of the trailer Qwen Code's shell tool writes
/// after a command's output (`Command:`, `Directory:`, `Output:`, `Error:`,
/// `Exit Code:`, `Signal:`, …): its last such line, in a shell result only.
fn exit_field(output: &str) -> Option<i64> {
    if !output.starts_with("Command: ") {
        return None;
    }
    let line = output.lines().rev().find(|l| l.starts_with("Exit Code: "))?;
    line["Exit Code: ".len()..].trim().parse().ok()
}

pub(super) fn read(lines: &[RawLine]) -> Result<Transcript, (usize, String)> {
    let mut t = Transcript::default();
    for raw in lines {
        let Some(line) = t.parsed(raw) else { continue };
        let ty = line.get("type").and_then(Value::as_str).unwrap_or("");
        match ty {
            "user" => {
                let text = text(line);
                if text.trim().is_empty() {
                    t.skip("user:empty");
                } else if is_prompt_record(line) && !is_injected(&text) {
                    let id = identity(raw, line, &text);
                    t.prompt(text, id);
                } else {
                    t.aside(text);
                }
            }
            "assistant" => {
                let calls: Vec<_> = (parts(line).iter())
                    .filter_map(|p| p.get("functionCall"))
                    .map(|c| call_of(c, "args"))
                    .collect();
                let text = text(line);
                if text.trim().is_empty() && calls.is_empty() {
                    t.skip("assistant:empty");
                } else {
                    t.messages.push(Message::assistant_with_tools(text, calls));
                }
            }
            "tool_result" => {
                for response in parts(line).iter().filter_map(|p| p.get("functionResponse")) {
                    let id = response.get("id").and_then(Value::as_str).unwrap_or_default();
                    let body = response.get("response").unwrap_or(&Value::Null);
                    let output = string_or_json(body.get("output").or_else(|| body.get("error")));
                    let outcome = outcome(line, body, &output);
                    t.tool_outcome(id, output, outcome);
                }
            }
            "system" => match subtype(line) {
                Some(sub @ ("chat_compression" | "rewind")) => t.compact(identity(raw, line, sub)),
                Some(sub) => t.skip(&format!("system:{sub}")),
                None => t.skip("system:untyped"),
            },
            other => t.skip(if other.is_empty() { "untyped" } else { other }),
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_all(values: &[Value]) -> Transcript {
        let raw: Vec<RawLine> = (values.iter().enumerate())
            .map(|(i, v)| RawLine {
                number: Some(i + 1),
                offset: i as u64,
                value: Ok(v.clone()),
            })
            .collect();
        let mut t = read(&raw).unwrap();
        t.finish();
        t
    }

    fn rec(ty: &str, extra: Value) -> Value {
        let mut v = json!({"uuid": format!("u-{ty}-{}", extra.to_string().len()), "sessionId": "s", "type": ty, "version": "0.24.4"});
        v.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        v
    }

    #[test]
    fn the_shell_exit_code_decides_and_notifications_are_no_prompts() {
        let t = read_all(&[
            rec(
                "user",
                json!({"provenance": "real_user", "message": {"role": "user", "parts": [{"text": "run the tests"}]}}),
            ),
            rec(
                "assistant",
                json!({"message": {"role": "model", "parts": [{"text": "hm", "thought": true}, {"functionCall": {"id": "c1", "name": "run_shell_command", "args": {"command": "pytest"}}}]}}),
            ),
            rec("system", json!({"subtype": "ui_telemetry", "systemPayload": {}})),
            rec(
                "tool_result",
                json!({"message": {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "run_shell_command", "response": {"error": "Output: 1 failed\nExit Code: 1"}}}]},
                "toolCallResult": {"callId": "c1", "status": "error", "resultDisplay": {"type": "shell_result", "exitCode": 1}}}),
            ),
            rec(
                "user",
                json!({"subtype": "notification", "provenance": "system", "message": {"role": "user", "parts": [{"text": "a task finished"}]}}),
            ),
            rec(
                "assistant",
                json!({"message": {"role": "model", "parts": [{"text": "All tests pass."}]}}),
            ),
        ]);
        assert_eq!(t.user_prompts, 1);
        assert_eq!(t.tools[0].exit_code, Some(1));
        assert!(t.tools[0].error.as_deref().unwrap().contains("1 failed"));
        assert_eq!(t.last_answer(), Some("All tests pass."));
        assert_eq!(t.skipped.get("system:ui_telemetry"), Some(&1));
        assert!(t.last_prompt.as_deref().unwrap().starts_with("uuid:"));
    }

    #[test]
    fn a_compression_starts_anew_and_lines_are_told_from_claude_codes() {
        let compress = rec("system", json!({"subtype": "chat_compression", "systemPayload": {}}));
        assert_eq!(boundary(&compress), Boundary::Compaction);
        let t = read_all(&[
            rec(
                "user",
                json!({"provenance": "real_user", "message": {"role": "user", "parts": [{"text": "one"}]}}),
            ),
            compress.clone(),
            rec(
                "assistant",
                json!({"message": {"role": "model", "parts": [{"text": "two"}]}}),
            ),
        ]);
        assert_eq!((t.compactions, t.user_prompts, t.last_answer()), (1, 1, Some("two")));
        assert!(is_line(&compress));
        let claude =
            json!({"type": "user", "uuid": "u", "sessionId": "s", "message": {"role": "user", "content": "hi"}});
        assert!(!is_line(&claude));
    }
}
