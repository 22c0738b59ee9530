//! GitHub Copilot CLI session events: `~/.copilot/session-state/<id>/events.jsonl`.
//!
//! Each line is one event, `{"type","data":{…},"id","timestamp","parentId"}`
//! (Copilot CLI 1.0.102; the event types are its package's
//! `session-events.d.ts`). A sub-agent's events are written into its
//! parent's file with a top-level `agentId`: the reader reads one agent's
//! lines, the main agent's (no `agentId`) or the sub-agent's that
//! [`ReadOptions::agent`] names. What it reads:
//!
//! - `user.message`: `data.content` is what was typed. A prompt starts a
//!   turn, unless it is a stop hook's reason — Copilot CLI sends a block's
//!   `reason` back as a queued user message right after the `hook.end` that
//!   recorded it (`data.output.reason`), and to a sub-agent as one with an
//!   empty `content` and `source: "system"` — or an advisory, or a message
//!   steered into a running turn (`delivery: "steering"`), or a message of a
//!   `source` other than another agent's prompt. Those are asides; a stop
//!   hook's reason ends the turn's earlier answer as an interrupt does (the
//!   answer under review is what the agent said after it).
//! - `assistant.message`: `data.content` (the text) and `data.toolRequests[]`
//!   (`toolCallId`, `name`, `arguments`); chunks of one model response
//!   (`chunkIndex` > 0 with the same `apiCallId`) are one message.
//! - `tool.execution_complete`: the result (`data.result.content`, else
//!   `data.error.message`) and its outcome. Copilot CLI records a failed
//!   shell command as `success: true` with `shellExecution.exitCode` set:
//!   the exit code decides; otherwise `success`.
//! - `session.compaction_complete` (not failed) is a compaction; `abort` an
//!   interrupt.
//! - `hook.start` whose `hookType` and `input.timestamp` are the hook call's
//!   own ([`StopRecord::HookStart`]) says the file holds the stop under
//!   review: Copilot CLI writes the turn's last results and its answer in the
//!   same batch, after the hook has started.
//!
//! Every other event type is counted in `skipped`. Must not review anything,
//! and must not judge an outcome from the words a tool printed.

use serde_json::Value;

use super::{Boundary, Outcome, RawLine, ReadOptions, StopRecord, Transcript, is_injected, string_or_json};
use advisor::host::{Message, Role, ToolCall};

/// Whether `line` is a Copilot CLI event: a dotted `type` and a `data` object.
pub(super) fn is_line(line: &Value) -> bool {
    let dotted = line
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.contains('.'));
    dotted && line.get("data").is_some_and(Value::is_object) && line.get("id").is_some()
}

/// Whether `line` belongs to `agent` (`None`: the main agent).
fn in_scope(line: &Value, agent: Option<&str>) -> bool {
    line.get("agentId").and_then(Value::as_str) == agent
}

fn data(line: &Value) -> &Value {
    line.get("data").unwrap_or(&Value::Null)
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// The text of a `user.message`: what was typed, else the text sent to the
/// model without Copilot CLI's `<current_datetime>` prefix.
fn user_text(d: &Value) -> String {
    let typed = str_of(d, "content").unwrap_or_default();
    if !typed.trim().is_empty() {
        return typed.to_owned();
    }
    let sent = str_of(d, "transformedContent").unwrap_or_default();
    match sent.trim_start().strip_prefix("<current_datetime>") {
        Some(rest) => rest
            .split_once("</current_datetime>")
            .map_or(rest, |(_, r)| r)
            .trim_start()
            .to_owned(),
        None => sent.to_owned(),
    }
}

/// Whether a `user.message` can be a prompt, by its own fields: something
/// typed (or another agent's prompt to a sub-agent), not steered into a
/// running turn, not an advisory.
fn may_be_prompt(d: &Value) -> bool {
    let typed = str_of(d, "content").unwrap_or_default();
    let source_ok = str_of(d, "source").is_none_or(|s| s.starts_with("agent-"));
    source_ok && str_of(d, "delivery") != Some("steering") && !typed.trim().is_empty() && !is_injected(typed)
}

/// Where `line` stands in the turn structure of `agent`'s conversation.
pub(super) fn boundary(line: &Value, agent: Option<&str>) -> Boundary {
    if !in_scope(line, agent) {
        return Boundary::None;
    }
    match line.get("type").and_then(Value::as_str) {
        Some("user.message") if may_be_prompt(data(line)) => Boundary::TurnStart,
        Some("session.compaction_complete") if data(line).get("success").and_then(Value::as_bool) != Some(false) => {
            Boundary::Compaction
        }
        _ => Boundary::None,
    }
}

/// Whether `line` is the `hook.start` of the stop under review.
fn is_stop_record(line: &Value, stop: Option<&StopRecord>) -> bool {
    let Some(StopRecord::HookStart { hook, timestamp }) = stop else {
        return false;
    };
    let d = data(line);
    let input_ts = d.get("input").and_then(|i| i.get("timestamp")).and_then(Value::as_i64);
    str_of(d, "hookType") == Some(hook.as_str()) && input_ts == Some(*timestamp)
}

/// The outcome Copilot CLI states for a tool call: a shell's exit code
/// first (a failed command is recorded `success: true`), else `success`.
fn outcome(d: &Value) -> Outcome {
    let code = d
        .get("shellExecution")
        .and_then(|s| s.get("exitCode"))
        .and_then(Value::as_i64);
    let success = d.get("success").and_then(Value::as_bool);
    match (code, success) {
        (Some(c), _) if c != 0 => Outcome::Exit(c),
        (Some(c), Some(true) | None) => Outcome::Exit(c),
        (_, Some(false)) => Outcome::Failed(true),
        (_, _) => Outcome::Failed(false),
    }
}

fn calls(d: &Value) -> Vec<ToolCall> {
    (d.get("toolRequests").and_then(Value::as_array).into_iter().flatten())
        .map(|r| ToolCall {
            id: str_of(r, "toolCallId").unwrap_or_default().to_owned(),
            name: str_of(r, "name").unwrap_or("tool").to_owned(),
            arguments: string_or_json(r.get("arguments")),
        })
        .collect()
}

pub(super) fn read(lines: &[RawLine], options: &ReadOptions) -> Result<Transcript, (usize, String)> {
    let agent = options.agent.as_deref();
    let mut t = Transcript::default();
    // the reason of the block the last `hook.end` recorded, until a line of the conversation
    let mut block_reason: Option<String> = None;
    // the model response the last assistant message came from
    let mut last_api_call: Option<String> = None;
    for raw in lines {
        let Some(line) = t.parsed(raw) else { continue };
        let ty = line.get("type").and_then(Value::as_str).unwrap_or("");
        let d = data(line);
        match ty {
            "hook.start" => {
                t.stop_seen |= is_stop_record(line, options.stop.as_ref());
                t.skip(ty);
                continue;
            }
            "hook.end" => {
                let output = d.get("output").unwrap_or(&Value::Null);
                if str_of(output, "decision") == Some("block") {
                    block_reason = str_of(output, "reason").map(str::to_owned);
                }
                t.skip(ty);
                continue;
            }
            _ => {}
        }
        if !in_scope(line, agent) {
            t.skip("another agent's");
            continue;
        }
        match ty {
            "user.message" => {
                let text = user_text(d);
                let reason = block_reason.take();
                if text.trim().is_empty() {
                    t.skip("user.message:empty");
                } else if reason.is_some_and(|r| r.trim() == text.trim()) || str_of(d, "source") == Some("system") {
                    // a stop hook's reason: what the agent said before it is no answer any more
                    t.interrupt(text);
                } else if may_be_prompt(d) {
                    let id = str_of(line, "id").map_or_else(|| raw.identity(&text), |id| format!("id:{id}"));
                    t.prompt(text, id);
                } else {
                    t.aside(text);
                }
                last_api_call = None;
            }
            "assistant.message" => {
                block_reason = None;
                let text = str_of(d, "content").unwrap_or_default().to_owned();
                let api_call = str_of(d, "apiCallId").map(str::to_owned);
                let chunk = d.get("chunkIndex").and_then(Value::as_u64).is_some_and(|i| i > 0);
                let same = chunk && api_call.is_some() && api_call == last_api_call;
                match t.messages.last_mut().filter(|m| same && m.role == Role::Assistant) {
                    Some(last) => {
                        if !text.is_empty() && !last.content.is_empty() {
                            last.content.push('\n');
                        }
                        last.content.push_str(&text);
                        last.tool_calls.extend(calls(d));
                    }
                    None => t.messages.push(Message::assistant_with_tools(text, calls(d))),
                }
                last_api_call = api_call;
            }
            "tool.execution_complete" => {
                block_reason = None;
                let id = str_of(d, "toolCallId").unwrap_or_default();
                let result = d.get("result").and_then(|r| r.get("content")).and_then(Value::as_str);
                let error = d.get("error").and_then(|e| e.get("message")).and_then(Value::as_str);
                let output = result
                    .filter(|r| !r.is_empty())
                    .or(error)
                    .unwrap_or_default()
                    .to_owned();
                t.tool_outcome(id, output, outcome(d));
            }
            "session.compaction_complete" if d.get("success").and_then(Value::as_bool) != Some(false) => {
                let id = str_of(line, "id").map_or_else(|| raw.identity(ty), |id| format!("id:{id}"));
                t.compact(id);
            }
            "abort" => {
                let why = str_of(d, "reason").unwrap_or("aborted");
                t.interrupt(format!("[the user aborted the turn: {why}]"));
            }
            other => t.skip(if other.is_empty() { "untyped" } else { other }),
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lines(values: &[Value]) -> Vec<RawLine> {
        (values.iter().enumerate())
            .map(|(i, v)| RawLine {
                number: Some(i + 1),
                offset: i as u64 * 100,
                value: Ok(v.clone()),
            })
            .collect()
    }

    fn ev(ty: &str, data: Value) -> Value {
        json!({"type": ty, "data": data, "id": format!("e-{ty}-{}", data.to_string().len()), "timestamp": "t", "parentId": null})
    }

    fn read_all(values: &[Value], options: &ReadOptions) -> Transcript {
        let mut t = read(&lines(values), options).unwrap();
        t.finish();
        t
    }

    #[test]
    fn exit_code_decides_although_copilot_says_success() {
        let t = read_all(
            &[
                ev("user.message", json!({"content": "run the tests", "delivery": "idle"})),
                ev(
                    "assistant.message",
                    json!({"content": "", "toolRequests": [{"toolCallId": "c1", "name": "bash", "arguments": {"command": "pytest"}}]}),
                ),
                ev(
                    "tool.execution_complete",
                    json!({"toolCallId": "c1", "success": true, "shellExecution": {"exitCode": 1}, "result": {"content": "1 failed"}}),
                ),
                ev(
                    "assistant.message",
                    json!({"content": "All tests pass.", "toolRequests": []}),
                ),
            ],
            &ReadOptions::default(),
        );
        assert_eq!(t.tools.len(), 1);
        assert_eq!(t.tools[0].exit_code, Some(1));
        assert!(t.tools[0].error.is_some());
        assert_eq!(t.last_answer(), Some("All tests pass."));
        assert_eq!(t.user_prompts, 1);
    }

    #[test]
    fn a_stop_hook_reason_is_no_prompt_and_ends_the_earlier_answer() {
        let reason = "check the failing run";
        let base = vec![
            ev("user.message", json!({"content": "run the tests", "delivery": "idle"})),
            ev(
                "assistant.message",
                json!({"content": "All tests pass.", "toolRequests": []}),
            ),
            ev(
                "hook.start",
                json!({"hookType": "agentStop", "input": {"timestamp": 5}}),
            ),
            ev(
                "hook.end",
                json!({"hookType": "agentStop", "success": true, "output": {"decision": "block", "reason": reason}}),
            ),
            ev("user.message", json!({"content": reason, "delivery": "queued"})),
        ];
        // the file lags: the reason is there, the new answer is not
        let t = read_all(&base, &ReadOptions::default());
        assert_eq!((t.user_prompts, t.last_answer()), (1, None));
        let mut all = base.clone();
        all.push(ev(
            "assistant.message",
            json!({"content": "I was wrong: 1 test fails.", "toolRequests": []}),
        ));
        all.push(ev(
            "hook.start",
            json!({"hookType": "agentStop", "input": {"timestamp": 9}}),
        ));
        let stop = |ts| ReadOptions {
            stop: Some(StopRecord::HookStart {
                hook: "agentStop".into(),
                timestamp: ts,
            }),
            ..ReadOptions::default()
        };
        let t = read_all(&all, &stop(9));
        assert_eq!(t.last_answer(), Some("I was wrong: 1 test fails."));
        assert!(t.stop_seen);
        assert!(!read_all(&all, &stop(10)).stop_seen);
    }

    #[test]
    fn a_sub_agent_is_read_from_its_own_lines() {
        let sub = |mut v: Value| {
            v["agentId"] = json!("a1");
            v
        };
        let values = [
            ev("user.message", json!({"content": "delegate the tests"})),
            ev(
                "assistant.message",
                json!({"content": "", "toolRequests": [{"toolCallId": "t0", "name": "task", "arguments": {}}]}),
            ),
            sub(ev(
                "user.message",
                json!({"content": "run the tests", "source": "agent-main"}),
            )),
            sub(ev(
                "assistant.message",
                json!({"content": "", "toolRequests": [{"toolCallId": "c1", "name": "bash", "arguments": {}}]}),
            )),
            sub(ev(
                "tool.execution_complete",
                json!({"toolCallId": "c1", "success": true, "shellExecution": {"exitCode": 2}, "result": {"content": "boom"}}),
            )),
            sub(ev("assistant.message", json!({"content": "Done.", "toolRequests": []}))),
        ];
        let t = read_all(
            &values,
            &ReadOptions {
                agent: Some("a1".into()),
                ..ReadOptions::default()
            },
        );
        assert_eq!((t.user_prompts, t.tools.len(), t.last_answer()), (1, 1, Some("Done.")));
        assert_eq!(t.tools[0].exit_code, Some(2));
        let main = read_all(&values, &ReadOptions::default());
        assert_eq!((main.user_prompts, main.tools.len(), main.last_answer()), (1, 0, None));
        assert_eq!(main.unanswered_calls(), 1);
        for v in &values[2..] {
            assert_eq!(boundary(v, None), Boundary::None);
        }
        assert_eq!(boundary(&values[2], Some("a1")), Boundary::TurnStart);
    }
}
